/**
 * Issue 17's defects on the page, each as a new user met it: a test that failed before its fix.
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

test("defect 1: the bars come back after changing Group by, and after changing it back", async ({ page }) => {
  await page.goto("/");
  const charts = page.locator(".bars .card-bars");
  await expect.poll(() => charts.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  for (const groupBy of ["artifact", "engine", "rank only"]) {
    await page.getByLabel("Group by").selectOption({ label: groupBy });
    await expect
      .poll(() => charts.count(), { timeout: 5_000, message: `charts after grouping by ${groupBy}` })
      .toBeGreaterThan(0);
  }
  // The list still watches the screen after regrouping: the last card's chart is drawn once scrolled to.
  const last = page.getByRole("article").last();
  await last.scrollIntoViewIfNeeded();
  await expect(last.locator(".card-bars")).toBeVisible({ timeout: 5_000 });
});

/** The plan's one-line count ("2 of 8 options fit at this context"), as a user reads it. */
async function summary(page: Page): Promise<string> {
  return (await page.locator(".options-view .summary").innerText()).replace(/\s+/g, " ").trim();
}

test("defect 2: held at the model's longest context, the slider shows the plan it will be on release, or says it is catching up", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  const slider = page.getByRole("slider", { name: "Context" });
  await slider.focus();
  await page.keyboard.down("End");
  // Held: whatever the page says must either be the released plan's words, or say it is not the plan yet.
  await page.waitForTimeout(400);
  const held = await summary(page);
  const heldTitles = await page.getByRole("article").getByRole("heading", { level: 3 }).allInnerTexts();
  await page.keyboard.up("End");
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe("");
  await page.waitForTimeout(400);
  const released = await summary(page);
  if (!/catching up/.test(held)) {
    expect(held).toBe(released);
    expect(heldTitles).toEqual(await page.getByRole("article").getByRole("heading", { level: 3 }).allInnerTexts());
  }
  expect(released).not.toMatch(/catching up/);
});

test("defect 3: a safetensors repo on the CPU-server preset says llama.cpp needs a GGUF, and lists the repo's GGUF quantizations", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  await page.getByLabel("Start from a preset").selectOption({ label: "CPU server with 512 GB RAM" });
  const why = page.locator(".needs-gguf");
  await expect(why).toContainText(
    "only llama.cpp runs here: it loads GGUF files, and Qwen/Qwen2.5-Coder-32B-Instruct has only safetensors",
  );
  await expect(page.getByText("see why below")).toHaveCount(0);
  // The recorded Hub list (test/fixtures/hub/lists/) holds two GGUF repos and two safetensors ones: only the GGUFs are offered.
  await expect(
    why.getByRole("list", { name: "GGUF quantizations of Qwen/Qwen2.5-Coder-32B-Instruct" }).getByRole("button"),
  ).toHaveText(["Qwen/Qwen2.5-Coder-32B-Instruct-GGUF", "bartowski/Qwen2.5-Coder-32B-Instruct-GGUF"]);
});

test("rough edges: a main landmark (axe finds nothing, not even a moderate rule), a skip link to the cluster, and the answer in one line near the top at 375 px", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(page.getByRole("main")).toHaveCount(1);
  const violations = (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id} (${v.impact ?? ""})`);
  expect(violations).toEqual([]);
  // The example plan's first option: one H100 with vLLM; its decode figure is the card's own.
  const verdict = page.locator(".top-verdict");
  const decode =
    (await page.getByRole("article").first().locator("dt:text('Decode, one user') + dd").textContent()) ?? "";
  await expect(verdict).toHaveText(`Fits on 1 × h100-80g with vLLM, ${decode} for one user.`);
  expect((await verdict.boundingBox())?.y ?? Infinity).toBeLessThan(400);
  const skip = page.getByRole("link", { name: "Skip the options, to the cluster" });
  await skip.focus();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("#cluster")).toBeFocused();
});

test("rough edges: the import panel takes the focus when it opens, closes on Escape, and gives the focus back", async ({
  page,
}) => {
  await page.goto("/");
  const open = page.getByRole("button", { name: /Import/ }).first();
  await open.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Paste inventory")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Paste inventory")).toHaveCount(0);
  await expect(open).toBeFocused();
});

test("rough edges: at 375 px the command box wraps at spaces, never inside a flag or its value (a long one scrolls)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  const first = page.getByRole("article").first();
  await first.getByRole("button", { name: "Commands" }).click();
  const split = await first
    .locator(".commands pre")
    .first()
    .evaluate((pre) => {
      const text = pre.textContent ?? "";
      const node = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT).nextNode();
      if (!node) return ["no text"];
      const out: string[] = [];
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        // One line box per word: more means a flag or its value was broken across lines. A path may
        // wrap after a "/" (Unicode line breaking, UAX #14, allows a break after a solidus).
        if (!m[0].includes("/") && new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1)
          out.push(m[0]);
      }
      return out;
    });
  expect(split).toEqual([]);
});
