import { expect, test } from "@playwright/test";

test("the built page opens with its heading", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Modelplan" })).toBeVisible();
});
