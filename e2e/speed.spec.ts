/**
 * Issue 5's speed target: a slider move repaints in ≤ 16 ms (p95) with 50
 * options drawn. Timed in the page, from the input event's own timestamp to
 * the first task after the next animation frame, so style, layout and paint
 * of the frame that shows the new plan are inside the figure.
 */
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { gzipSync } from "node:zlib";
import { catalogFileName, catalogIndex, catalogSha } from "../src/hub/catalogIndex.ts";
import { defaultChoices } from "../src/app/defaults.ts";
import { decodeLink, encodeLink } from "../src/state/link.ts";
import { MANY_CLASSES, THREE_CLASSES, twoNodesEach } from "../test/app/speedCluster.ts";
import { routeNetwork } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

// A trace snapshots the DOM on every action, on the page's own thread: it would be timed with the page.
test.use({ trace: "off" });
const REPO = "unsloth/DeepSeek-R1-GGUF";
/** The context the plan opens at, before a drag moves it. */
const OPENED_CONTEXT_TOKENS = 4096;
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

/**
 * Opens DeepSeek-R1's GGUF plan on `classes` with every layout listed (not
 * the best of each artifact × engine: the most the list can draw), once at
 * least `atLeast` options and the charts near the viewport are drawn; returns
 * how many options are.
 */
async function openEveryLayout(page: Page, classes: readonly string[], atLeast: number): Promise<number> {
  const link = encodeLink({
    repo: REPO,
    revision: catalogSha(REPO) ?? "",
    cluster: twoNodesEach(classes),
    workload: { contextTokens: OPENED_CONTEXT_TOKENS, sequences: 1, kvDtype: "auto", settings: {} },
    filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
    selectedOptionId: "",
    commandIndex: 0,
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/#${link}`);
  const options = page.getByRole("article");
  await page.getByRole("button", { name: /Show every layout/ }).click({ timeout: 30_000 });
  await expect.poll(() => options.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(atLeast);
  // The charts of the options on screen (and just below it) are drawn; the rest draw as they scroll in.
  await expect.poll(() => page.locator(".bars .card-bars").count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  return options.count();
}

/** Collects every long task's duration in `window.longTasksMs`, from the page's first script on. */
async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { longTasksMs: number[] };
    w.longTasksMs = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasksMs.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  });
}

for (const [classes, atLeast] of [
  [THREE_CLASSES, 50],
  [MANY_CLASSES, 200],
] as const) {
  test(`a slider move's repaint is timed with ${atLeast} options drawn (target p95 ≤ 16 ms, printed; guard 2 frames)`, async ({
    page,
    context,
  }) => {
    const network = await routeNetwork(context, ORIGIN);
    const drawn = await openEveryLayout(page, classes, atLeast);
    const charts = await page.locator(".bars .card-bars").count();

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
    console.log(
      `slider repaint with ${drawn} options drawn (${charts} charts near the viewport): median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${timed.length} moves`,
    );
    test.info().annotations.push({
      type: "slider repaint p95 (ms)",
      description: `${p95.toFixed(1)} with ${drawn} options, ${timed.length} moves`,
    });
    expect(timed.length).toBeGreaterThanOrEqual(MOVES - WARMUP - 5);
    // Wall-clock time: on a machine busy with other work the page gets a share of a core, and the same
    // work takes longer, so the guard scales by the load per core (printed with the figure).
    const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
    const budget = GUARD_P95_MS * Math.max(1, loadPerCore);
    console.log(
      `target p95 ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? "met" : "NOT met"} this run; guard ${budget.toFixed(0)} ms (load per core ${loadPerCore.toFixed(1)})`,
    );
    expect(p95).toBeLessThanOrEqual(budget);
    expect(network.blocked).toEqual([]);
  });
}

/**
 * Issue 19: no long task over 50 ms while a hand drags the slider on a 200-option plan (printed; the guard
 * scales by load). Three interleaved runs each at load 2.6-3.7 per core: 0/0/0 long tasks, p95 frame 16.8 ms,
 * against 2/2/0 (longest 78 and 66 ms), p95 16.8/33.4/16.8, before the plan followed the slider one deferred
 * render behind and the link was written in an idle moment. Since the plan is made in a worker
 * (src/app/planWorker.ts), no task of the page's thread during the drag holds the CPU for more than 14-16 ms
 * (Chromium trace, thread time; 15-18 ms with withWorkload in the render), but still not held at 50 ms flat:
 * at load 6-7 per core, five interleaved pairs gave 2-12 tasks over 50 ms with the worker (longest 67-413 ms)
 * against 3-17 without (64-258 ms), the page's thread off the CPU for most of each.
 * Then the bars left recharts (plain SVG, CardBars.tsx) and a card added during the drag stopped forcing a
 * layout of the list in React's commit (useNearSet.ts; Long Animation Frame timing named it: 156 ms of forced
 * layout in a 164 ms task): with two or three CPU burners beside, load 3.3-4.3 per core, eight runs gave 0 long
 * tasks in seven and one of 88 ms, p95 frame 16.8 ms (33.3 in the one); before, at 3.7 and 5.3 per core,
 * 2 (longest 53 ms) and 28 (25 over 50 ms, longest 203), p95 33.3 and 66.6. Not yet held at 50 ms flat.
 */
const DRAG_LONG_TASK_TARGET_MS = 50;
/** The 60 moves of the drag, each the STEP_PX of the repaint test, as one mouse.move: no wait for a frame between them. */
const DRAG_STEPS = 60;
/** After the release, the plan at rest is made again and the off-screen cards catch up: watched this long for long tasks. */
const DRAG_SETTLE_MS = 1500;

interface DragWatch {
  /** The drag's frame times, sorted (the catch-up after the release is in the long tasks). */
  frames: number[];
  p95: number;
  longTasksMs: number[];
  longest: number;
  over: number;
}

/**
 * The 60-step drag on the plan `page` shows, from its first move until `settleMs` after the release, with the
 * page's CPU slowed `throttle` times (Chrome DevTools' CPU throttling; 1: as the machine runs).
 */
async function dragAndWatch(page: Page, throttle: number, settleMs: number): Promise<DragWatch> {
  const slider = page.getByRole("slider", { name: "Context" });
  // Found before the watch starts: Playwright's role query over 200 cards is itself a long task at 4×.
  const box = await slider.boundingBox();
  if (!box) throw new Error("the slider is not on screen");
  const startX = box.x + (box.width * Number(await slider.inputValue())) / 1000;
  const y = box.y + box.height / 2;
  const cdp = throttle === 1 ? null : await page.context().newCDPSession(page);
  await cdp?.send("Emulation.setCPUThrottlingRate", { rate: throttle });
  // From here every long task and frame is the drag's or its catch-up's; frames are timed by requestAnimationFrame.
  await page.evaluate(() => {
    const w = window as unknown as { longTasksMs: number[]; frameMs: number[]; framing: boolean };
    w.longTasksMs = [];
    w.frameMs = [];
    w.framing = true;
    let last = performance.now();
    const tick = (now: number) => {
      w.frameMs.push(now - last);
      last = now;
      if (w.framing) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(startX, y);
  await page.mouse.down();
  await page.mouse.move(startX + DRAG_STEPS * STEP_PX, y, { steps: DRAG_STEPS });
  const dragFrames = await page.evaluate(() => (window as unknown as { frameMs: number[] }).frameMs.length);
  await page.mouse.up();
  await page.waitForTimeout(settleMs);
  const { longTasksMs, frameMs } = await page.evaluate(() => {
    const w = window as unknown as { longTasksMs: number[]; frameMs: number[]; framing: boolean };
    w.framing = false;
    return { longTasksMs: w.longTasksMs, frameMs: w.frameMs };
  });
  await cdp?.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await cdp?.detach();
  // The drag's frames (the first is the wait before it).
  const frames = frameMs.slice(1, dragFrames).sort((a, b) => a - b);
  return {
    frames,
    p95: frames[Math.ceil(frames.length * 0.95) - 1] ?? Number.NaN,
    longTasksMs,
    longest: Math.max(0, ...longTasksMs),
    over: longTasksMs.filter((ms) => ms > DRAG_LONG_TASK_TARGET_MS).length,
  };
}

test(`a 60-step mouse drag of the slider on 200 options: frame times and long tasks (target no long task over ${DRAG_LONG_TASK_TARGET_MS} ms)`, async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  await observeLongTasks(page);
  const drawn = await openEveryLayout(page, MANY_CLASSES, 200);
  const slider = page.getByRole("slider", { name: "Context" });
  const before = await slider.inputValue();
  const { frames, p95, longTasksMs, longest, over } = await dragAndWatch(page, 1, DRAG_SETTLE_MS);
  expect(await slider.inputValue()).not.toBe(before);
  const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
  console.log(
    `60-step drag, ${drawn} options: ${frames.length} frames, p95 frame ${p95.toFixed(1)} ms; ${longTasksMs.length} long tasks (drag and ${DRAG_SETTLE_MS} ms after), ${over} over ${DRAG_LONG_TASK_TARGET_MS} ms, longest ${longest.toFixed(0)} ms; target ${over === 0 ? "met" : "NOT met"} (load per core ${loadPerCore.toFixed(1)})`,
  );
  test.info().annotations.push({
    type: "60-step drag, 200 options",
    description: `p95 frame ${p95.toFixed(1)} ms, ${longTasksMs.length} long tasks, longest ${longest.toFixed(0)} ms`,
  });
  expect(frames.length).toBeGreaterThan(0);
  // The link is written once the drag is over (not on each move), and holds the context the drag ended on.
  const finalTokens = Number(await page.getByLabel("Context tokens").inputValue());
  expect(finalTokens).not.toBe(OPENED_CONTEXT_TOKENS);
  await expect
    .poll(
      async () =>
        decodeLink(await page.evaluate(() => window.location.hash), defaultChoices()).choices.workload.contextTokens,
      { timeout: 5_000 },
    )
    .toBe(finalTokens);
  // Wall-clock, as the other guards: a share of a core makes every task longer by the load per core.
  expect(longest).toBeLessThanOrEqual(DRAG_LONG_TASK_TARGET_MS * Math.max(1, loadPerCore));
  expect(network.blocked).toEqual([]);
});

/**
 * Issue 19 on a laptop 3-4× slower than the machine this was built on: the same drag with Chrome's CPU
 * throttled 4×. Before the cards caught up one idle slice at a time (src/ui/catchUp.ts), a drag there that
 * outlasted the scheduler's 5 s timeout for a transition (at load 2 per core, 5-8 s) had React draw the 234
 * cards' catch-up synchronously: tasks of 267-539 ms (Chromium trace), 5-37 over 50 ms a run. Three interleaved
 * runs each at load 1.0-1.2 per core, before / after this and the slider's render cut to the thumb: 8-10 / 6-8
 * tasks over 50 ms, longest 116-150 / 65-91 ms, p95 frame 33.4 / 33.4 ms, longest frame of the catch-up
 * 167-233 / 50-67 ms (2×: 0-1 / 0 over 50 ms). What is left is each move's style, layout and paint of the cards
 * on screen (40-65 ms of a frame at 4×, Long Animation Frame timing) and the link's first write after the release
 * (44-73 ms): the target (no task over 50 ms) is printed, not held; the guard holds the synchronous burst gone.
 */
const THROTTLE = 4;
/** Above the longest task measured at 4× since the catch-up was sliced (161 ms, load 1.1 per core), under the 267-539 ms bursts. */
const THROTTLED_LONGEST_GUARD_MS = 250;

test(`the same drag at ${THROTTLE}× CPU throttling: frame times and long tasks (target no long task over ${DRAG_LONG_TASK_TARGET_MS} ms, printed; guard ${THROTTLED_LONGEST_GUARD_MS} ms)`, async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const network = await routeNetwork(context, ORIGIN);
  await observeLongTasks(page);
  const drawn = await openEveryLayout(page, MANY_CLASSES, 200);
  // The catch-up of every card takes about THROTTLE times longer: watched as much longer.
  const settleMs = DRAG_SETTLE_MS * THROTTLE;
  const { frames, p95, longTasksMs, longest, over } = await dragAndWatch(page, THROTTLE, settleMs);
  const loadPerCore = (loadavg()[0] ?? 0) / availableParallelism();
  console.log(
    `60-step drag at ${THROTTLE}× CPU throttling, ${drawn} options: ${frames.length} frames, p95 frame ${p95.toFixed(1)} ms; ${longTasksMs.length} long tasks (drag and ${settleMs} ms after), ${over} over ${DRAG_LONG_TASK_TARGET_MS} ms, longest ${longest.toFixed(0)} ms; target ${over === 0 ? "met" : "NOT met"} (load per core ${loadPerCore.toFixed(1)})`,
  );
  test.info().annotations.push({
    type: `60-step drag at ${THROTTLE}× throttling`,
    description: `p95 frame ${p95.toFixed(1)} ms, ${over} long tasks over ${DRAG_LONG_TASK_TARGET_MS} ms, longest ${longest.toFixed(0)} ms`,
  });
  expect(frames.length).toBeGreaterThan(0);
  expect(longest).toBeLessThanOrEqual(THROTTLED_LONGEST_GUARD_MS * Math.max(1, loadPerCore));
  expect(network.blocked).toEqual([]);
});

/**
 * What the page loads before it can draw the example plan: issue 19's
 * 170 KB, held. 238.4 KB before the importers, yaml and calibrate-from-log
 * were made lazy, ~191 after, ~222 once the speed model, every layout and
 * the 2026 release profiles landed; then the catalog per model (-7 KB),
 * manual mode's json5 (-9), and zod with the link's reader, validation and
 * the link writer's fflate (-34) left the first screen, and with no top-level
 * await the bundler merges the small shared chunks back (-3.5): 165.0, of which
 * react-dom (~64 KB), react-query (~13) and the engine (~55).
 * This round's engine (ggml-alloc's port, CPU hosts over RPC, data parallel over nodes) took it to
 * 174.3; the engine then left the first screen whole (138.8): the page plans only in its worker, the
 * context check reads the engines' flags from a table of its own (engines/contextFlags.ts), and
 * "sideEffects" in package.json lets the bundler drop what the engine's index re-exports unused.
 */
const INITIAL_JS_GZIP_LIMIT_BYTES = 170 * 1024;

test("the initial JS is at most 170 KB gzipped (the engine, recharts, zod, json5, the importers, yaml, the catalog and the heavy views load later)", () => {
  // The built site (npm run test:e2e builds it first): the scripts index.html loads, and the chunks they preload.
  const html = readFileSync(new URL("../dist/index.html", import.meta.url), "utf8");
  const initial = [
    ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/([^"]+\.js)"/g),
  ].map((m) => m[1] ?? "");
  expect(initial.length).toBeGreaterThan(0);
  const gzipBytes = initial.reduce(
    (sum, file) => sum + gzipSync(readFileSync(new URL(`../dist/${file}`, import.meta.url))).length,
    0,
  );
  console.log(
    `initial JS: ${initial.join(", ")}: ${(gzipBytes / 1024).toFixed(1)} KB gzipped (limit ${INITIAL_JS_GZIP_LIMIT_BYTES / 1024} KB, issue 19's target)`,
  );
  expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_GZIP_LIMIT_BYTES);
});

/** A catalog model's chunk, as Vite names it: the model's file name (owner__name) and a content hash. */
function catalogChunkOf(url: string): string | null {
  const file = /\/assets\/([^/]+)-[\w-]{8}\.js$/.exec(new URL(url).pathname)?.[1];
  return file !== undefined && catalogFiles.has(`${file}.json`) ? file : null;
}
const catalogFiles = new Set(catalogIndex().map((e) => catalogFileName(e.repo)));

test("the first screen loads no catalog model but the example (in its first chunk); a model picked loads its own chunk alone", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  const chunks: string[] = [];
  page.on("request", (r) => {
    const chunk = catalogChunkOf(r.url());
    if (chunk) chunks.push(chunk);
  });
  await page.goto("/");
  await page.getByRole("article").first().waitFor({ timeout: 30_000 });
  // The example is planned from the first chunk: no catalog file is fetched for it, nor any other's.
  await expect(page.getByText("From the bundled catalog (no network)")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(chunks).toEqual([]);
  console.log(
    `catalog: ${catalogIndex().length} models in the index; first screen fetched ${chunks.length} model chunks`,
  );

  const hubBefore = network.hubRequests.length;
  const field = page.getByLabel("Hugging Face repo");
  await field.fill("microsoft/phi-4");
  await field.press("Enter");
  // Phi-4: 40 layers (its config.json num_hidden_layers), planned from its catalog chunk. On a branch the Hub is
  // asked too (its newer data wins, issue 17); the recorded Hub has no phi-4, so the bundled copy stays, and says so.
  await expect(page.locator(".model-summary")).toContainText("40 layers", { timeout: 30_000 });
  await expect(page.getByText(/Bundled copy of/)).toBeVisible();
  expect(chunks).toEqual(["microsoft__phi-4"]);
  expect(network.hubRequests.slice(hubBefore).some((u) => u.includes("microsoft/phi-4"))).toBe(true);
  expect(network.blocked).toEqual([]);
});

/** A card's bars, once drawn: the weights' rectangle itself (not the placeholder, nor a chart's empty frame). */
const BARS_DRAWN = ".bars .card-bars :is(rect, path).part-weights";
/**
 * Drawn in the same frame as the options (60 Hz). A recharts BarChart per card, its chunk fetched as the page
 * starts, met it in 15 of 20 cold loads and trailed by 120-160 ms in 5 (CardBars.tsx says more).
 */
const BARS_AFTER_OPTIONS_LIMIT_MS = 16;

test("the bars appear with the options, not after them (issue 19: the charts cost what they draw)", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  // When the first option card and the first drawn bars enter the page, from a MutationObserver set up before any script.
  await page.addInitScript((bars: string) => {
    const w = window as unknown as { optionsAtMs?: number; barsAtMs?: number };
    new MutationObserver(() => {
      if (w.optionsAtMs === undefined && document.querySelector("article.option")) w.optionsAtMs = performance.now();
      if (w.barsAtMs === undefined && document.querySelector(bars)) w.barsAtMs = performance.now();
    }).observe(document, { childList: true, subtree: true });
  }, BARS_DRAWN);
  await page.goto("/");
  await page.locator(BARS_DRAWN).first().waitFor({ timeout: 30_000 });
  const { optionsAtMs, barsAtMs } = await page.evaluate(() => {
    const w = window as unknown as { optionsAtMs: number; barsAtMs: number };
    return { optionsAtMs: w.optionsAtMs, barsAtMs: w.barsAtMs };
  });
  const afterMs = barsAtMs - optionsAtMs;
  console.log(
    `options drawn at ${optionsAtMs.toFixed(0)} ms, bars at ${barsAtMs.toFixed(0)} ms: ${afterMs.toFixed(0)} ms after (load per core ${((loadavg()[0] ?? 0) / availableParallelism()).toFixed(1)})`,
  );
  test.info().annotations.push({ type: "bars after options (ms)", description: afterMs.toFixed(0) });
  expect(afterMs).toBeLessThanOrEqual(BARS_AFTER_OPTIONS_LIMIT_MS);
  expect(network.blocked).toEqual([]);
});

/**
 * Strings of the engine's own code, one from each of its chunks the page could fetch: the worker's bundle carries
 * them, and no script the page's thread runs should (issue 19: the engine downloaded twice).
 */
const ENGINE_MARKERS = [
  // src/plan/engines/llamacpp/handSplit.ts (the planSession chunk)
  "this option has no --tensor-split to set",
  // src/plan/engines/vllm/settings.ts's default's source (the engines chunk)
  "CacheConfig.gpu_memory_utilization",
  // src/plan/speed/host.ts's words for an assumed host (the evaluate chunk)
  "DDR4-3200) assumed",
];
/** The workers' own bundles (the worker's thread and its copy of the engine) and the service worker's: not the page's. */
const WORKER_SCRIPT = /^(planWorker-|calibrationWorker-|ggufWorker-|workbox-|sw\.js$)/;

/** The scripts the page's thread fetches from now on, by file name, in order. */
function pageScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    const file = path.slice(path.lastIndexOf("/") + 1);
    if (path.endsWith(".js") && !WORKER_SCRIPT.test(file) && r.frame() === page.mainFrame()) scripts.push(file);
  });
  return scripts;
}

/** Opens the example plan and waits until nothing more loads: the scripts its page's thread fetched, and goes on fetching. */
async function openedExample(page: Page): Promise<string[]> {
  const scripts = pageScripts(page);
  await page.goto("/");
  await page.getByRole("article").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  return scripts;
}

/** Of the built scripts `files`, the ones carrying engine code, and all of them gzipped (-9). */
function engineAndSize(files: readonly string[]): { engine: string[]; gzipBytes: number } {
  const texts = files.map((file) => readFileSync(new URL(`../dist/assets/${file}`, import.meta.url)));
  return {
    engine: files.filter((_, i) => ENGINE_MARKERS.some((m) => texts[i]?.toString("utf8").includes(m))),
    gzipBytes: texts.reduce((sum, text) => sum + gzipSync(text, { level: 9 }).length, 0),
  };
}

/**
 * Issue 19: the first screen and the Engine settings fetch no engine code on the page's thread. Before the plan
 * carried its engines' defaults (Plan.settingDefaults), the settings' chunk fetched the engines chunk (27.6 KB
 * gzipped) beside the worker's copy: the first screen fetched 12 scripts, 204.8 KB gzipped (-9), now 11, 178.2 KB.
 */
test("the first screen and its Engine settings fetch no engine code on the page's thread: the plan brings the defaults (issue 19)", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  const scripts = await openedExample(page);
  const first = engineAndSize(scripts);
  console.log(
    `first screen: ${scripts.length} scripts (${scripts.join(", ")}), ${(first.gzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
  expect(first.engine).toEqual([]);
  const before = scripts.length;
  await page.getByText("Engine settings", { exact: true }).click();
  // The engine's default on the example's card, from the plan (vLLM 0.21+'s 0.92: src/plan/engines/vllm/settings.ts).
  await expect(page.getByLabel("GPU memory utilization").first()).toHaveAttribute("placeholder", "0.92");
  await expect(page.getByLabel("vLLM release").locator("option")).toHaveCount(9);
  await page.waitForLoadState("networkidle");
  const opened = scripts.slice(before);
  const settings = engineAndSize(opened);
  console.log(
    `Engine settings opened: ${opened.length} more scripts (${opened.join(", ")}), ${(settings.gzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
  test.info().annotations.push({
    type: "first screen JS fetched (KB gz)",
    description: `${(first.gzipBytes / 1024).toFixed(1)}, then ${(settings.gzipBytes / 1024).toFixed(1)} for Engine settings`,
  });
  expect(settings.engine).toEqual([]);
  expect(network.blocked).toEqual([]);
});

/**
 * What opening an option's commands may fetch, gzipped: the form, the deployment panel (with yaml, 29 KB) and
 * calibrate-from-log's form, 40.2 KB (44.1 while the log's parser and calibrate.ts were in that form's chunk, before
 * the calibration worker read the log); 56.6 KB before the form asked the plan worker to check a --tensor-split, when
 * it fetched the engine's evaluate and plan chunks (11.6 KB) a second time, beside the worker's copy.
 */
const COMMAND_FORM_GZIP_LIMIT_BYTES = 48 * 1024;

test("opening an option's commands fetches no second copy of the engine: the form asks the worker's (issue 19)", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  const scripts = await openedExample(page);
  const before = scripts.length;
  await page.getByRole("button", { name: "Commands" }).first().click();
  await expect(page.getByRole("region", { name: "Commands" })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(".command-form .fit-status").first()).toContainText(/Fits|fit/);
  await page.waitForLoadState("networkidle");
  const fetched = scripts.slice(before);
  const { engine, gzipBytes } = engineAndSize(fetched);
  console.log(
    `command form: ${fetched.length} scripts fetched (${fetched.join(", ")}), ${(gzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
  test.info().annotations.push({ type: "command form JS (KB gz)", description: (gzipBytes / 1024).toFixed(1) });
  expect(engine).toEqual([]);
  expect(gzipBytes).toBeLessThanOrEqual(COMMAND_FORM_GZIP_LIMIT_BYTES);
  expect(network.blocked).toEqual([]);
});

/**
 * The calibration code's own words (src/calibration/logparse.ts's name for a vLLM 0.19 log's format, calibrate.ts's
 * note on a release): the log is read and compared in the calibration worker, so no script of the page's carries them.
 */
const CALIBRATION_MARKERS = ["Total non KV cache memory line", "differ by design"];

/** Of the built scripts `files`, the ones carrying the calibration code. */
function calibrationScripts(files: readonly string[]): string[] {
  return files.filter((file) => {
    const text = readFileSync(new URL(`../dist/assets/${file}`, import.meta.url), "utf8");
    return CALIBRATION_MARKERS.some((m) => text.includes(m));
  });
}

/** A long task, and whether the page's own work accounts for it (Long Animation Frame timing). */
interface PageTask {
  ms: number;
  /** What ran in its frame: each script's source URL, function and invoker, and style and layout. */
  frame: string;
  /**
   * Less than half of it the page's scripts or rendering: the test driver's own work. A Chromium trace of such a
   * task shows a blink.mojom.DevToolsSession message running JavaScript outside the page's world (Playwright's
   * selector and actionability code over the whole document): what took 486–724 ms after a log was pasted.
   */
  driver: boolean;
}

/** Every long task from the page's first script on, each with the Long Animation Frame that holds it. */
async function observePageTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    interface Script {
      sourceURL: string;
      sourceFunctionName: string;
      invoker: string;
      duration: number;
      forcedStyleAndLayoutDuration: number;
    }
    interface Frame extends PerformanceEntry {
      renderStart: number;
      styleAndLayoutStart: number;
      scripts: Script[];
    }
    const w = window as unknown as { pageTasks: PerformanceEntry[]; pageFrames: Frame[] };
    w.pageTasks = [];
    w.pageFrames = [];
    new PerformanceObserver((list) => w.pageTasks.push(...list.getEntries())).observe({
      type: "longtask",
      buffered: true,
    });
    new PerformanceObserver((list) => w.pageFrames.push(...(list.getEntries() as Frame[]))).observe({
      type: "long-animation-frame",
      buffered: true,
    });
  });
}

/** The long tasks since the last call, each named by its frame. */
async function takePageTasks(page: Page): Promise<PageTask[]> {
  // A frame and a task on, so the last long task's frame has been reported too.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))));
  return page.evaluate(() => {
    interface Frame extends PerformanceEntry {
      renderStart: number;
      styleAndLayoutStart: number;
      scripts: {
        startTime: number;
        sourceURL: string;
        sourceFunctionName: string;
        invoker: string;
        duration: number;
        forcedStyleAndLayoutDuration: number;
      }[];
    }
    const w = window as unknown as { pageTasks: PerformanceEntry[]; pageFrames: Frame[] };
    const tasks = w.pageTasks;
    const frames = w.pageFrames;
    w.pageTasks = [];
    w.pageFrames = [];
    return tasks.map((t) => {
      const f = frames.find((f) => f.startTime <= t.startTime + 1 && t.startTime < f.startTime + f.duration);
      if (!f) return { ms: t.duration, frame: "no frame", driver: false };
      const end = f.startTime + f.duration;
      const renderMs = f.renderStart > 0 ? end - f.renderStart : 0;
      const layoutMs = f.styleAndLayoutStart > 0 ? end - f.styleAndLayoutStart : 0;
      const within = (at: number) => at >= t.startTime && at <= t.startTime + t.duration;
      const pageMs =
        f.scripts.filter((s) => within(s.startTime)).reduce((sum, s) => sum + s.duration, 0) +
        (f.renderStart > 0 && within(f.renderStart) ? end - f.renderStart : 0);
      const scripts = f.scripts.map(
        (s) =>
          `${s.invoker} ${s.sourceURL.replace(/^.*\//, "")}:${s.sourceFunctionName || "?"} ${s.duration.toFixed(0)} ms (forced layout ${s.forcedStyleAndLayoutDuration.toFixed(0)})`,
      );
      return {
        ms: t.duration,
        frame: `page's ${pageMs.toFixed(0)} ms; ${f.duration.toFixed(0)} ms frame: rendering ${renderMs.toFixed(0)} ms, style and layout ${layoutMs.toFixed(0)}; ${scripts.join("; ") || "no script"}`,
        // LoAF lists every script entry point over 5 ms: what of the task the page's scripts and rendering were.
        driver: pageMs < t.duration / 2,
      };
    });
  });
}

/** Clicks the summary that starts with `title` and times, in the page, until `drawn` matches: one frame's resolution. */
async function timedOpen(page: Page, title: string, drawn: string): Promise<number> {
  return page.evaluate(
    async ([title, drawn]) => {
      const summary = [...document.querySelectorAll("summary")].find((s) => s.textContent?.startsWith(title));
      if (!summary) throw new Error(`no disclosure "${title}"`);
      const start = performance.now();
      summary.click();
      await new Promise<void>((done) => {
        const tick = () => (document.querySelector(drawn) ? done() : requestAnimationFrame(tick));
        tick();
      });
      return performance.now() - start;
    },
    [title, drawn] as const,
  );
}

/** Llama-3.1-8B on an H100, vLLM 0.19's startup lines (test/ui/CalibrateFromLog.test.tsx's log: llm-d-planner PR #205). */
const VLLM_019_LOG = (
  JSON.parse(readFileSync(new URL("../test/fixtures/logs/calibration-quotes.json", import.meta.url), "utf8")) as {
    records: { id: string; quote: string[] }[];
  }
).records
  .find((r) => r.id === "vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192")
  ?.quote.join("\n");

/**
 * Issue 19: the Accuracy view (its memory cases, its speed tab) and "Calibrate from a log" are computed in the
 * calibration worker: the page's thread fetches only their drawing. On main (bd2c6f4) opening the view fetched the
 * engine's evaluate chunk and the cases, and the log's chunk carried the parser and calibrate.ts.
 */
/**
 * Issue 19's bar while the Accuracy view is used: no long task over 50 ms. On main's build (every row drawn),
 * the speed tab's 592 rows were one 82–150 ms task (69–139 ms style and layout), the memory cases one of 53–101 ms.
 */
const ACCURACY_LONG_TASK_LIMIT_MS = 50;
/** A hand's pause between reaching a summary and clicking it: the head start the worker is given. */
const HOVER_TO_CLICK_MS = 150;

test("the Accuracy view, both tabs, and a log calibrated fetch no engine or calibration code on the page's thread (issue 19)", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  await observePageTasks(page);
  const scripts = await openedExample(page);
  await takePageTasks(page);
  const before = scripts.length;
  // Issue 19's bar, wall-clock as the drag test's: scaled by the machine's load per core.
  const limitMs = ACCURACY_LONG_TASK_LIMIT_MS * Math.max(1, (loadavg()[0] ?? 0) / availableParallelism());
  const tasks = (ms: number[]) => `${ms.length} long tasks, longest ${Math.max(0, ...ms).toFixed(0)} ms`;
  /** The page's long tasks since the last call (the driver's printed apart), none over the bar. */
  const noLongTask = async (what: string): Promise<number[]> => {
    const taken = await takePageTasks(page);
    const own = taken.filter((t) => !t.driver);
    const driver = taken.filter((t) => t.driver).map((t) => t.ms);
    console.log(
      `${what}: ${tasks(own.map((t) => t.ms))}${own.map((t) => ` [${t.frame}]`).join("")}; the test driver's: ${tasks(driver)}`,
    );
    // Soft: every phase is measured and named in one run.
    expect
      .soft(
        own.filter((t) => t.ms > limitMs),
        `long tasks over ${limitMs.toFixed(0)} ms: ${what}`,
      )
      .toEqual([]);
    return own.map((t) => t.ms);
  };
  // A pointer rests on the summary on its way to the click (the worker starts on it: App.tsx's prepareAccuracy).
  await page.locator("summary", { hasText: "Accuracy: what Modelplan predicts" }).hover();
  await page.waitForTimeout(HOVER_TO_CLICK_MS);
  const casesMs = await timedOpen(page, "Accuracy: what Modelplan predicts", ".accuracy-cases tbody tr");
  // Found by CSS from here to the log's end: Playwright's role and label queries walk the whole document on the
  // page's thread, the driver's work (PageTask.driver), which a busy page makes long.
  await expect(page.locator("h4", { hasText: "vLLM 0.29" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  const casesTasks = await noLongTask("the memory cases opened");

  await page.locator("summary", { hasText: "Speed: predicted against public benchmarks" }).hover();
  await page.waitForTimeout(HOVER_TO_CLICK_MS);
  const speedMs = await timedOpen(
    page,
    "Speed: predicted against public benchmarks",
    '[aria-label="Every speed figure"] tbody tr',
  );
  const figures = page.locator('[role="region"][aria-label="Every speed figure"]');
  await page.waitForLoadState("networkidle");
  const speedTasks = await noLongTask("the speed tab opened");
  console.log(
    `cases drawn ${casesMs.toFixed(0)} ms after the click (${tasks(casesTasks)}), speed tab ${speedMs.toFixed(0)} ms (${tasks(speedTasks)}); load per core ${((loadavg()[0] ?? 0) / availableParallelism()).toFixed(1)}`,
  );
  // Every memory case: the 57 startups of 0.19 and older and the 2026 ones by release (test/ui/Accuracy.test.tsx),
  // counted with the header row by the table; only those in and around its box are drawn.
  const cases = page.locator('[role="region"][aria-label="Every calibration case"]');
  await expect(cases.locator("table")).toHaveAttribute("aria-rowcount", String(57 + 1));
  expect(await cases.locator("tbody tr[aria-rowindex]").count()).toBeLessThan(57);
  // Scrolled to its end, the box draws the last figure: every row is reachable.
  const rowCount = Number(await figures.locator("table").getAttribute("aria-rowcount"));
  expect(rowCount).toBeGreaterThan(500);
  expect(await figures.locator("tbody tr[aria-rowindex]").count()).toBeLessThan(100);
  // Again until it holds: rows measured as they are drawn move the end while the box scrolls to it.
  await expect(async () => {
    await figures.evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
    await expect(figures.locator(`tr[aria-rowindex="${rowCount}"]`)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await noLongTask("the speed figures scrolled to their end");
  const accuracy = scripts.slice(before);
  const accuracyFetched = engineAndSize(accuracy);
  console.log(
    `Accuracy opened: ${accuracy.length} page scripts (${accuracy.join(", ")}), ${(accuracyFetched.gzipBytes / 1024).toFixed(1)} KB gzipped`,
  );
  test.info().annotations.push({
    type: "Accuracy view",
    description: `${(accuracyFetched.gzipBytes / 1024).toFixed(1)} KB gz page JS; cases ${casesMs.toFixed(0)} ms (${tasks(casesTasks)}), speed ${speedMs.toFixed(0)} ms (${tasks(speedTasks)})`,
  });
  expect(accuracyFetched.engine).toEqual([]);
  expect(calibrationScripts(accuracy)).toEqual([]);

  if (!VLLM_019_LOG) throw new Error("no vLLM 0.19 log in test/fixtures/logs/calibration-quotes.json");
  const beforeLog = scripts.length;
  await page
    .locator("button", { hasText: /^Commands$/ })
    .first()
    .click();
  await page.locator("summary", { hasText: "Calibrate from a startup log" }).click();
  const log = page.locator(".calibrate-from-log textarea");
  await expect(log).toBeVisible();
  await page.waitForLoadState("networkidle");
  await noLongTask("Commands and the log form opened");
  // From here every long task is the log's: its reading and comparison, and the drawing of the table.
  await log.fill(VLLM_019_LOG);
  await expect(page.locator('[role="status"]', { hasText: "Read a vllm log." })).toBeVisible({ timeout: 30_000 });
  // What vLLM printed, in the measured column: "Model loading took 14.99 GiB memory".
  await expect(page.locator("table.calibration tr", { hasText: "Weights per card" }).locator("td").nth(1)).toHaveText(
    "14.99 GiB",
  );
  await page.waitForLoadState("networkidle");
  const calibrate = scripts.slice(beforeLog);
  await noLongTask("a log pasted and calibrated");
  console.log(`Commands and a log calibrated: ${calibrate.length} page scripts (${calibrate.join(", ")})`);
  expect(engineAndSize(calibrate).engine).toEqual([]);
  expect(calibrationScripts(calibrate)).toEqual([]);
  expect(network.blocked).toEqual([]);
});

/** Issue 19: the long-task ceiling while a GGUF repo is read (one long task blocks input that long). */
const GGUF_LONG_TASK_LIMIT_MS = 200;
const GGUF_REPO = "bartowski/Qwen2.5-14B-Instruct-GGUF";

test("a 10-quant GGUF repo of a 152k vocabulary plans after ≤ 2 header reads and ≤ 8 MB, with no long task over 200 ms", async ({
  page,
  context,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  await observeLongTasks(page);
  await page.goto("/");
  await page.getByRole("article").first().waitFor({ timeout: 30_000 });
  // The example plan is drawn: from here on, every long task is the read's or its plan's.
  await page.evaluate(() => {
    (window as unknown as { longTasksMs: number[] }).longTasksMs = [];
  });
  const field = page.getByLabel("Hugging Face repo");
  await field.fill(GGUF_REPO);
  const before = network.hubRequests.length;
  await field.press("Enter");
  // The plan moves to the repo while its other headers are still being read: planned from the first.
  await expect(page.getByText(/planned from the first/)).toBeVisible({ timeout: 30_000 });
  // Qwen2.5-14B: 48 layers (its config.json num_hidden_layers, the header facts recorded).
  await expect(page.locator(".model-summary")).toContainText("48 layers", { timeout: 30_000 });
  // The first header is the first by path (src/hub/read.ts), and the others are asked for only once it is in:
  // the requests up to its last one are what the first plan was made from.
  const firstFile = "Qwen2.5-14B-Instruct-IQ3_XS.gguf";
  const requests = network.hubRequests.slice(before);
  const ranges = network.hubRanges.slice(before);
  const upTo = requests.findLastIndex((u) => u.endsWith(firstFile)) + 1;
  const atFirstPlan = ranges
    .slice(0, upTo)
    .flatMap((r, i) => (r === null ? [] : [{ url: requests[i] ?? "", range: r }]));
  const headerReads = new Set(atFirstPlan.map((r) => r.url)).size;
  const firstPlanBytes = atFirstPlan.reduce((sum, { range }) => {
    const m = /bytes=(\d+)-(\d+)/.exec(range);
    return sum + (m ? Number(m[2]) - Number(m[1]) + 1 : 0);
  }, 0);
  // Every header read: the progress line goes when the read ends.
  await expect(page.getByText(/GGUF headers: \d+ of 10 read/)).toHaveCount(0, { timeout: 60_000 });
  const allRanges = network.hubRanges.slice(before).filter((r) => r !== null).length;
  const longTasks = await page.evaluate(() => (window as unknown as { longTasksMs: number[] }).longTasksMs);
  const longest = Math.max(0, ...longTasks);
  console.log(
    `GGUF repo ${GGUF_REPO}: first plan after ${headerReads} header read(s), ${atFirstPlan.length} range requests (${atFirstPlan.map((r) => r.range).join(", ")}; ${(firstPlanBytes / 1e6).toFixed(2)} MB asked); all 10 headers: ${allRanges} range requests; ${longTasks.length} long tasks, longest ${longest.toFixed(0)} ms`,
  );
  test.info().annotations.push({
    type: "GGUF repo",
    description: `${headerReads} header reads, ${atFirstPlan.length} ranges / ${(firstPlanBytes / 1e6).toFixed(2)} MB to first plan; longest task ${longest.toFixed(0)} ms`,
  });
  // Issue 19: ≤ 2 header reads and ≤ 8 MB; the recorded header is a real file's 5.97 MB, read in 2 requests.
  expect(headerReads).toBeLessThanOrEqual(2);
  expect(firstPlanBytes).toBeLessThanOrEqual(8e6);
  expect(atFirstPlan.length).toBeLessThanOrEqual(2);
  // Wall-clock, as the slider's guard: scaled by the machine's load per core (a share of a core makes every task longer).
  expect(longest).toBeLessThanOrEqual(
    GGUF_LONG_TASK_LIMIT_MS * Math.max(1, (loadavg()[0] ?? 0) / availableParallelism()),
  );
  expect(network.blocked).toEqual([]);
});

/** Issue 19: a 1,000-node kubectl JSON imports and replaces the cluster in ≤ 2 s; issue 20: 2,000 nodes with no long task over 200 ms. */
const IMPORT_REPLACE_LIMIT_MS = 2000;
const IMPORT_LONG_TASK_LIMIT_MS = 200;

/**
 * `kubectl get nodes -o json` for n DGX H100 nodes, in the shape GPU Feature
 * Discovery labels them (test/fixtures/inventory/k8s-node-labels-json-*.txt)
 * with the status a real node carries: its images list is most of a node's
 * ~10 KB. Every tenth node has two cards in use, so the nodes form two groups.
 */
function kubectlNodes(n: number): string {
  const images = Array.from({ length: 30 }, (_, i) => ({
    names: [
      `nvcr.io/nvidia/image-${i}@sha256:${"0123456789abcdef".repeat(4)}`,
      `nvcr.io/nvidia/image-${i}:24.0${i % 10}`,
    ],
    sizeBytes: 1_000_000_000 + i,
  }));
  const items = Array.from({ length: n }, (_, i) => ({
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: `dgx-h100-${String(i + 1).padStart(4, "0")}`,
      labels: {
        "kubernetes.io/hostname": `dgx-h100-${String(i + 1).padStart(4, "0")}`,
        "node.kubernetes.io/instance-type": "dgx-h100",
        "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
        "nvidia.com/gpu.memory": "81559",
        "nvidia.com/gpu.count": "8",
        "nvidia.com/gpu.present": "true",
      },
    },
    status: {
      capacity: { cpu: "224", memory: "2113470508Ki", "nvidia.com/gpu": "8", pods: "110" },
      allocatable: { cpu: "224", memory: "2113368108Ki", "nvidia.com/gpu": i % 10 === 0 ? "6" : "8", pods: "110" },
      images,
    },
  }));
  return JSON.stringify({ apiVersion: "v1", kind: "List", items, metadata: { resourceVersion: "" } }, null, 4);
}

for (const nodes of [1000, 2000]) {
  test(`a ${nodes.toLocaleString("en-US")}-node kubectl JSON imports and replaces the cluster (≤ 2 s, no long task over 200 ms)`, async ({
    page,
    context,
  }) => {
    test.setTimeout(180_000);
    const network = await routeNetwork(context, ORIGIN);
    await observeLongTasks(page);
    await page.goto("/");
    await page.getByRole("article").first().waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: /Import/ }).click();
    const json = kubectlNodes(nodes);
    // The page's own share of the read starts when the file input changes: before it, Playwright is
    // still passing the file into the page (most of the wall time for a 10 MiB file).
    await page.evaluate(() => {
      const w = window as unknown as { fileChangedAt?: number };
      document.addEventListener("change", () => (w.fileChangedAt ??= performance.now()), { capture: true });
    });
    const readStart = Date.now();
    await page
      .getByLabel("Or upload a file")
      .setInputFiles({ name: "nodes.json", mimeType: "application/json", buffer: Buffer.from(json) });
    await expect(page.getByText(/Read as kubectl get nodes/)).toBeVisible({ timeout: 60_000 });
    const readMs = Date.now() - readStart;
    const pageReadMs = Math.round(
      await page.evaluate(
        () => performance.now() - ((window as unknown as { fileChangedAt?: number }).fileChangedAt ?? NaN),
      ),
    );
    await page.evaluate(() => {
      (window as unknown as { longTasksMs: number[] }).longTasksMs = [];
    });
    const replaceStart = Date.now();
    await page.getByRole("button", { name: "Replace the cluster" }).click();
    await expect(page.locator(".cluster-summary")).toContainText(`${nodes.toLocaleString("en-US")} nodes`, {
      timeout: 120_000,
    });
    await page.getByRole("article").first().waitFor({ timeout: 60_000 });
    const replaceMs = Date.now() - replaceStart;
    const longTasks = await page.evaluate(() => (window as unknown as { longTasksMs: number[] }).longTasksMs);
    const longest = Math.max(0, ...longTasks);
    const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
    console.log(
      `${nodes} nodes (${(json.length / 2 ** 20).toFixed(1)} MiB of kubectl JSON): read ${readMs} ms with the file's transfer, ${pageReadMs} ms the page's own; replace and plan ${replaceMs} ms, ${longTasks.length} long tasks, longest ${longest.toFixed(0)} ms, ${domNodes} DOM elements`,
    );
    test.info().annotations.push({
      type: `${nodes}-node import`,
      description: `replace ${replaceMs} ms, longest task ${longest.toFixed(0)} ms`,
    });
    // Imports and replaces: the page's read of the file, then the replace and the plan.
    expect(pageReadMs + replaceMs).toBeLessThanOrEqual(
      IMPORT_REPLACE_LIMIT_MS * Math.max(1, (loadavg()[0] ?? 0) / availableParallelism()),
    );
    expect(longest).toBeLessThanOrEqual(IMPORT_LONG_TASK_LIMIT_MS);
    expect(network.blocked).toEqual([]);
  });
}

/** Issue 19: first contentful paint ≤ 500 ms (printed), held as a ratio to a static page loaded in the same run. */
const FCP_TARGET_MS = 500;
/**
 * Medians of the 9 cold loads, the old build and this one interleaved on the machine this was built on (load
 * 2.4-3.0 per core). Before, the first paint was React's first commit: after the script's fetch, its run
 * (~90-120 ms) and React's first render and layout (~100-270 ms), app 536-640 ms against the static page's
 * 88-140 (ratio 4.6-6.1). index.html now paints the page's header, its styles inline (no second request
 * before the first paint): app 116-164 ms, static 96-128, ratio 1.21-1.39. The guard leaves room for a busier run.
 */
const FCP_RATIO_LIMIT = 2.5;
/**
 * The header index.html paints is no proof the page works: the time until the plan's verdict line ("Fits on
 * …") is painted is timed too, beside the same static page, and held by a ratio of its own. Same runs: 736-1072
 * ms, ratio 6.4-9.6 (the old build 792-1128 ms, 7.5-9.0: the header changes nothing after the first paint).
 * Most of it is the page's own thread: the script's run, React's first render of the four panels and its
 * layout (~250 ms together), then the plan's cards.
 */
const VERDICT_RATIO_LIMIT = 16;
const COLD_LOADS = 9;
/** A static page of about the first screen's size: a heading, a form and a paragraph, no script. */
const STATIC_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>static</title><style>body{font:16px system-ui;margin:2rem}</style></head>
<body><h1>Will this model fit my cluster?</h1><form><label>Hugging Face repo <input value="Qwen/Qwen2.5-Coder-32B-Instruct"></label><button>Plan</button></form>
<p>A static page served by the same server, to time this machine's paint beside the app's.</p></body></html>`;

test("first contentful paint beside a static page in the same run (target ≤ 500 ms, printed; the ratio held), and the verdict's paint", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  /** A cold load's first contentful paint, and (with `verdict`) when the top verdict line was first painted. */
  const paints = async (path: string, verdict: boolean): Promise<{ fcp: number; verdict: number }> => {
    // A new context is a cold load: no HTTP cache, no service worker, no storage.
    const context = await browser.newContext();
    await routeNetwork(context, ORIGIN);
    await context.route(`${ORIGIN}/static-peer.html`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: STATIC_PAGE }),
    );
    const page = await context.newPage();
    // Element Timing: the verdict line is marked as it enters the DOM (an observer's callback runs before the
    // frame is painted), so the browser reports the paint that first shows it. Set by the test, not the page.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const line = document.querySelector(".top-verdict");
        if (line && !line.hasAttribute("elementtiming")) line.setAttribute("elementtiming", "verdict");
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(path);
    const times = await page.evaluate(
      (withVerdict) =>
        new Promise<{ fcp: number; verdict: number }>((done) => {
          let fcp = Number.NaN;
          let verdict = Number.NaN;
          const settle = () => {
            if (!Number.isNaN(fcp) && (!withVerdict || !Number.isNaN(verdict))) done({ fcp, verdict });
          };
          new PerformanceObserver((list) => {
            const entry = list.getEntriesByName("first-contentful-paint")[0];
            if (entry) fcp = entry.startTime;
            settle();
          }).observe({ type: "paint", buffered: true });
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { identifier?: string; renderTime?: number })[])
              if (e.identifier === "verdict") verdict = e.renderTime || e.startTime;
            settle();
          }).observe({ type: "element", buffered: true });
        }),
      verdict,
    );
    if (verdict) await expect(page.locator(".top-verdict")).toContainText(/^Fits on /);
    await context.close();
    return times;
  };
  const app: number[] = [];
  const appVerdict: number[] = [];
  const peer: number[] = [];
  // Interleaved, so a busy moment of the machine falls on both.
  for (let i = 0; i < COLD_LOADS; i++) {
    const { fcp, verdict } = await paints("/", true);
    app.push(fcp);
    appVerdict.push(verdict);
    peer.push((await paints("/static-peer.html", false)).fcp);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const appMs = median(app);
  const verdictMs = median(appVerdict);
  const peerMs = median(peer);
  const ratio = appMs / peerMs;
  const verdictRatio = verdictMs / peerMs;
  console.log(
    `first contentful paint, median of ${COLD_LOADS} cold loads: app ${appMs.toFixed(0)} ms, static page ${peerMs.toFixed(0)} ms, ratio ${ratio.toFixed(2)}; target ≤ ${FCP_TARGET_MS} ms ${appMs <= FCP_TARGET_MS ? "met" : "NOT met"}; the verdict line painted at ${verdictMs.toFixed(0)} ms, ratio ${verdictRatio.toFixed(2)} (load per core ${((loadavg()[0] ?? 0) / availableParallelism()).toFixed(1)})`,
  );
  test.info().annotations.push({
    type: "FCP (ms)",
    description: `app ${appMs.toFixed(0)}, static ${peerMs.toFixed(0)}, ratio ${ratio.toFixed(2)}; verdict ${verdictMs.toFixed(0)}, ratio ${verdictRatio.toFixed(2)}`,
  });
  expect(ratio).toBeLessThanOrEqual(FCP_RATIO_LIMIT);
  expect(verdictRatio).toBeLessThanOrEqual(VERDICT_RATIO_LIMIT);
});

test("the header index.html paints before the script runs is the one React draws, in the same place", async ({
  browser,
}) => {
  /** The header's markup and its heading's box: with the page's scripts refused (`shellOnly`), or once React has drawn the plan. */
  const header = async (shellOnly: boolean) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await routeNetwork(context, ORIGIN);
    if (shellOnly) await context.route(/\/assets\/.*\.js$/, (route) => route.abort("blockedbyclient"));
    const page = await context.newPage();
    await page.goto("/");
    if (!shellOnly) await page.locator(".top-verdict").waitFor({ timeout: 30_000 });
    const markup = await page
      .locator(".page-head > div")
      .first()
      .evaluate((e) => e.outerHTML, undefined, { timeout: 10_000 });
    const box = await page.getByRole("heading", { level: 1 }).boundingBox();
    await context.close();
    return { markup, box };
  };
  const shell = await header(true);
  const drawn = await header(false);
  // The same elements, classes and words; index.html's indentation (whitespace between block elements) draws nothing.
  expect(shell.markup.replace(/>\s+</g, "><")).toBe(drawn.markup);
  expect(shell.box).toEqual(drawn.box);
});
