import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { routeNetwork } from "./hub.ts";

const ORIGIN = "http://127.0.0.1:4173";

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

test("the example plan shows the moment the page opens, with no network", async ({ page, context }, testInfo) => {
  const network = await routeNetwork(context, ORIGIN);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await expect(page.getByLabel("Hugging Face repo")).toHaveValue("Qwen/Qwen2.5-Coder-32B-Instruct");
  await expect(page.getByText(/32\.8B params · 64 layers · 8 KV heads/)).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
  await screenshot(page, testInfo, "example-1280");
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, testInfo, "example-375");
  expect(network.hubRequests).toEqual([]);
  expect(network.blocked).toEqual([]);
});
