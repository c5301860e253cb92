/**
 * The fit of the speed model's terms (src/plan/speed/fitted.json) on the
 * fitted half's primary rows of test/fixtures/speed/measured.jsonl: from the
 * fixed priors in src/plan/speed/terms.ts (SPEED_PRIORS, never the file it
 * replaces), coordinate descent over a grid per term, pass after pass until a
 * pass changes nothing (at most MAX_FIT_PASSES). No clock, no randomness, so
 * the file it writes is the same on every run; scripts/speed-accuracy.ts
 * --fit --write writes it, --fit --check compares, and
 * test/plan/speedFit.test.ts refits two entries against it.
 */
import { SPEED_PRIORS, type FittedKey, type SpeedTerms, type SpeedTermValues } from "../../src/plan/index.ts";
import type { CardKind, CardVendor, SpeedEngine } from "../../src/plan/index.ts";
import { predictCase, type SpeedCase } from "./speedCases.ts";

/** Passes of the whole descent at most; the entries settle in 2–4 (the script prints how many). */
export const MAX_FIT_PASSES = 30;

/** Median + ½ mean |log(predicted/measured)| of a set of cases: the fit's loss (symmetric in over and under). */
export function loss(sel: SpeedCase[], terms: SpeedTerms): number {
  const errs = sel.map((c) => {
    const p = predictCase(c, terms);
    return p === null ? 10 : Math.abs(Math.log(p / c.measured));
  });
  errs.sort((a, b) => a - b);
  const mean = errs.reduce((s, e) => s + e, 0) / errs.length;
  return (errs[Math.floor(errs.length / 2)] ?? 0) + 0.5 * mean;
}

type Axes = Partial<Record<keyof SpeedTerms, number[]>>;

/**
 * Coordinate descent, three sweeps: the `pair` jointly (stepFixedMs at 0.5 ms steps), then each
 * axis in turn, keeping the best value (a tie keeps the current one). `tied` terms move with the
 * axis they name (vLLM/SGLang's KV reads with the weights').
 */
function grid(
  base: SpeedTerms,
  sel: SpeedCase[],
  axes: Axes,
  tied: Partial<Record<keyof SpeedTerms, keyof SpeedTerms>> = {},
  pair: readonly [keyof SpeedTerms, keyof SpeedTerms] | null = null,
): SpeedTerms {
  let best = base;
  let bestLoss = loss(sel, base);
  const follow = (t: SpeedTerms, key: keyof SpeedTerms, v: number): SpeedTerms => {
    for (const [follower, leader] of Object.entries(tied) as [keyof SpeedTerms, keyof SpeedTerms][])
      if (leader === key) Object.assign(t, { [follower]: v });
    return t;
  };
  for (let sweep = 0; sweep < 3; sweep++) {
    if (pair !== null) {
      const [a, b] = pair;
      for (const va of axes[a] ?? [])
        for (const vb of b === "stepFixedMs" ? range(0, 8, 0.5) : (axes[b] ?? [])) {
          const t = follow(follow({ ...best, [a]: va, [b]: vb }, a, va), b, vb);
          const l = loss(sel, t);
          if (l < bestLoss) {
            bestLoss = l;
            best = t;
          }
        }
    }
    for (const [key, values] of Object.entries(axes) as [keyof SpeedTerms, number[]][]) {
      for (const v of values) {
        const t = follow({ ...best, [key]: v }, key, v);
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

/** One pass of coordinate descent over the terms the selection can tell apart. */
export function fitOnce(base: SpeedTerms, sel: SpeedCase[], engine: SpeedEngine): SpeedTerms {
  const split = sel.filter((c) => c.group === "llamacpp-split-decode");
  const decode = sel.filter(
    (c) => c.pick !== "prefillTps" && c.group !== "llamacpp-split-decode" && c.group !== "llamacpp-split-prefill",
  );
  const prefill = sel.filter((c) => c.pick === "prefillTps" && c.group !== "llamacpp-split-prefill");
  let t =
    engine === "llamacpp"
      ? grid(
          base,
          decode,
          {
            bandwidthEfficiency: range(0.3, 1, 0.01),
            stepFixedMs: range(0, 8, 0.1),
            kvBandwidthEfficiency: range(0.05, 1, 0.01),
            decodeComputeEfficiency: range(0.05, 1, 0.05),
          },
          {},
          PAIR,
        )
      : // No serving row separates the KV reads from the weights' (paged attention streams both): one share for both.
        grid(
          base,
          decode.filter((c) => c.pick !== "ttftMs"),
          {
            bandwidthEfficiency: range(0.3, 1, 0.01),
            stepFixedMs: range(0, 8, 0.1),
            allReduceLatencyUs: range(0, 60, 2),
            prefillInterference: range(0, 2, 0.05),
            decodeComputeEfficiency: range(0.05, 1, 0.05),
          },
          { kvBandwidthEfficiency: "bandwidthEfficiency" },
          PAIR,
        );
  // A served request's first token: TTFT = overhead + prefill + one step. Prompts of two lengths tell the
  // overhead from the prefill's share; with one (SGLang on NVIDIA: one fitted TTFT row) the share keeps its prior.
  const ttft = decode.filter((c) => c.pick === "ttftMs");
  if (new Set(ttft.map((c) => c.input.workload.inputTokens)).size >= 2)
    t = grid(t, ttft, { requestOverheadMs: range(0, 200, 1), prefillComputeEfficiency: range(0.05, 1, 0.01) }, {}, [
      "requestOverheadMs",
      "prefillComputeEfficiency",
    ]);
  else if (ttft.length > 0) t = grid(t, ttft, { requestOverheadMs: range(0, 200, 1) });
  // The matmuls' share from short prompts, where attention is a few percent of the FLOPs; then
  // attention's share from how prefill slows as the prompt grows (the same rows at 1,024–8,192).
  const short = prefill.filter((c) => c.input.workload.inputTokens <= 512);
  if (short.length > 0) t = grid(t, short, { prefillComputeEfficiency: range(0.05, 1.5, 0.01) });
  // One share per format the prefill cases run at (llama.cpp: INT8 MMQ, FP16 cuBLAS).
  for (const format of ["int8", "fp16"] as const) {
    const own = short.filter((c) => c.input.model.computeFormat === format && c.input.card.tflops[format] !== null);
    if (own.length < 2) continue;
    let bestShare = t.prefillEfficiencyByFormat[format] ?? t.prefillComputeEfficiency;
    let bestLoss = loss(own, {
      ...t,
      prefillEfficiencyByFormat: { ...t.prefillEfficiencyByFormat, [format]: bestShare },
    });
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

/** Which rows a set of terms was fitted on, in words: how many, on which cards, from which sources. */
function describeRows(sel: SpeedCase[]): string {
  const rows = rowIds(sel);
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

function rowIds(sel: SpeedCase[]): string[] {
  return [...new Set(sel.map((c) => c.id.split(" ")[0] ?? c.id))].sort();
}

const LLAMA: SpeedCase["group"][] = [
  "llamacpp-decode",
  "llamacpp-prefill",
  "llamacpp-long-decode",
  "llamacpp-long-prefill",
  "llamacpp-split-decode",
];
const SERVING: SpeedCase["group"][] = ["serving-tpot", "serving-throughput", "serving-ttft"];

/** Which of its engine and card's cases an entry is fitted on. */
type Pick = (c: SpeedCase) => boolean;
const every: Pick = () => true;
const moe: Pick = (c) => c.input.model.routedExperts > 0;
/**
 * vLLM's dense entry: its one-card rows alone. Its TP 2 rows (70B on 2 × H100 PCIe, and on 2 × A100 SXM under a
 * vLLM of the 0.6 era) would set the all-reduce to 46 µs, and that on NVLink would make TP on a modern H100 slower
 * than one card for an 8B model at one sequence; the MoE entry's 10 µs comes from vLLM 0.13's TP 1–8 runs over
 * NVLink. So the TP rows check (12–14% fast), and the all-reduce keeps the prior the MoE fit also lands on.
 */
const denseOneCard: Pick = (c) => c.input.model.routedExperts === 0 && c.input.layout.tensorParallel === 1;

/** Each entry fitted.json holds: the engine, card kind and vendor its rows run on, the groups and cases it is fitted on. */
export const TARGETS: [FittedKey, SpeedEngine, CardKind, CardVendor | null, SpeedCase["group"][], Pick][] = [
  ["llamacpp/gddr", "llamacpp", "gddr", null, LLAMA, every],
  ["llamacpp/hbm", "llamacpp", "hbm", null, LLAMA, every],
  ["llamacpp/unified", "llamacpp", "unified", null, LLAMA, every],
  ["vllm/hbm", "vllm", "hbm", null, SERVING, moe],
  ["vllm/hbm/dense", "vllm", "hbm", null, SERVING, denseOneCard],
  ["sglang/hbm", "sglang", "hbm", "nvidia", SERVING, every],
  ["sglang/hbm/amd", "sglang", "hbm", "amd", SERVING, every],
];

export interface FitResult {
  key: FittedKey;
  terms: SpeedTermValues;
  fittedOn: string;
  rows: string[];
  figures: number;
  /** Passes until one changed nothing or came back to terms an earlier pass gave (that last one counted). */
  passes: number;
  /** How many passes the terms went round in when they came back (0: they settled). */
  cycle: number;
}

/**
 * Where the descent starts besides the prior, the best end kept: a coordinate descent cannot leave a
 * valley by one term at a time. llama.cpp's KV share and decode compute share go together (Apple's
 * tg falls with context where compute binds: from decode compute 0.3 the descent never reaches 0.1).
 */
function starts(engine: SpeedEngine): Partial<SpeedTerms>[] {
  const out: Partial<SpeedTerms>[] = [];
  if (engine === "llamacpp") {
    for (const kvBandwidthEfficiency of [0.7, 0.2])
      for (const decodeComputeEfficiency of [0.3, 0.1]) out.push({ kvBandwidthEfficiency, decodeComputeEfficiency });
  } else out.push({});
  return out;
}
const PAIR = ["bandwidthEfficiency", "stepFixedMs"] as const;

function descend(
  key: FittedKey,
  start: SpeedTerms,
  sel: SpeedCase[],
  engine: SpeedEngine,
): { terms: SpeedTerms; passes: number; cycle: number } {
  let t = start;
  const seen: string[] = [JSON.stringify(t)];
  let passes = 0;
  for (;;) {
    passes++;
    t = fitOnce(t, sel, engine);
    const now = JSON.stringify(t);
    const at = seen.indexOf(now);
    if (at === seen.length - 1) return { terms: t, passes, cycle: 0 };
    if (at >= 0) {
      // Two stages fit on different rows can trade terms back and forth (Apple: the fp16 share 0.83 ⇄ 0.84 flips
      // attention 0.26 ⇄ 0.495): keep the set of the cycle that fits the entry's figures best.
      const members = seen.slice(at).map((m) => JSON.parse(m) as SpeedTerms);
      return {
        terms: members.reduce((best, m) => (loss(sel, m) < loss(sel, best) ? m : best)),
        passes,
        cycle: members.length,
      };
    }
    seen.push(now);
    if (passes >= MAX_FIT_PASSES)
      throw new Error(
        `the ${key} fit still moves after ${MAX_FIT_PASSES} passes: raise MAX_FIT_PASSES or look at its grid`,
      );
  }
}

/** Fit every entry from its prior; a fit still moving after MAX_FIT_PASSES is an error, said in words. */
export function fitTerms(cases: SpeedCase[], only: FittedKey[] | null = null): FitResult[] {
  const fitted = cases.filter((c) => c.half === "fitted" && c.tier === "primary");
  const out: FitResult[] = [];
  for (const [key, engine, kind, vendor, groups, pick] of TARGETS) {
    if (only !== null && !only.includes(key)) continue;
    const sel = fitted.filter(
      (c) =>
        c.engine === engine &&
        c.input.card.kind === kind &&
        (vendor === null || c.input.card.vendor === vendor) &&
        groups.includes(c.group) &&
        pick(c),
    );
    if (sel.length === 0) continue;
    const prior = SPEED_PRIORS[engine === "llamacpp" ? "llamacpp" : "serving"];
    let t: SpeedTerms | null = null;
    let passes = 0;
    let cycle = 0;
    for (const start of starts(engine)) {
      const run = descend(key, { ...prior, ...start, fittedOn: "prior", fitted: false }, sel, engine);
      if (t === null || loss(sel, run.terms) < loss(sel, t)) {
        t = run.terms;
        passes = run.passes;
        cycle = run.cycle;
      }
    }
    if (t === null) continue;
    const { fittedOn: _on, fitted: _f, ...terms } = t;
    out.push({ key, terms, fittedOn: describeRows(sel), rows: rowIds(sel), figures: sel.length, passes, cycle });
  }
  return out;
}

/** fitted.json's text for a fit, byte for byte as --write writes it. */
export function fittedFileText(fit: FitResult[]): string {
  const terms: Record<string, unknown> = {};
  for (const f of fit) terms[f.key] = { ...f.terms, fittedOn: f.fittedOn, rows: f.rows };
  const file = {
    _source:
      "written by `npx tsx scripts/speed-accuracy.ts --fit --write` from test/fixtures/speed/measured.jsonl, the primary rows of its fitted half (rule in test/plan/speedCases.ts), starting from SPEED_PRIORS in src/plan/speed/terms.ts; each entry's rows are the ids fitted on",
    terms,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
