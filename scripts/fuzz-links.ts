/**
 * `npx tsx scripts/fuzz-links.ts [cases] [seed]`: issue 20's link attack at
 * full size (default 10,000 links, every one decoded and the page drawn from
 * it), with the figures the issue asks for. Exits 1 when any case failed.
 * The bounded version runs in `npm test` (test/state/linkFuzz.test.ts).
 */
import { readFileSync } from "node:fs";
import { register } from "node:module";
import { join } from "node:path";
import type { CaseResult } from "./lib/linkFuzz.ts";

// The page's components import their stylesheets (vite bundles them); under node they are empty modules.
register(
  `data:text/javascript,${encodeURIComponent('export async function load(url, context, next) { return url.endsWith(".css") ? { format: "module", source: "", shortCircuit: true } : next(url, context); }')}`,
);
const { defaultChoices } = await import("../src/app/defaults.ts");
const { attack, rng, runCase, SHAPES } = await import("./lib/linkFuzz.ts");

const cases = Number(process.argv[2] ?? 10_000);
const seed = Number(process.argv[3] ?? 20);
const manualConfig = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "..", "test", "fixtures", "configs", "Qwen__Qwen3-32B-FP8.config.json"),
    "utf8",
  ),
) as Record<string, unknown>;
const defaults = defaultChoices();
const random = rng(seed);

const results: CaseResult[] = [];
const started = performance.now();
for (let i = 0; i < cases; i++) {
  const shape = SHAPES[i % SHAPES.length] ?? "bit-flip";
  results.push(runCase(shape, attack(shape, random, defaults, manualConfig), defaults, true));
}
const totalS = (performance.now() - started) / 1000;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const rows = SHAPES.map((shape) => {
  const mine = results.filter((r) => r.shape === shape);
  return {
    shape,
    cases: mine.length,
    noticed: mine.filter((r) => r.notices > 0).length,
    decodeErrors: mine.filter((r) => r.decodeError).length,
    renderErrors: mine.filter((r) => r.renderError).length,
    blank: mine.filter((r) => r.blank).length,
    unsound: mine.filter((r) => r.unsound).length,
    over1s: mine.filter((r) => r.decodeMs + r.renderMs > 1000).length,
    maxDecodeMs: Math.round(Math.max(...mine.map((r) => r.decodeMs))),
    p99RenderMs: Math.round(
      quantile(
        mine.map((r) => r.renderMs),
        0.99,
      ),
    ),
    maxRenderMs: Math.round(Math.max(...mine.map((r) => r.renderMs))),
    maxChars: Math.max(...mine.map((r) => r.chars)),
  };
});
console.table(rows);
const failed = results.filter(
  (r) => r.decodeError || r.renderError || r.blank || r.unsound || r.decodeMs + r.renderMs > 1000,
);
console.log(`${cases} links (seed ${seed}) in ${totalS.toFixed(1)} s: ${failed.length} failed`);
for (const f of failed.slice(0, 10))
  console.log(
    `  ${f.shape} (${f.chars} chars): ${f.decodeError ?? f.renderError ?? f.unsound ?? (f.blank ? "blank page" : `${Math.round(f.decodeMs + f.renderMs)} ms`)}`,
  );
process.exitCode = failed.length === 0 ? 0 : 1;
