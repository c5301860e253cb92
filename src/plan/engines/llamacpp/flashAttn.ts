/**
 * llama.cpp without flash attention: each layer's attention is built as KQ = K·Q, an f32 matrix of
 * n_kv × n_ubatch × n_head (src/llama-graph.cpp build_attn_mha: `kq = ggml_mul_mat(ctx0, k, q)`,
 * then `ggml_soft_max_ext` over it, which ggml-alloc runs in place). The compute buffer is reserved
 * for the worst graph, the whole cache (n_kv = n_ctx) and a full ubatch, and is reused layer after
 * layer, so it holds one layer's KQ more than with flash attention, whose kernel works in tiles.
 * "auto", the default, turns flash attention on wherever the backend has it (CUDA, Metal, Vulkan, CPU).
 */
import { LLAMACPP_KV_PAD, pad } from "./kv.ts";
import { llamacppComputeBytes } from "./memory.ts";
import type { KvGeometry } from "../../kv.ts";
import type { ModelShape, Workload } from "../../types.ts";

/** Bytes of one KQ (and mask) element: f32. */
const KQ_ELEMENT_BYTES = 4;

/** Whether the plan's llama.cpp runs without flash attention: only when the user says -fa off. */
export function flashAttnOff(w: Workload): boolean {
  return w.settings.flashAttn === "off";
}

/**
 * The compute buffer without flash attention on a card whose layers are `g`: the attention's live
 * tensors, KQ (n_kv × n_ubatch × n_head f32) and its mask (n_kv × n_ubatch f32), beside one
 * ubatch's activations (memory.ts), or the flash-attention buffer where that is larger (the logits
 * are not live at the same time). n_kv is the widest layer's view: the whole cache where a full or
 * MLA layer is, else the largest sliding window's cells; a card with no attention has no KQ.
 * Check: Llama-2-7B Q4_K_M, n_ctx 4096, ub 512, flash_attn = 0 on llama.cpp b3600 (Vulkan, A770):
 * "compute buffer size = 296.00 MiB" (http://coloradmin.cn/o/2067531.html, a copy of the CSDN post
 * by secext2022); this gives 264 + 16 = 280 MiB, 5.4 % under: the rest of a layer's live
 * activations (Q, the norm's output) is not counted.
 */
export function flashOffComputeBytes(shape: ModelShape, g: KvGeometry, contextTokens: number, slots: number, ubatch: number, flashOnBytes: number): number {
  const nCtx = pad(contextTokens * slots, LLAMACPP_KV_PAD);
  let nKv = g.fullLayers + g.mlaLayers > 0 ? nCtx : 0;
  for (const s of g.sliding) nKv = Math.max(nKv, pad(Math.min(nCtx, s.windowTokens * slots + ubatch), LLAMACPP_KV_PAD));
  if (nKv === 0) return flashOnBytes;
  const attention = nKv * ubatch * (shape.attentionHeads + 1) * KQ_ELEMENT_BYTES + llamacppComputeBytes(shape, ubatch, false);
  return Math.max(flashOnBytes, attention);
}

/** What one more 256-cell step of the cache adds to KQ and its mask, past the windows (only full and MLA layers' views grow). */
export function kqStepBytes(shape: ModelShape, g: KvGeometry, ubatch: number): number {
  return g.fullLayers + g.mlaLayers > 0 ? LLAMACPP_KV_PAD * ubatch * (shape.attentionHeads + 1) * KQ_ELEMENT_BYTES : 0;
}
