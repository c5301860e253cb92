/**
 * llama.cpp's cache: n_ctx = context × slots in 256-cell steps, in one stream (--kv-unified) or one a
 * slot, sliding layers at their window in each stream, recurrent state per slot.
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
 * The cells llama.cpp v0.4.0 makes for `--ctx-size context × slots` and `--parallel slots`
 * (src/llama-context.cpp:288-304): n_ctx = pad256(-c); with a unified cache one stream of all of them
 * (n_ctx_seq = n_ctx), else one stream a sequence of pad256(n_ctx / slots) cells, n_ctx rounded to
 * that many streams. `streamCells` is what one attention mask spans (build_attn_inp_kq_mask's n_kv).
 */
export function llamacppCells(
  contextTokens: number,
  slots: number,
  unified: boolean,
): { nCtx: number; streamCells: number; streams: number } {
  const nCtx = pad(contextTokens * slots, LLAMACPP_KV_PAD);
  if (unified || slots <= 1) return { nCtx, streamCells: nCtx, streams: 1 };
  const streamCells = pad(Math.floor(nCtx / slots), LLAMACPP_KV_PAD);
  return { nCtx: streamCells * slots, streamCells, streams: slots };
}

/**
 * The cells of a sliding-window layer (src/llama-kv-cache-iswa.cpp:73, `size_swa =
 * GGML_PAD(min(size_base, n_swa·(unified ? n_seq_max : 1) + n_ubatch), 256)` in each of the n_stream
 * streams of src/llama-kv-cache.cpp:233): unified, one window shared by the slots, pad256(min(n_ctx,
 * window·slots + n_ubatch)); else each slot its own, pad256(min(n_ctx_seq, window + n_ubatch)).
 * Measured on v0.4.0 both ways (test/engine FINDINGS.md F3).
 */
export function llamacppWindowCells(
  windowTokens: number,
  cells: { streamCells: number },
  slots: number,
  unified: boolean,
  ubatch: number,
): number {
  return pad(Math.min(cells.streamCells, windowTokens * (unified ? slots : 1) + ubatch), LLAMACPP_KV_PAD);
}

/**
 * Bytes of llama.cpp's cache on this card for `slots` sequences of `contextTokens` each, as
 * llama-server runs `-c context×slots --parallel slots` (with `--kv-unified` when `unified`):
 * full-attention and MLA layers n_ctx cells either way (llamacppCells), sliding layers their
 * window in each stream (llamacppWindowCells), recurrent states one row per slot.
 */
export function llamacppCacheBytes(
  g: KvGeometry,
  elementBytes: number,
  contextTokens: number,
  slots: number,
  ubatch: number,
  unified = false,
): number {
  const cells = llamacppCells(contextTokens, slots, unified);
  let elems = (g.fullElemsPerToken + g.mlaElemsPerToken) * cells.nCtx;
  for (const s of g.sliding)
    elems += s.elemsPerToken * cells.streams * llamacppWindowCells(s.windowTokens, cells, slots, unified, ubatch);
  return (
    elems * elementBytes +
    g.indexerBytesPerToken * LLAMACPP_INDEXER_BYTES_PER_FP8_LAYOUT_BYTE * cells.nCtx +
    g.linearStateBytesPerSeq * slots
  );
}
