/**
 * The 2026 startups (issue 15: test/fixtures/calibration/newer.jsonl and newer-found.jsonl, bundled as
 * newer.json) predicted as a user would plan them: the run's cards at the total the log printed, its
 * release, utilization, max_num_seqs and max_num_batched_tokens, through the same `evaluate` the page uses.
 * Weights are a prediction only where a source gives the checkpoint's bytes (the log's "Checkpoint size",
 * a calibration model's params, or a bf16 model's own parameter count); elsewhere the log's loaded weights
 * are the input, and only the accounting around them (KV pool, verdict) is compared, as the note says.
 */
import {
  DRIVER_RESERVED_BYTES,
  GIB,
  LLAMACPP_CUDA_UNACCOUNTED_BYTES,
  VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT,
  llamacppCacheBytes,
  mtpWeightBytes,
  vllmMxfp4MarlinGrowthBytes,
  cardMemoryBytes,
  evaluate,
  kvGeometry,
  servingParts,
  vllmCachedGeometry,
  vllmCapacity,
  vllmDsv4SequenceBytes,
  vllmReleaseFor,
  type Engine,
  type Layout,
  type ModelShape,
  type Workload,
} from "../plan/index.ts";
import newer from "./newer.json" with { type: "json" };
import {
  artifactOf,
  checkpointBytes,
  denseParamsOf,
  gpuClassOf,
  metric,
  MIB,
  num,
  servingLayoutOf,
  type AccuracyRow,
  type CalibrationModel,
  type CalibrationRecord,
} from "./cases.ts";

/** The model entry of a 2026 record: its repository, whatever the record adds after it (a revision, a quantizer's name). */
const MODEL_KEYS: [RegExp, string][] = [
  [/^meta-llama\/Llama-3\.1-8B/, "meta-llama/Llama-3.1-8B-Instruct"],
  [/^Qwen\/Qwen3-235B-A22B.*FP8/, "Qwen/Qwen3-235B-A22B-FP8"],
  [/^Qwen\/Qwen3-32B/, "Qwen/Qwen3-32B"],
  [/^Qwen\/Qwen3-8B/, "Qwen/Qwen3-8B"],
  [/^openai\/gpt-oss-120b/, "openai/gpt-oss-120b"],
  [/^nvidia\/Qwen3\.5-122B-A10B-NVFP4/, "nvidia/Qwen3.5-122B-A10B-NVFP4"],
  [/^deepseek-ai\/DeepSeek-V4-Flash/, "deepseek-ai/DeepSeek-V4-Flash"],
  [/^zai-org\/GLM-5\.2/, "zai-org/GLM-5.2"],
  [/MiniMax-M2\.7/, "MiniMaxAI/MiniMax-M2.7"],
  // Quantized builds of Qwen3.6-27B: the geometry of NVIDIA's NVFP4 build's config (the same base model).
  [/Qwen3\.6-27B/, "nvidia/Qwen3.6-27B-NVFP4"],
  // Google's bf16 Gemma-4-31B-it: NVIDIA's NVFP4 build's geometry, without its quantization (UNQUANTIZED below).
  [/^google\/gemma-4-31B-it/, "nvidia/Gemma-4-31B-IT-NVFP4"],
];

/** Records of a bf16 checkpoint planned on a quantized build's config: the geometry is the base model's, the weights not. */
const UNQUANTIZED = /^google\/gemma-4-31B-it/;

export function model2026(
  r: CalibrationRecord,
  models: Record<string, CalibrationModel>,
): CalibrationModel | undefined {
  const key = MODEL_KEYS.find(([re]) => re.test(r.model))?.[1];
  const m = key === undefined ? undefined : models[key];
  if (m === undefined || !UNQUANTIZED.test(r.model)) return m;
  const { quantization_config: _quantized, ...config } = m.config;
  return { ...m, config };
}

/** The release a 2026 record names, as printed or annotated ("0.27.1 (vllm/vllm-openai:latest …)", "~0.22 (…)"). */
export function release2026(r: CalibrationRecord): string | undefined {
  const first = /^~?(\S+)/.exec(r.engine_version ?? "")?.[1];
  if (first === undefined) return undefined;
  return "error" in vllmReleaseFor(first) ? undefined : first;
}

/** Whether a record is a 2026 one this module predicts: a vLLM release from 0.21 on, SGLang's or llama.cpp's 2026 logs. */
export function is2026(r: CalibrationRecord): boolean {
  if (r.engine === "sglang") return /2026/.test(r.engine_version ?? "");
  if (/llama/.test(r.engine)) return /\b(?:build |b)1\d{4}\b/.test(r.engine_version ?? "");
  if (r.engine !== "vllm") return false;
  const v = release2026(r);
  const rel = v === undefined ? null : vllmReleaseFor(v);
  return rel !== null && !("error" in rel) && !["0.10", "0.11.1", "0.17"].includes(rel.profile.id);
}

/**
 * A KV figure a reporter summarised in a table rather than a line vLLM printed, with what it disagrees with.
 * The 8 × RTX PRO 4500 comment gives "estimated KV cache budget 19.0 GiB" of a 29.81 GiB budget after 9.98
 * of weights: 0.83 GiB for activation, non-torch and graphs, where 256 sequences' sampler alone is 0.74
 * (15.4 B an entry). Modelplan plans 18.36 GiB (−3.4%): 0.25 of non-torch (the TP1 figure, NCCL being set
 * up before the snapshot) and 0.47 of graph estimate (vllmGraphEstimateBytes: 85 graphs × 36 layers ×
 * 0.156 MiB; the old 0.19 pool line scaled to 86 graphs reserved 0.81, −5.2%). The reporter's private
 * pool was 62 MiB, but vLLM's estimate is a free-memory delta that also holds the driver's graph memory.
 */
const FROM_A_SUMMARY_TABLE = new Map<string, { tolerancePct: number }>([
  ["vllm0280-8xrtxpro4500-gpt-oss-120b-tp8-u0.95-failed-after-kv", { tolerancePct: 5 }],
]);

/** The checkpoint's bytes, and whether they are independent of the log's loaded figure. */
/**
 * What vLLM's Marlin layout adds to a card's MXFP4 experts (engines/vllm/mxfp4.ts), for turning a loaded
 * figure back into the checkpoint's share: the plan adds it again.
 */
function marlinGrowthPerCard(r: CalibrationRecord, shape: ModelShape): number {
  const cls = gpuClassOf(r.gpu);
  const moe = shape.moe;
  if (cls === null || !moe || shape.quantMethod !== "mxfp4" || r.engine !== "vllm") return 0;
  const parts = servingParts(
    shape,
    artifactOf({ source: "", config: {} }, shape, "safetensors", 0),
    cls,
    100 * GIB,
    r.tp,
    1,
    false,
  );
  const part = parts[0];
  return part ? vllmMxfp4MarlinGrowthBytes(part, shape) : 0;
}

function weightsInput(
  r: CalibrationRecord,
  m: CalibrationModel,
  shape: ModelShape,
): { bytes: number; independent: boolean } | null {
  const checkpoint = num(r.measured["checkpoint_size_gib"]);
  if (checkpoint !== null) return { bytes: checkpoint * GIB, independent: true };
  if (m.params !== undefined || m.bytes !== undefined) return { bytes: checkpointBytes(m, shape), independent: true };
  // A bf16 checkpoint weighs its parameters × 2 (no quantization to repack).
  const params = shape.quantMethod === "" && shape.dtype === "bfloat16" ? denseParamsOf(m.config) : null;
  if (params !== null) return { bytes: params * 2, independent: true };
  const loaded =
    num(r.measured["weights_gib_per_card"]) ??
    num(r.measured["weights_mem_usage_GB_label_is_GiB"]) ??
    num(r.derived["expected_weights_per_card_gib"]);
  // The checkpoint holds the MTP block the run did not load (speculative decoding off): added back, since the plan takes it out.
  const mtp = mtpTokensOf(r) > 0 ? 0 : mtpWeightBytes(shape);
  return loaded === null
    ? null
    : { bytes: (loaded * GIB - marlinGrowthPerCard(r, shape)) * r.tp + mtp, independent: false };
}

/** The speculative MTP tokens a run used ("MTP, 3 tokens"; "MTP" alone: 1), 0 without. */
function mtpTokensOf(r: CalibrationRecord): number {
  const spec = (r.measured as Record<string, unknown>)["speculative"];
  if (typeof spec !== "string" || !/MTP/.test(spec)) return 0;
  return Number(/(\d+) tokens?/.exec(spec)?.[1] ?? 1);
}

/**
 * A 0.26 run the user put on the V1 model runner (VLLM_USE_V2_MODEL_RUNNER=0, the record's model_runner): V1 in
 * 0.26 holds what 0.21–0.25 hold (the estimate inside, the 15.4 B sampler), so it is planned with that profile.
 */
function forcedV1(r: CalibrationRecord, release: string): boolean {
  const runner = (r.measured as Record<string, unknown>)["model_runner"];
  const rel = vllmReleaseFor(release);
  return typeof runner === "string" && /^V1/.test(runner) && !("error" in rel) && rel.profile.id === "0.26";
}

function workload2026(r: CalibrationRecord, engine: Engine): Workload {
  const settings: Workload["settings"] = {};
  const mtp = mtpTokensOf(r);
  if (mtp > 0) settings.speculativeMtpTokens = mtp;
  if (engine === "vllm") {
    const util = num(r.gpu_mem_util);
    if (util !== null) settings.gpuMemoryUtilization = util;
    const release = release2026(r);
    if (release !== undefined) settings.vllmVersion = forcedV1(r, release) ? "0.25" : release;
    // The run's own scheduler limits, where its args or log name them (most of these runs set max_num_seqs 1–32).
    const seqs = num(r.measured["max_num_seqs"]);
    const tokens = num(r.measured["max_num_batched_tokens"]);
    if (seqs !== null) settings.maxNumSeqs = seqs;
    if (tokens !== null) settings.maxNumBatchedTokens = tokens;
  }
  const kvDtype = /^fp8/i.test(r.kv_dtype) ? "fp8" : "auto";
  // SGLang's logs print no context: the model's own (Qwen3's 40,960) is what it served; the RTX PRO 4500 log names none either.
  return { contextTokens: num(r.context) ?? 40960, sequences: 1, kvDtype, settings };
}

/**
 * A 2026 llama.cpp startup: its caches at n_ctx summed over the cards (the MLA latent and, for GLM-5.x,
 * the DSA indexer's own cache, printed per device), and the memory its breakdown leaves unaccounted on
 * each card (LLAMACPP_CUDA_UNACCOUNTED_BYTES). The buffers are exact MiB: within 0.1%.
 */
function llamacpp2026(r: CalibrationRecord, shape: ModelShape, row: AccuracyRow): void {
  const ms = r.measured as Record<string, unknown>;
  const sum = (k: string): number | null =>
    Array.isArray(ms[k]) ? (ms[k] as number[]).reduce((a, b) => a + b, 0) : null;
  const main = sum("main_KV_MiB_per_device");
  const context = num(r.context);
  row.note = "llama.cpp 2026: the caches over every card, and what the memory breakdown leaves unaccounted";
  if (main === null || context === null) {
    row.note = "llama.cpp 2026: only nvidia-smi totals printed";
    return;
  }
  const g = kvGeometry(shape.layerCaches, 1);
  const indexer = sum("indexer_KV_MiB_per_device") ?? 0;
  row.metrics.push(
    metric(
      "KV cache, all cards (latent + DSA indexer)",
      "MiB",
      llamacppCacheBytes(g, 2, context, 1, 512) / MIB,
      main + indexer,
      0.1,
    ),
  );
  if (indexer > 0)
    row.metrics.push(
      metric(
        "DSA indexer cache, all cards",
        "MiB",
        (llamacppCacheBytes(g, 2, context, 1, 512) -
          llamacppCacheBytes({ ...g, indexerBytesPerToken: 0 }, 2, context, 1, 512)) /
          MIB,
        indexer,
        0.1,
      ),
    );
  const breakdown = ms["memory_breakdown_MiB_self_model_context_compute_unaccounted"];
  if (breakdown !== null && typeof breakdown === "object") {
    for (const [device, parts] of Object.entries(breakdown as Record<string, number[]>)) {
      const unaccounted = parts[4];
      if (unaccounted !== undefined)
        row.metrics.push(
          metric(
            `${device} memory the breakdown leaves unaccounted`,
            "MiB",
            LLAMACPP_CUDA_UNACCOUNTED_BYTES / MIB,
            unaccounted,
            1,
          ),
        );
    }
  }
}

/** One 2026 vLLM, SGLang or llama.cpp startup, predicted. */
export function predict2026(r: CalibrationRecord, m: CalibrationModel, shape: ModelShape, row: AccuracyRow): void {
  if (/llama/.test(r.engine)) {
    llamacpp2026(r, shape, row);
    return;
  }
  const engine: Engine = r.engine === "sglang" ? "sglang" : "vllm";
  if (engine === "vllm") geometry2026(r, shape, row);
  const cls = gpuClassOf(r.gpu);
  const logged = num(r.gpu_mem_gib);
  if (cls === null) {
    row.note = "the card is not in the catalog (a laptop part or unified memory): not planned";
    return;
  }
  // The log's CUDA total is the budget's base; without one the catalog card's.
  const physical = logged !== null ? logged * GIB + DRIVER_RESERVED_BYTES : cardMemoryBytes(cls);
  const input = weightsInput(r, m, shape);
  if (physical === null || input === null) {
    row.note = "no weights figure and no checkpoint size: the pool cannot be planned";
    return;
  }
  const art = artifactOf(m, shape, "safetensors", input.bytes);
  const free = num(r.measured["init_free_memory_gib"]);
  const layout: Layout = {
    ...servingLayoutOf(r.id, art, engine, shape, cls, physical, r.tp),
    ...(free !== null ? { freeMemBytes: free * GIB } : {}),
  };
  const option = evaluate(layout, { repo: r.model, revision: "", shape }, workload2026(r, engine));
  row.predictedFits = option.fits && option.freeNow;
  const card = option.cards[0];
  if (!card) return;
  const ms = r.measured;
  const weights = engine === "sglang" ? num(ms["weights_mem_usage_GB_label_is_GiB"]) : num(ms["weights_gib_per_card"]);
  if (weights !== null && input.independent)
    row.metrics.push(metric("weights per card", "GiB", card.weightsBytes / GIB, weights, 2));
  const kv =
    engine === "sglang"
      ? (num(ms["K_size_GB_label_is_GiB"]) ?? 0) + (num(ms["V_size_GB_label_is_GiB"]) ?? 0)
      : (num(ms["kv_available_gib_per_card"]) ?? 0);
  const pool = card.usableBytes - card.weightsBytes - card.engineBytes;
  const table = FROM_A_SUMMARY_TABLE.get(r.id);
  if (kv > 0 && table !== undefined)
    row.metrics.push(metric("KV budget in the reporter's table", "GiB", pool / GIB, kv, table.tolerancePct));
  else if (kv > 0) row.metrics.push(metric("KV pool per card", "GiB", pool / GIB, kv, 5));
  const release = engine === "vllm" ? (release2026(r) ?? "the newest") : (r.engine_version ?? "");
  row.note = `${engine === "vllm" ? `vLLM ${release}` : `SGLang ${release}`}; weights ${input.independent ? "predicted from the checkpoint" : "INPUT (the log's loaded figure: no checkpoint size)"}; budget ${(card.usableBytes / GIB).toFixed(2)} GiB`;
}

/**
 * What needs no card and no weights: the pool vLLM printed, turned into tokens by Modelplan's KV
 * accounting, within the log's 0.01 GiB rounding plus 1% (MiniMax-M2.7 AWQ at TP2 on GB10 keeps 0.92%
 * fewer tokens than its pool ÷ 126,976 B, the per-rank bytes its own refusal message states: unexplained).
 * Only for caches without linear-attention state or windows (there tokens are concurrency × context).
 * A DeepSeek-V4 run's own refusal is compared too (dsv4PreCheck).
 */
function geometry2026(r: CalibrationRecord, shape: ModelShape, row: AccuracyRow): void {
  const g = vllmCachedGeometry(kvGeometry(shape.layerCaches, r.tp), VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT);
  if (g.compressed.length > 0) {
    dsv4PreCheck(r, g, row);
    return;
  }
  if (g.linearLayers > 0) return;
  const elem = /^fp8/i.test(r.kv_dtype) ? 1 : 2;
  const kv = num(r.measured["kv_available_gib_per_card"]);
  const tokens = num(r.measured["kv_tokens"]);
  const context = num(r.context) ?? 8192;
  const batched = batchedTokensOf(r) ?? 8192;
  if (kv !== null && kv > 0 && tokens !== null && g.sliding.length === 0) {
    row.metrics.push(
      metric(
        "KV tokens from the measured pool",
        "tokens",
        vllmCapacity(g, elem, kv * GIB, context, batched).tokens,
        tokens,
        (0.006 / kv) * 100 + 1,
      ),
    );
  }
}

/** The run's max_num_batched_tokens: its log's, or the default its front end took (derived, with the reason). */
function batchedTokensOf(r: CalibrationRecord): number | null {
  return num(r.measured["max_num_batched_tokens"]) ?? num(r.derived["max_num_batched_tokens_default"]);
}

/**
 * vLLM's refusal of a DeepSeek-V4 request ("6.66 GiB KV cache is needed … the estimated maximum model
 * length is 13528"): the blocks one request is admitted with at max_model_len (vllmDsv4SequenceBytes:
 * every sliding group holds min(window − 1 + max_num_batched_tokens, context) tokens), and the longest
 * context the printed pool admits. The GH200 run called `LLM(...)`, whose default on a ≥ 70 GiB card is
 * 16,384 batched tokens (arg_utils get_batch_defaults, UsageContext.LLM_CLASS; `vllm serve` takes 8,192):
 * at 8,192 the same layout needs 3.40 GiB, at 16,384 6.66. Within the printed 0.01 GiB rounding plus 0.5%.
 */
function dsv4PreCheck(r: CalibrationRecord, g: ReturnType<typeof vllmCachedGeometry>, row: AccuracyRow): void {
  const needed = num(r.measured["kv_needed_for_one_request_gib"]);
  const available = num(r.measured["kv_available_gib_per_card"]);
  const maxLen = num(r.measured["estimated_max_model_len"]);
  const context = num(r.context);
  const batched = batchedTokensOf(r);
  if (needed === null || context === null || batched === null) return;
  const bytes = (ctx: number): number => vllmDsv4SequenceBytes(g, ctx, batched);
  row.metrics.push(
    metric(
      "KV one request needs (vLLM's pre-check)",
      "GiB",
      bytes(context) / GIB,
      needed,
      (0.005 / needed) * 100 + 0.5,
    ),
  );
  if (available === null || maxLen === null) return;
  // vLLM's estimate_max_model_len: a binary search for the longest context whose need fits the pool.
  let lo = 1;
  let hi = context;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (bytes(mid) <= available * GIB) lo = mid;
    else hi = mid - 1;
  }
  row.metrics.push(metric("estimated maximum model length", "tokens", lo, maxLen, (0.005 / available) * 100 + 0.5));
}

/** The release group the Accuracy view files a 2026 case under: "vLLM 0.27", "SGLang 2026", "llama.cpp 2026". */
export function releaseGroup(r: Pick<AccuracyRow, "engine" | "engineVersion">): string {
  if (r.engine === "vllm") {
    const v = /^~?(\d+\.\d+)/.exec(r.engineVersion)?.[1];
    return v === undefined ? "vLLM" : `vLLM ${v}`;
  }
  return /llama/.test(r.engine) ? "llama.cpp 2026" : r.engine === "sglang" ? "SGLang 2026" : r.engine;
}

/** The bundled 2026 cases and their models (newer.json). */
export function newerCases(): { cases: CalibrationRecord[]; models: Record<string, CalibrationModel> } {
  return newer as unknown as { cases: CalibrationRecord[]; models: Record<string, CalibrationModel> };
}
