/**
 * llama.cpp without flash attention: each layer's attention is built as KQ = K·Q, an f32 matrix of
 * n_kv × n_ubatch × n_head (src/llama-graph.cpp build_attn_mha: `kq = ggml_mul_mat(ctx0, k, q)`,
 * then `ggml_soft_max_ext` over it, which ggml-alloc runs in place). The compute buffer is reserved
 * for the worst graph, the whole cache (n_kv = n_ctx) and a full ubatch, and is reused layer after
 * layer, so it holds one layer's KQ more than with flash attention, whose kernel works in tiles.
 * "auto", the default, turns flash attention on wherever the backend has it (CUDA, Metal, Vulkan, CPU).
 */
import { LLAMACPP_KV_PAD, llamacppCells, llamacppWindowCells } from "./kv.ts";
import type { KvGeometry } from "../../kv.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Workload } from "../../types.ts";

/** Bytes of one KQ (and mask) element: f32. */
const KQ_ELEMENT_BYTES = 4;

/** Whether the plan's llama.cpp runs without flash attention: only when the user says -fa off. */
export function flashAttnOff(w: Workload): boolean {
  return w.settings.flashAttn === "off";
}

/**
 * The compute buffer without flash attention on a card whose layers are `g`: the attention's live
 * tensors, KQ (n_kv × n_ubatch × n_head f32), its mask (n_kv × n_ubatch f32) and the layer's Q/KQV
 * rows (4 × n_ubatch × n_head × head_dim f32), or the flash-attention buffer where that is larger
 * (the logits are not live at the same time). n_kv is one stream's cells (kv.ts llamacppCells):
 * llama-server without --kv-unified gives each of its `slots` sequences a cache of its own, so KQ
 * spans one sequence's context (pad256), or its window on a model whose every layer slides; with
 * --kv-unified it spans the whole pool of context × slots.
 * Measured against llama.cpp v0.4.0 itself (test/engine, FINDINGS.md F1): within 1.4% on Llama-3.1,
 * gpt-oss, Qwen3-MoE, Gemma and LFM2 at 1 to 4 sequences, unified or not; DeepSeek2's MLA (4% over here)
 * and Qwen3-Next (2.5% under) are placed tensor by tensor instead where the GGUF gives the graph (host.ts,
 * graphDeepseek2.ts, graphQwen3next.ts).
 */
export function flashOffComputeBytes(
  shape: ModelShape,
  g: KvGeometry,
  contextTokens: number,
  slots: number,
  ubatch: number,
  flashOnBytes: number,
  unified = false,
): number {
  const stream = llamacppCells(contextTokens, slots, unified);
  let nKv = g.fullLayers + g.mlaLayers > 0 ? stream.streamCells : 0;
  for (const s of g.sliding) nKv = Math.max(nKv, llamacppWindowCells(s.windowTokens, stream, slots, unified, ubatch));
  if (nKv === 0) return flashOnBytes;
  const heads = shape.attentionHeads;
  const attention =
    nKv * ubatch * (heads + 1) * KQ_ELEMENT_BYTES + 4 * ubatch * heads * shape.headDim * KQ_ELEMENT_BYTES;
  return Math.max(flashOnBytes, attention);
}

/** What one more 256-cell step of the cache adds to KQ and its mask, past the windows (only full and MLA layers' views grow). */
export function kqStepBytes(shape: ModelShape, g: KvGeometry, ubatch: number): number {
  return g.fullLayers + g.mlaLayers > 0 ? LLAMACPP_KV_PAD * ubatch * (shape.attentionHeads + 1) * KQ_ELEMENT_BYTES : 0;
}
