/** What vLLM and SGLang hold of the weights once loaded: the run dtype, runtime fp8, the rotary cache. */
import { computeDtypeBytes } from "../../dtype.ts";
import type { Part } from "../../layout.ts";
import type { ResolvedSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";

/**
 * What vLLM and SGLang hold of a part's weights once loaded: the checkpoint
 * rescaled to the run dtype, runtime fp8, and the rotary cos/sin cache on
 * every rank. Body and embedding apart, as vLLM adds its MXFP4 layout to the body.
 */
export function servingWeights(
  part: Part,
  shape: ModelShape,
  s: ResolvedSettings,
): { bodyBytes: number; embedBytes: number } {
  let body = part.bodyBytes;
  let embed = part.embedBytes;
  const modelBytes = computeDtypeBytes(shape.dtype);
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
  return { bodyBytes: body, embedBytes: embed };
}

/**
 * The rotary dimension the cos/sin cache is built for: the head dim, or for
 * MLA the latent's RoPE part (kv_lora_rank is 512 in every MLA model served:
 * DeepSeek V2/V3, Kimi, GLM-5), not the 576-wide latent.
 */
export function ropeDim(shape: ModelShape): number {
  // Asked for every serving card at every slider move, of one shape: the last answer is kept (shapes are never changed once made).
  if (shape === lastRope.shape) return lastRope.dim;
  const dim = ropeDimOf(shape);
  lastRope = { shape, dim };
  return dim;
}

let lastRope: { shape: ModelShape | null; dim: number } = { shape: null, dim: 0 };

function ropeDimOf(shape: ModelShape): number {
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
export function runElemBytes(shape: ModelShape, s: ResolvedSettings): number {
  if (s.dtype === "float32") return 4;
  if (s.dtype === "bfloat16" || s.dtype === "float16") return 2;
  return Math.min(2, computeDtypeBytes(shape.dtype));
}
