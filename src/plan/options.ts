/**
 * Options: every way each artifact a repository offers could run on the
 * cluster as it is (a node's CPU, one node's cards, several nodes' cards on
 * one fabric, a card with the experts in host RAM), what each card would
 * hold, and why the configurations not offered were turned down.
 *
 * Enumeration (which placements exist) is done once by `plan`; evaluation
 * (what a placement holds for a workload) is `evaluate`, which the slider's
 * path (`withWorkload`, context.ts) calls again without enumerating.
 */
import type {
  Artifact, CardLoad, Cluster, Engine, ModelShape, PlanOption, Placement, Refusal, Workload,
} from "./types.ts";
import { cardMemoryBytes, cardOf, isMigClass } from "./cards.ts";
import { commandsFor, type CommandContext } from "./commands.ts";
import {
  LLAMACPP_KV_PAD, kvElementBytes, kvGeometry, llamacppCacheBytes, sglangBytesPerToken, sglangCapacity, sglangSequenceBytes,
  vllmBlockTokens, vllmCachedGeometry, vllmCapacity, vllmDsv4Layout, vllmSequenceBytes, type KvGeometry,
  freetokenDsv4Args, freetokenDsv4Cost, freetokenDsv4Reserve,
} from "./kv.ts";
import {
  CUDA_CONTEXT_BYTES, GIB, freetokenReserveTokens, freetokenStateSlots, HOST_SHARE, LLAMACPP_FIT_MARGIN_BYTES, cudaTotalBytes,
  llamacppComputeBytes, llamacppHostBytes, sglangContextBytes, vllmActivationBytes, vllmNonTorchBytes,
  vllmGraphReserveBytes, vllmMxfp4HopperExpertGrowthBytes, vllmOutsideFloorBytes, vllmSamplerWarmupBytes, VLLM_MXFP4_GRAPH_EXCESS_BYTES, VLLM_MXFP4_WARMUP_BYTES,
} from "./memory.ts";
import { kvDtypeAllowed, resolveSettings, vllmSettingsPerRelease, type ResolvedSettings } from "./settings.ts";
import { largestFitting, rememberLayouts } from "./context.ts";
import { rank } from "./rank.ts";

/** A model planned on a cluster for a workload: its options best first, and what was turned down. */
export interface Plan {
  repo: string;
  revision: string;
  /** Where the engines load the weights from when not the Hub repo: a local directory's path (PlanInput.modelPath). */
  modelPath?: string;
  shape: ModelShape;
  artifacts: Artifact[];
  cluster: Cluster;
  workload: Workload;
  options: PlanOption[];
  refused: Refusal[];
}

/** What the engine plans: a model's shape and the artifacts its repository offers. */
export interface PlanInput {
  repo: string;
  revision: string;
  /**
   * A local directory the weights are in (`npm run plan ./dir`): the commands load from it rather than
   * naming `repo`, which for a download directory is only its name and would send the engine to the Hub.
   */
  modelPath?: string;
  shape: ModelShape;
  artifacts: Artifact[];
}

// ---------------------------------------------------------------------------
// Precision
// ---------------------------------------------------------------------------

/**
 * Roughly what each quantization spends a weight, for when the parameter
 * count is unknown (seed options.go `quantBits`).
 */
const QUANT_BITS: Record<string, number> = {
  F32: 32, F16: 16, BF16: 16, FP16: 16, Q8_0: 8.5, Q6_K: 6.6, Q5_K_M: 5.7, Q5_K_S: 5.5, Q5_0: 5.5, Q5_1: 6,
  Q4_K_M: 4.8, Q4_K_S: 4.6, Q4_0: 4.5, Q4_1: 5, IQ4_XS: 4.3, IQ4_NL: 4.5, Q3_K_L: 4.3, Q3_K_M: 3.9, Q3_K_S: 3.5,
  IQ3_M: 3.7, IQ3_XS: 3.3, IQ3_XXS: 3.1, Q2_K: 3.0, IQ2_M: 2.7, IQ2_XS: 2.3, IQ2_XXS: 2.1, IQ1_M: 1.8, IQ1_S: 1.6,
  FP8: 8, AWQ: 4.25, GPTQ: 4.25, MXFP4: 4.25, NVFP4: 4.5,
};

/** An artifact's bits per weight: measured from its bytes when the parameters are known, else the quant's usual figure. */
export function bitsOf(a: Artifact): number {
  if (a.bitsPerWeight > 0) return a.bitsPerWeight;
  return QUANT_BITS[a.quant.toUpperCase()] ?? 0;
}

/**
 * Bytes of one element of what the model computes and caches in: 4 for an
 * fp32 model, else 2. An fp8 or 4-bit checkpoint still runs (and, with KV
 * dtype "auto", caches) in 16 bits, unlike shape.ts's dtypeBytes, which
 * reads a stored dtype.
 */
export function computeDtypeBytes(dtype: string): number {
  return dtype.includes("32") ? 4 : 2;
}

// ---------------------------------------------------------------------------
// The checkpoint, cut into what cards hold
// ---------------------------------------------------------------------------

/** Bits of a GGUF's output layer: Q6_K, the least llama.cpp's quantizer gives it. */
const GGUF_OUTPUT_BITS = 6.5625;

/** How an artifact's bytes divide: embedding, output layer, and the layers' share (experts apart). */
export interface WeightParts {
  embedBytes: number;
  /** The output layer (lm_head); 0 when tied to the embedding. */
  headBytes: number;
  /** Non-expert bytes of one decoder layer (attention, norms, dense or shared MLP). */
  layerBytes: number;
  /** Routed experts' bytes of one MoE layer. */
  expertLayerBytes: number;
  moeLayers: number;
  projectorBytes: number;
}

/**
 * Cuts an artifact into parts. The embedding and lm_head are vocab × hidden
 * at the checkpoint's element size (quantized safetensors keep them in 16
 * bits; a GGUF's are near its bits per weight); what is left is spread evenly
 * over the layers, the experts over the MoE layers.
 */
export function weightParts(shape: ModelShape, a: Artifact): WeightParts {
  const known = partsMemo.get(a);
  if (known && known.shape === shape) return known.parts;
  const parts = cutWeights(shape, a);
  partsMemo.set(a, { shape, parts });
  return parts;
}

/** An artifact's parts for the shape it was last cut for: evaluation asks again and again. */
const partsMemo = new WeakMap<Artifact, { shape: ModelShape; parts: WeightParts }>();

function cutWeights(shape: ModelShape, a: Artifact): WeightParts {
  const tied = shape.tiedEmbeddings === true;
  const table = shape.vocabSize * shape.hiddenSize;
  let embedBytes: number;
  let headBytes: number;
  if (a.format === "gguf") {
    // llama.cpp's quantizer keeps the output tensor at Q6_K (6.5625 bits) or better
    // (llama-quant.cpp); a tied model's token_embd is that output. Calibration: Gemma-3-27B
    // Q4_K_M's CPU buffer 1,102.77 MiB = 262,208 × 5,376 × 6.56 bits; Llama-3.1-8B Q5_K_S
    // keeps its untied token_embd at the file's 5.5 bits (model 5.162 GiB, CUDA0 4.825).
    const bits = Math.max(bitsOf(a), 4);
    const outputBits = Math.max(bits, GGUF_OUTPUT_BITS);
    embedBytes = (table * (tied ? outputBits : bits)) / 8;
    headBytes = tied ? 0 : (table * outputBits) / 8;
  } else {
    embedBytes = table * computeDtypeBytes(shape.dtype);
    headBytes = tied ? 0 : embedBytes;
  }
  embedBytes = Math.min(a.bytes / 4, embedBytes);
  headBytes = Math.min(a.bytes / 4, headBytes);
  const moeLayers = shape.moe ? Math.max(1, moeLayersIn(shape, 0, shape.layers)) : 0;
  const expertBytes = shape.moe ? a.expertBytes : 0;
  const rest = Math.max(0, a.bytes - embedBytes - headBytes - expertBytes);
  return {
    embedBytes,
    headBytes,
    layerBytes: rest / Math.max(1, shape.layers),
    expertLayerBytes: moeLayers > 0 ? expertBytes / moeLayers : 0,
    moeLayers,
    projectorBytes: a.projectorBytes,
  };
}

/**
 * Decoder layers in [start, end) that carry routed experts. The shape's
 * per-layer mask when it has one (Llama-4 Maverick: every second layer, 24 of
 * 48; Nemotron-H: the `E`s of its pattern, 23 of 52); else its count spread
 * evenly; else, for shapes that give neither, every layer after the leading
 * dense ones (first_k_dense_replace).
 */
export function moeLayersIn(shape: ModelShape, start: number, end: number): number {
  const moe = shape.moe;
  if (!moe || end <= start) return 0;
  const mask = moe.moeLayerMask;
  if (mask && mask.length === shape.layers) {
    let n = 0;
    for (let i = start; i < end; i++) if (mask[i]) n++;
    return n;
  }
  if (moe.moeLayers !== undefined && shape.layers > 0) {
    // Proportionally, rounded so that the stages of a pipeline add up to the whole.
    const upTo = (i: number): number => Math.round(((moe.moeLayers ?? 0) * i) / shape.layers);
    return upTo(end) - upTo(start);
  }
  return Math.max(0, end - Math.max(start, moe.denseFirstLayers));
}

/**
 * vLLM's pipeline partition (vllm/distributed/utils.py get_pp_indices):
 * layers ÷ stages each, the remainder given to the stages before the last,
 * from the second-last backwards. Returns [start, end) of stage `i`.
 */
export function stageLayers(layers: number, stages: number, i: number): [number, number] {
  const sizes = new Array<number>(stages).fill(Math.floor(layers / stages));
  const remaining = layers % stages;
  for (let k = 2; k < remaining + 2; k++) sizes[stages - k] = (sizes[stages - k] ?? 0) + 1;
  let start = 0;
  for (let k = 0; k < i; k++) start += sizes[k] ?? 0;
  return [start, start + (sizes[i] ?? 0)];
}

// ---------------------------------------------------------------------------
// Layouts: a placement's cards and what is fixed about them
// ---------------------------------------------------------------------------

/** One kind of card in a replica (or a pipeline stage), fixed across workloads. */
export interface Part {
  gpuClass: string;
  cards: number;
  role: string;
  physicalBytes: number;
  /** Layer-body bytes on this card at the checkpoint's precision (what runtime settings may rescale). */
  bodyBytes: number;
  /** Embedding / lm_head bytes on this card (kept at 16 bits by runtime quantization). */
  embedBytes: number;
  tensorParallel: number;
  pipelineParallel: number;
  /** It runs the sampler / holds the output layer. */
  holdsOutput: boolean;
  kv: KvGeometry;
  /** The routed experts this card holds (vLLM/SGLang parts of a MoE model), for engine-specific layouts. */
  routedExperts?: RoutedExpertsOnCard;
}

/** A card's routed experts: what an engine may lay out otherwise than the checkpoint. */
export interface RoutedExpertsOnCard {
  /** MoE layers whose experts are on this card. */
  moeLayers: number;
  /** Experts per layer on this card (all of them, or ceil(E ÷ ep) under expert parallel). */
  experts: number;
  /** Each expert's FFN width on this card (split by tensor parallel unless expert parallel). */
  intermediatePerCard: number;
}

/** What an option is, fixed by enumeration; `evaluate` adds what the workload decides. */
export interface Layout {
  id: string;
  artifact: Artifact;
  engine: Engine;
  placement: Placement;
  bitsPerWeight: number;
  parts: Part[];
  /** llama.cpp on the CPU or with part of the model in RAM: the host's share. */
  host: HostShare | null;
  hosts: number;
  freeNow: boolean;
  /**
   * The free memory a card of the free nodes has (the least among the nodes a
   * replica would take), or null when the inventory does not say: vLLM's
   * start-up check compares it with utilization × total.
   */
  freeMemBytes?: number | null;
  /** Cards short of what the cluster has, for a placement it cannot host (0 when it can). */
  cardsShort: number;
}

/** A replica's share in a node's RAM. */
export interface HostShare {
  /** What the planned node offers (RAM × HOST_SHARE), and the node's free RAM. */
  usableBytes: number;
  physicalBytes: number;
  freeBytes: number;
  /** Weights that always stay in RAM (llama.cpp's token embedding, or all on the CPU). */
  fixedBytes: number;
  /** Offload mode: the whole model (CPU), experts of some layers (--n-cpu-moe), whole layers (-ngl), or FreeToken's expert store. */
  mode: "cpu" | "moe" | "layers" | "freetoken";
  /** Every node's RAM share, ascending: counts hosts for the CPU option. */
  nodeUsableBytes: number[];
  nodeFreeBytes: number[];
}

// ---------------------------------------------------------------------------
// Evaluation: what a layout holds for a workload
// ---------------------------------------------------------------------------

interface CardEval {
  load: CardLoad;
  /** Bytes this card can still give the KV pool after weights and engine. */
  poolBytes: number;
  /** KV bytes of one sequence (vLLM/SGLang) or of the whole llama.cpp cache, at the workload. */
  needKvBytes: number;
  outsideOk: boolean;
  /** vLLM: the most any release the plan holds for requests at start-up (util × total), which free memory must cover. */
  requestedBytes?: number;
  /** The same KV need at another context: what the longest-context search asks. */
  kvAt: (contextTokens: number) => number;
  /** The engine's settings on this card, and its KV element's bytes. */
  settings: ResolvedSettings;
  elementBytes: number;
  /**
   * How the need grows once the context is long: `stepBytes` more for every
   * `stepTokens` more (a 16-token vLLM block, 256 llama.cpp cells over the
   * slots, one SGLang token). Lets the longest context be solved, not searched.
   */
  stepTokens: number;
  stepBytes: number;
}

/** The shared facts evaluation needs. */
export interface EvalContext {
  repo: string;
  revision: string;
  modelPath?: string;
  shape: ModelShape;
}

function weightsOnCard(part: Part, engine: Engine, shape: ModelShape, s: ResolvedSettings): number {
  let body = part.bodyBytes;
  let embed = part.embedBytes;
  const modelBytes = computeDtypeBytes(shape.dtype);
  if (engine === "vllm" || engine === "sglang") {
    // --dtype float32 on a 16-bit checkpoint doubles every weight (calibration: Llama-3.1-8B fp32
    // 29.98 GiB against 14.99); a 16-bit --dtype, or auto on an fp32 checkpoint, halves an fp32 one.
    const target = runElemBytes(shape, s);
    if (target !== modelBytes && shape.quantMethod === "") {
      body *= target / modelBytes;
      embed *= target / modelBytes;
    }
    // Runtime --quantization fp8 stores the linear layers in one byte and keeps the embedding and
    // lm_head at 16 bits (calibration: Llama-3.1-8B 8.49 GiB = 13.0 / 2 + 1.96 + rope).
    if (s.quantization === "fp8" && shape.quantMethod === "") body *= 1 / (s.dtype === "float32" ? 4 : 2);
    // The rotary cos/sin cache: max positions × head dim in the model's dtype, on every rank
    // (RotaryEmbedding._compute_cos_sin_cache; calibration: Llama-3.1-8B 0.03 GiB at TP 1, 2 and 4).
    embed += (shape.ropeCacheRows ?? shape.maxContextTokens) * ropeDim(shape) * target;
  }
  if (engine === "vllm") body += vllmMxfp4HopperGrowthBytes(part, shape);
  return body + embed;
}

/**
 * What vLLM's Hopper layout of MXFP4 experts adds to the checkpoint's bytes
 * (vllmMxfp4HopperExpertGrowthBytes: padding, scales kept twice, fp32 biases); 0
 * for any other checkpoint or card. Only sm90 is modelled: sm100 picks
 * FlashInfer's TRTLLM backend, with another padding, and no log calibrates it.
 */
function vllmMxfp4HopperGrowthBytes(part: Part, shape: ModelShape): number {
  const experts = part.routedExperts;
  if (shape.quantMethod !== "mxfp4" || !experts || cardOf(part.gpuClass)?.computeCapability !== 9) return 0;
  return experts.moeLayers * experts.experts * vllmMxfp4HopperExpertGrowthBytes(shape.hiddenSize, experts.intermediatePerCard);
}

/**
 * The rotary dimension the cos/sin cache is built for: the head dim, or for
 * MLA the latent's RoPE part (kv_lora_rank is 512 in every MLA model served:
 * DeepSeek V2/V3, Kimi, GLM-5), not the 576-wide latent.
 */
function ropeDim(shape: ModelShape): number {
  const mla = shape.layerCaches.find((l) => l.kind === "mla");
  if (mla && mla.kind === "mla") return Math.max(0, mla.latentDim - 512);
  // DeepSeek-V4: build_deepseek_v4_rope(rope_head_dim=qk_rope_head_dim) (attention.py e6643eca), not the 512-wide head.
  const v4 = shape.layerCaches.find((l) => l.kind === "compressed-mla");
  if (v4 && v4.kind === "compressed-mla") return v4.ropeDim;
  return shape.headDim;
}

/**
 * Bytes of one element of what vLLM and SGLang run the model in: --dtype as
 * given, and under "auto" the checkpoint's 16 bits, or 16 bits for an fp32
 * checkpoint too: vLLM's `_resolve_auto_dtype` ("Downcast for float32
 * models": the platform's first supported dtype, bfloat16 from sm80 on, else
 * float16), and SGLang's `_get_and_verify_dtype`, which follows it. A config
 * that names no dtype reads as fp32 there and is downcast the same way.
 */
function runElemBytes(shape: ModelShape, s: ResolvedSettings): number {
  if (s.dtype === "float32") return 4;
  if (s.dtype === "bfloat16" || s.dtype === "float16") return 2;
  return Math.min(2, computeDtypeBytes(shape.dtype));
}

/** One card kind's load for a workload, by engine. */
function evalPart(layout: Layout, part: Part, ctx: EvalContext, w: Workload, contextTokens: number): CardEval {
  const engine = layout.engine;
  let s = resolveSettings(engine, part.physicalBytes, w.settings, part.tensorParallel, w.sequences, part.gpuClass);
  const elem = kvElementBytes(engine, w.kvDtype, runElemBytes(ctx.shape, s));
  const weights = weightsOnCard(part, engine, ctx.shape, s);
  const measured = w.settings.measuredOverheadGib?.[engine];
  let usable: number;
  let engineBytes: number;
  let kvAt: (c: number) => number;
  let stepTokens = 1;
  let stepBytes = 0;
  const kv = engine === "vllm" ? vllmCachedGeometry(part.kv, s.chunkedLocalHybridKv) : part.kv;
  const growing = (kv.fullElemsPerToken + kv.mlaElemsPerToken) * elem + kv.indexerBytesPerToken;
  let sequences = Math.max(1, w.sequences);
  let outsideOk = true;
  let requestedBytes: number | undefined;
  switch (engine) {
    case "vllm": {
      // With no release named the plan holds for each range it may run on (settings.ts): the
      // smaller pool is planned, and every range's start-up check must pass.
      const budgets = vllmSettingsPerRelease(s, w.settings).map((r) => vllmBudget(layout, part, ctx.shape, r));
      // A measured overhead (below) replaces what each release spends inside: then the smaller budget is the smaller pool.
      const inside = (b: VllmBudget): number => (measured !== undefined && measured >= 0 ? measured * GIB : b.engineBytes);
      const chosen = budgets.reduce((a, b) => (b.usableBytes - inside(b) < a.usableBytes - inside(a) ? b : a));
      s = chosen.settings;
      usable = chosen.usableBytes;
      engineBytes = chosen.engineBytes;
      outsideOk = budgets.every((b) => b.outsideOk);
      requestedBytes = Math.max(...budgets.map((b) => b.usableBytes));
      kvAt = (c) => vllmSequenceBytes(kv, elem, c, s.maxNumBatchedTokens);
      stepTokens = vllmBlockTokens(kv, elem);
      // DeepSeek-V4: past the windows, each 256 tokens of context take one more shared block.
      stepBytes = kv.compressed.length > 0 ? vllmDsv4Layout(kv).blockBytes : stepTokens * growing;
      break;
    }
    case "sglang": {
      const total = cudaTotalBytes(part.physicalBytes, part.gpuClass);
      usable = s.memFractionStatic * total;
      engineBytes = sglangContextBytes(part.tensorParallel);
      kvAt = (c) => sglangSequenceBytes(part.kv, elem, c);
      stepBytes = sglangBytesPerToken(part.kv, elem);
      break;
    }
    case "llamacpp": {
      usable = part.physicalBytes - LLAMACPP_FIT_MARGIN_BYTES;
      engineBytes = CUDA_CONTEXT_BYTES + llamacppComputeBytes(ctx.shape, s.ubatch, part.holdsOutput);
      // llama.cpp allocates every slot's context up front: n_ctx = context × --parallel.
      kvAt = (c) => llamacppCacheBytes(part.kv, elem, c, s.parallel, s.ubatch);
      stepTokens = LLAMACPP_KV_PAD / s.parallel;
      stepBytes = LLAMACPP_KV_PAD * growing;
      sequences = 1;
      break;
    }
    case "freetoken": {
      // Its budget is --memory-ratio of the FREE memory measured once its own CUDA context exists
      // (engine/cache_budget.py net_cache_budget_bytes: int(memory_ratio × baseline_free) − weights
      // − fixed pools; the 1 − ratio remainder is the graphs' and activations' headroom), not of
      // the total: another process on the card shrinks it. The context sits outside it.
      const free = Math.min(layout.freeMemBytes ?? Infinity, cudaTotalBytes(part.physicalBytes, part.gpuClass));
      engineBytes = CUDA_CONTEXT_BYTES;
      usable = s.gpuMemoryUtilization * Math.max(0, free - CUDA_CONTEXT_BYTES) + CUDA_CONTEXT_BYTES;
      // --max-running-requests sequences share the KV the command reserves (context × sequences,
      // at least the 8,192-token floor), and size the linear states' slots before any page.
      const running = Math.max(1, w.sequences);
      const dsv4 = part.kv.compressed.length > 0 ? freetokenDsv4Args(part.kv) : null;
      if (dsv4 !== null && typeof dsv4 !== "string") {
        // DeepSeek-V4: FreeToken's own cost model (kv.ts), its bf16 tiers and 2 GiB slack, with
        // max_seq_len the context the command passes (--max-seq-len-override).
        kvAt = (c) => freetokenDsv4Reserve(dsv4, freetokenReserveTokens(c, running), c, running).bytes;
        // Past the 2 GiB slack, every page of context is a page more for each running sequence.
        stepTokens = dsv4.pageTokens;
        stepBytes = freetokenDsv4Cost(dsv4, contextTokens, running).perPageBytes * running;
        sequences = 1;
        break;
      }
      const states = part.kv.linearStateBytesPerSeq * freetokenStateSlots(running);
      const perToken = sglangBytesPerToken(part.kv, elem);
      kvAt = (c) => perToken * freetokenReserveTokens(c, running) + states;
      stepBytes = perToken * running;
      sequences = 1;
      break;
    }
  }
  if (measured !== undefined && measured >= 0) engineBytes = measured * GIB;
  const needKv = kvAt(contextTokens);
  const load: CardLoad = {
    gpuClass: part.gpuClass, cards: part.cards, role: part.role,
    weightsBytes: weights, kvBytes: Math.min(needKv * sequences, Math.max(needKv, usable - weights - engineBytes)), engineBytes, usableBytes: usable, physicalBytes: part.physicalBytes,
  };
  const e: CardEval = { load, poolBytes: usable - weights - engineBytes, needKvBytes: needKv, outsideOk, kvAt, settings: s, elementBytes: elem, stepTokens, stepBytes };
  if (requestedBytes !== undefined) e.requestedBytes = requestedBytes;
  return e;
}

/** What one vLLM release lets a card use and spends inside that budget, and whether what it spends outside fits. */
interface VllmBudget {
  settings: ResolvedSettings;
  usableBytes: number;
  engineBytes: number;
  outsideOk: boolean;
}

/**
 * vLLM's budget on a card for one release (`s.vllmProfile`): util × total, holding
 * the weights, the profile run's activation peak and non-torch memory and, from
 * 0.21, the CUDA-graph estimate; the context, the graphs of older releases and
 * the sampler's warm-up sit outside it.
 */
function vllmBudget(layout: Layout, part: Part, shape: ModelShape, s: ResolvedSettings): VllmBudget {
  const total = cudaTotalBytes(part.physicalBytes, part.gpuClass);
  const usable = s.gpuMemoryUtilization * total;
  // A tensor-parallel group wider than a node's cards talks over the network (vLLM on Ray across nodes).
  const tensorAcrossNodes = layout.placement.nodes > 1 && layout.placement.gpusPerNode < part.tensorParallel;
  const moe = (shape.moe?.routedExperts ?? 0) > 1;
  const engineBytes = vllmActivationBytes(shape, s, runElemBytes(shape, s), part.holdsOutput, part.pipelineParallel)
    + vllmNonTorchBytes(part.tensorParallel, part.pipelineParallel, s.vllmProfile, tensorAcrossNodes)
    + vllmGraphReserveBytes(s.vllmProfile, s.enforceEager, layersOnCard(part), moeExpertPicksOnCard(part, shape));
  const outside = vllmOutsideFloorBytes(part.tensorParallel, part.pipelineParallel, s.enforceEager, moe, s.vllmProfile)
    + (part.holdsOutput ? vllmSamplerWarmupBytes(shape, s) : 0)
    + (moe && shape.quantMethod === "mxfp4" ? VLLM_MXFP4_WARMUP_BYTES : 0)
    + (moe && shape.quantMethod === "mxfp4" && s.vllmProfile.graphsInsideBudget && !s.enforceEager ? VLLM_MXFP4_GRAPH_EXCESS_BYTES : 0);
  return { settings: s, usableBytes: usable, engineBytes, outsideOk: usable + outside <= total };
}

/** The layers a card runs, of every cache kind: what its CUDA graphs grow with. */
function layersOnCard(part: Part): number {
  const kv = part.kv;
  return kv.fullLayers + kv.mlaLayers + kv.linearLayers + kv.sliding.reduce((n, g) => n + g.layers, 0) + kv.compressed.reduce((n, c) => n + c.layers, 0);
}

/** MoE layers × routed experts on the card × experts a token picks: the empirical graph term's unit. */
function moeExpertPicksOnCard(part: Part, shape: ModelShape): number {
  const experts = part.routedExperts;
  return experts ? experts.moeLayers * experts.experts * (shape.moe?.expertsPerToken ?? 0) : 0;
}

/** The host's load: everything in RAM for the CPU, or the offloaded share. */
function evalHost(layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number, offloadedBytes: number, hostKv: KvGeometry | null): CardEval | null {
  const host = layout.host;
  if (!host) return null;
  const s = resolveSettings("llamacpp", 0, w.settings, 1, w.sequences);
  const elem = kvElementBytes("llamacpp", w.kvDtype, 2);
  const kvAt = (c: number): number => (hostKv ? llamacppCacheBytes(hostKv, elem, c, s.parallel, s.ubatch) : 0);
  const kv = kvAt(contextTokens);
  const engineBytes = llamacppHostBytes(ctx.shape, s.parallel) + (host.mode === "cpu" ? llamacppComputeBytes(ctx.shape, s.ubatch, true) : 0);
  const weights = host.fixedBytes + offloadedBytes;
  const load: CardLoad = {
    gpuClass: "", cards: 1, role: host.mode === "cpu" ? "CPU" : "host RAM",
    weightsBytes: weights, kvBytes: kv, engineBytes, usableBytes: host.usableBytes, physicalBytes: host.physicalBytes,
  };
  const growing = hostKv ? (hostKv.fullElemsPerToken + hostKv.mlaElemsPerToken) * elem + hostKv.indexerBytesPerToken : 0;
  return {
    load, poolBytes: host.usableBytes - weights - engineBytes, needKvBytes: kv, outsideOk: true, kvAt, settings: s, elementBytes: elem,
    stepTokens: LLAMACPP_KV_PAD / s.parallel, stepBytes: LLAMACPP_KV_PAD * growing,
  };
}

function fitsEval(e: CardEval): boolean {
  return e.outsideOk && e.needKvBytes <= e.poolBytes;
}

/** Geometries of a model's first or last n layers at TP 1, kept per shape: offload splits ask for many. */
const firstLayers = new WeakMap<ModelShape, Map<number, KvGeometry>>();
const lastLayers = new WeakMap<ModelShape, Map<number, KvGeometry>>();

function cachedGeometry(cache: WeakMap<ModelShape, Map<number, KvGeometry>>, shape: ModelShape, n: number, fromEnd: boolean): KvGeometry {
  let byCount = cache.get(shape);
  if (!byCount) {
    byCount = new Map();
    cache.set(shape, byCount);
  }
  let g = byCount.get(n);
  if (!g) {
    const layers = fromEnd ? shape.layerCaches.slice(shape.layerCaches.length - n) : shape.layerCaches.slice(0, n);
    g = kvGeometry(layers, 1);
    byCount.set(n, g);
  }
  return g;
}

/** Geometries of a stage's layers [start, end) at a TP width, kept per shape: every candidate width asks. */
const rangeGeometries = new WeakMap<ModelShape, Map<number, KvGeometry>>();

function geometryOfRange(shape: ModelShape, start: number, end: number, tp: number): KvGeometry {
  let byRange = rangeGeometries.get(shape);
  if (!byRange) {
    byRange = new Map();
    rangeGeometries.set(shape, byRange);
  }
  const key = (start * 65536 + end) * 4096 + tp;
  let g = byRange.get(key);
  if (!g) {
    g = kvGeometry(shape.layerCaches.slice(start, end), tp);
    byRange.set(key, g);
  }
  return g;
}

function geometryOfFirst(shape: ModelShape, n: number): KvGeometry {
  return cachedGeometry(firstLayers, shape, n, false);
}

function geometryOfLast(shape: ModelShape, n: number): KvGeometry {
  return cachedGeometry(lastLayers, shape, n, true);
}

/** For llama.cpp with part of the model in RAM: how many layers (or layers' experts) go to the host at this workload. */
/** An offloaded layout's parts for each count of layers in RAM: they do not depend on the workload. */
const offloadParts = new WeakMap<Layout, Map<number, Part[]>>();

function offloadSplit(layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number): { cpuLayers: number; evals: CardEval[]; host: CardEval | null } {
  const host = layout.host;
  const L = ctx.shape.layers;
  const wp = weightParts(ctx.shape, layout.artifact);
  const cards = layout.placement.gpusPerNode;
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  let byK = offloadParts.get(layout);
  if (!byK) {
    byK = new Map();
    offloadParts.set(layout, byK);
  }
  const memo = byK;
  const partsAt = (k: number): Part[] => {
    const known = memo.get(k);
    if (known) return known;
    const perCardLayers = Math.ceil((host?.mode === "layers" ? L - k : L) / cards);
    const expertsOnGpu = host?.mode === "moe" ? Math.max(0, wp.moeLayers - k) : wp.moeLayers;
    const body = perCardLayers * wp.layerBytes + Math.ceil(expertsOnGpu / cards) * wp.expertLayerBytes;
    const kv = geometryOfFirst(ctx.shape, perCardLayers);
    const parts = layout.parts.map((p) => ({ ...p, bodyBytes: body + (p.holdsOutput ? output + wp.projectorBytes : 0), kv }));
    memo.set(k, parts);
    return parts;
  };
  const at = (k: number): { evals: CardEval[]; host: CardEval | null } => {
    const evals = partsAt(k).map((p) => evalPart(layout, p, ctx, w, contextTokens));
    const offloaded = host?.mode === "layers" ? k * (wp.layerBytes + (wp.moeLayers > 0 ? wp.expertLayerBytes : 0)) : Math.min(k, wp.moeLayers) * wp.expertLayerBytes;
    const hostKv = host?.mode === "layers" && k > 0 ? geometryOfLast(ctx.shape, k) : null;
    return { evals, host: evalHost(layout, ctx, w, contextTokens, offloaded, hostKv) };
  };
  // The last card (output layer and logits) is the fullest: whether it fits decides.
  const fitsWith = (k: number): boolean => {
    const last = partsAt(k).find((p) => p.holdsOutput);
    return last !== undefined && fitsEval(evalPart(layout, last, ctx, w, contextTokens));
  };
  // More layers in RAM never need more of a card: the fewest that fit is found by bisection.
  const most = host?.mode === "moe" ? wp.moeLayers : L;
  if (!fitsWith(most)) return { cpuLayers: most, ...at(most) };
  let lo = 1;
  let hi = most;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fitsWith(mid)) hi = mid;
    else lo = mid + 1;
  }
  return { cpuLayers: lo, ...at(lo) };
}

/** Per-card evaluation of a layout at a context (no commands, no option). */
function evalLayout(layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number): { evals: CardEval[]; host: CardEval | null; cpuLayers: number } {
  if (layout.host && (layout.host.mode === "moe" || layout.host.mode === "layers")) return offloadSplit(layout, ctx, w, contextTokens);
  const evals = layout.parts.map((p) => evalPart(layout, p, ctx, w, contextTokens));
  let host: CardEval | null = null;
  if (layout.host) {
    const all = layout.host.mode === "cpu";
    const wp = weightParts(ctx.shape, layout.artifact);
    const offloaded = all ? layout.artifact.bytes + layout.artifact.projectorBytes - layout.host.fixedBytes : wp.expertLayerBytes * wp.moeLayers;
    host = evalHost(layout, ctx, w, contextTokens, offloaded, all ? geometryOfFirst(ctx.shape, ctx.shape.layers) : null);
  }
  return { evals, host, cpuLayers: 0 };
}

/**
 * What FreeToken's KV holds (engine/cache_budget.py plan_cache_budget): the
 * reserve first; experts then take what is left, up to all of them (two
 * layers' worth are already on the card, the floor); KV pages get the rest.
 * When the reserve does not fit after the floor, the KV is what remains and
 * FreeToken clamps max_seq_len to it rather than failing.
 */
function freetokenCapacity(layout: Layout, part: Part, e: CardEval, w: Workload, shape: ModelShape): { tokens: number; concurrency: number } {
  if (part.kv.compressed.length > 0) return freetokenDsv4Capacity(layout, part, e, w, shape);
  const perToken = sglangBytesPerToken(part.kv, e.elementBytes);
  if (perToken <= 0) return { tokens: 0, concurrency: 0 };
  const running = Math.max(1, w.sequences);
  const states = e.needKvBytes - perToken * freetokenReserveTokens(w.contextTokens, running);
  let tokens: number;
  if (e.needKvBytes <= e.poolBytes) {
    const wp = weightParts(shape, layout.artifact);
    const moreExperts = Math.max(0, wp.moeLayers - FREETOKEN_FLOOR_EXPERT_LAYERS) * wp.expertLayerBytes;
    const left = e.poolBytes - e.needKvBytes;
    tokens = freetokenReserveTokens(w.contextTokens, running) + Math.floor(Math.max(0, left - moreExperts) / perToken);
  } else {
    tokens = Math.max(0, Math.floor((e.poolBytes - states) / perToken));
  }
  return { tokens, concurrency: Math.min(running, tokens / Math.max(1, w.contextTokens)) };
}

/**
 * FreeToken's DeepSeek-V4 pages (kv.ts freetokenDsv4Reserve): the reserve's
 * pages, then what experts leave of the pool in more pages of
 * `cache_per_page` (plan_cache_budget: `max(remaining // cache_per_page,
 * kv_reserve_pages)`); short of the reserve, the pages the pool buys.
 */
function freetokenDsv4Capacity(layout: Layout, part: Part, e: CardEval, w: Workload, shape: ModelShape): { tokens: number; concurrency: number } {
  const args = freetokenDsv4Args(part.kv);
  if (typeof args === "string") return { tokens: 0, concurrency: 0 };
  const running = Math.max(1, w.sequences);
  const reserve = freetokenDsv4Reserve(args, freetokenReserveTokens(w.contextTokens, running), w.contextTokens, running);
  let pages: number;
  if (reserve.bytes <= e.poolBytes) {
    const wp = weightParts(shape, layout.artifact);
    const moreExperts = Math.max(0, wp.moeLayers - FREETOKEN_FLOOR_EXPERT_LAYERS) * wp.expertLayerBytes;
    pages = reserve.pages + Math.floor(Math.max(0, e.poolBytes - reserve.bytes - moreExperts) / reserve.cost.perPageBytes);
  } else {
    pages = Math.max(0, Math.floor((e.poolBytes - reserve.cost.fixedBytes) / reserve.cost.perPageBytes));
  }
  const tokens = pages * args.pageTokens;
  return { tokens, concurrency: Math.min(running, tokens / Math.max(1, w.contextTokens)) };
}

/** FreeToken's expert cache floor: two layers' experts (plan_cache_budget: `2*num_experts` slots with prefill overlap). */
const FREETOKEN_FLOOR_EXPERT_LAYERS = 2;

/** The engine's pool on the worst card: its bytes, the tokens it holds and the sequences of the workload's context. */
function poolOf(layout: Layout, evals: CardEval[], w: Workload, shape: ModelShape): { bytes: number; tokens: number; concurrency: number } {
  let best: { bytes: number; tokens: number; concurrency: number } | null = null;
  for (let i = 0; i < evals.length; i++) {
    const e = evals[i];
    const part = layout.parts[i];
    if (!e || !part) continue;
    const s = e.settings;
    const elem = e.elementBytes;
    const bytes = Math.max(0, e.poolBytes);
    let cap: { tokens: number; concurrency: number };
    if (layout.engine === "vllm") cap = vllmCapacity(vllmCachedGeometry(part.kv, s.chunkedLocalHybridKv), elem, bytes, w.contextTokens, s.maxNumBatchedTokens);
    else if (layout.engine === "sglang") cap = sglangCapacity(part.kv, elem, bytes, w.contextTokens);
    else if (layout.engine === "freetoken") cap = freetokenCapacity(layout, part, e, w, shape);
    else {
      // llama.cpp allocates exactly n_ctx = context × slots, no more.
      const fits = fitsEval(e);
      cap = { tokens: fits ? w.contextTokens * s.parallel : 0, concurrency: fits ? s.parallel : 0 };
    }
    if (!best || cap.tokens < best.tokens) best = { bytes, ...cap };
  }
  return best ?? { bytes: 0, tokens: 0, concurrency: 0 };
}

/**
 * What a layout holds for a workload: per-card loads, fits, the longest
 * context, the pool and the commands. The slider's path calls this again for
 * every option; nothing here enumerates.
 */
export function evaluate(layout: Layout, ctx: EvalContext, w: Workload): PlanOption {
  const contextTokens = Math.max(1, w.contextTokens);
  const r = evalLayout(layout, ctx, w, contextTokens);
  const all = r.host ? [...r.evals, r.host] : r.evals;
  const memoryFits = all.every(fitsEval);
  // The worst card: the least room left after what it needs.
  let worstIndex = 0;
  for (let i = 1; i < all.length; i++) {
    const e = all[i];
    const best = all[worstIndex];
    if (e && best && e.load.usableBytes - needOf(e) < best.load.usableBytes - needOf(best)) worstIndex = i;
  }
  const worst = all[worstIndex];
  const modelMax = ctx.shape.maxContextTokens > 0 ? ctx.shape.maxContextTokens : contextTokens;
  const kvTaken = kvDtypeAllowed(layout.engine, w.kvDtype);
  let maxContextTokens = kvTaken ? modelMax : 0;
  for (const e of all) maxContextTokens = Math.min(maxContextTokens, e.outsideOk ? longestContext(e, modelMax) : 0);
  const pool = layout.placement.cpu ? { bytes: 0, tokens: 0, concurrency: 0 } : poolOf(layout, r.evals, w, ctx.shape);
  const hostedFits = layout.cardsShort === 0;
  const placement: Placement = r.cpuLayers > 0
    ? layout.host?.mode === "moe"
      ? { ...layout.placement, cpuMoeLayers: r.cpuLayers }
      : { ...layout.placement, gpuLayers: ctx.shape.layers - r.cpuLayers }
    : layout.placement;
  const past = pastModelContext(layout.engine, ctx.shape, w.contextTokens);
  const cc: CommandContext = { repo: ctx.repo, revision: ctx.revision, artifact: layout.artifact, shape: ctx.shape, workload: w };
  if (ctx.modelPath !== undefined) cc.modelPath = ctx.modelPath;
  if (placement.nodeIds !== undefined) cc.nodeIds = placement.nodeIds;
  const option: PlanOption = {
    id: layout.id,
    artifact: layout.artifact.name,
    format: layout.artifact.format,
    engine: layout.engine,
    placement,
    bitsPerWeight: layout.bitsPerWeight,
    cards: all.map((e) => e.load),
    needBytes: worst ? needOf(worst) : 0,
    haveBytes: worst ? worst.load.usableBytes : 0,
    worstCardIndex: worstIndex,
    hosts: layout.host?.mode === "cpu" && r.host ? hostsFor(layout.host, r.host) : layout.hosts,
    freeNow: layout.host?.mode === "cpu" && r.host ? cpuFreeNow(layout.host, r.host) : layout.freeNow && vllmFreeMemoryOk(layout, r.evals),
    // A KV dtype the engine does not take (the slider moved to q8_0 with a vLLM option on screen) does not run at all.
    fits: memoryFits && hostedFits && kvTaken && (past === null || past.runs),
    maxContextTokens,
    kvPoolBytes: pool.bytes,
    kvPoolTokens: pool.tokens,
    maxConcurrency: pool.concurrency,
    moreCardsNeeded: layout.cardsShort,
    commands: [],
  };
  if (past !== null) option.notes = [past.words];
  option.commands = commandsFor(option, cc);
  return option;
}

/** The model's own longest context, or 0 when its files do not say. */
function modelContextTokens(shape: ModelShape): number {
  return shape.maxContextTokens > 0 ? shape.maxContextTokens : 0;
}

/**
 * Why an engine will not start, or what it does instead, when the context is
 * longer than the model's own: vLLM and SGLang refuse it at start-up; llama.cpp
 * starts. Null when the context is within the model's.
 */
export function pastModelContext(engine: Engine, shape: ModelShape, contextTokens: number): { runs: boolean; words: string } | null {
  const most = modelContextTokens(shape);
  if (most === 0 || contextTokens <= most) return null;
  const asked = contextTokens.toLocaleString("en-US");
  const own = most.toLocaleString("en-US");
  switch (engine) {
    case "vllm":
      // vllm/config/model.py (0.10–0.19) raises "User-specified max_model_len (N) is greater than the derived
      // max_model_len (max_position_embeddings=M or model_max_length=None in model's config.json)" unless
      // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, which its own message warns may give NaNs or out-of-bounds errors.
      return {
        runs: false,
        words: `a context of ${asked} tokens is longer than the model's own ${own}: vLLM refuses --max-model-len ${contextTokens} at start-up ("User-specified max_model_len is greater than the derived max_model_len"); choose ${own} or less, or extend the model's positions (a rope_scaling override) first`,
      };
    case "sglang":
      // sglang/srt/configs/model_config.py _derive_context_length: the same check, unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1.
      return {
        runs: false,
        words: `a context of ${asked} tokens is longer than the model's own ${own}: SGLang refuses --context-length ${contextTokens} at start-up ("User-specified context_length is greater than the derived context_length"); choose ${own} or less, or extend the model's positions (a rope_scaling override) first`,
      };
    case "llamacpp":
      // src/llama-context.cpp warns "n_ctx_seq (N) > n_ctx_train (M) -- possible training context overflow" and
      // goes on; llama-server then caps each slot: "the slot context (N) exceeds the training context of the model (M) - capping".
      return {
        runs: true,
        words: `a context of ${asked} tokens runs past the ${own} the model was trained on: llama.cpp starts and warns of a possible training context overflow, and llama-server caps each slot at ${own} tokens, so the cache beyond that is allocated but unused`,
      };
    case "freetoken":
      return null;
  }
}

/**
 * The longest context a card holds, at most `cap`. Past the sliding windows
 * the need grows by `stepBytes` every `stepTokens`, so the answer is solved
 * from the need at `cap` and checked; where the check fails (short contexts,
 * windows not yet full) it is searched.
 */
function longestContext(e: CardEval, cap: number): number {
  const fits = (c: number): boolean => e.kvAt(c) <= e.poolBytes;
  const atCap = e.kvAt(cap);
  if (atCap <= e.poolBytes) return cap;
  if (e.stepBytes > 0) {
    const stepsAtCap = Math.ceil(cap / e.stepTokens);
    const fixed = atCap - stepsAtCap * e.stepBytes;
    const steps = Math.floor((e.poolBytes - fixed) / e.stepBytes);
    const c = Math.min(cap, Math.floor(steps * e.stepTokens));
    if (c >= 1 && fits(c) && !fits(c + 1)) return c;
  }
  return largestFitting(fits, cap);
}

/**
 * vLLM's own start-up check: a card must have free at least utilization ×
 * total (`gpu_memory_utilization` is of the TOTAL, and other processes count
 * against it). Unknown free memory passes.
 */
function vllmFreeMemoryOk(layout: Layout, evals: CardEval[]): boolean {
  if (layout.engine !== "vllm" || layout.freeMemBytes === null || layout.freeMemBytes === undefined) return true;
  const free = layout.freeMemBytes;
  return evals.every((e) => free >= (e.requestedBytes ?? e.load.usableBytes));
}

function needOf(e: CardEval): number {
  return e.load.weightsBytes + e.load.engineBytes + e.needKvBytes;
}

/** Nodes whose RAM share holds the CPU replica (binary search over the sorted shares). */
function hostsFor(host: HostShare, e: CardEval): number {
  const need = needOf(e);
  const a = host.nodeUsableBytes;
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] ?? 0) >= need) hi = mid;
    else lo = mid + 1;
  }
  return a.length - lo;
}

function cpuFreeNow(host: HostShare, e: CardEval): boolean {
  const need = needOf(e);
  const top = host.nodeFreeBytes[host.nodeFreeBytes.length - 1] ?? 0;
  return top >= need;
}

// ---------------------------------------------------------------------------
// The cluster, by card class and fabric
// ---------------------------------------------------------------------------

interface PoolNode {
  id: string;
  fabric: string;
  count: number;
  free: number;
  /** Free memory per free device, when the inventory says. */
  freeMemBytes: number | null;
  hostMemBytes: number;
  hostFreeBytes: number;
}

interface ClassPool {
  gpuClass: string;
  memoryBytes: number | null;
  computeCapability: number;
  mig: boolean;
  maxPerNode: number;
  /** Nodes by fabric; a replica spans nodes only within one. */
  fabrics: Map<string, PoolNode[]>;
  /** singleNodeHosts by width: the same for every artifact and engine, asked for each. */
  hostsByWidth: Map<number, SingleNodeHosts>;
}

/**
 * Groups the cluster's cards by class, and each class by fabric. A node with
 * devices of several classes is in each class's pool, as the node it is for
 * that class: its devices of that class and no others. A MIG instance runs one
 * replica alone, however many the node has (seed `classes`).
 */
export function classPools(cluster: Cluster): ClassPool[] {
  const byClass = new Map<string, ClassPool>();
  for (const node of cluster.nodes) {
    for (const d of node.devices) {
      if (d.count <= 0) continue;
      const mig = isMigClass(d.class);
      let pool = byClass.get(d.class);
      if (!pool) {
        pool = {
          gpuClass: d.class,
          memoryBytes: cardMemoryBytes(d.class, d.memGib),
          computeCapability: cardOf(d.class)?.computeCapability ?? 0,
          mig,
          maxPerNode: 0,
          fabrics: new Map(),
          hostsByWidth: new Map(),
        };
        byClass.set(d.class, pool);
      }
      const count = mig ? 1 : d.count;
      const free = mig ? Math.min(1, d.free) : d.free;
      pool.maxPerNode = Math.max(pool.maxPerNode, count);
      const list = pool.fabrics.get(node.fabric) ?? [];
      list.push({
        id: node.id, fabric: node.fabric, count, free, freeMemBytes: d.freeMemGib === undefined ? null : d.freeMemGib * GIB,
        hostMemBytes: node.hostMemGib * GIB, hostFreeBytes: node.hostFreeGib * GIB,
      });
      pool.fabrics.set(node.fabric, list);
    }
  }
  return [...byClass.values()].sort((a, b) => (a.gpuClass < b.gpuClass ? -1 : a.gpuClass > b.gpuClass ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Enumeration
// ---------------------------------------------------------------------------

/** "an h100-80g", "a b200-192g": the article a class label is read with. */
function article(label: string): string {
  return /^[aefhilmnorsx]/i.test(label) ? `an ${label}` : `a ${label}`;
}

function gib1(bytes: number): string {
  return (bytes / GIB).toFixed(1);
}

/** The reason a tensor-parallel width does not suit the model's heads, or null. */
export function tensorParallelProblem(shape: ModelShape, width: number): string | null {
  if (width <= 1) return null;
  if (shape.attentionHeads > 0 && shape.attentionHeads % width !== 0) {
    return `tensor parallel ${width}: ${shape.attentionHeads} attention heads do not divide by ${width}`;
  }
  // Tensor parallel splits the KV heads among the cards or, past their number, gives each card a
  // copy of one: the width divides the heads, or the heads divide the width (Qwen3-235B: 4 heads on 8).
  const kv = shape.kvHeads;
  if (kv > 0 && kv % width !== 0 && width % kv !== 0) {
    return `tensor parallel ${width}: ${kv} KV heads neither divide by ${width} nor divide it`;
  }
  return null;
}

function where(gpuClass: string, perNode: number, nodes: number, fabric: string): string {
  return nodes > 1 ? `${nodes} nodes × ${perNode} ${gpuClass} on ${fabric}` : `${perNode} × ${gpuClass}`;
}

/** One literal shape for every placement (the hot paths read them all): the nodes named last. */
function basePlacement(gpuClass: string, fabric: string, perNode: number, nodes: number, tp: number, pp: number, ep: boolean, nodeIds: string[]): Placement {
  return { cpu: false, gpuClass, fabric, gpusPerNode: perNode, nodes, tensorParallel: tp, pipelineParallel: pp, expertParallel: ep, cpuMoeLayers: 0, gpuLayers: -1, nodeIds };
}

/**
 * The parts of a vLLM/SGLang replica: `pp` stages of `tp` cards. Each stage
 * holds its layers ÷ TP (experts whole per rank under expert parallel,
 * ceil(E ÷ ep) on the worst), the first the embedding (and a picture model's
 * projector), the last the lm_head; every rank its layers' KV.
 */
export function servingParts(shape: ModelShape, a: Artifact, gpuClass: string, physicalBytes: number, tp: number, pp: number, ep: boolean): Part[] {
  const wp = weightParts(shape, a);
  const experts = shape.moe?.routedExperts ?? 0;
  const expertShare = ep && experts > 0 ? Math.ceil(experts / tp) / experts : 1 / tp;
  const stages: Part[] = [];
  for (let i = 0; i < pp; i++) {
    const [start, end] = stageLayers(shape.layers, pp, i);
    const moeInStage = moeLayersIn(shape, start, end);
    const first = i === 0;
    const last = i === pp - 1;
    const body = ((end - start) * wp.layerBytes) / tp + moeInStage * wp.expertLayerBytes * expertShare + (first ? wp.projectorBytes / tp : 0);
    const embed = ((first ? wp.embedBytes : 0) + (last ? (shape.tiedEmbeddings === true && !first ? wp.embedBytes : wp.headBytes) : 0)) / tp;
    stages.push({
      gpuClass, cards: tp, role: pp > 1 ? `stage ${i + 1}` : "", physicalBytes,
      bodyBytes: body, embedBytes: embed, tensorParallel: tp, pipelineParallel: pp, holdsOutput: last,
      kv: geometryOfRange(shape, start, end, tp),
      ...expertsOnCard(shape, moeInStage, tp, ep),
    });
  }
  return mergeAlikeStages(stages);
}

/** A stage card's routed experts, as Part fields: none for a dense model or an unknown expert width. */
function expertsOnCard(shape: ModelShape, moeLayers: number, tp: number, ep: boolean): { routedExperts?: RoutedExpertsOnCard } {
  const moe = shape.moe;
  if (!moe || moeLayers === 0 || moe.expertIntermediateSize <= 0) return {};
  return {
    routedExperts: ep
      ? { moeLayers, experts: Math.ceil(moe.routedExperts / tp), intermediatePerCard: moe.expertIntermediateSize }
      : { moeLayers, experts: moe.routedExperts, intermediatePerCard: moe.expertIntermediateSize / tp },
  };
}

/** Middle pipeline stages that hold the same are one entry of several cards. */
function mergeAlikeStages(stages: Part[]): Part[] {
  if (stages.length <= 3) return stages;
  const first = stages[0];
  const last = stages[stages.length - 1];
  const middle = stages.slice(1, -1);
  const heaviest = middle.reduce((m, p) => (p.bodyBytes > m.bodyBytes ? p : m));
  if (!first || !last) return stages;
  return [first, { ...heaviest, cards: heaviest.cards * middle.length, role: `stages 2–${stages.length - 1}` }, last];
}

/**
 * The parts of a llama.cpp layer split over `cards` of one node: each card
 * holds ceil(layers ÷ cards) layers and their KV; the last also the output
 * layer and the logits. The token embedding stays in a CPU buffer.
 */
export function layerSplitParts(shape: ModelShape, a: Artifact, gpuClass: string, physicalBytes: number, cards: number): Part[] {
  const wp = weightParts(shape, a);
  const perCard = Math.ceil(shape.layers / cards);
  const moePerCard = Math.ceil(wp.moeLayers / cards);
  const body = perCard * wp.layerBytes + moePerCard * wp.expertLayerBytes;
  const kv = kvGeometry(shape.layerCaches.slice(0, perCard), 1);
  // The output layer sits on the last card; a tied model's is a copy of token_embd, whose
  // original stays in a CPU buffer for the lookups (calibration: Gemma-3-27B's CUDA0 buffer
  // is the whole file, and its CPU buffer the embedding again).
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  const lastPart: Part = {
    gpuClass, cards: 1, role: cards > 1 ? "last card" : "", physicalBytes, bodyBytes: body + output + wp.projectorBytes,
    embedBytes: 0, tensorParallel: 1, pipelineParallel: cards, holdsOutput: true, kv,
  };
  if (cards === 1) return [lastPart];
  return [{ ...lastPart, cards: cards - 1, role: "other cards", bodyBytes: body, holdsOutput: false }, lastPart];
}

interface Enumerated {
  layouts: Layout[];
  refused: Refusal[];
}

interface Ctx extends EvalContext {
  workload: Workload;
  pools: ClassPool[];
  allHostUsable: number[];
  allHostFree: number[];
}

function hostShare(mode: HostShare["mode"], c: Ctx, node: PoolNode | null, fixedBytes: number): HostShare {
  const physical = node ? node.hostMemBytes : (c.allHostUsable[c.allHostUsable.length - 1] ?? 0) / HOST_SHARE;
  return {
    usableBytes: physical * HOST_SHARE,
    physicalBytes: physical,
    freeBytes: node ? node.hostFreeBytes : c.allHostFree[c.allHostFree.length - 1] ?? 0,
    fixedBytes,
    mode,
    nodeUsableBytes: c.allHostUsable,
    nodeFreeBytes: c.allHostFree,
  };
}

function layoutId(a: Artifact, engine: Engine, p: Placement, mode: string): string {
  return [a.name, engine, p.cpu ? "cpu" : p.gpuClass, p.fabric, `${p.gpusPerNode}x${p.nodes}`, p.expertParallel ? "ep" : "", mode].join("|");
}

/**
 * Single-node nodes of a class that have `width` cards, whether one has them
 * free, the most free memory a card of those has, and the node a replica would
 * take: the free one with the most free memory, else the first that has the cards.
 */
function singleNodeHosts(pool: ClassPool, width: number): SingleNodeHosts {
  const known = pool.hostsByWidth.get(width);
  if (known) return known;
  const found = countSingleNodeHosts(pool, width);
  pool.hostsByWidth.set(width, found);
  return found;
}

interface SingleNodeHosts {
  hosts: number;
  freeNow: boolean;
  freeMemBytes: number | null;
  /** The node a replica would take (shared: never modified). */
  nodeIds: string[];
}

function countSingleNodeHosts(pool: ClassPool, width: number): SingleNodeHosts {
  let hosts = 0;
  let freeNow = false;
  let freeMemBytes: number | null = null;
  let unknown = false;
  let chosen: PoolNode | null = null;
  for (const nodes of pool.fabrics.values()) {
    for (const n of nodes) {
      if (n.count < width) continue;
      hosts++;
      if (n.free >= width) {
        if (!chosen || chosen.free < width || (n.freeMemBytes ?? Infinity) > (chosen.freeMemBytes ?? Infinity)) chosen = n;
        freeNow = true;
        if (n.freeMemBytes === null) unknown = true;
        else freeMemBytes = Math.max(freeMemBytes ?? 0, n.freeMemBytes);
      } else if (!chosen) {
        chosen = n;
      }
    }
  }
  return { hosts, freeNow, freeMemBytes: unknown ? null : freeMemBytes, nodeIds: chosen ? [chosen.id] : [] };
}

/** Why a layout does not fit at the plan's workload, in words (its worst card against what the card offers); null when it fits. */
function problem(layout: Layout, c: Ctx): string | null {
  // Where the engine refuses a context past the model's, memory is judged at the model's: the longer
  // one is refused in words once (enumerate), not over every width and node count. llama.cpp allocates
  // what it is asked for, past the trained context or not.
  const refused = pastModelContext(layout.engine, c.shape, c.workload.contextTokens)?.runs === false;
  const r = evalLayout(layout, c, c.workload, refused ? modelContextTokens(c.shape) : c.workload.contextTokens);
  for (const e of r.evals) {
    if (!e.outsideOk) {
      return `vLLM's CUDA context, graphs and sampler warm-up need more than the ${gib1(e.load.physicalBytes - e.load.usableBytes)} GiB ${article(e.load.gpuClass)} keeps outside --gpu-memory-utilization`;
    }
    if (!fitsEval(e)) return `needs ${gib1(needOf(e))} GiB a card; ${article(e.load.gpuClass)} offers ${gib1(e.load.usableBytes)}`;
  }
  if (r.host && !fitsEval(r.host)) return `needs ${gib1(needOf(r.host))} GiB of host RAM; the node offers ${gib1(r.host.load.usableBytes)}`;
  return null;
}

/**
 * vLLM and SGLang: tensor parallel on one node (the narrowest width that
 * fits), else pipeline parallel over the nodes of one fabric, each at a
 * node's width; a MIG instance alone.
 */
function servingOptions(a: Artifact, engine: "vllm" | "sglang", c: Ctx, out: Enumerated): void {
  const shape = c.shape;
  const moe = (shape.moe?.routedExperts ?? 0) > 1;
  for (const pool of c.pools) {
    if (pool.memoryBytes === null) continue;
    const mem = pool.memoryBytes;
    let placed = false;
    let widest = 0;
    for (let wdt = 1; wdt <= pool.maxPerNode; wdt++) {
      const heads = tensorParallelProblem(shape, wdt);
      if (heads) {
        out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: heads });
        continue;
      }
      widest = wdt;
      const ep = moe && wdt > 1;
      const { hosts, freeNow, freeMemBytes, nodeIds } = singleNodeHosts(pool, wdt);
      const placement = basePlacement(pool.gpuClass, "", wdt, 1, wdt, 1, ep, nodeIds);
      const layout: Layout = {
        id: layoutId(a, engine, placement, ""), artifact: a, engine, placement, bitsPerWeight: bitsOf(a),
        parts: servingParts(shape, a, pool.gpuClass, mem, wdt, 1, ep), host: null, hosts, freeNow, freeMemBytes, cardsShort: 0,
      };
      const why = problem(layout, c);
      if (why === null) {
        out.layouts.push(layout);
        placed = true;
        break;
      }
      out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: why });
    }
    if (placed || widest === 0) continue;
    if (pool.mig) {
      out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, 2, 1, ""), reason: "a MIG instance runs one replica alone: it never joins another, on its node or across a fabric" });
      continue;
    }
    pipelineOptions(a, engine, c, pool, mem, widest, moe, out);
  }
}

/** Several nodes of one fabric, a node's width on each, pipeline-parallel between them. */
function pipelineOptions(a: Artifact, engine: "vllm" | "sglang", c: Ctx, pool: ClassPool, mem: number, width: number, moe: boolean, out: Enumerated): void {
  let biggest: { fabric: string; nodes: PoolNode[] } | null = null;
  for (const [fabric, nodes] of pool.fabrics) {
    const able = nodes.filter((n) => n.count >= width);
    if (fabric === "") {
      if (able.length > 1) out.refused.push({ artifact: a.name, engine, where: `${able.length} nodes × ${width} ${pool.gpuClass}`, reason: "these nodes name no fabric: a replica spans nodes only over one" });
      continue;
    }
    if (!biggest || able.length > biggest.nodes.length) biggest = { fabric, nodes: able };
    const order = fabricOrder(able, width);
    let placed = false;
    for (let n = 2; n <= able.length; n++) {
      const layout = pipelineLayout(a, engine, c, pool, mem, width, n, fabric, moe, order, 0);
      const why = problem(layout, c);
      if (why === null) {
        out.layouts.push(layout);
        placed = true;
        break;
      }
      out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, width, n, fabric), reason: why });
    }
    if (placed) return;
  }
  // Nothing the cluster has holds it: say how many more cards would, on the biggest fabric.
  if (!biggest) return;
  const have = biggest.nodes.length;
  const order = fabricOrder(biggest.nodes, width);
  for (let n = Math.max(2, have + 1); n <= Math.max(64, have * 4); n++) {
    const layout = pipelineLayout(a, engine, c, pool, mem, width, n, biggest.fabric, moe, order, (n - have) * width);
    if (problem({ ...layout, cardsShort: 0 }, c) === null) {
      out.layouts.push(layout);
      return;
    }
  }
}

/** A fabric's nodes in the order a replica takes them, and what the free ones offer: worked out once per fabric, not per node count. */
interface FabricOrder {
  able: PoolNode[];
  freeCount: number;
  /** Ids, free nodes first (the most free memory first), then busy ones. */
  ids: string[];
  /** Free memory of the free nodes, most first; null when the inventory does not say for all of them. */
  freeMem: number[] | null;
}

function fabricOrder(able: PoolNode[], width: number): FabricOrder {
  const free = able.filter((x) => x.free >= width);
  const byFreeMem = [...free].sort((p, q) => (q.freeMemBytes ?? Infinity) - (p.freeMemBytes ?? Infinity));
  const ids = [...byFreeMem, ...able.filter((x) => x.free < width)].map((x) => x.id);
  const known = free.every((x) => x.freeMemBytes !== null);
  return { able, freeCount: free.length, ids, freeMem: known ? byFreeMem.map((x) => x.freeMemBytes ?? 0) : null };
}

function pipelineLayout(a: Artifact, engine: Engine, c: Ctx, pool: ClassPool, mem: number, width: number, n: number, fabric: string, moe: boolean, order: FabricOrder, cardsShort: number): Layout {
  const ep = moe && width > 1;
  // The n nodes a replica would take: free ones first, the most free memory first (vLLM's start-up check reads the least of them).
  const placement = basePlacement(pool.gpuClass, fabric, width, n, width, n, ep, order.ids.slice(0, n));
  return {
    id: layoutId(a, engine, placement, ""), artifact: a, engine, placement, bitsPerWeight: bitsOf(a),
    parts: servingParts(c.shape, a, pool.gpuClass, mem, width, n, ep), host: null,
    hosts: order.able.length, freeNow: cardsShort === 0 && order.freeCount >= n, freeMemBytes: order.freeMem ? (order.freeMem[n - 1] ?? null) : null, cardsShort,
  };
}

/** llama.cpp: the CPU, a layer split over one node's cards, and layers or experts in RAM when the cards cannot hold it. */
function llamacppOptions(a: Artifact, c: Ctx, out: Enumerated): void {
  const shape = c.shape;
  if (c.allHostUsable.length > 0) {
    const placement: Placement = { cpu: true, gpuClass: "", fabric: "", gpusPerNode: 0, nodes: 1, tensorParallel: 1, pipelineParallel: 1, expertParallel: false, cpuMoeLayers: 0, gpuLayers: 0, nodeIds: [] };
    const layout: Layout = {
      id: layoutId(a, "llamacpp", placement, "cpu"), artifact: a, engine: "llamacpp", placement, bitsPerWeight: bitsOf(a), parts: [],
      host: hostShare("cpu", c, null, 0), hosts: 0, freeNow: false, cardsShort: 0,
    };
    const why = problem(layout, c);
    if (why === null) out.layouts.push(layout);
    else out.refused.push({ artifact: a.name, engine: "llamacpp", where: "CPU", reason: why });
  }
  for (const pool of c.pools) {
    if (pool.memoryBytes === null) continue;
    const mem = pool.memoryBytes;
    let placed = false;
    for (let wdt = 1; wdt <= pool.maxPerNode; wdt++) {
      const { hosts, freeNow, nodeIds } = singleNodeHosts(pool, wdt);
      const placement = basePlacement(pool.gpuClass, "", wdt, 1, 1, 1, false, nodeIds);
      const layout: Layout = {
        id: layoutId(a, "llamacpp", placement, "split"), artifact: a, engine: "llamacpp", placement, bitsPerWeight: bitsOf(a),
        parts: layerSplitParts(shape, a, pool.gpuClass, mem, wdt), host: null, hosts, freeNow, cardsShort: 0,
      };
      // More cards than the fewest that hold it buy nothing here (seed): the narrowest that fits is the option.
      const why = problem(layout, c);
      if (why === null) {
        out.layouts.push(layout);
        placed = true;
        break;
      }
      out.refused.push({ artifact: a.name, engine: "llamacpp", where: where(pool.gpuClass, wdt, 1, ""), reason: why });
    }
    if (placed) continue;
    offloadOptions(a, c, pool, mem, out);
  }
}

/** The widest node of a class, with part of the model in its RAM: experts first (--n-cpu-moe), else whole layers (-ngl). */
function offloadOptions(a: Artifact, c: Ctx, pool: ClassPool, mem: number, out: Enumerated): void {
  const shape = c.shape;
  const wp = weightParts(shape, a);
  const wdt = pool.maxPerNode;
  let node: PoolNode | null = null;
  for (const nodes of pool.fabrics.values()) {
    for (const n of nodes) if (n.count >= wdt && (!node || n.hostMemBytes > node.hostMemBytes)) node = n;
  }
  if (!node || node.hostMemBytes <= 0) return;
  // Experts first (--n-cpu-moe) when the artifact says which bytes are experts; else whole layers (-ngl).
  const mode: HostShare["mode"] = wp.moeLayers > 0 && wp.expertLayerBytes > 0 ? "moe" : "layers";
  const placement = basePlacement(pool.gpuClass, "", wdt, 1, 1, 1, false, [node.id]);
  const { hosts, freeNow } = singleNodeHosts(pool, wdt);
  const layout: Layout = {
    id: layoutId(a, "llamacpp", placement, mode), artifact: a, engine: "llamacpp", placement, bitsPerWeight: bitsOf(a),
    parts: layerSplitParts(shape, a, pool.gpuClass, mem, wdt), host: hostShare(mode, c, node, wp.embedBytes), hosts, freeNow, cardsShort: 0,
  };
  const why = problem(layout, c);
  if (why === null) out.layouts.push(layout);
  else out.refused.push({ artifact: a.name, engine: "llamacpp", where: `${where(pool.gpuClass, wdt, 1, "")} + RAM`, reason: why });
}

/**
 * FreeToken's known-good checkpoints (FlashML-org/FreeToken docs/models.md,
 * v0.1.2, notes §0): it is offered for these only.
 */
const FREETOKEN_MODELS = [
  /^deepseek-v4-flash-0731$/i, /^glm-5\.2-nvfp4$/i, /^glm-4\.7(-nvfp4)?$/i, /^qwen3\.[56]-35b-a3b(-fp8|-nvfp4)?$/i, /^qwen3\.6-27b$/i,
  /^qwen3-30b-a3b$/i, /^gpt-oss-(20b|120b)$/i, /^gemma-4-26b-a4b(-it)?$/i, /^gemma-4-12b(-it)?$/i, /^gemma-4-31b(-it)?-nvfp4$/i,
  /^minimax-m2\.5-nvfp4$/i, /^minimax-m3-nvfp4$/i, /^muse-glimmer-30b$/i,
];

/** FreeToken needs compute capability 8.0 or higher (Ampere+: its JIT kernels, notes §3). */
export const FREETOKEN_MIN_COMPUTE_CAPABILITY = 8.0;

function freetokenOptions(a: Artifact, c: Ctx, out: Enumerated): void {
  const shape = c.shape;
  if (!shape.moe || a.expertBytes <= 0) return;
  const name = c.repo.split("/").pop() ?? c.repo;
  if (!FREETOKEN_MODELS.some((re) => re.test(name))) return;
  const wp = weightParts(shape, a);
  const kv = kvGeometry(shape.layerCaches, 1);
  const dsv4 = kv.compressed.length > 0 ? freetokenDsv4Args(kv) : null;
  if (typeof dsv4 === "string") {
    out.refused.push({ artifact: a.name, engine: "freetoken", where: "any", reason: dsv4 });
    return;
  }
  for (const pool of c.pools) {
    if (pool.memoryBytes === null || pool.computeCapability < FREETOKEN_MIN_COMPUTE_CAPABILITY) continue;
    // Only for a model larger than its card: otherwise vLLM or SGLang serve it whole, faster.
    if (a.bytes <= pool.memoryBytes) continue;
    let node: PoolNode | null = null;
    for (const nodes of pool.fabrics.values()) for (const n of nodes) if (!node || n.hostMemBytes > node.hostMemBytes) node = n;
    if (!node) continue;
    const placement = basePlacement(pool.gpuClass, "", 1, 1, 1, 1, false, [node.id]);
    const nonExpert = a.bytes - wp.expertLayerBytes * wp.moeLayers;
    // On the card: everything but the experts, plus an expert cache of at least two layers' worth (plan_cache_budget floor).
    const part: Part = {
      gpuClass: pool.gpuClass, cards: 1, role: "", physicalBytes: pool.memoryBytes, bodyBytes: nonExpert + FREETOKEN_FLOOR_EXPERT_LAYERS * wp.expertLayerBytes,
      embedBytes: 0, tensorParallel: 1, pipelineParallel: 1, holdsOutput: true, kv,
    };
    const { hosts, freeNow, freeMemBytes } = singleNodeHosts(pool, 1);
    const layout: Layout = {
      id: layoutId(a, "freetoken", placement, "experts-in-ram"), artifact: a, engine: "freetoken", placement, bitsPerWeight: bitsOf(a),
      parts: [part], host: hostShare("freetoken", c, node, 0), hosts, freeNow, freeMemBytes, cardsShort: 0,
    };
    const why = problem(layout, c);
    if (why === null) out.layouts.push(layout);
    else out.refused.push({ artifact: a.name, engine: "freetoken", where: `1 × ${pool.gpuClass} + RAM`, reason: why });
  }
}

/**
 * Engines whose layout of DeepSeek-V4's compressed attention (a window on
 * every layer, entries compressed 4× or 128×, the sparse indexer's keys,
 * fp32 compressor states) Modelplan has not read in their source: planned
 * as GQA or MLA they would be wrong by an order of magnitude, so they are
 * refused in words. vLLM's layout and FreeToken's own cost model
 * (dsv4_cost_model.py) are modelled (kv.ts).
 */
const DSV4_UNMODELLED: readonly (readonly [Engine, string])[] = [
  ["sglang", "DeepSeek-V4's compressed attention (window, 4×/128× compressed entries, indexer keys, compressor states) is not modelled for SGLang: its pool layout for it was not checked against SGLang's source. Plan it on vLLM."],
  ["llamacpp", "DeepSeek-V4's compressed attention is not modelled for llama.cpp: how its GGUF caches the window, the compressed entries and the indexer was not checked against llama.cpp's source. Plan it on vLLM."],
];

/** Every placement of every artifact, and every configuration turned down with its reason. */
export function enumerate(input: PlanInput, cluster: Cluster, workload: Workload): Enumerated {
  const pools = classPools(cluster);
  const hostUsable = cluster.nodes.filter((n) => n.hostMemGib > 0).map((n) => n.hostMemGib * GIB * HOST_SHARE).sort((x, y) => x - y);
  const hostFree = cluster.nodes.filter((n) => n.hostMemGib > 0).map((n) => n.hostFreeGib * GIB).sort((x, y) => x - y);
  const c: Ctx = { repo: input.repo, revision: input.revision, shape: input.shape, workload, pools, allHostUsable: hostUsable, allHostFree: hostFree };
  const out: Enumerated = { layouts: [], refused: [] };
  for (const pool of pools) {
    if (pool.memoryBytes === null) {
      for (const a of input.artifacts) {
        out.refused.push({ artifact: a.name, engine: a.format === "gguf" ? "llamacpp" : "vllm", where: pool.gpuClass, reason: `the card class "${pool.gpuClass}" is not in the catalog: give its memory (mem_gib) in the cluster` });
      }
    }
  }
  const compressed = input.shape.layerCaches.some((l) => l.kind === "compressed-mla");
  for (const a of input.artifacts) {
    if (compressed) {
      // DeepSeek-V4: only vLLM's layout and FreeToken's cost model of its compressed cache were checked against source.
      for (const [engine, reason] of DSV4_UNMODELLED) out.refused.push({ artifact: a.name, engine, where: "any", reason });
      if (a.format === "gguf") continue;
    }
    if (a.format === "gguf") {
      if (!kvDtypeAllowed("llamacpp", workload.kvDtype)) {
        out.refused.push({ artifact: a.name, engine: "llamacpp", where: "any", reason: `llama.cpp has no KV cache type "${workload.kvDtype}": use f16, q8_0 or q4_0` });
        continue;
      }
      llamacppOptions(a, c, out);
      continue;
    }
    for (const engine of ["vllm", "sglang"] as const) {
      if (!kvDtypeAllowed(engine, workload.kvDtype)) {
        out.refused.push({ artifact: a.name, engine, where: "any", reason: `${engine === "vllm" ? "vLLM" : "SGLang"} has no KV cache dtype "${workload.kvDtype}": use auto or fp8` });
        continue;
      }
      if (compressed && engine !== "vllm") continue;
      const past = pastModelContext(engine, input.shape, workload.contextTokens);
      if (past !== null && !past.runs) out.refused.push({ artifact: a.name, engine, where: "any", reason: past.words });
      servingOptions(a, engine, c, out);
    }
    if (kvDtypeAllowed("freetoken", workload.kvDtype)) freetokenOptions(a, c, out);
  }
  return out;
}

/**
 * Every way each artifact could run on the cluster, best first, with the
 * configurations turned down and why. `withWorkload` (context.ts) moves the
 * workload afterwards without enumerating again.
 */
export function plan(input: PlanInput, cluster: Cluster, workload: Workload): Plan {
  const { layouts, refused } = enumerate(input, cluster, workload);
  const ctx: EvalContext = { repo: input.repo, revision: input.revision, shape: input.shape, ...(input.modelPath !== undefined ? { modelPath: input.modelPath } : {}) };
  const options = rank(layouts.map((l) => evaluate(l, ctx, workload)));
  const p: Plan = { repo: input.repo, revision: input.revision, ...(input.modelPath !== undefined ? { modelPath: input.modelPath } : {}), shape: input.shape, artifacts: input.artifacts, cluster, workload, options, refused };
  rememberLayouts(p, layouts);
  return p;
}
