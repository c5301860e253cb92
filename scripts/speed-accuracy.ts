/**
 * The speed model beside the public benchmarks (test/fixtures/speed/measured.jsonl):
 * every case, then median / p90 absolute error per group on the fitted and
 * the checking half, primary rows apart from secondary ones.
 *   npx tsx scripts/speed-accuracy.ts          the table and the aggregates
 *   npx tsx scripts/speed-accuracy.ts --fit    also refit the terms on the fitted half and print them
 */
import { absQuantile, errorPct, predictCase, speedCases, type SpeedCase } from "../test/plan/speedCases.ts";
import { speedTerms, type SpeedTerms } from "../src/plan/speed/terms.ts";
import type { CardKind, CardVendor, SpeedEngine } from "../src/plan/speed/types.ts";

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
  console.log(`${pad(c.id, 70)} ${pad(c.group, 22)} ${pad(c.half, 8)} ${pad(c.tier, 9)} ${pad(fmt(p), 10)} ${pad(fmt(c.measured), 9)} ${err}`);
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
      const errs = sel.map((c) => ({ c, p: predictCase(c) })).filter((x) => x.p !== null).map((x) => errorPct(x.p as number, x.c.measured));
      line.push(`${half} ${absQuantile(errs, 0.5).toFixed(1)}% / ${absQuantile(errs, 0.9).toFixed(1)}% (n ${sel.length}, null ${sel.length - errs.length})`);
    }
    if (line.length > 0) console.log(`  ${pad(g, 24)} ${pad(tier, 9)} ${line.join("   ")}`);
  }
}

/** Median |log error| of a set of cases under some terms: the fit's loss (symmetric in over and under). */
function loss(sel: SpeedCase[], terms: SpeedTerms): number {
  const errs = sel.map((c) => {
    const p = predictCase(c, terms);
    return p === null ? 10 : Math.abs(Math.log(p / c.measured));
  });
  errs.sort((a, b) => a - b);
  const mean = errs.reduce((s, e) => s + e, 0) / errs.length;
  return (errs[Math.floor(errs.length / 2)] ?? 0) + 0.5 * mean;
}

function grid(base: SpeedTerms, sel: SpeedCase[], axes: Partial<Record<keyof SpeedTerms, number[]>>): SpeedTerms {
  let best = base;
  let bestLoss = loss(sel, base);
  // Coordinate descent, three sweeps: each axis in turn, keeping the best value.
  for (let sweep = 0; sweep < 3; sweep++) {
    for (const [key, values] of Object.entries(axes) as [keyof SpeedTerms, number[]][]) {
      for (const v of values) {
        const t = { ...best, [key]: v };
        const l = loss(sel, t);
        if (l < bestLoss) {
          bestLoss = l;
          best = t;
        }
      }
    }
  }
  return best;
}

function range(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to + 1e-9; v += step) out.push(Math.round(v * 1000) / 1000);
  return out;
}

function fit(): void {
  const fitted = cases.filter((c) => c.half === "fitted" && c.tier === "primary");
  const LLAMA: SpeedCase["group"][] = ["llamacpp-decode", "llamacpp-prefill"];
  const SERVING: SpeedCase["group"][] = ["serving-tpot", "serving-throughput", "serving-ttft"];
  const targets: [SpeedEngine, CardKind, CardVendor | null, SpeedCase["group"][]][] = [
    ["llamacpp", "gddr", null, LLAMA],
    ["llamacpp", "hbm", null, LLAMA],
    ["llamacpp", "unified", null, LLAMA],
    ["vllm", "hbm", null, SERVING],
    ["sglang", "hbm", "nvidia", SERVING],
    ["sglang", "hbm", "amd", SERVING],
  ];
  for (const [engine, kind, vendor, groups] of targets) {
    const sel = fitted.filter((c) => c.engine === engine && c.input.card.kind === kind && (vendor === null || c.input.card.vendor === vendor) && groups.includes(c.group));
    if (sel.length === 0) continue;
    const decode = sel.filter((c) => c.pick !== "prefillTps");
    const prefill = sel.filter((c) => c.pick === "prefillTps");
    let t = speedTerms(engine, kind, vendor ?? "nvidia");
    t = grid(t, decode, { bandwidthEfficiency: range(0.3, 1, 0.02), stepFixedMs: range(0, 8, 0.1), allReduceLatencyUs: range(0, 60, 2), decodeComputeEfficiency: range(0.05, 1, 0.05), prefillInterference: range(0, 2, 0.05), prefillComputeEfficiency: range(0.05, 1, 0.05), ...(engine === "llamacpp" ? {} : { requestOverheadMs: range(0, 200, 1) }) });
    if (prefill.length > 0) t = grid(t, prefill, { prefillComputeEfficiency: range(0.05, 1.5, 0.01) });
    // Then one share per format the prefill cases run at (llama.cpp: INT8 MMQ, FP16 cuBLAS).
    for (const format of ["int8", "fp16"] as const) {
      const own = prefill.filter((c) => c.input.card.tflops[c.input.model.computeFormat] !== null && c.input.model.computeFormat === format);
      if (own.length < 2) continue;
      let bestShare = t.prefillComputeEfficiency;
      let bestLoss = Number.POSITIVE_INFINITY;
      for (const share of range(0.05, 1.5, 0.01)) {
        const l = loss(own, { ...t, prefillEfficiencyByFormat: { ...t.prefillEfficiencyByFormat, [format]: share } });
        if (l < bestLoss) {
          bestLoss = l;
          bestShare = share;
        }
      }
      t = { ...t, prefillEfficiencyByFormat: { ...t.prefillEfficiencyByFormat, [format]: bestShare } };
    }
    console.log(`fit ${engine}/${kind}${vendor === null ? "" : `/${vendor}`} on ${sel.length} cases (${decode.length} decode, ${prefill.length} prefill):`, JSON.stringify({ ...t, fittedOn: undefined, fitted: undefined }));
  }
}
