/**
 * What a calibration case is (one startup an engine logged) and what comparing it yields: the shapes and
 * small helpers the 0.19-era cases (accuracy.ts) and the 2026 ones (accuracy2026.ts) share.
 */
import {
  cardMemoryBytes,
  computeDtypeBytes,
  servingParts,
  type Artifact,
  type Engine,
  type Layout,
  type ModelShape,
  type Placement,
} from "../plan/index.ts";

/** One measured startup, as measured.jsonl records it (the fields used here). */
export interface CalibrationRecord {
  id: string;
  source_url: string;
  engine: string;
  engine_version: string | null;
  model: string;
  artifact: string;
  gpu: string;
  gpu_mem_gib: number | null;
  gpus: number;
  tp: number;
  pp: number | null;
  dtype: string;
  kv_dtype: string;
  context: number | null;
  gpu_mem_util: number | string | null;
  measured: Record<string, number | null>;
  derived: Record<string, number | string | null>;
  /** The record's caveats: how a run was laid out, and the engine profile when the log prints no version. */
  notes?: string;
}

/** A calibration model's geometry and checkpoint size, with where each came from. */
export interface CalibrationModel {
  source: string;
  config: Record<string, unknown>;
  params?: number;
  bytes?: number;
}

/** One compared figure. */
export interface AccuracyMetric {
  /** What is compared, e.g. "weights per card". */
  name: string;
  unit: "GiB" | "MiB" | "tokens" | "sequences" | "B/token";
  predicted: number;
  measured: number;
  /** (predicted − measured) ÷ measured, in percent. */
  errorPct: number;
  /** The tolerance this figure is held to, in percent (the accuracy targets: 5% for pools, 2% for weights, or the log's rounding). */
  tolerancePct: number;
}

/** One calibration case: predicted against measured. */
export interface AccuracyRow {
  id: string;
  sourceUrl: string;
  engine: string;
  engineVersion: string;
  model: string;
  gpu: string;
  tensorParallel: number;
  pipelineParallel: number;
  contextTokens: number;
  /** The run started (false: it failed, and the plan must not say it fits). */
  ran: boolean;
  /** The plan's verdict for one sequence of the case's context; null where the engine is not modelled. */
  predictedFits: boolean | null;
  metrics: AccuracyMetric[];
  /** What was compared and what could not be, in words. */
  note: string;
  /**
   * "fitted": a constant of the engine's model was fitted on this case's source (its figures
   * cannot check it); "checking": nothing was fitted on it, so it tests the model.
   */
  basis: "fitted" | "checking";
}

/**
 * The sources constants were fitted on (each constant's comment names them): the vLLM 0.19.0
 * sweep and version sweep of llm-d-planner PR #205 (activation, sampler, non-torch, graphs, the
 * MoE term, the 0.11.1 and 0.17 profiles), dennislee22's 0.10.1.1 A100 logs (the 0.10 profile and
 * the A100 totals), llm-d-benchmark's pre-0.17 runs (the sorting sampler), and two llama.cpp
 * buffers (a GGUF's output-layer bits and untied embedding bits).
 */
const FITTED_SOURCES = /llm-d-planner|dennislee22\/vLLM-benchmarking|llm-d\/llm-d-benchmark/;
const FITTED_CASES = new Set([
  "ikllama-a6000-gemma-3-27b-qat-q4km-c32768",
  "ikllama-3090-llama-3.1-8b-q5ks-c1024-kiq4nl",
  // 2026 (releases.ts): the 0.26 V2 sampler share, the PCIe TP2 non-torch figure, the TP1 hybrid one. The
  // PCIe TP ≥ 3 figure is the TP1 one (NCCL set up before the snapshot): its TP4 and TP8 logs check it.
  "vllm0260-a40-llama-3.1-8b-instruct-tp1-4096",
  "vllm0271-rtxpro6000-qwen3-32b-tp2-32768-u0.426",
  "vllm0221-rtxpro6000maxq-qwen3.5-122b-a10b-nvfp4-tp1-262144-u0.94",
  // llama.cpp 2026: its four cards' unaccounted memory is LLAMACPP_CUDA_UNACCOUNTED_BYTES' source.
  "llamacpp-b10505-4xrtxpro6000maxq-glm-5.2-ud-q5kxl-c131072-ncpumoe54",
]);

export function basisOf(r: CalibrationRecord): AccuracyRow["basis"] {
  return FITTED_SOURCES.test(r.source_url) || FITTED_CASES.has(r.id) ? "fitted" : "checking";
}

export const MIB = 2 ** 20;

/**
 * The catalog class of a GPU as the logs name it. The RTX PRO 6000 Max-Q and Workstation Editions are the
 * Server Edition's GB202 with 96 GB (their own total comes from the log); a laptop RTX 5090 is not a
 * desktop one (24 GB, another power limit) and has no class.
 */
export function gpuClassOf(gpu: string): string | null {
  const table: [RegExp, string][] = [
    [/GH200/i, "gh200-96g"],
    [/H100/i, "h100-80g"],
    [/A100.*40/i, "a100-40g"],
    [/A100/i, "a100-80g"],
    [/RTX 3090/i, "rtx3090-24g"],
    [/4090/i, "rtx4090-24g"],
    [/5090 Laptop/i, ""],
    [/5090/i, "rtx5090-32g"],
    [/RTX A6000/i, "rtxa6000-48g"],
    [/6000 Ada/i, "rtx6000ada-48g"],
    [/B200/i, "b200-180g"],
    [/B300/i, "b300-288g"],
    [/\bA40\b/, "a40-48g"],
    [/RTX PRO 6000/i, "rtxpro6000-96g"],
    [/RTX PRO 4500/i, "rtxpro4500-32g"],
    // DGX Spark: CUDA reports 121.69 GiB of the 128 GB shared LPDDR5X (cards.ts).
    [/GB10|DGX Spark/i, "gb10-128g"],
  ];
  for (const [re, cls] of table) if (re.test(gpu)) return cls === "" ? null : cls;
  return null;
}

/** Memory of the case's card: the catalog's, or the label's size for a card it lacks (an 8 GB laptop part). */
export function physicalBytesOf(r: CalibrationRecord): number | null {
  const cls = gpuClassOf(r.gpu);
  if (cls) return cardMemoryBytes(cls);
  const gb = /(\d+)\s*GB/i.exec(r.gpu);
  return gb?.[1] ? Number(gb[1]) * 1024 * MIB : null;
}

export function metric(
  name: string,
  unit: AccuracyMetric["unit"],
  predicted: number,
  measured: number,
  tolerancePct: number,
): AccuracyMetric {
  return { name, unit, predicted, measured, errorPct: ((predicted - measured) / measured) * 100, tolerancePct };
}

export function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function failed(r: CalibrationRecord): boolean {
  return /failed/i.test(r.id);
}

export function placementOf(cls: string, tp: number, pp: number, nodes = 1): Placement {
  return {
    cpu: false,
    gpuClass: cls,
    fabric: "",
    gpusPerNode: Math.max(1, Math.ceil((tp * pp) / nodes)),
    nodes,
    tensorParallel: tp,
    pipelineParallel: pp,
    expertParallel: false,
    cpuMoeLayers: 0,
    gpuLayers: -1,
  };
}

/** One replica of a logged vLLM/SGLang run as a layout: the run's own width and stages on its own card, free, whole. */
export function servingLayoutOf(
  id: string,
  artifact: Artifact,
  engine: Engine,
  shape: ModelShape,
  gpuClass: string,
  physicalBytes: number,
  tp: number,
  pp = 1,
  nodes = 1,
): Layout {
  return {
    id,
    artifact,
    engine,
    placement: placementOf(gpuClass, tp, pp, nodes),
    bitsPerWeight: artifact.bitsPerWeight,
    parts: servingParts(shape, artifact, gpuClass, physicalBytes, tp, pp, false),
    host: null,
    hosts: 1,
    freeNow: true,
    cardsShort: 0,
    replicas: 1,
    replicasFreeNow: 1,
    dataParallel: 1,
  };
}

export function checkpointBytes(m: CalibrationModel, shape: ModelShape): number {
  return m.bytes ?? (m.params ?? 0) * computeDtypeBytes(shape.dtype);
}

export function artifactOf(
  m: CalibrationModel,
  shape: ModelShape,
  format: Artifact["format"],
  bytes: number,
): Artifact {
  const params = shape.paramsTotal ?? m.params ?? 0;
  return {
    name: "original",
    format,
    files: [],
    bytes,
    projectorBytes: 0,
    quant: shape.quantMethod || shape.dtype,
    bitsPerWeight: params > 0 ? (bytes * 8) / params : 0,
    expertBytes: 0,
  };
}

/**
 * The parameters of a dense decoder (Llama/Qwen3 layout: q, k, v, o projections, a gated MLP, RMS norms,
 * Qwen3's per-head q/k norms) counted from its config.json, or null for any other layout (experts, MLA,
 * linear attention): what a bf16 checkpoint weighs at 2 B each when no file size was recorded. Qwen3-8B:
 * 8,190,735,360 (its model card says 8.2B).
 */
export function denseParamsOf(config: Record<string, unknown>): number | null {
  const n = (k: string): number | null => (typeof config[k] === "number" ? (config[k] as number) : null);
  const hidden = n("hidden_size"),
    layers = n("num_hidden_layers"),
    heads = n("num_attention_heads"),
    inter = n("intermediate_size"),
    vocab = n("vocab_size");
  if (
    hidden === null ||
    layers === null ||
    heads === null ||
    inter === null ||
    vocab === null ||
    config["num_experts"] !== undefined ||
    config["kv_lora_rank"] !== undefined
  )
    return null;
  const kvHeads = n("num_key_value_heads") ?? heads;
  const headDim = n("head_dim") ?? hidden / heads;
  const qkNorm = /Qwen3/.test(JSON.stringify(config["architectures"] ?? "")) ? 2 * headDim : 0;
  const attention =
    hidden * headDim * (2 * heads + 2 * kvHeads) +
    (config["attention_bias"] === true ? headDim * (heads + 2 * kvHeads) : 0);
  const perLayer = attention + 3 * hidden * inter + 2 * hidden + qkNorm;
  const embeddings = vocab * hidden * (config["tie_word_embeddings"] === true ? 1 : 2);
  return layers * perLayer + embeddings + hidden;
}
