/**
 * The speed model beside the public benchmarks (test/fixtures/speed/measured.jsonl):
 * every case, then median / p90 absolute error per group on the fitted and
 * the checking half, primary rows apart from secondary ones.
 *   npx tsx scripts/speed-accuracy.ts          the table and the aggregates
 *   npx tsx scripts/speed-accuracy.ts --fit    also refit the terms on the fitted half and print them
 *   npx tsx scripts/speed-accuracy.ts --fit --write   and write them to src/plan/speed/fitted.json
 */
import { absQuantile, errorPct, predictCase, speedCases, type SpeedCase } from "../test/plan/speedCases.ts";
import { writeFileSync } from "node:fs";
import { speedTerms, type FittedKey, type SpeedTerms } from "../src/plan/index.ts";
import type { CardKind, CardVendor, SpeedEngine } from "../src/plan/index.ts";

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
  const sel = (group: SpeedCase["group"], more: (c: SpeedCase) => boolean = () => true): number[] =>
    cases
      .filter((c) => c.group === group && c.tier === "primary" && c.half === half && more(c))
      .flatMap((c) => {
        const p = predictCase(c);
        return p === null ? [] : [errorPct(p, c.measured)];
      });
  const line = (name: string, errs: number[], q: number, limit: number): string => {
    const v = absQuantile(errs, q);
    return `${name} ${v.toFixed(1)}% (target ≤ ${limit}%, n ${errs.length}) ${v <= limit ? "meets" : "MISSES"}`;
  };
  const decode = sel("llamacpp-decode");
  console.log(`  ${pad(half, 9)} ${line("llama.cpp decode median", decode, 0.5, 10)}; ${line("p90", decode, 0.9, 25)}`);
  console.log(
    `  ${pad("", 9)} ${line(
      "llama.cpp pp512 median",
      sel("llamacpp-prefill", (c) => c.input.workload.inputTokens === 512),
      0.5,
      20,
    )}`,
  );
  console.log(
    `  ${pad("", 9)} ${line("vLLM/SGLang TPOT median", sel("serving-tpot"), 0.5, 20)}; ${line("per-GPU throughput median", sel("serving-throughput"), 0.5, 20)}`,
  );
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

/** Which rows a set of terms was fitted on, in words: how many, on which cards, of which models. */
function describe(sel: SpeedCase[]): string {
  const rows = [...new Set(sel.map((c) => c.id.split(" ")[0] ?? c.id))];
  const cards = [...new Set(sel.map((c) => c.cardLabel))].sort();
  const sources = [
    ...new Set(
      sel.map((c) =>
        c.source
          .replace(/^https:\/\/github\.com\//, "")
          .split("/")
          .slice(0, 2)
          .join("/"),
      ),
    ),
  ].sort();
  return `${rows.length} rows (${sel.length} figures) on ${cards.join(", ")}; sources: ${sources.join(", ")}`;
}

/** One pass of coordinate descent over the terms the selection can tell apart. */
function fitOnce(base: SpeedTerms, sel: SpeedCase[], engine: SpeedEngine): SpeedTerms {
  const split = sel.filter((c) => c.group === "llamacpp-split-decode");
  const decode = sel.filter(
    (c) => c.pick !== "prefillTps" && c.group !== "llamacpp-split-decode" && c.group !== "llamacpp-split-prefill",
  );
  const prefill = sel.filter((c) => c.pick === "prefillTps" && c.group !== "llamacpp-split-prefill");
  let t = grid(base, decode, {
    bandwidthEfficiency: range(0.3, 1, 0.01),
    stepFixedMs: range(0, 8, 0.1),
    ...(engine === "llamacpp"
      ? { kvBandwidthEfficiency: range(0.05, 1, 0.01) }
      : {
          allReduceLatencyUs: range(0, 60, 2),
          prefillInterference: range(0, 2, 0.05),
          prefillComputeEfficiency: range(0.05, 1, 0.01),
          requestOverheadMs: range(0, 200, 1),
          decodeComputeEfficiency: range(0.05, 1, 0.05),
        }),
  });
  // The matmuls' share from short prompts, where attention is a few percent of the FLOPs; then
  // attention's share from how prefill slows as the prompt grows (the same rows at 1,024–8,192).
  const short = prefill.filter((c) => c.input.workload.inputTokens <= 512);
  if (short.length > 0) t = grid(t, short, { prefillComputeEfficiency: range(0.05, 1.5, 0.01) });
  // One share per format the prefill cases run at (llama.cpp: INT8 MMQ, FP16 cuBLAS).
  for (const format of ["int8", "fp16"] as const) {
    const own = short.filter((c) => c.input.model.computeFormat === format && c.input.card.tflops[format] !== null);
    if (own.length < 2) continue;
    let bestShare = t.prefillEfficiencyByFormat[format] ?? t.prefillComputeEfficiency;
    let bestLoss = loss(own, t);
    for (const share of range(0.05, 1.5, 0.01)) {
      const l = loss(own, { ...t, prefillEfficiencyByFormat: { ...t.prefillEfficiencyByFormat, [format]: share } });
      if (l < bestLoss) {
        bestLoss = l;
        bestShare = share;
      }
    }
    t = { ...t, prefillEfficiencyByFormat: { ...t.prefillEfficiencyByFormat, [format]: bestShare } };
  }
  if (prefill.length > short.length) t = grid(t, prefill, { attentionComputeEfficiency: range(0.005, 1, 0.005) });
  // llama.cpp's layer split: what each extra card costs a token, from the same cards' 1-card and N-card rows.
  if (split.length > 0) t = grid(t, split, { hopMs: range(0, 1, 0.01) });
  return t;
}

/** Refit every fitted entry on the fitted half's primary rows; with --write, replace src/plan/speed/fitted.json. */
function fit(): void {
  const fitted = cases.filter((c) => c.half === "fitted" && c.tier === "primary");
  const LLAMA: SpeedCase["group"][] = [
    "llamacpp-decode",
    "llamacpp-prefill",
    "llamacpp-long-decode",
    "llamacpp-long-prefill",
    "llamacpp-split-decode",
  ];
  const SERVING: SpeedCase["group"][] = ["serving-tpot", "serving-throughput", "serving-ttft"];
  const targets: [FittedKey, SpeedEngine, CardKind, CardVendor | null, SpeedCase["group"][]][] = [
    ["llamacpp/gddr", "llamacpp", "gddr", null, LLAMA],
    ["llamacpp/hbm", "llamacpp", "hbm", null, LLAMA],
    ["llamacpp/unified", "llamacpp", "unified", null, LLAMA],
    ["vllm/hbm", "vllm", "hbm", null, SERVING],
    ["sglang/hbm", "sglang", "hbm", "nvidia", SERVING],
    ["sglang/hbm/amd", "sglang", "hbm", "amd", SERVING],
  ];
  const out: Record<string, unknown> = {};
  for (const [key, engine, kind, vendor, groups] of targets) {
    const sel = fitted.filter(
      (c) =>
        c.engine === engine &&
        c.input.card.kind === kind &&
        (vendor === null || c.input.card.vendor === vendor) &&
        groups.includes(c.group),
    );
    if (sel.length === 0) continue;
    let t = speedTerms(engine, kind, vendor ?? "nvidia");
    for (let pass = 0; pass < 3; pass++) t = fitOnce(t, sel, engine);
    const { fittedOn: _on, fitted: _f, ...numbers } = t;
    out[key] = {
      ...numbers,
      fittedOn: describe(sel),
      rows: [...new Set(sel.map((c) => c.id.split(" ")[0] ?? c.id))].sort(),
    };
    console.log(`fit ${key} on ${sel.length} figures:`, JSON.stringify(numbers));
  }
  if (process.argv.includes("--write")) {
    const file = {
      _source:
        "written by `npx tsx scripts/speed-accuracy.ts --fit --write` from test/fixtures/speed/measured.jsonl, the primary rows of its fitted half (rule in test/plan/speedCases.ts); each entry's rows are the ids fitted on",
      terms: out,
    };
    writeFileSync(new URL("../src/plan/speed/fitted.json", import.meta.url), `${JSON.stringify(file, null, 2)}\n`);
    console.log("wrote src/plan/speed/fitted.json");
  }
}
