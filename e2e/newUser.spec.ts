/**
 * Issue 17 as a new user meets the page, the parts left after defects 1–4 and 6: a context past the
 * model's limit (defect 5), the two-column layout at 1440 px, cluster validation in words at the field,
 * and where the model's data came from. Every test routes the network (e2e/hub.ts): the Hub answers
 * from test/fixtures/hub/.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { defaultChoices } from "../src/app/defaults.ts";
import { decodeLink } from "../src/state/link.ts";
import { routeNetwork } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

test.beforeEach(async ({ context }) => {
  await routeNetwork(context, ORIGIN);
});

test("defect 5: a typed 100,000 on a 32,768-token model is kept, said once with the YaRN flags, and planned with YaRN when ticked (kept in the link)", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  const field = page.getByLabel("Context tokens");
  await field.fill("100000");
  await field.blur();
  await expect(field).toHaveValue("100000");
  // Qwen2.5-Coder-32B-Instruct's config.json: max_position_embeddings 32768, rope_scaling null.
  const said = page.getByText(/past the model's limit/);
  await expect(said).toHaveCount(1);
  await expect(said).toContainText(
    "A context of 100,000 tokens is past the model's limit of 32,768 (config.json's max_position_embeddings): planned at 32,768.",
  );
  await expect(said).toContainText("vLLM: --hf-overrides");
  await expect(page.getByText("does not fit", { exact: false })).toHaveCount(0);
  // The notice's flags (one long JSON word) stay inside a phone's width.
  await page.setViewportSize({ width: 375, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await said.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
  const first = page.getByRole("article").first();
  await first.getByRole("button", { name: "Commands" }).click();
  await expect(first.locator(".commands pre").first()).toContainText("--max-model-len 32768");

  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe("");
  const before = await page.evaluate(() => window.location.hash);
  await page.getByLabel("Extend with YaRN rope scaling (the commands carry its flags)").check();
  await expect(said).toContainText("planned with YaRN factor 3.06 over its native 32,768 positions");
  const again = page.getByRole("article").first();
  await again.getByRole("button", { name: "Commands" }).click();
  await expect(again.locator(".commands pre").first()).toContainText(
    `--max-model-len 100000 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":3.06,"original_max_position_embeddings":32768}}'`,
  );
  // The link keeps the choice: a fresh page on it opens with the box ticked and the same plan. The link is
  // written in idle moments, the context and the tick maybe apart: wait for the one that carries both.
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe(before);
  await expect
    .poll(async () => {
      const w = decodeLink(await page.evaluate(() => window.location.hash), defaultChoices()).choices.workload;
      return [w.contextTokens, w.settings.ropeScaling];
    })
    .toEqual([100000, "yarn"]);
  const url = page.url();
  const fresh = await page.context().newPage();
  await fresh.goto(url);
  await expect(fresh.getByLabel("Extend with YaRN rope scaling (the commands carry its flags)")).toBeChecked();
  await expect(fresh.getByLabel("Context tokens")).toHaveValue("100000");
});

/** An 8 × H100 SXM nvidia-smi table (test/fixtures/inventory/, its source on the first line), without that line. */
const NVIDIA_SMI = readFileSync(
  new URL("../test/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt", import.meta.url),
  "utf8",
)
  .split("\n")
  .filter((l) => !l.startsWith("# source:"))
  .join("\n");

test("rough edge: at 1440 px the cluster panel takes the width, and a pasted nvidia-smi table keeps its lines (no wrap, monospace)", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  const panel = page.locator("#cluster");
  // Before: a 420-px column beside an empty right half.
  expect((await panel.boundingBox())?.width ?? 0).toBeGreaterThan(1200);
  await page
    .getByRole("button", { name: /Import/ })
    .first()
    .click();
  const box = page.getByLabel("Paste inventory");
  await box.fill(NVIDIA_SMI);
  const shape = await box.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      whiteSpace: style.whiteSpace,
      mono: /mono|Menlo|Consolas/i.test(style.fontFamily),
      // With lines kept whole, the 89-column table fits the box's width: nothing wraps, nothing scrolls sideways.
      fits: el.scrollWidth <= el.clientWidth,
    };
  });
  expect(shape).toEqual({ whiteSpace: "pre", mono: true, fits: true });
  // A line longer than the box scrolls sideways inside it rather than wrapping.
  await box.fill(`${"|".repeat(400)}\n${NVIDIA_SMI}`);
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
});

/** Each select whose chosen label is wider than its box leaves for text (its padding and the arrow's ~20 px). */
async function cutSelects(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return ["no canvas"];
    for (const s of document.querySelectorAll("select")) {
      if (s.offsetParent === null) continue;
      const text = s.selectedOptions[0]?.text ?? "";
      const style = getComputedStyle(s);
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      if (ctx.measureText(text).width > room) out.push(`${s.labels[0]?.textContent ?? s.id}: "${text}" in ${room} px`);
    }
    return out;
  });
}

test("rough edge: no select cuts its chosen label ('auto (mode', 'h100-80g · 79'), at 1440 and 375 px, engine settings open", async ({
  page,
}) => {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.goto("/");
    await expect(page.getByRole("article").first()).toBeVisible();
    await page.getByText("Engine settings", { exact: true }).click();
    expect(await cutSelects(page), `at ${width} px`).toEqual([]);
  }
});

test("rough edges: a split GGUF's repeated name is said once in 'Why not?', FreeToken says what it is, and a multi-node option counts its copies, not 'Nodes that could host it'", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  await page.getByLabel("Hugging Face repo").fill("unsloth/DeepSeek-R1-GGUF");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.locator(".model-summary")).toContainText("61 layers", { timeout: 30_000 });
  await expect(page.getByRole("article").first()).toBeVisible();
  const why = page.locator(".why-not");
  await why.locator("summary").click();
  await expect(why.locator("li").first()).toBeVisible();
  expect(await why.innerText()).not.toMatch(/(DeepSeek-R1-[\w-]+)\/\1/);
  await expect(page.getByLabel("Engine").locator("option", { hasText: "FreeToken" })).toHaveText(
    "FreeToken (one card, a mixture of experts' experts in host RAM)",
  );
  await expect(page.getByText("Nodes that could host it")).toHaveCount(0);
  await expect(page.getByRole("article").first().getByText("Copies the cluster holds")).toBeVisible();
});

test("rough edge: cluster validation in words at the field: more free than cards and a negative count are refused there, marked, and the last good cluster kept", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  const panel = page.locator("#cluster");
  const summary = panel.locator(".cluster-summary");
  const before = await summary.innerText();
  const verdict = await page.locator(".top-verdict").innerText();
  // The example cluster: one group of two identical nodes, 8 × h100-80g each.
  const free = panel.getByLabel(/card 1 free$/);
  await free.fill("9");
  await free.blur();
  await expect(free).toHaveValue("9");
  await expect(free).toHaveAttribute("aria-invalid", "true");
  const said = page.locator(`#${await free.getAttribute("aria-describedby")}`);
  await expect(said).toHaveText(/: 9 free of 8 cards: give at most 8\. The plan keeps 8\.$/);
  await expect(said).not.toContainText("devices[");
  expect(await free.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");
  await expect(summary).toHaveText(before);
  await expect(page.locator(".top-verdict")).toHaveText(verdict);

  const count = panel.getByLabel(/card 1 count$/);
  await count.fill("-1");
  await count.blur();
  // Before: leaving the field put 8 back without a word.
  await expect(count).toHaveValue("-1");
  await expect(count).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`#${await count.getAttribute("aria-describedby")}`)).toHaveText(
    "Enter a number from 0 to 1,024. The plan keeps 8.",
  );
  await expect(summary).toHaveText(before);

  // Fewer cards than the free count (a valid number, an invalid cluster): the validation's words at the Free field.
  await count.fill("4");
  await count.blur();
  await expect(free).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator(`#${await free.getAttribute("aria-describedby")}`)).toHaveText(
    /^Node 1 \(dgx-1\), h100-80g: 8 free of 4 cards: give at most 4/,
  );
});

test("rough edge: a catalog repo the Hub answers is planned from the Hub, and says so; with the Hub unreachable, from the bundled copy, and says why", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible();
  // The example opens pinned to the catalog's commit: planned with no request, and said.
  await expect(page.getByText("From the bundled catalog (no network)")).toBeVisible();
  const field = page.getByLabel("Hugging Face repo");
  // unsloth/DeepSeek-R1-GGUF is in the bundled catalog and in the recorded Hub answers (test/fixtures/hub/).
  await field.fill("unsloth/DeepSeek-R1-GGUF");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.getByText("Read from the Hub")).toBeVisible({ timeout: 30_000 });

  await page.route("https://huggingface.co/**", (route) => route.abort("internetdisconnected"));
  await field.fill("microsoft/phi-4");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.getByText("Bundled copy of 2026-12-01: the Hub did not answer")).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(".model-summary")).toContainText("40 layers");
  await expect(page.getByRole("article").first()).toBeVisible();
});
