/**
 * A mixture of experts from its config: routed and shared experts, experts per token, which layers
 * carry them, their width.
 */
import { firstNumber, type Json, ModelError, numberList, optionalInt, stringList } from "./fields.ts";
import type { MoeShape } from "../shapeTypes.ts";

/** Routed experts under every name a 2026 config uses (docs/notes/architectures.md, pitfall 11). */
const EXPERT_KEYS = ["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"] as const;

const TOP_K_KEYS = [
  "num_experts_per_tok",
  "experts_per_token",
  "num_experts_per_token",
  "top_k_experts",
  "moe_topk",
  "moe_k",
] as const;

const SHARED_KEYS = ["n_shared_experts", "num_shared_experts", "shared_expert_count"] as const;

const SHARED_WIDTH_KEYS = [
  "shared_expert_intermediate_size",
  "moe_shared_expert_intermediate_size",
  "share_expert_dim",
] as const;

/**
 * The shared experts' width together (one gated FFN of that width beside the routed ones): the config's own
 * shared width (Qwen2-MoE's shared_expert_intermediate_size), else the shared count × the routed width (DeepSeek).
 */
export function sharedExpertWidthOf(t: Json, routedWidth: number): number {
  return firstNumber(t, SHARED_WIDTH_KEYS)?.value ?? (firstNumber(t, SHARED_KEYS)?.value ?? 0) * routedWidth;
}

/** Which layers carry routed experts, from whichever field says so. */
export function moeLayerMask(t: Json, layers: number): boolean[] {
  const all = (f: (i: number) => boolean) => Array.from({ length: layers }, (_, i) => f(i));
  const mlpTypes = stringList(t, "mlp_layer_types");
  if (mlpTypes && mlpTypes.length === layers) {
    return mlpTypes.map((type, i) => {
      if (type === "dense" || type === "mlp") return false;
      if (type === "sparse" || type === "moe" || type.endsWith("_moe")) return true;
      throw new ModelError(`mlp_layer_types[${i}] is "${type}"; known: dense, sparse, moe.`, "mlp_layer_types");
    });
  }
  const freqList = numberList(t, "moe_layer_freq");
  if (freqList && freqList.length === layers) return freqList.map((v) => v !== 0);
  const pattern = t["hybrid_override_pattern"];
  if (typeof pattern === "string") return [...pattern].map((c) => c === "E");
  const blockTypes = stringList(t, "layers_block_type");
  if (blockTypes) return blockTypes.map((b) => b === "moe");
  const explicit = numberList(t, "moe_layers");
  if (explicit) return all((i) => explicit.includes(i));
  const firstDense = optionalInt(t, "first_k_dense_replace");
  if (firstDense !== undefined) {
    const freq = optionalInt(t, "moe_layer_freq") ?? 1;
    return all((i) => i >= firstDense && i % Math.max(1, freq) === 0);
  }
  const step = optionalInt(t, "interleave_moe_layer_step");
  if (step !== undefined && step > 0) return all((i) => (i + 1) % step === 0);
  const sparseStep = optionalInt(t, "decoder_sparse_step") ?? 1;
  const mlpOnly = numberList(t, "mlp_only_layers") ?? [];
  return all((i) => !mlpOnly.includes(i) && (i + 1) % Math.max(1, sparseStep) === 0);
}

/**
 * Weight matrices of one expert: gated FFNs (SwiGLU: gate, up, down) have
 * three; Nemotron-H's squared-ReLU experts have two (up, down).
 */
function matricesPerExpert(t: Json, modelType: string): number {
  if (modelType === "nemotron_h") return 2;
  const act = t["mlp_hidden_act"] ?? t["hidden_act"];
  return act === "relu2" ? 2 : 3;
}

/** The routed experts' width: Mixtral, gpt-oss and Llama-4 call it intermediate_size. */
function expertWidthOf(t: Json): number {
  return firstNumber(t, ["moe_intermediate_size", "expert_intermediate_size", "intermediate_size"])?.value ?? 0;
}

/** The dimension the routed experts run in: latent MoE (Nemotron-3 Super/Ultra: moe_latent_size; Kimi-K3: routed_expert_hidden_size) is narrower than hidden. */
function expertInDimOf(t: Json, hiddenSize: number): number {
  return firstNumber(t, ["moe_latent_size", "routed_expert_hidden_size"])?.value ?? hiddenSize;
}

/**
 * One MoE layer's parameters as the config names them, for the multi-token-prediction block (config/mtp.ts),
 * which is a decoder layer of the same kind: the routed experts (matrices × in-dim × width each), the shared
 * experts (as many matrices, at the shared width), the router (hidden × E), and a latent MoE's two projections
 * into and out of the latent. Null when the config names no routed experts.
 */
export function moeLayerParamsOf(t: Json, modelType: string, hiddenSize: number): number | null {
  const experts = firstNumber(t, EXPERT_KEYS)?.value ?? 0;
  const width = expertWidthOf(t);
  if (experts <= 1 || width <= 0) return null;
  const matrices = matricesPerExpert(t, modelType);
  const inDim = expertInDimOf(t, hiddenSize);
  const latent = inDim !== hiddenSize ? 2 * hiddenSize * inDim : 0;
  const shared = matrices * hiddenSize * sharedExpertWidthOf(t, width);
  return experts * matrices * inDim * width + shared + hiddenSize * experts + latent;
}

export function moeOf(t: Json, modelType: string, layers: number, hiddenSize: number): MoeShape | null {
  const routed = firstNumber(t, EXPERT_KEYS);
  if (routed === undefined || routed.value <= 1) return null;
  if (t["enable_moe_block"] === false) return null;
  const topK = firstNumber(t, TOP_K_KEYS);
  if (topK === undefined || topK.value <= 0) {
    throw new ModelError(
      `config.json has ${routed.value} routed experts (${routed.name}) but no experts-per-token field (${TOP_K_KEYS.join(", ")}).`,
      TOP_K_KEYS[0],
    );
  }
  const sharedCount = firstNumber(t, SHARED_KEYS)?.value;
  const sharedWidth = firstNumber(t, SHARED_WIDTH_KEYS)?.value ?? 0;
  const sharedExperts = sharedCount ?? (sharedWidth > 0 ? 1 : 0);
  const mask = moeLayerMask(t, layers);
  const moeLayers = mask.filter(Boolean).length;
  const firstMoe = mask.indexOf(true);
  const width = expertWidthOf(t);
  const inDim = expertInDimOf(t, hiddenSize);
  const shape: MoeShape = {
    routedExperts: routed.value,
    expertsPerToken: topK.value,
    sharedExperts,
    denseFirstLayers: firstMoe < 0 ? layers : firstMoe,
    expertIntermediateSize: width,
    moeLayers,
    moeLayerMask: mask,
  };
  if (width > 0) shape.routedExpertParams = moeLayers * routed.value * matricesPerExpert(t, modelType) * inDim * width;
  return shape;
}

// ---------------------------------------------------------------------------
// The shape.
