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
 * llama.cpp keeps a DSA model's indexer keys (GLM-5.x `glm-dsa`, DeepSeek-V3.2) in a cache of their own at
 * f16, index_head_dim × 2 B a token on each indexer layer, where vLLM and SGLang keep fp8 keys and an fp32
 * scale per 128 (the geometry's 132 B a layer). Build 10505 on GLM-5.2 printed "llama_kv_cache: size =
 * 672.00 MiB (131072 cells, 21 layers …)" = 21 × 256 B × 131,072 beside the 11,232 MiB of MLA latent
 * (test/fixtures/calibration/newer.jsonl). Every DSA config seen has index_head_dim 128: 256 B for 132.
 */
export const LLAMACPP_INDEXER_BYTES_PER_FP8_LAYOUT_BYTE = 256 / 132;

/**
 * Bytes of llama.cpp's cache on this card for `slots` sequences of
 * `contextTokens` each: n_ctx = context × slots, padded to 256; sliding
 * layers keep, for each slot, `pad(min(context, window + n_ubatch), 256)` cells:
 * llama-server without --kv-unified (the plan's command) gives every sequence a
 * window of its own (measured on llama.cpp v0.4.0, test/engine FINDINGS.md F3;
 * at one slot it is the unified formula); recurrent states one row per slot.
 */
export function llamacppCacheBytes(
  g: KvGeometry,
  elementBytes: number,
  contextTokens: number,
  slots: number,
  ubatch: number,
): number {
  const nCtx = pad(contextTokens * slots, LLAMACPP_KV_PAD);
  let elems = (g.fullElemsPerToken + g.mlaElemsPerToken) * nCtx;
  for (const s of g.sliding)
    elems += s.elemsPerToken * slots * pad(Math.min(contextTokens, s.windowTokens + ubatch), LLAMACPP_KV_PAD);
  return (
    elems * elementBytes +
    g.indexerBytesPerToken * LLAMACPP_INDEXER_BYTES_PER_FP8_LAYOUT_BYTE * nCtx +
    g.linearStateBytesPerSeq * slots
  );
}
