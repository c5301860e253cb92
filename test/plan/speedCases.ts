/**
 * The public speed benchmarks (test/fixtures/speed/measured.jsonl) as speed
 * model inputs: one case per row and figure, with the model's geometry read
 * from real config.json files by the engine's own shapeFromConfig, and the
 * rule that splits the rows into the half the terms were fitted on and the
 * half that checks them.
 *
 * Split rule (deterministic, stated): llama.cpp rows from the XiongjieDai
 * table are fitted on; every other llama.cpp source (llama.cpp PRs,
 * geerlingguy, normiebench, dmatora, and the secondary scoreboard
 * transcriptions) checks. vLLM/SGLang rows are sorted by id within each
 * (engine, card) and alternate: even positions fitted, odd checking. The
 * expert-parallel pairs (ep-pairs.jsonl, added to the public set) only check, as
 * do the runs on other cards (serving-other-cards.jsonl, otherCardCases).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shapeFromConfig } from "../../src/plan/index.ts";
import { speedCardOf, cardSpecOf, hasPeerAccess, BENCHMARK_GPU_KEYS } from "../../src/plan/index.ts";
import { speedModelOf } from "../../src/plan/index.ts";
import type { Artifact, ModelShape } from "../../src/plan/index.ts";
import type { SpeedEngine, SpeedInput } from "../../src/plan/index.ts";
import { estimateSpeed } from "../../src/plan/index.ts";
import type { SpeedTerms } from "../../src/plan/index.ts";
import { loadConfig, loadModel } from "./fixture.ts";

const SPEED_DIR = join(import.meta.dirname, "..", "fixtures", "speed");

export interface MeasuredRow {
  id: string;
  group: string;
  tier: "primary" | "secondary";
  source_url: string;
  engine: string;
  model: string;
  artifact: string;
  params_b: number;
  gpu_key: string;
  gpu_count: number;
  /** Nodes the cards are spread over (cross-node.jsonl); absent, one. */
  nodes?: number;
  tp?: number;
  pp?: number;
  ep?: number;
  concurrency?: number;
  input_tokens?: number;
  output_tokens?: number;
  pp_tokens?: number;
  tg_tokens?: number;
  pp_tps?: number;
  tg_tps?: number;
  /** The table's other lengths: "tg1024" → "70.94" (XiongjieDai's tg/pp at 1024–8192). */
  extra?: Record<string, string | number>;
  model_size_gb?: number;
  tpot_ms_median?: number;
  ttft_ms_median?: number;
  output_tps_per_gpu?: number;
}

function rowsOf(file: string): MeasuredRow[] {
  return readFileSync(join(SPEED_DIR, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as MeasuredRow);
}

/** The public set, verbatim. */
export function measuredRows(): MeasuredRow[] {
  return rowsOf("measured.jsonl");
}

/** InferenceX runs of one config with and without expert parallel (fixtures README); never fitted on. */
export function epPairRows(): MeasuredRow[] {
  return rowsOf("ep-pairs.jsonl");
}

/**
 * vLLM/SGLang serving on cards no row of the public set serves on (RTX 4090, A40, H100 PCIe, A100; the
 * fixtures README says where each row is from): a check of the borrowed terms, never fitted on.
 */
export function otherCardRows(): MeasuredRow[] {
  return rowsOf("serving-other-cards.jsonl");
}

/** The cross-node row CROSS_NODE_ALL_REDUCE_US (speed/links.ts) is fitted on. */
export const CROSS_NODE_FITTED_ROW = "tt356-dsr1-0528-h100x16-sglang-tp16-ib-128-128-c1";

/** Serving over a fabric (cross-node.jsonl, beside the public set): TP across nodes, its TPOT a group of its own. */
export function crossNodeRows(): MeasuredRow[] {
  return rowsOf("cross-node.jsonl");
}

/** The target groups of issue 12, plus the layer-split rows (no target; shown). */
export type CaseGroup =
  | "llamacpp-decode"
  | "llamacpp-prefill"
  | "llamacpp-split-decode"
  | "llamacpp-split-prefill"
  | "llamacpp-long-decode"
  | "llamacpp-long-prefill"
  | "serving-tpot"
  | "serving-throughput"
  | "serving-ttft"
  | "serving-cross-node-tpot";

export interface SpeedCase {
  id: string;
  group: CaseGroup;
  engine: SpeedEngine;
  cardLabel: string;
  tier: "primary" | "secondary";
  half: "fitted" | "checking";
  source: string;
  measured: number;
  unit: "tok/s" | "ms" | "tok/s/GPU";
  input: SpeedInput;
  /** Which estimate field the measured figure is, and how per-GPU figures are divided. */
  pick: "decodeTps" | "prefillTps" | "tpotMs" | "throughputPerGpu" | "ttftMs";
  gpusPerReplica: number;
}

function config(name: string): Record<string, unknown> {
  if (name.startsWith("speed:")) {
    const raw = JSON.parse(readFileSync(join(SPEED_DIR, `${name.slice(6)}.config.json`), "utf8")) as Record<
      string,
      unknown
    >;
    return raw;
  }
  if (name.startsWith("model:")) return loadModel(name.slice(6)).config ?? {};
  return loadConfig(name);
}

/** Which recorded config.json gives a benchmark model's geometry; null when none is recorded (the row is left out, said in the table). */
function configNameOf(model: string): string | null {
  if (/Llama-2-7b|Llama-2-7B|CodeLlama-7b/.test(model)) return "speed:meta-llama__Llama-2-7b-hf";
  if (/Meta-Llama-3-8B|Llama 3\.1 8B|Llama-3 8B|Llama-3\.1-8B-Instruct/.test(model))
    return "model:meta-llama__Llama-3.1-8B-Instruct";
  if (/Meta-Llama-3-70B/.test(model)) return "speed:meta-llama__Llama-3.1-70B-Instruct";
  // DeepSeek's distills keep their base model's layers and widths (serving-other-cards.jsonl): R1-Distill-Llama-8B is
  // Llama-3.1-8B, -70B is Llama-3.3-70B (Llama-3.1-70B's geometry); the Qwen ones are Qwen2.5(-Math) 7B / 14B / 32B,
  // as are AceMath-7B (Qwen2.5-Math-7B) and QwQ-32B-Preview (Qwen2.5-32B). Before /DeepSeek-R1/, which is the MoE.
  if (/DeepSeek-R1-Distill-Llama-8B/.test(model)) return "model:meta-llama__Llama-3.1-8B-Instruct";
  if (/DeepSeek-R1-Distill-Llama-70B/.test(model)) return "speed:meta-llama__Llama-3.1-70B-Instruct";
  if (/DeepSeek-R1-Distill-Qwen-7B|AceMath-7B/.test(model)) return "model:Qwen__Qwen2.5-7B-Instruct";
  if (/DeepSeek-R1-Distill-Qwen-14B/.test(model)) return "model:Qwen__Qwen2.5-14B-Instruct";
  if (/DeepSeek-R1-Distill-Qwen-32B|QwQ-32B-Preview/.test(model)) return "model:Qwen__Qwen2.5-Coder-32B-Instruct";
  if (/Qwen2\.5-Coder-3B/.test(model)) return "model:Qwen__Qwen2.5-Coder-3B-Instruct";
  if (/gpt-oss-20b/.test(model)) return "openai__gpt-oss-20b";
  if (/gpt-oss-120b/.test(model)) return "openai__gpt-oss-120b";
  if (/DeepSeek-R1/.test(model)) return "deepseek-ai__DeepSeek-R1";
  return null;
}

/**
 * Bytes per parameter of a serving checkpoint, routed experts and the rest:
 * FP8 block-scaled (1 byte + a 128×128 block's scale, ≈1); NVFP4 (4 bits +
 * an FP8 scale per 16 = 4.5 bits) with FP8 elsewhere; MXFP4 (4 bits + an
 * 8-bit scale per 32 = 4.25 bits) with bf16 elsewhere (gpt-oss ships so).
 */
function servingBytesPerParam(artifact: string): { expert: number; dense: number; quant: string } {
  if (artifact.startsWith("FP8")) return { expert: 1, dense: 1, quant: "fp8" };
  if (artifact.startsWith("FP4")) return { expert: 4.5 / 8, dense: 1, quant: "nvfp4" };
  if (artifact.startsWith("MXFP4")) return { expert: 4.25 / 8, dense: 2, quant: "mxfp4" };
  return { expert: 2, dense: 2, quant: "bf16" };
}

function artifactOf(row: MeasuredRow, shape: ModelShape): Artifact | null {
  const expertParams = shape.moe?.routedExpertParams ?? 0;
  const total = row.params_b * 1e9;
  if (row.model_size_gb !== undefined) {
    // A GGUF's size as llama-bench printed it; its experts' share at the GGUF's mixed widths is taken as their parameter share.
    const bytes = row.model_size_gb * 1e9;
    return {
      name: row.artifact,
      format: "gguf",
      files: [],
      bytes,
      projectorBytes: 0,
      quant: row.artifact,
      bitsPerWeight: (bytes * 8) / total,
      expertBytes: bytes * (expertParams / total),
    };
  }
  if (row.group !== "serving") return null;
  const b = servingBytesPerParam(row.artifact);
  const expertBytes = expertParams * b.expert;
  const bytes = expertBytes + (total - expertParams) * b.dense;
  return {
    name: row.artifact,
    format: "safetensors",
    files: [],
    bytes,
    projectorBytes: 0,
    quant: b.quant,
    bitsPerWeight: (bytes * 8) / total,
    expertBytes,
  };
}

function engineOf(engine: string): SpeedEngine | null {
  if (engine === "llama.cpp") return "llamacpp";
  if (engine === "vllm" || engine === "sglang") return engine;
  return null;
}

/** Which half a row is in (the rule in the header). */
function halves(rows: MeasuredRow[]): Map<string, "fitted" | "checking"> {
  const out = new Map<string, "fitted" | "checking">();
  const byKey = new Map<string, MeasuredRow[]>();
  for (const r of rows) {
    if (r.engine === "llama.cpp")
      out.set(r.id, r.tier === "primary" && r.source_url.includes("XiongjieDai") ? "fitted" : "checking");
    else {
      const key = `${r.engine}|${r.gpu_key}`;
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
  }
  for (const list of byKey.values()) {
    [...list]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .forEach((r, i) => out.set(r.id, i % 2 === 0 ? "fitted" : "checking"));
  }
  return out;
}

export interface SkippedRow {
  id: string;
  reason: string;
}

/** Every case the set supports, and the rows left out with why. */
/** The rows no case was made of, counted by reason (most first): what the page's speed tab says it leaves out. */
export function leftOutOf(skipped: readonly SkippedRow[]): { reason: string; rows: number }[] {
  const counts = new Map<string, number>();
  for (const s of skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, rows]) => ({ reason, rows }))
    .sort((a, b) => b.rows - a.rows || (a.reason < b.reason ? -1 : 1));
}

export function speedCases(): { cases: SpeedCase[]; skipped: SkippedRow[] } {
  const rows = measuredRows();
  // The pairs' rows have no half in the split, so they check (`half.get(...) ?? "checking"`).
  return casesOfRows([...rows, ...epPairRows(), ...crossNodeRows(), ...otherHbmRows()], otherCardHalves(rows));
}

/** Whether a row runs on an HBM card of the table (the kind vLLM's fitted terms are filed under). */
function onHbm(r: MeasuredRow): boolean {
  const label = BENCHMARK_GPU_KEYS[r.gpu_key];
  return label !== undefined && cardSpecOf(label)?.kind === "hbm";
}

/**
 * The other cards' HBM rows (H100 PCIe, A100): the public set's vLLM rows are all gpt-oss-120b, a MoE, so these
 * dense runs are what tells a dense model's step apart (vllm/hbm/dense); split like the set's serving rows, by
 * engine and card, alternately. The GDDR rows (RTX 4090, A40) are never fitted on: vLLM has no GDDR terms.
 */
function otherHbmRows(): MeasuredRow[] {
  return otherCardRows().filter(onHbm);
}

/**
 * The other cards' TP rows over cards without peer access (RTX 4090 × 2–8: TP is the GPUs there), split the same
 * way: the fitted half sets NO_PEER_ALL_REDUCE_US alone (test/plan/noPeerSpeed.test.ts), no entry of fitted.json.
 */
function noPeerTpRows(): MeasuredRow[] {
  return otherCardRows().filter((r) => {
    const spec = cardSpecOf(BENCHMARK_GPU_KEYS[r.gpu_key] ?? "");
    return r.gpu_count > 1 && spec !== undefined && !hasPeerAccess(spec);
  });
}

/** The set's halves, with the other cards' HBM rows and peer-less TP rows split the same way. */
function otherCardHalves(rows: MeasuredRow[]): Map<string, "fitted" | "checking"> {
  return new Map([...halves(rows), ...halves(otherHbmRows()), ...halves(noPeerTpRows())]);
}

/**
 * What the page's Accuracy view shows (scripts/build-speed-cases.ts bundles it): every case of the set and its
 * companions, and the other cards' GDDR rows too, which check only.
 */
export function accuracyViewCases(): { cases: SpeedCase[]; skipped: SkippedRow[] } {
  const set = speedCases();
  const gddr = otherCardCases().cases.filter((c) => c.input.card.kind !== "hbm");
  return { cases: [...set.cases, ...gddr], skipped: set.skipped };
}

/**
 * vLLM/SGLang on cards the public set has no serving row on (serving-other-cards.jsonl). Each case is one
 * figure of one row; the HBM rows are in the halves speedCases puts them in, the GDDR rows check only.
 */
export function otherCardCases(): { cases: SpeedCase[]; skipped: SkippedRow[] } {
  return casesOfRows(otherCardRows(), otherCardHalves(measuredRows()));
}

function casesOfRows(
  allRows: readonly MeasuredRow[],
  half: ReadonlyMap<string, "fitted" | "checking">,
): { cases: SpeedCase[]; skipped: SkippedRow[] } {
  const cases: SpeedCase[] = [];
  const skipped: SkippedRow[] = [];
  const shapes = new Map<string, ModelShape>();
  for (const row of allRows) {
    const engine = engineOf(row.engine);
    if (engine === null) {
      skipped.push({
        id: row.id,
        reason: `${row.engine}: reference only (issue 12 calibrates llama.cpp, vLLM and SGLang)`,
      });
      continue;
    }
    if (row.group === "multinode") {
      skipped.push({ id: row.id, reason: "disaggregated multi-node serving: not modelled" });
      continue;
    }
    const configName = configNameOf(row.model);
    if (configName === null) {
      skipped.push({ id: row.id, reason: `no config.json recorded for ${row.model}` });
      continue;
    }
    const label = BENCHMARK_GPU_KEYS[row.gpu_key];
    if (label === undefined || cardSpecOf(label) === undefined) {
      skipped.push({ id: row.id, reason: `card ${row.gpu_key} not in cardSpecs` });
      continue;
    }
    const shapeKey = `${configName}|${row.params_b}`;
    let shape = shapes.get(shapeKey);
    if (shape === undefined) {
      shape = shapeFromConfig(config(configName), row.params_b * 1e9);
      shapes.set(shapeKey, shape);
    }
    const artifact = artifactOf(row, shape);
    const model = artifact === null ? null : speedModelOf(shape, artifact, 2);
    if (artifact === null || model === null) {
      skipped.push({ id: row.id, reason: "weight bytes unknown" });
      continue;
    }
    const spec = cardSpecOf(label);
    const card = speedCardOf(label);
    const tp = row.tp ?? 1;
    const pp = engine === "llamacpp" ? row.gpu_count : (row.pp ?? 1);
    const nodes = Math.max(1, row.nodes ?? 1);
    const input: Omit<SpeedInput, "workload"> = {
      card,
      model,
      layout: {
        engine,
        tensorParallel: tp,
        pipelineStages: pp,
        // InferenceX's decode_ep is SGLang's --ep-size: 1, or the row's TP, as the plan's EP options set it (option.ts).
        expertParallel: row.ep ?? 1,
        hostWeightsBytes: 0,
        hostExpertBytes: 0,
        hostBandwidthGBps: null,
        cpuOnly: false,
      },
      // Over nodes (cross-node.jsonl) the fabric's rate is not stated: unknown, so its default is assumed.
      links: {
        intraNodeGBps: spec?.link.gbpsPerDirection ?? null,
        fabricGBps: null,
        crossNodeHops: Math.min(Math.max(0, pp - 1), nodes - 1),
        tensorParallelCrossesNodes: tp > row.gpu_count / nodes,
        ...(spec !== undefined && !hasPeerAccess(spec) ? { peerToPeer: false } : {}),
      },
    };
    const base = {
      engine,
      cardLabel: label,
      tier: row.tier,
      half: half.get(row.id) ?? "checking",
      source: row.source_url,
    } as const;
    if (engine === "llamacpp") {
      const split = row.gpu_count > 1;
      if (row.tg_tps !== undefined && row.tg_tokens !== undefined) {
        cases.push({
          ...base,
          id: `${row.id} tg${row.tg_tokens}`,
          group: split ? "llamacpp-split-decode" : "llamacpp-decode",
          measured: row.tg_tps,
          unit: "tok/s",
          pick: "decodeTps",
          gpusPerReplica: row.gpu_count,
          input: {
            ...input,
            workload: { inputTokens: 1, outputTokens: row.tg_tokens, sequences: 1, sequencesTheKvHolds: null },
          },
        });
      }
      if (row.pp_tps !== undefined && row.pp_tokens !== undefined) {
        cases.push({
          ...base,
          id: `${row.id} pp${row.pp_tokens}`,
          group: split ? "llamacpp-split-prefill" : "llamacpp-prefill",
          measured: row.pp_tps,
          unit: "tok/s",
          pick: "prefillTps",
          gpusPerReplica: row.gpu_count,
          input: {
            ...input,
            workload: { inputTokens: row.pp_tokens, outputTokens: 1, sequences: 1, sequencesTheKvHolds: null },
          },
        });
      }
      // The same table's longer runs (tg/pp at 1024–8192 tokens): in the row's half, as the rule goes by source; they set the context terms.
      if (!split) {
        for (const [key, value] of Object.entries(row.extra ?? {})) {
          const m = /^(tg|pp)(\d+)$/.exec(key);
          const measured = Number(value);
          if (m === null || !(measured > 0)) continue;
          const tokens = Number(m[2]);
          const decode = m[1] === "tg";
          cases.push({
            ...base,
            id: `${row.id} ${key}`,
            group: decode ? "llamacpp-long-decode" : "llamacpp-long-prefill",
            measured,
            unit: "tok/s",
            pick: decode ? "decodeTps" : "prefillTps",
            gpusPerReplica: 1,
            input: {
              ...input,
              workload: decode
                ? { inputTokens: 1, outputTokens: tokens, sequences: 1, sequencesTheKvHolds: null }
                : { inputTokens: tokens, outputTokens: 1, sequences: 1, sequencesTheKvHolds: null },
            },
          });
        }
      }
      continue;
    }
    if (
      row.concurrency === undefined ||
      row.input_tokens === undefined ||
      row.output_tokens === undefined ||
      row.tpot_ms_median === undefined
    ) {
      skipped.push({ id: row.id, reason: "no median TPOT in the row" });
      continue;
    }
    // InferenceX rows with more GPUs than one replica uses run several replicas,
    // each at the row's concurrency (its output_tps_total ≈ replicas × conc ÷ TPOT), so the case is one replica.
    const gpusPerReplica = tp * pp;
    const workload = {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      sequences: row.concurrency,
      sequencesTheKvHolds: null,
    };
    const servingInput = { ...input, workload };
    if (nodes > 1) {
      // The cross-node all-reduce's cost is fitted apart on the first of these (speed/links.ts), the rest check it.
      cases.push({
        ...base,
        half: row.id === CROSS_NODE_FITTED_ROW ? "fitted" : "checking",
        id: `${row.id} tpot`,
        group: "serving-cross-node-tpot",
        measured: row.tpot_ms_median,
        unit: "ms",
        pick: "tpotMs",
        gpusPerReplica,
        input: servingInput,
      });
      continue;
    }
    cases.push({
      ...base,
      id: `${row.id} tpot`,
      group: "serving-tpot",
      measured: row.tpot_ms_median,
      unit: "ms",
      pick: "tpotMs",
      gpusPerReplica,
      input: servingInput,
    });
    if (row.output_tps_per_gpu !== undefined) {
      cases.push({
        ...base,
        id: `${row.id} tput/gpu`,
        group: "serving-throughput",
        measured: row.output_tps_per_gpu,
        unit: "tok/s/GPU",
        pick: "throughputPerGpu",
        gpusPerReplica,
        input: servingInput,
      });
    }
    // Measured TTFT is under the row's load; at 4 or fewer sequences little queues ahead, so it stands for one request alone.
    if (row.ttft_ms_median !== undefined && row.concurrency <= 4) {
      cases.push({
        ...base,
        id: `${row.id} ttft`,
        group: "serving-ttft",
        measured: row.ttft_ms_median,
        unit: "ms",
        pick: "ttftMs",
        gpusPerReplica,
        input: servingInput,
      });
    }
  }
  return { cases, skipped };
}

/** The model's figure for a case; null when the model gives none (its basis says why). */
export function predictCase(c: SpeedCase, terms?: SpeedTerms): number | null {
  const e = estimateSpeed(c.input, terms);
  if (c.pick === "throughputPerGpu") return e.throughputTps === null ? null : e.throughputTps / c.gpusPerReplica;
  return e[c.pick];
}

/** Signed error of a prediction, percent of the measured figure. */
export function errorPct(predicted: number, measured: number): number {
  return ((predicted - measured) / measured) * 100;
}

/** The q-quantile (0..1) of absolute values, by linear interpolation; NaN for none. */
export function absQuantile(values: number[], q: number): number {
  const a = values.map(Math.abs).sort((x, y) => x - y);
  if (a.length === 0) return Number.NaN;
  const pos = (a.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (a[lo] ?? 0) + ((a[hi] ?? 0) - (a[lo] ?? 0)) * (pos - lo);
}
