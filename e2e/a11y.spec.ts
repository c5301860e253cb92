/**
 * Issue 17's "Done when": axe finds nothing, at any impact, in every state a new user meets: light and dark,
 * 1280 and 375 px, with every panel and disclosure open, in the Accuracy view, and under the offline error.
 * Every test routes the network (e2e/hub.ts): the Hub answers from test/fixtures/hub/.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { routeNetwork } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

test.beforeEach(async ({ context }) => {
  await routeNetwork(context, ORIGIN);
});

/** Every violation axe finds, any impact, with where: the list must be empty. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? ""}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join("; ")}`,
  );
}

/** Opens every panel and disclosure of the page: the settings, Hub access, manual mode, the artifacts, an option's commands, deploy and calibration, "Why not?", the chart, the import panel. */
async function openEverything(page: Page): Promise<void> {
  for (const summary of await page.locator("details:not([open]) > summary").all()) {
    if (await summary.isVisible()) await summary.click();
  }
  const first = page.getByRole("article").first();
  await first.getByRole("button", { name: "Commands" }).click();
  for (const summary of await first.locator("details:not([open]) > summary").all()) {
    if (await summary.isVisible()) await summary.click();
  }
  await page
    .getByRole("button", { name: /Import/ })
    .first()
    .click();
  await expect(page.getByLabel("Paste inventory")).toBeVisible();
  // A context past the model's limit: the notice and the YaRN box (defect 5).
  const context = page.getByLabel("Context tokens");
  await context.fill("100000");
  await context.blur();
  await expect(page.getByText(/past the model's limit/)).toBeVisible();
}

for (const scheme of ["light", "dark"] as const) {
  for (const width of [1280, 375]) {
    test(`axe finds nothing in ${scheme} at ${width} px, first on the example plan and then with every panel open`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      await expect(page.getByRole("article").first()).toBeVisible();
      expect(await violations(page), "the example plan").toEqual([]);
      await openEverything(page);
      expect(await violations(page), "every panel open").toEqual([]);
    });
  }
}

test("axe finds nothing in the Accuracy view, light and dark", async ({ page }) => {
  await page.goto("/");
  await page.getByText("Accuracy: what Modelplan predicts against what engines printed").click();
  await expect(page.getByRole("region", { name: "Every calibration case" }).getByRole("row").first()).toBeVisible();
  expect(await violations(page), "light").toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await violations(page), "dark").toEqual([]);
});

test("axe finds nothing under the offline error (the Hub unreachable, a repo the catalog lacks), light and dark", async ({
  page,
}) => {
  await page.route("https://huggingface.co/**", (route) => route.abort("internetdisconnected"));
  await page.goto("/");
  await page.getByLabel("Hugging Face repo").fill("Qwen/Qwen2.5-7B-Instruct");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("cannot reach the Hub", { timeout: 15_000 });
  expect(await violations(page), "light").toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await violations(page), "dark").toEqual([]);
});
