/**
 * An artifact's bytes cut into what cards hold: embedding, output layer, layers and experts, by
 * pipeline stage and tensor-parallel rank.
 */
import { computeDtypeBytes } from "./dtype.ts";
import { geometryOfRange } from "./geometries.ts";
import type { Part, RoutedExpertsOnCard } from "./layout.ts";
import { bitsOf } from "./quant.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact } from "./types.ts";

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

/**
 * The parts of a vLLM/SGLang replica: `pp` stages of `tp` cards. Each stage
 * holds its layers ÷ TP (experts whole per rank under expert parallel,
 * ceil(E ÷ ep) on the worst), the first the embedding (and a picture model's
 * projector), the last the lm_head; every rank its layers' KV.
 */
export function servingParts(
  shape: ModelShape,
  a: Artifact,
  gpuClass: string,
  physicalBytes: number,
  tp: number,
  pp: number,
  ep: boolean,
  expertRanks = tp,
): Part[] {
  const wp = weightParts(shape, a);
  const experts = shape.moe?.routedExperts ?? 0;
  // expertRanks: the ranks the routed experts spread over, TP's unless vLLM's data parallel widens
  // them to DP × TP (docs/serving/data_parallel_deployment.md: "expert layers form a tensor parallel group of size DP × TP").
  const expertShare = ep && experts > 0 ? Math.ceil(experts / expertRanks) / experts : 1 / expertRanks;
  const routerBeyondShare = routerBeyondShareBytes(shape, tp);
  const stages: Part[] = [];
  for (let i = 0; i < pp; i++) {
    const [start, end] = stageLayers(shape.layers, pp, i);
    const moeInStage = moeLayersIn(shape, start, end);
    const first = i === 0;
    const last = i === pp - 1;
    const body =
      ((end - start) * wp.layerBytes) / tp +
      moeInStage * wp.expertLayerBytes * expertShare +
      moeInStage * routerBeyondShare +
      (first ? wp.projectorBytes / tp : 0);
    const embed =
      ((first ? wp.embedBytes : 0) +
        (last ? (shape.tiedEmbeddings === true && !first ? wp.embedBytes : wp.headBytes) : 0)) /
      tp;
    stages.push({
      gpuClass,
      cards: tp,
      role: pp > 1 ? `stage ${i + 1}` : "",
      physicalBytes,
      bodyBytes: body,
      embedBytes: embed,
      tensorParallel: tp,
      pipelineParallel: pp,
      holdsOutput: last,
      kv: geometryOfRange(shape, start, end, tp),
      ...expertsOnCard(shape, moeInStage, expertRanks, ep),
    });
  }
  return mergeAlikeStages(stages);
}

/**
 * Model types whose router vLLM and SGLang hold in fp32 whatever the checkpoint's dtype. GLM-4.5/4.6/4.7: vLLM's
 * `Glm4MoE` builds `self.gate = nn.Linear(..., dtype=torch.float32)` (vllm-project/vllm models/glm4_moe.py @
 * a4cd9d0d, PR #22203); SGLang's `Glm4MoeGate` stores its weight in fp32 since PR #35883 (2026-08-21;
 * test/registered/unit/models/test_glm_moe_gate_fp32.py @ 754f8ff9 asserts `gate.weight.dtype == torch.float32`
 * under a bf16 default). Its checkpoints keep the gate in bf16, so a card holds twice the file's bytes of it.
 */
const FP32_ROUTER_ARCHITECTURES: ReadonlySet<string> = new Set(["glm4_moe"]);

/** A MoE layer's router parameters, hidden × routed experts (none for a dense model or a single expert). */
function routerParams(shape: ModelShape): number {
  const experts = shape.moe?.routedExperts ?? 0;
  return experts > 1 ? shape.hiddenSize * experts : 0;
}

/** A MoE layer's router as the checkpoint stores it, in the model's dtype (inside the layer's bytes). */
function routerCheckpointBytes(shape: ModelShape): number {
  return routerParams(shape) * computeDtypeBytes(shape.dtype);
}

/**
 * A MoE layer's router on a card: whole on every card of a TP group, which the layer's other tensors are not (vLLM
 * and SGLang build it `ReplicatedLinear`: qwen3_moe.py, qwen2_moe.py, llama4.py, gpt_oss.py; DeepSeek's `MoEGate`
 * and GLM's `Glm4MoeGate` a plain replicated Parameter), in the model's dtype, fp32 for the types above. Counted
 * so, every vLLM 0.19 weights figure the calibration holds for a MoE moved toward its log (−1.55% → −1.53%, −0.58%
 * → −0.55%) and 0.27's KV pool from 4.03% to 3.78%.
 */
function routerBytesPerMoeLayer(shape: ModelShape): number {
  return FP32_ROUTER_ARCHITECTURES.has(shape.architecture) ? routerParams(shape) * 4 : routerCheckpointBytes(shape);
}

/**
 * What a card holds of a MoE layer's router beyond the 1/ranks share of the layer's checkpoint bytes it is already
 * given: the whole router less that share (TP's ranks, or a DP-attention group's, which shares the rest of the
 * layer over all of them).
 */
export function routerBeyondShareBytes(shape: ModelShape, ranks: number): number {
  return routerBytesPerMoeLayer(shape) - routerCheckpointBytes(shape) / ranks;
}

/** A stage card's routed experts, as Part fields: none for a dense model or an unknown expert width. */
function expertsOnCard(
  shape: ModelShape,
  moeLayers: number,
  tp: number,
  ep: boolean,
): { routedExperts?: RoutedExpertsOnCard } {
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
