/**
 * Issue 13's ranking on the page: the user's choice of order, kept in the link, and the card-hour prices
 * cost is figured from (defaults with their source; a bad price refused at its field, the plan kept).
 */
import { expect, test, type Page } from "@playwright/test";
import { defaultChoices } from "../src/app/defaults.ts";
import { decodeLink } from "../src/state/link.ts";
import { readFileSync } from "node:fs";
import { routeNetwork } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

test.beforeEach(async ({ context }) => {
  await routeNetwork(context, ORIGIN);
});

async function linkWorkload(page: Page) {
  return decodeLink(await page.evaluate(() => window.location.hash), defaultChoices()).choices.workload;
}

test("rank by throughput reorders the plan and is kept in the link", async ({ page }) => {
  await page.goto("/");
  const titles = page.getByRole("article").getByRole("heading", { level: 3 });
  await expect(titles.first()).toHaveText("1 × h100-80g");
  await page.getByRole("button", { name: /Show every layout/ }).click();
  const order = () => page.getByRole("article").evaluateAll((a) => a.map((e) => e.getAttribute("data-option-id")));
  // The example is a dense model, on whose layouts fewest cards and throughput per card agree (vLLM's and SGLang's
  // alike): latency first puts the widest TP on top, and throughput then brings the one card back.
  await page.getByLabel("Rank by").selectOption("latency");
  await expect(titles.first()).toHaveText("8 × h100-80g");
  const before = await order();
  await page.getByLabel("Rank by").selectOption("throughput");
  await expect.poll(order).not.toEqual(before);
  await expect(titles.first()).toHaveText("1 × h100-80g");
  await expect.poll(async () => (await linkWorkload(page)).rankBy).toBe("throughput");
  await page.reload();
  await expect(page.getByLabel("Rank by")).toHaveValue("throughput");
});

test("a price per card-hour: the default's source is shown, a negative price is refused at the field and the plan stays, a good one is used", async ({
  page,
}) => {
  await page.goto("/");
  const first = page.getByRole("article").first();
  await expect(first.getByText("Cost per million output tokens")).toBeVisible();
  const costBefore = await first.locator("dt:text('Cost per million output tokens') + dd").innerText();
  expect(costBefore).toMatch(/^\$\d+\.\d\d$/);
  await page.getByText("Prices per card-hour (for cost)").click();
  await expect(page.getByText(/Default: Mercatus GPU Index, May 2026/).first()).toBeVisible();
  const h100 = page.getByLabel("h100-80g $ per card-hour");
  await h100.fill("-3");
  await expect(page.getByRole("alert").filter({ hasText: "Enter a number from 0 to 1,000" })).toBeVisible();
  await expect(first.locator("dt:text('Cost per million output tokens') + dd")).toHaveText(costBefore);
  expect((await linkWorkload(page)).pricesPerCardHour?.["h100-80g"]).toBeUndefined();
  await h100.fill("6");
  // Twice the default ($3.00) an hour: the engine's cost per million tokens doubles.
  await expect
    .poll(async () =>
      Number((await first.locator("dt:text('Cost per million output tokens') + dd").innerText()).slice(1)),
    )
    .toBeCloseTo(2 * Number(costBefore.slice(1)), 1);
  await expect.poll(async () => (await linkWorkload(page)).pricesPerCardHour?.["h100-80g"]).toBe(6);
});

test("the best layout of each artifact × engine comes first, and every layout is one click away", async ({ page }) => {
  await page.goto("/");
  const articles = page.getByRole("article");
  // The example plan on 16 H100s: vLLM and SGLang at TP 1, 2, 4 and 8; the best of each engine first.
  await expect(articles).toHaveCount(2);
  await expect(page.locator(".options-view .summary")).toContainText("showing 2");
  await page.getByRole("button", { name: /Show every layout \(\d+ more\)/ }).click();
  await expect.poll(() => articles.count()).toBeGreaterThan(2);
  await page.getByRole("button", { name: "Show the best layout of each artifact and engine" }).click();
  await expect(articles).toHaveCount(2);
});

test("the option list downloads as JSON in the terminal's shape", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download the options (JSON)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("modelplan-options.json");
  const path = await file.path();
  const rows = JSON.parse(readFileSync(path, "utf8")) as { id: string; fits_workload: boolean }[];
  // Every option of the plan, not only the best of each shown: the example has vLLM and SGLang at four widths.
  expect(rows.length).toBeGreaterThan(2);
  expect(rows[0]?.fits_workload).toBe(true);
});

test("the trade-off chart draws throughput against cards per artifact, with the front, only when opened", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(page.locator(".pareto-chart")).toHaveCount(0);
  await page.getByText("Throughput against cards, per artifact").click();
  const chart = page.locator(".trade-off-chart").first();
  await expect(chart.locator(".pareto-front .recharts-symbols").first()).toBeVisible();
  // The front is joined: one line through its points.
  await expect(chart.locator(".pareto-front .recharts-scatter-line .recharts-curve")).toHaveCount(1);
  await expect(chart.locator("div[role=img]")).toHaveAttribute(
    "aria-label",
    /layouts; the front: (vLLM|SGLang) · 1 × h100-80g/,
  );
});
