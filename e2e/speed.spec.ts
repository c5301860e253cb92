/**
 * Issue 5's speed target: a slider move repaints in ≤ 16 ms (p95) with 50
 * options drawn. Timed in the page, from the input event's own timestamp to
 * the first task after the next animation frame, so style, layout and paint
 * of the frame that shows the new plan are inside the figure.
 */
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { catalogSnapshot } from "../src/hub/catalog.ts";
import type { Cluster } from "../src/plan/index.ts";
import { encodeLink } from "../src/state/link.ts";
import { routeNetwork } from "./hub.ts";

const ORIGIN = "http://127.0.0.1:4173";

// A trace snapshots the DOM on every action, on the page's own thread: it would be timed with the page.
test.use({ trace: "off" });
const REPO = "unsloth/DeepSeek-R1-GGUF";
/** Issue 5's target: the next frame at 60 Hz. */
const TARGET_P95_MS = 16;
/**
 * What this test enforces: two frames, scaled by the machine's load. The
 * target itself is printed against the figure on every run: wall-clock time
 * on a 2-core machine shared with other work is not a pass/fail figure.
 * Measured on the machine this was built on (load 1.3–2.0 per core): median
 * 5.2–7.5 ms, p95 9.7–12.2; before the panels were paint-contained and
 * off-screen cards stopped rendering during a drag, median 10.5–11.1 and
 * p95 15.5–22.3. Before the charts were taken off the drag's path a move
 * cost ~470 ms.
 */
const GUARD_P95_MS = 32;
/**
 * Slider moves timed; the first few warm the JIT and are dropped. A hundred
 * make the p95 the 95th of a hundred samples rather than the second worst
 * of forty, which one stray pause of the machine decided.
 */
const MOVES = 100;
const WARMUP = 3;
/** Pixels per move: about four of the slider's thousand steps on its 1280-px-wide layout, so every move is a new context. */
const STEP_PX = 1.6;

/** Three card classes: 52 options of DeepSeek-R1's 13 GGUF artifacts (issue 5's case). */
const THREE_CLASSES = ["h100-80g", "a100-80g", "l40s-48g"];
/** Seventeen: about 200 options (issue 13's case, every layout listed). */
const MANY_CLASSES = [...THREE_CLASSES, "h200-141g", "b200-180g", "a100-40g", "l40-48g", "a40-48g", "mi300x-192g", "gh200-96g", "a10g-24g", "l4-24g", "h100-nvl-94g", "mi325x-256g", "a30-24g", "gb200-186g", "rtxpro6000-96g"];

/** Each class on two nodes of 8 (one half busy). */
function cluster(classes: readonly string[]): Cluster {
  return {
    nodes: classes.flatMap((cls) =>
      [0, 1].map((k) => ({ id: `${cls}-${k}`, fabric: "ib0", hostMemGib: 2048, hostFreeGib: 1800, devices: [{ class: cls, count: 8, free: k === 0 ? 8 : 4 }] })),
    ),
  };
}

for (const [classes, atLeast] of [[THREE_CLASSES, 50], [MANY_CLASSES, 200]] as const) {
test(`a slider move's repaint is timed with ${atLeast} options drawn (target p95 ≤ 16 ms, printed; guard 2 frames)`, async ({ page, context }) => {
  const network = await routeNetwork(context, ORIGIN);
  const link = encodeLink({
    repo: REPO,
    revision: catalogSnapshot(REPO)?.sha ?? "",
    cluster: cluster(classes),
    workload: { contextTokens: 4096, sequences: 1, kvDtype: "auto", settings: {} },
    filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
    selectedOptionId: "",
    commandIndex: 0,
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/#${link}`);
  const options = page.getByRole("article");
  // Every layout, not the best of each artifact × engine: the most the list can draw.
  await page.getByRole("button", { name: /Show every layout/ }).click({ timeout: 30_000 });
  await expect.poll(() => options.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(atLeast);
  const drawn = await options.count();
  // The charts of the options on screen (and just below it) are drawn; the rest draw as they scroll in.
  await expect.poll(() => page.locator(".bars .recharts-surface").count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  const charts = await page.locator(".bars .recharts-surface").count();

  // Each input event's delay to the frame after it, collected in the page.
  await page.evaluate(() => {
    const slider = document.querySelector<HTMLInputElement>('input[type="range"]');
    const w = window as unknown as { repaintMs: number[] };
    w.repaintMs = [];
    slider?.addEventListener("input", (e) => {
      const start = e.timeStamp;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => w.repaintMs.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    });
  });

  const slider = page.getByRole("slider", { name: "Context" });
  const box = await slider.boundingBox();
  if (!box) throw new Error("the slider is not on screen");
  const startValue = Number(await slider.inputValue());
  const y = box.y + box.height / 2;
  // The figures of the first option, on screen: they must follow the drag itself, not only its end,
  // or the figure below would time frames that show nothing new.
  const firstFigures = page.getByRole("article").first().locator(".option-figures").first();
  const figuresBefore = await firstFigures.innerText();
  await page.mouse.move(box.x + (box.width * startValue) / 1000, y);
  await page.mouse.down();
  for (let i = 1; i <= MOVES; i++) {
    // Rightwards in small steps, as a hand drags: each step is a new context for every option.
    await page.mouse.move(box.x + (box.width * startValue) / 1000 + i * STEP_PX, y);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
  }
  const figuresWhileDragging = await firstFigures.innerText();
  await page.mouse.up();
  expect(figuresWhileDragging).not.toEqual(figuresBefore);

  const samples = await page.evaluate(() => (window as unknown as { repaintMs: number[] }).repaintMs);
  const timed = samples.slice(WARMUP).sort((a, b) => a - b);
  const p95 = timed[Math.ceil(timed.length * 0.95) - 1] ?? Number.NaN;
  const median = timed[Math.floor(timed.length / 2)] ?? Number.NaN;
  console.log(`slider repaint with ${drawn} options drawn (${charts} charts near the viewport): median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${timed.length} moves`);
  test.info().annotations.push({ type: "slider repaint p95 (ms)", description: `${p95.toFixed(1)} with ${drawn} options, ${timed.length} moves` });
  expect(timed.length).toBeGreaterThanOrEqual(MOVES - WARMUP - 5);
  // Wall-clock time: on a machine busy with other work the page gets a share of a core, and the same
  // work takes longer, so the guard scales by the load per core (printed with the figure).
  const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
  const budget = GUARD_P95_MS * Math.max(1, loadPerCore);
  console.log(`target p95 ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? "met" : "NOT met"} this run; guard ${budget.toFixed(0)} ms (load per core ${loadPerCore.toFixed(1)})`);
  expect(p95).toBeLessThanOrEqual(budget);
  expect(network.blocked).toEqual([]);
});
}

/** Issue 5's size target for what the page loads before it can draw the example plan. */
const INITIAL_JS_GZIP_LIMIT_BYTES = 250 * 1024;

test("the initial JS is at most 250 KB gzipped (recharts and the heavy views load later)", () => {
  // The built site (npm run test:e2e builds it first): the scripts index.html loads, and the chunks they preload.
  const html = readFileSync(new URL("../dist/index.html", import.meta.url), "utf8");
  const initial = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/([^"]+\.js)"/g)].map((m) => m[1] ?? "");
  expect(initial.length).toBeGreaterThan(0);
  const gzipBytes = initial.reduce((sum, file) => sum + gzipSync(readFileSync(new URL(`../dist/${file}`, import.meta.url))).length, 0);
  console.log(`initial JS: ${initial.join(", ")}: ${(gzipBytes / 1024).toFixed(1)} KB gzipped (limit ${INITIAL_JS_GZIP_LIMIT_BYTES / 1024} KB)`);
  expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_GZIP_LIMIT_BYTES);
});
