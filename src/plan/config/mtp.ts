/**
 * The multi-token-prediction block a checkpoint carries beside its decoder (`mtp.*` in Qwen3.5/3.6,
 * `model.layers.<N>` past num_hidden_layers in GLM-5.x and DeepSeek-V3): one more decoder layer per MTP
 * step and the projection that feeds it. vLLM builds it as a separate drafter only when
 * --speculative-config names MTP (0.29.0 log: "Resolved architecture: Qwen3_5MTP", "Detected MTP model.
 * Sharing target model embedding weights with the draft model", llm_base_proposer.py), so it weighs
 * nothing without speculative decoding; the embedding and lm_head it shares are not counted again.
 */
import { type Json, optionalInt } from "./fields.ts";
import { moeLayerParamsOf } from "./moe.ts";
import type { ModelShape } from "../shapeTypes.ts";

/** One MTP layer's attention: MLA's low-rank projections (GLM-5.x, DeepSeek-V3) or GQA's, Qwen3.5's gated q included. */
export function attentionParams(t: Json, hidden: number): number {
  const heads = optionalInt(t, "num_attention_heads") ?? 0;
  const rank = optionalInt(t, "kv_lora_rank");
  if (rank !== undefined && rank > 0) {
    const nope = optionalInt(t, "qk_nope_head_dim") ?? 0;
    const rope = optionalInt(t, "qk_rope_head_dim") ?? 0;
    const v = optionalInt(t, "v_head_dim") ?? nope;
    const qRank = optionalInt(t, "q_lora_rank");
    const q = qRank ? hidden * qRank + qRank * heads * (nope + rope) : hidden * heads * (nope + rope);
    return q + hidden * (rank + rope) + rank * heads * (nope + v) + heads * v * hidden;
  }
  const headDim = optionalInt(t, "head_dim") ?? hidden / Math.max(1, heads);
  const kvHeads = optionalInt(t, "num_key_value_heads") ?? heads;
  const qWidth = heads * headDim * (t["attn_output_gate"] === true ? 2 : 1);
  return hidden * (qWidth + 2 * kvHeads * headDim) + heads * headDim * hidden;
}

/** One MTP layer's feed-forward: a mixture of experts as the decoder's are counted (config/moe.ts), or a dense gated MLP. */
function ffnParams(t: Json, hidden: number): number {
  return (
    moeLayerParamsOf(t, String(t["model_type"] ?? ""), hidden) ??
    3 * hidden * (optionalInt(t, "intermediate_size") ?? 0)
  );
}

/**
 * Families whose config declares MTP modules that the published checkpoint is read not to carry: NVIDIA's
 * MiniMax-M3-NVFP4 quantization map (hf_quant_config.json, ai-dynamo/aiconfigurator @ 095f58a) names decoder
 * layers 0–59 and no MTP module, quantized or excluded, where its Qwen3.5 builds keep theirs. An inference for
 * MiniMaxAI's own checkpoint; counting none keeps the file's bytes whole on the card (never a false fit).
 */
const NO_MTP_IN_CHECKPOINT = /^minimax_m3/;

/**
 * Parameters of the MTP block, or undefined when the config declares none: per step one decoder layer,
 * the eh_proj that joins the embedding and the hidden state (2 × hidden → hidden) and four norms.
 * Qwen3.5-122B-A10B: 2.52 B; NVIDIA's NVFP4 build leaves `mtp*` unquantized (its quantization_config
 * ignores "mtp*"), so at bf16 that is 4.70 GiB, of which the 256 experts are 4.50.
 */
export function mtpParamsOf(t: Json, hidden: number): number | undefined {
  const steps = optionalInt(t, "mtp_num_hidden_layers") ?? optionalInt(t, "num_nextn_predict_layers") ?? 0;
  if (!(steps > 0) || NO_MTP_IN_CHECKPOINT.test(String(t["model_type"] ?? ""))) return undefined;
  return steps * (attentionParams(t, hidden) + ffnParams(t, hidden) + 2 * hidden * hidden + 4 * hidden);
}

/**
 * What the MTP block weighs in the checkpoint: bf16, 2 B a parameter, in bf16 checkpoints and in NVIDIA's
 * NVFP4 builds, which leave it unquantized; 1 B in an FP8 checkpoint (DeepSeek-V3's and GLM-5-FP8's MTP
 * layer is block-FP8 like the rest, an assumption not checked against a log).
 */
export function mtpWeightBytes(shape: Pick<ModelShape, "mtpParams" | "quantMethod">): number {
  return (shape.mtpParams ?? 0) * (shape.quantMethod === "fp8" ? 1 : 2);
}
