/**
 * vLLM's paged KV cache: 16-token blocks, sliding and chunked layers by their specs, hybrid groups,
 * and the pool in tokens and sequences.
 */
import { VLLM_DSV4_BLOCK_TOKENS, vllmDsv4Capacity, vllmDsv4SequenceBytes } from "./dsv4.ts";
import type { KvGeometry, PoolCapacity, SlidingGroup } from "../../kv.ts";
import { cdiv } from "../../units.ts";

/** vLLM's default KV block: 16 tokens (CacheConfig.block_size on CUDA). */
export const VLLM_BLOCK_TOKENS = 16;

/**
 * Blocks one request of `contextTokens` takes in a sliding layer:
 * `cdiv(min(window − 1 + batched, ctx), block) + 1`
 * (SlidingWindowSpec.max_memory_usage_bytes); in a chunked-local one
 * `cdiv(min(chunk + batched, ctx), block)` (ChunkedLocalAttentionSpec, same file, 0.10–0.22).
 */
function vllmSlidingBlocks(s: SlidingGroup, contextTokens: number, batchedTokens: number, block: number): number {
  if (s.chunked) return cdiv(Math.min(s.windowTokens + batchedTokens, contextTokens), block);
  return cdiv(Math.min(s.windowTokens - 1 + batchedTokens, contextTokens), block) + 1;
}

/**
 * VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE's default in the vLLM the
 * plan models (0.19): true. vllm/envs.py gave False from 0.10.1 (PR #21761,
 * "a latency regression") through 0.12.0 (docs.vllm.ai v0.10.1.1, v0.11.0,
 * v0.11.1, v0.12.0 vllm.envs); PR #29627 (after 2025-11-27) turned it on, and
 * v0.16.0's vllm.envs has True; PR #46553 (June 2026) to turn it off again was
 * closed unmerged. When it is off, VllmConfig.__post_init__ (vllm/config/vllm.py)
 * disables the hybrid KV cache manager for any model with attention_chunk_size
 * ("There is a latency regression when using chunked local attention with the
 * hybrid KV cache manager. Disabling it, by default.").
 */
export const VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT = true;

/** A geometry's layers as vLLM caches them when its hybrid manager is off: every window layer holds the whole context. */
const wholeContextViews = new WeakMap<KvGeometry, KvGeometry>();

/**
 * The geometry vLLM caches. With the hybrid KV cache manager off for a
 * chunked-local model (`chunkedLocalHybrid` false), unify_hybrid_kv_cache_specs
 * turns every sliding and chunked layer into full attention: Llama-4's 36
 * chunk layers cost the whole context like its 12 global ones.
 */
export function vllmCachedGeometry(g: KvGeometry, chunkedLocalHybrid: boolean): KvGeometry {
  if (chunkedLocalHybrid || !g.sliding.some((s) => s.chunked)) return g;
  let whole = wholeContextViews.get(g);
  if (!whole) {
    const layers = g.sliding.reduce((n, s) => n + s.layers, 0);
    const elems = g.sliding.reduce((n, s) => n + s.elemsPerToken, 0);
    whole = { ...g, fullLayers: g.fullLayers + layers, fullElemsPerToken: g.fullElemsPerToken + elems, sliding: [] };
    wholeContextViews.set(g, whole);
  }
  return whole;
}

/** The largest bytes one attention layer caches per token on this card. */
function attentionBytesPerLayerToken(g: KvGeometry, elementBytes: number): number {
  let most = 0;
  if (g.fullLayers > 0) most = Math.max(most, (g.fullElemsPerToken / g.fullLayers) * elementBytes);
  if (g.mlaLayers > 0)
    most = Math.max(most, (g.mlaElemsPerToken * elementBytes + g.indexerBytesPerToken) / g.mlaLayers);
  for (const s of g.sliding) most = Math.max(most, (s.elemsPerToken / s.layers) * elementBytes);
  return most;
}

/**
 * vLLM's attention block for this card, in tokens: 16, or for a hybrid of
 * attention and state (Mamba, gated delta) layers raised until an attention
 * page holds a layer's state, `16 × cdiv(state, 16 × page per token)`
 * (`Platform._align_hybrid_block_size`, docs/notes/architectures.md §2.5: "Setting attention block
 * size to N tokens"). Qwen3.5/3.6-35B-A3B: 2.05 MiB states against 2 KiB a
 * token and layer make blocks of 1,056 tokens.
 */
export function vllmBlockTokens(g: KvGeometry, elementBytes: number): number {
  if (g.compressed.length > 0) return VLLM_DSV4_BLOCK_TOKENS;
  const perToken = attentionBytesPerLayerToken(g, elementBytes);
  if (g.linearLayers === 0 || perToken === 0) return VLLM_BLOCK_TOKENS;
  const state = g.linearStateBytesPerSeq / g.linearLayers;
  return VLLM_BLOCK_TOKENS * Math.max(1, cdiv(state, VLLM_BLOCK_TOKENS * perToken));
}

/**
 * Bytes one sequence of `contextTokens` needs on this card, as vLLM's
 * startup check counts it (`_check_enough_kv_cache_memory`: the sum of each
 * layer's max_memory_usage_bytes). Sliding layers hold min(window − 1 +
 * max_num_batched_tokens, context): at 8k context and 8k batched tokens
 * that is the full context (calibration: Gemma-2/3, gpt-oss).
 */
export function vllmSequenceBytes(
  g: KvGeometry,
  elementBytes: number,
  contextTokens: number,
  batchedTokens: number,
): number {
  if (g.compressed.length > 0) return vllmDsv4SequenceBytes(g, contextTokens, batchedTokens);
  const block = vllmBlockTokens(g, elementBytes);
  const fullBlocks = cdiv(contextTokens, block);
  let elems = (g.fullElemsPerToken + g.mlaElemsPerToken) * fullBlocks * block;
  for (const s of g.sliding)
    elems += s.elemsPerToken * vllmSlidingBlocks(s, contextTokens, batchedTokens, block) * block;
  // A hybrid model's state layers each take one attention-sized page (the state padded to it).
  const states =
    block === VLLM_BLOCK_TOKENS
      ? g.linearStateBytesPerSeq
      : g.linearLayers * block * attentionBytesPerLayerToken(g, elementBytes);
  return elems * elementBytes + g.indexerBytesPerToken * fullBlocks * block + states;
}

// ---------------------------------------------------------------------------
// vLLM: DeepSeek-V4's compressed attention
// ---------------------------------------------------------------------------
//
// Sources (vllm-project/vllm): vllm/models/deepseek_v4/attention.py @ e6643eca
// (the compressed MLAAttentionSpec, DeepseekV4IndexerCache, the indexer's
// 132-B keys), vllm/v1/attention/backends/mla/sparse_swa.py @ 72ecd68b
// (DeepseekV4SWACache: block 64, alignment 576; preferred block 256),
// vllm/models/deepseek_v4/compressor.py @ 91fe0503 (CompressorStateCache),
// vllm/v1/kv_cache_interface.py (MLAAttentionSpec / SlidingWindowMLASpec
// `storage_block_size = block_size // compress_ratio`, "448B NoPE + 128B RoPE
// + 8B fp8 scale = 584B per token", `_apply_alignment_padding`,
// UniformTypeKVCacheSpecs.get_page_sizes / get_num_layer_tuples /
// max_memory_usage_pages) and vllm/v1/core/kv_cache_utils.py
// (group_and_unify_kv_cache_specs, _get_kv_cache_groups_uniform_groups,
// _approximate_gcd, and _max_memory_usage_bytes_from_groups' branch "Special
// case (only DeepseekV4 for now): all groups are UniformTypeKVCacheSpecs").

/**
 * vLLM 0.19's accounting of a pool (kv_cache_utils.py). Layers of one kind
 * form groups of `groupSize` (the smallest kind's count, or the largest's when
 * within 1.25×), padding the last group of each kind; every group shares one
 * set of `groupSize` tensors, so the pool is cut into
 * `pool ÷ page ÷ groupSize` blocks. Tokens are `blocks ÷ groups × 16`
 * (`_report_kv_cache_config`) and concurrency `blocks ÷ blocks per request`
 * (`get_max_concurrency_for_kv_cache_config`). Gemma-3-27B's 10 full + 52
 * sliding layers make 7 groups of 10: 70 layer-slots for 62 layers, 13% of
 * padding that the log shows and a plain bytes-per-token formula misses.
 */
export function vllmCapacity(
  g: KvGeometry,
  elementBytes: number,
  poolBytes: number,
  contextTokens: number,
  batchedTokens: number,
): PoolCapacity {
  if (poolBytes <= 0) return { tokens: 0, concurrency: 0 };
  if (g.compressed.length > 0) return vllmDsv4Capacity(g, poolBytes, contextTokens, batchedTokens);
  const block = vllmBlockTokens(g, elementBytes);
  const kinds: { layers: number; bytesPerLayer: number; blocksPerRequest: number }[] = [];
  const fullBlocks = cdiv(contextTokens, block);
  if (g.fullLayers > 0)
    kinds.push({
      layers: g.fullLayers,
      bytesPerLayer: (g.fullElemsPerToken / g.fullLayers) * elementBytes,
      blocksPerRequest: fullBlocks,
    });
  if (g.mlaLayers > 0) {
    const perLayer = (g.mlaElemsPerToken * elementBytes + g.indexerBytesPerToken) / g.mlaLayers;
    kinds.push({ layers: g.mlaLayers, bytesPerLayer: perLayer, blocksPerRequest: fullBlocks });
  }
  for (const s of g.sliding) {
    kinds.push({
      layers: s.layers,
      bytesPerLayer: (s.elemsPerToken / s.layers) * elementBytes,
      blocksPerRequest: vllmSlidingBlocks(s, contextTokens, batchedTokens, block),
    });
  }
  if (kinds.length === 0) {
    // Only constant states (a pure Mamba model): sequences, not tokens, fill the pool.
    const concurrency = g.linearStateBytesPerSeq > 0 ? poolBytes / g.linearStateBytesPerSeq : 0;
    return { tokens: Math.floor(concurrency) * contextTokens, concurrency };
  }
  // State layers of a hybrid model are a kind of their own: one (padded) page a request (mamba_cache_mode "none").
  if (g.linearLayers > 0) kinds.push({ layers: g.linearLayers, bytesPerLayer: 0, blocksPerRequest: 1 });
  const counts = kinds.map((k) => k.layers);
  const minLayers = Math.min(...counts);
  const maxLayers = Math.max(...counts);
  const groupSize = maxLayers < minLayers * 1.25 ? maxLayers : minLayers;
  // Pages are unified to the largest per-layer page (unify_kv_cache_spec_page_size; the states padded to it).
  const pageBytes = block * Math.max(...kinds.map((k) => k.bytesPerLayer));
  let groups = 0;
  let blocksPerRequest = 0;
  for (const k of kinds) {
    const n = cdiv(k.layers, groupSize);
    groups += n;
    blocksPerRequest += n * k.blocksPerRequest;
  }
  const blocks = Math.floor(poolBytes / pageBytes / groupSize);
  return { tokens: Math.floor(blocks / groups) * block, concurrency: blocks / blocksPerRequest };
}

// ---------------------------------------------------------------------------
// SGLang
