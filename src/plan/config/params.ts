/**
 * The parameter count of a model's main decoder from its config.json, for a repository whose Hub entry gives none
 * (an FP8 or MXFP4 checkpoint, a manual config, a local directory): every tensor the family's transformers class
 * builds (modeling_<model_type>.py), layer by layer. The multi-token-prediction block (config/mtp.ts) is left out:
 * the engines load it only for speculative decoding. A family whose every tensor is not known here gives null.
 */
import { type Json, optionalInt } from "./fields.ts";
import { sharedExpertWidthOf } from "./moe.ts";
import { attentionParams } from "./mtp.ts";
import type { ModelShape } from "../shapeTypes.ts";

/**
 * The families counted tensor by tensor below. Others (hybrids, linear attention, latent MoE, vision towers,
 * Nemotron's NAS blocks) stay null: a wrong count would be a wrong speed.
 */
const COUNTED = new Set([
  "llama",
  "mistral",
  "qwen2",
  "qwen3",
  "gemma",
  "gemma2",
  "gemma3_text",
  "phi3",
  "granite",
  "mixtral",
  "qwen2_moe",
  "qwen3_moe",
  "deepseek_v2",
  "deepseek_v3",
  "kimi_k2",
  "gpt_oss",
]);

/** Norms around one decoder layer: Gemma-2/3 put one before and after both attention and the MLP, the rest two. */
function layerNormParams(modelType: string, hidden: number): number {
  return (/^gemma[23]/.test(modelType) ? 4 : 2) * hidden;
}

/**
 * One layer's attention beyond its projections (config/mtp.ts attentionParams): Qwen2's q/k/v biases (always on),
 * attention_bias's q/k/v/o biases (Llama, gpt-oss), gpt-oss's per-head sinks, Qwen3/Gemma-3's q and k norms, MLA's
 * q_a and kv_a layernorms.
 */
function attentionExtraParams(t: Json, modelType: string): number {
  const heads = optionalInt(t, "num_attention_heads") ?? 0;
  const rank = optionalInt(t, "kv_lora_rank") ?? 0;
  if (rank > 0) return rank + (optionalInt(t, "q_lora_rank") ?? 0);
  const hidden = optionalInt(t, "hidden_size") ?? 0;
  const headDim = optionalInt(t, "head_dim") ?? hidden / Math.max(1, heads);
  const kvHeads = optionalInt(t, "num_key_value_heads") ?? heads;
  let extra = 0;
  if (/^qwen2/.test(modelType)) extra += (heads + 2 * kvHeads) * headDim;
  else if (t["attention_bias"] === true) extra += (heads + 2 * kvHeads) * headDim + hidden;
  if (modelType === "gpt_oss") extra += heads;
  if (/^qwen3|^gemma3/.test(modelType)) extra += 2 * headDim;
  return extra;
}

/**
 * One MoE layer's parameters beside its routed experts' matrices: the router (gpt-oss's with a bias), DeepSeek-V3's
 * e_score_correction_bias (noaux_tc), the shared experts (Qwen2-MoE's with its one-output gate), gpt-oss's expert biases.
 */
function moeLayerExtraParams(t: Json, modelType: string, hidden: number, moe: NonNullable<ModelShape["moe"]>): number {
  const e = moe.routedExperts;
  const sharedWidth = sharedExpertWidthOf(t, moe.expertIntermediateSize);
  let extra = hidden * e + 3 * hidden * sharedWidth;
  if (t["topk_method"] === "noaux_tc") extra += e;
  if (modelType === "qwen2_moe" && sharedWidth > 0) extra += hidden;
  if (modelType === "gpt_oss") extra += e + e * (2 * moe.expertIntermediateSize + hidden);
  return extra;
}

/**
 * The main model's parameters from its config (text part: `text`, shape read from it): embeddings, lm_head unless
 * tied, every decoder layer's attention, norms, dense MLP or experts with their router, the final norm. MTP layers
 * past num_hidden_layers are not counted. Null for a family not in COUNTED, a checkpoint with a vision tower (not
 * counted here), or a field it needs missing.
 */
export function paramsFromConfig(text: Json, shape: ModelShape): number | null {
  const modelType = shape.architecture;
  if (!COUNTED.has(modelType) || shape.hasVision || shape.vocabSize <= 0) return null;
  const hidden = shape.hiddenSize;
  const moe = shape.moe;
  if (moe !== null && moe.routedExpertParams === undefined) return null;
  const denseWidth = optionalInt(text, "intermediate_size") ?? 0;
  const mask = moe?.moeLayerMask;
  const perLayerAttention = attentionParams(text, hidden) + attentionExtraParams(text, modelType);
  let total = shape.vocabSize * hidden * (shape.tiedEmbeddings === true ? 1 : 2) + hidden;
  for (let i = 0; i < shape.layers; i++) {
    total += perLayerAttention + layerNormParams(modelType, hidden);
    const sparse = moe !== null && (mask ? mask[i] === true : i >= moe.denseFirstLayers);
    if (sparse) total += moeLayerExtraParams(text, modelType, hidden, moe);
    else if (denseWidth > 0) total += 3 * hidden * denseWidth;
    else return null;
  }
  return total + (moe?.routedExpertParams ?? 0);
}
