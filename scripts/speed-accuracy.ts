/**
 * The speed model beside the public benchmarks (test/fixtures/speed/measured.jsonl):
 * every case, then median / p90 absolute error per group on the fitted and
 * the checking half, primary rows apart from secondary ones.
 *   npx tsx scripts/speed-accuracy.ts          the table and the aggregates
 *   npx tsx scripts/speed-accuracy.ts --fit    also refit the terms on the fitted half (from the priors in
 *                                              src/plan/speed/terms.ts, never from fitted.json) and print them
 *   npx tsx scripts/speed-accuracy.ts --fit --write   and write them to src/plan/speed/fitted.json
 *   npx tsx scripts/speed-accuracy.ts --fit --check   exit 1 unless fitted.json is what the fit writes
 * Every run also prints vLLM/SGLang on the cards the public set has no serving row on
 * (test/fixtures/speed/serving-other-cards.jsonl, never fitted on): each case, then per group and card kind.
 */
import { absQuantile, errorPct, otherCardCases, predictCase, speedCases } from "../test/plan/speedCases.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { fitTerms, fittedFileText } from "../test/plan/speedFit.ts";
import { speedTargetFigures } from "../test/plan/speedTargets.ts";

const { cases, skipped } = speedCases();

function pad(s: string, n: number): string {
  return s.length >= n ? s.slice(0, n) : s + " ".repeat(n - s.length);
}

function fmt(x: number | null): string {
  if (x === null) return "null";
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2);
}

if (process.argv.includes("--fit")) fit();

console.log(`${pad("case", 70)} ${pad("group", 22)} ${pad("half", 8)} tier      predicted  measured  error`);
for (const c of cases) {
  const p = predictCase(c);
  const err = p === null ? "" : `${errorPct(p, c.measured) >= 0 ? "+" : ""}${errorPct(p, c.measured).toFixed(1)}%`;
  console.log(
    `${pad(c.id, 70)} ${pad(c.group, 22)} ${pad(c.half, 8)} ${pad(c.tier, 9)} ${pad(fmt(p), 10)} ${pad(fmt(c.measured), 9)} ${err}`,
  );
}

console.log(`\nrows left out: ${skipped.length}`);
const reasons = new Map<string, number>();
for (const s of skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
for (const [r, n] of reasons) console.log(`  ${n} × ${r}`);

console.log("\naggregates: |error| median / p90 (n, of which null)");
const groups = [...new Set(cases.map((c) => c.group))];
for (const g of groups) {
  for (const tier of ["primary", "secondary"] as const) {
    const line: string[] = [];
    for (const half of ["fitted", "checking"] as const) {
      const sel = cases.filter((c) => c.group === g && c.tier === tier && c.half === half);
      if (sel.length === 0) continue;
      const errs = sel
        .map((c) => ({ c, p: predictCase(c) }))
        .filter((x) => x.p !== null)
        .map((x) => errorPct(x.p as number, x.c.measured));
      line.push(
        `${half} ${absQuantile(errs, 0.5).toFixed(1)}% / ${absQuantile(errs, 0.9).toFixed(1)}% (n ${sel.length}, null ${sel.length - errs.length})`,
      );
    }
    if (line.length > 0) console.log(`  ${pad(g, 24)} ${pad(tier, 9)} ${line.join("   ")}`);
  }
}

console.log("\nissue 12 targets (primary rows; pp512 only for prefill):");
for (const half of ["fitted", "checking"] as const) {
  const t = speedTargetFigures(cases, half);
  const line = (name: string, v: number, n: number, limit: number): string =>
    `${name} ${v.toFixed(1)}% (target ≤ ${limit}%, n ${n}) ${v <= limit ? "meets" : "MISSES"}`;
  console.log(
    `  ${pad(half, 9)} ${line("llama.cpp decode median", t.decode.medianPct, t.decode.n, 10)}; ${line("p90", t.decode.p90Pct, t.decode.n, 25)}`,
  );
  console.log(`  ${pad("", 9)} ${line("llama.cpp pp512 median", t.prefillPp512.medianPct, t.prefillPp512.n, 20)}`);
  console.log(
    `  ${pad("", 9)} ${line("vLLM/SGLang TPOT median", t.servingTpot.medianPct, t.servingTpot.n, 20)}; ${line("per-GPU throughput median", t.servingThroughputPerGpu.medianPct, t.servingThroughputPerGpu.n, 20)}`,
  );
}

otherCards();

/** The check on cards without a serving row in the public set: per case, then |error| median / p90 by group and card. */
function otherCards(): void {
  const { cases: other, skipped: otherSkipped } = otherCardCases();
  console.log(
    "\nvLLM/SGLang on other cards (serving-other-cards.jsonl; the HBM rows split into halves, vllm/hbm/dense fitted on one; GDDR rows check only):",
  );
  console.log(`${pad("case", 78)} ${pad("card", 16)} ${pad("half", 9)} predicted  measured  error`);
  const rows = other.map((c) => ({ c, p: predictCase(c) }));
  for (const { c, p } of rows) {
    const err = p === null ? "" : `${errorPct(p, c.measured) >= 0 ? "+" : ""}${errorPct(p, c.measured).toFixed(1)}%`;
    console.log(
      `${pad(c.id, 78)} ${pad(c.cardLabel, 16)} ${pad(c.half, 9)} ${pad(fmt(p), 10)} ${pad(fmt(c.measured), 9)} ${err}`,
    );
  }
  for (const s of otherSkipped) console.log(`  left out: ${s.id}: ${s.reason}`);
  const line = (label: string, sel: typeof rows): void => {
    const errs = sel.filter((x) => x.p !== null).map((x) => errorPct(x.p as number, x.c.measured));
    if (errs.length === 0) return;
    const signed = [...errs].sort((a, b) => a - b)[Math.floor((errs.length - 1) / 2)] ?? 0;
    console.log(
      `  ${pad(label, 40)} ${absQuantile(errs, 0.5).toFixed(1)}% / ${absQuantile(errs, 0.9).toFixed(1)}% (n ${sel.length}, null ${sel.length - errs.length}; signed median ${signed >= 0 ? "+" : ""}${signed.toFixed(1)}%)`,
    );
  };
  console.log("  |error| median / p90:");
  for (const g of [...new Set(rows.map((x) => x.c.group))]) {
    line(
      g,
      rows.filter((x) => x.c.group === g),
    );
    for (const card of [...new Set(rows.filter((x) => x.c.group === g).map((x) => x.c.cardLabel))])
      line(
        `  ${card}`,
        rows.filter((x) => x.c.group === g && x.c.cardLabel === card),
      );
    for (const kind of ["gddr", "hbm"] as const)
      for (const [tp, one] of [
        ["TP 1", true],
        ["TP > 1", false],
      ] as const)
        line(
          `  ${kind}, ${tp}`,
          rows.filter(
            (x) => x.c.group === g && x.c.input.card.kind === kind && (x.c.input.layout.tensorParallel === 1) === one,
          ),
        );
    for (const half of ["fitted", "checking"] as const)
      line(
        `  hbm, ${half} half`,
        rows.filter((x) => x.c.group === g && x.c.input.card.kind === "hbm" && x.c.half === half),
      );
  }
}

/**
 * Refit every fitted entry from its prior (test/plan/speedFit.ts); with --write, replace
 * src/plan/speed/fitted.json; with --check, exit 1 if the committed file is not what the fit writes.
 */
function fit(): void {
  const result = fitTerms(cases);
  for (const f of result)
    console.log(
      `fit ${f.key} on ${f.figures} figures (${f.passes} passes${f.cycle > 0 ? `, a ${f.cycle}-pass cycle: its best kept` : ""}):`,
      JSON.stringify(f.terms),
    );
  const file = new URL("../src/plan/speed/fitted.json", import.meta.url);
  const text = fittedFileText(result);
  if (process.argv.includes("--check")) {
    if (readFileSync(file, "utf8") !== text) {
      console.error(
        "src/plan/speed/fitted.json is not what the fit writes from the current rows and card figures: run npx tsx scripts/speed-accuracy.ts --fit --write and commit it",
      );
      process.exit(1);
    }
    console.log("src/plan/speed/fitted.json is what the fit writes");
  }
  if (process.argv.includes("--write")) {
    writeFileSync(file, text);
    console.log("wrote src/plan/speed/fitted.json");
  }
}
