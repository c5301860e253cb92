/**
 * llama.cpp's cache: n_ctx = context × slots in 256-cell steps, sliding layers at their window,
 * recurrent state per slot.
 */
import type { KvGeometry } from "../../kv.ts";

/** llama.cpp pads the cache's cells to 256 (llama_kv_cache: `GGML_PAD(n_ctx, 256)`, builds b6000+). */
export const LLAMACPP_KV_PAD = 256;

export function pad(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}

/**
 * Bytes of llama.cpp's cache on this card for `slots` sequences of
 * `contextTokens` each: n_ctx = context × slots, padded to 256; sliding
 * layers keep `pad(min(n_ctx, window × slots + n_ubatch), 256)` cells
 * (llama_kv_cache_iswa, unified cache as llama-server builds it); recurrent
 * states one row per slot.
 */
export function llamacppCacheBytes(g: KvGeometry, elementBytes: number, contextTokens: number, slots: number, ubatch: number): number {
  const nCtx = pad(contextTokens * slots, LLAMACPP_KV_PAD);
  let elems = (g.fullElemsPerToken + g.mlaElemsPerToken) * nCtx;
  for (const s of g.sliding) elems += s.elemsPerToken * pad(Math.min(nCtx, s.windowTokens * slots + ubatch), LLAMACPP_KV_PAD);
  return elems * elementBytes + g.indexerBytesPerToken * nCtx + g.linearStateBytesPerSeq * slots;
}
