/**
 * Issue 17's defects on the page, each as a new user met it: a test that failed before its fix.
 * Every test routes the network (e2e/hub.ts): the Hub answers from test/fixtures/hub/.
 */
import { expect, test } from "@playwright/test";
import { routeNetwork } from "./hub.ts";

const ORIGIN = "http://127.0.0.1:4173";

test.beforeEach(async ({ context }) => {
  await routeNetwork(context, ORIGIN);
});

test("defect 1: the bars come back after changing Group by, and after changing it back", async ({ page }) => {
  await page.goto("/");
  const charts = page.locator(".bars .recharts-surface");
  await expect.poll(() => charts.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  for (const groupBy of ["artifact", "engine", "rank only"]) {
    await page.getByLabel("Group by").selectOption({ label: groupBy });
    await expect.poll(() => charts.count(), { timeout: 5_000, message: `charts after grouping by ${groupBy}` }).toBeGreaterThan(0);
  }
  // The list still watches the screen after regrouping: the last card's chart is drawn once scrolled to.
  const last = page.getByRole("article").last();
  await last.scrollIntoViewIfNeeded();
  await expect(last.locator(".recharts-surface")).toBeVisible({ timeout: 5_000 });
});
