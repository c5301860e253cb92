/**
 * From what the planner knows (a model's shape, one artifact, the KV bytes a
 * token takes) to what the speed model reads (speed/types.ts's SpeedModel).
 * Here, not in speed/, because speed/ may not import the engine's types
 * (the plan lint zone forbids `../`).
 */

import { kvBytesPerToken } from "./kv.ts";
import type { Artifact, ModelShape } from "./types.ts";
import type { ComputeFormat, SpeedModel } from "./speed/types.ts";

/**
 * The matrix units an artifact's weights run on: FP8 and FP4 checkpoints on
 * their own units; a GGUF's F16 on FP16 (llama.cpp's cuBLAS path), its
 * integer quants (Q4_K_M, Q8_0…) on INT8 (llama.cpp's MMQ kernels); the
 * rest on BF16. A card without the format falls back to its BF16 figure.
 */
export function computeFormatOf(artifact: Pick<Artifact, "format" | "quant">): ComputeFormat {
  const q = artifact.quant.toLowerCase();
  // A GGUF's MXFP4 runs through the same MMQ path as its other quants.
  if (artifact.format === "gguf") return /^(f16|bf16|f32)\b/.test(q) ? "fp16" : "int8";
  if (q.includes("fp8")) return "fp8";
  if (q.includes("nvfp4") || q.includes("mxfp4") || q === "fp4") return "fp4";
  return "bf16";
}

/**
 * Parameters one token multiplies: all of them for a dense model; for a
 * mixture of experts, all but the routed experts it does not pick
 * (total − routed × (1 − k/E)). Null without a parameter count.
 */
export function activeParamsOf(shape: ModelShape): number | null {
  if (shape.paramsTotal === null) return null;
  const moe = shape.moe;
  if (moe === null || moe.routedExperts <= 0 || moe.routedExpertParams === undefined) return shape.paramsTotal;
  const unpicked = 1 - Math.min(moe.expertsPerToken, moe.routedExperts) / moe.routedExperts;
  return shape.paramsTotal - moe.routedExpertParams * unpicked;
}

/**
 * The speed model's view of one artifact of a model. `kvElementBytes` is the
 * KV cache dtype's width (2 for f16/bf16, 1 for fp8/q8_0). Returns null, with
 * no guess, when the parameter count is unknown.
 */
export function speedModelOf(shape: ModelShape, artifact: Artifact, kvElementBytes: number): SpeedModel | null {
  const activeParams = activeParamsOf(shape);
  if (activeParams === null) return null;
  const moe = shape.moe;
  return {
    weightsBytes: artifact.bytes,
    routedExpertBytes: artifact.expertBytes,
    routedExperts: moe?.routedExperts ?? 0,
    expertsPerToken: moe?.expertsPerToken ?? 0,
    activeParams,
    layers: shape.layers,
    hiddenSize: shape.hiddenSize,
    kvBytesPerToken: kvBytesPerToken(shape.layerCaches, kvElementBytes),
    kvSplitByTensorParallel: shape.kvHeads > 0,
    attentionFlopsPerContextToken: 4 * shape.layers * shape.attentionHeads * shape.headDim,
    computeFormat: computeFormatOf(artifact),
  };
}
