/**
 * The KV cache: what one card caches per token (and per sequence), by
 * attention kind, and how each engine turns a pool of bytes into tokens and
 * sequences. Geometry is counted in elements so that a change of KV dtype
 * (the slider's path) costs a multiplication, not a re-count.
 *
 * Sources: shared/notes/architectures.md §2.1–2.6 (vLLM kv_cache_interface.py,
 * kv_cache_utils.py; SGLang model_runner_kv_cache_mixin.py; llama.cpp
 * llama-kv-cache.cpp, llama-kv-cache-iswa.cpp), checked against
 * shared/calibration/measured.jsonl.
 */
import type { Engine, KvDtype, LayerCache } from "./types.ts";

/** One card's share of the model's caches, in elements (K and V counted). */
export interface KvGeometry {
  /** Full-attention layers on this card, and their K+V elements per token, summed. */
  fullLayers: number;
  fullElemsPerToken: number;
  /** Sliding-window layers, grouped by window. */
  sliding: SlidingGroup[];
  /** MLA layers and their latent elements per token, summed (whole on every card). */
  mlaLayers: number;
  mlaElemsPerToken: number;
  /** A DSA model's indexer keys, bytes per token summed over its MLA layers (whatever the latent's dtype). */
  indexerBytesPerToken: number;
  /** Linear-attention / Mamba layers and their constant state per sequence, in bytes, summed. */
  linearLayers: number;
  linearStateBytesPerSeq: number;
  /** DeepSeek-V4 compressed-attention layers, grouped by geometry (whole on every card, like MLA: one latent head). */
  compressed: CompressedGroup[];
}

/** DeepSeek-V4 layers of one geometry (LayerCache kind "compressed-mla"). */
export interface CompressedGroup {
  compressRatio: number;
  windowTokens: number;
  headDim: number;
  /** The sparse indexer's key width on these layers, 0 without. */
  indexerHeadDim: number;
  layers: number;
}

export interface SlidingGroup {
  windowTokens: number;
  layers: number;
  elemsPerToken: number;
  /** Chunked local attention (Llama-4), which vLLM sizes by its own rule and may cache whole. */
  chunked: boolean;
}

/**
 * KV heads one card holds at tensor-parallel width `tp`: vLLM's
 * `max(1, total_kv_heads // tp)` (vllm/config/model.py get_num_kv_heads).
 * Past the KV heads each card keeps a copy of one head, so a card's cache
 * stops shrinking: Qwen3-235B's 4 heads on 8 cards cost 1 head a card, not ½.
 */
export function kvHeadsPerCard(kvHeads: number, tp: number): number {
  return Math.max(1, Math.floor(kvHeads / Math.max(1, tp)));
}

/** What the given layers cache on one card of a tensor-parallel group of `tp`. */
export function kvGeometry(layers: readonly LayerCache[], tp: number): KvGeometry {
  const g: KvGeometry = { fullLayers: 0, fullElemsPerToken: 0, sliding: [], mlaLayers: 0, mlaElemsPerToken: 0, indexerBytesPerToken: 0, linearLayers: 0, linearStateBytesPerSeq: 0, compressed: [] };
  for (const layer of layers) {
    switch (layer.kind) {
      case "full":
        g.fullLayers += 1;
        g.fullElemsPerToken += kvHeadsPerCard(layer.kvHeads, tp) * (layer.headDimK + layer.headDimV);
        break;
      case "sliding": {
        const elems = kvHeadsPerCard(layer.kvHeads, tp) * (layer.headDimK + layer.headDimV);
        const chunked = layer.chunked === true;
        const group = g.sliding.find((s) => s.windowTokens === layer.windowTokens && s.chunked === chunked);
        if (group) {
          group.layers += 1;
          group.elemsPerToken += elems;
        } else {
          g.sliding.push({ windowTokens: layer.windowTokens, layers: 1, elemsPerToken: elems, chunked });
        }
        break;
      }
      case "mla":
        // One latent tensor (kv_lora_rank + qk_rope_head_dim), no factor 2, whole on every rank.
        g.mlaLayers += 1;
        g.mlaElemsPerToken += layer.latentDim;
        g.indexerBytesPerToken += layer.indexerBytesPerToken ?? 0;
        break;
      case "linear":
        // Mamba / gated-delta states divide over tensor parallel (notes §2.5, pitfall 8).
        g.linearLayers += 1;
        g.linearStateBytesPerSeq += layer.stateBytesPerSeq / Math.max(1, tp);
        break;
      case "compressed-mla": {
        // Replicated on every rank: one latent head, like MLA (vLLM's specs carry num_kv_heads=1 whatever the TP).
        const { compressRatio, windowTokens, headDim, indexerHeadDim } = layer;
        const group = g.compressed.find((c) => c.compressRatio === compressRatio && c.windowTokens === windowTokens && c.headDim === headDim && c.indexerHeadDim === indexerHeadDim);
        if (group) group.layers += 1;
        else g.compressed.push({ compressRatio, windowTokens, headDim, indexerHeadDim, layers: 1 });
        break;
      }
      case "none":
        break;
    }
  }
  return g;
}

/**
 * Bytes of one KV element. vLLM and SGLang: "auto" is the model's dtype (an
 * fp32 run doubles the cache: calibration llama-3.1-8b fp32), fp8 one byte.
 * llama.cpp: f16 2 bytes; q8_0 34 bytes per 32 and q4_0 18 per 32 (ggml block
 * sizes; calibration: q8_0 is exactly 34/64 of f16). FreeToken: always bf16.
 */
export function kvElementBytes(engine: Engine, kv: KvDtype, modelDtypeBytes: number): number {
  if (engine === "llamacpp") {
    if (kv === "q8_0") return 34 / 32;
    if (kv === "q4_0") return 18 / 32;
    return 2;
  }
  if (engine === "freetoken") return 2;
  return kv === "fp8" ? 1 : modelDtypeBytes;
}

/** Whole-model KV bytes per token of context at TP 1 (full, sliding as full, MLA): the figure people quote. */
export function kvBytesPerToken(layers: readonly LayerCache[], elementBytes: number): number {
  return geometryBytesPerToken(kvGeometry(layers, 1), elementBytes);
}

// ---------------------------------------------------------------------------
// vLLM (V1, 0.19)
// ---------------------------------------------------------------------------

/** vLLM's default KV block: 16 tokens (CacheConfig.block_size on CUDA). */
export const VLLM_BLOCK_TOKENS = 16;

function cdiv(a: number, b: number): number {
  return Math.ceil(a / b);
}

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
  if (g.mlaLayers > 0) most = Math.max(most, (g.mlaElemsPerToken * elementBytes + g.indexerBytesPerToken) / g.mlaLayers);
  for (const s of g.sliding) most = Math.max(most, (s.elemsPerToken / s.layers) * elementBytes);
  return most;
}

/**
 * vLLM's attention block for this card, in tokens: 16, or for a hybrid of
 * attention and state (Mamba, gated delta) layers raised until an attention
 * page holds a layer's state, `16 × cdiv(state, 16 × page per token)`
 * (`Platform._align_hybrid_block_size`, notes §2.5: "Setting attention block
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
export function vllmSequenceBytes(g: KvGeometry, elementBytes: number, contextTokens: number, batchedTokens: number): number {
  if (g.compressed.length > 0) return vllmDsv4SequenceBytes(g, contextTokens, batchedTokens);
  const block = vllmBlockTokens(g, elementBytes);
  const fullBlocks = cdiv(contextTokens, block);
  let elems = (g.fullElemsPerToken + g.mlaElemsPerToken) * fullBlocks * block;
  for (const s of g.sliding) elems += s.elemsPerToken * vllmSlidingBlocks(s, contextTokens, batchedTokens, block) * block;
  // A hybrid model's state layers each take one attention-sized page (the state padded to it).
  const states = block === VLLM_BLOCK_TOKENS ? g.linearStateBytesPerSeq : g.linearLayers * block * attentionBytesPerLayerToken(g, elementBytes);
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

/** Tokens of a compressed (MLA) block: DeepseekSparseSWABackend.get_preferred_block_size returns 256. */
export const VLLM_DSV4_BLOCK_TOKENS = 256;
/** One fp8_ds_mla slot of a 512-wide head: 448 fp8 NoPE + 64 bf16 RoPE (128 B) + 8 B of scales. */
export const VLLM_DSV4_SLOT_BYTES = 584;
/** FlashMLA's page alignment (`alignment=576`): every page is rounded up to a multiple. */
const VLLM_DSV4_PAGE_ALIGN = 576;
/** The window cache's block: "[256//4, head_dim] = [64, head_dim] determines the SWA block size of 64 tokens". */
const VLLM_DSV4_WINDOW_BLOCK_TOKENS = 64;
/** Compressor states are fp32 (CompressorStateCache asserts torch.float32). */
const FP32_BYTES = 4;

function alignedPage(bytes: number): number {
  return Math.ceil(bytes / VLLM_DSV4_PAGE_ALIGN) * VLLM_DSV4_PAGE_ALIGN;
}

/** The indexer's key bytes a compressed entry: fp8 keys + an fp32 scale per 128 ("128 fp8 + 4 fp32 scale = 132", also for its MXFP4 cache). */
function indexerKeyBytes(headDim: number): number {
  return headDim + Math.floor(headDim / 128) * 4;
}

/** Layers of one page size, by spec bucket: the compressed (MLA) specs, or sliding specs of one (block, window). */
interface Dsv4Bucket {
  blockTokens: number;
  windowTokens: number;
  /** Page bytes → layers with that page. */
  pages: Map<number, number>;
}

function addPage(b: Dsv4Bucket, page: number, layers: number): void {
  b.pages.set(page, (b.pages.get(page) ?? 0) + layers);
}

/**
 * The specs vLLM registers for a card's DeepSeek-V4 layers, bucketed as
 * group_and_unify_kv_cache_specs does: every compressed MLAAttentionSpec
 * (main entries, and the indexer's keys on sparse layers) in one bucket of
 * 256-token blocks, the SlidingWindowMLASpecs by (block, window): the window
 * cache (64, 128) on every layer, and the compressor's fp32 states, whose
 * state row is `2 × coff × head_dim` (coff 2 on ratio 4, which overlaps two
 * groups) over blocks of 4 (ratio 4) or 8 tokens and a window of coff × ratio.
 */
function dsv4Buckets(groups: readonly CompressedGroup[]): { mla: Dsv4Bucket; sliding: Dsv4Bucket[] } {
  const mla: Dsv4Bucket = { blockTokens: VLLM_DSV4_BLOCK_TOKENS, windowTokens: 0, pages: new Map() };
  const sliding: Dsv4Bucket[] = [];
  const slidingBucket = (blockTokens: number, windowTokens: number): Dsv4Bucket => {
    let b = sliding.find((x) => x.blockTokens === blockTokens && x.windowTokens === windowTokens);
    if (!b) sliding.push((b = { blockTokens, windowTokens, pages: new Map() }));
    return b;
  };
  for (const c of groups) {
    addPage(slidingBucket(VLLM_DSV4_WINDOW_BLOCK_TOKENS, c.windowTokens), alignedPage(VLLM_DSV4_WINDOW_BLOCK_TOKENS * VLLM_DSV4_SLOT_BYTES), c.layers);
    if (c.compressRatio <= 1) continue;
    const stored = Math.floor(VLLM_DSV4_BLOCK_TOKENS / c.compressRatio);
    addPage(mla, alignedPage(stored * VLLM_DSV4_SLOT_BYTES), c.layers);
    const coff = c.compressRatio === 4 ? 2 : 1;
    const stateBlock = c.compressRatio === 4 ? 4 : 8;
    const states = slidingBucket(stateBlock, coff * c.compressRatio);
    addPage(states, alignedPage(stateBlock * 2 * coff * c.headDim * FP32_BYTES), c.layers);
    if (c.indexerHeadDim > 0) {
      addPage(mla, alignedPage(stored * indexerKeyBytes(c.indexerHeadDim)), c.layers);
      addPage(states, alignedPage(stateBlock * 2 * coff * c.indexerHeadDim * FP32_BYTES), c.layers);
    }
  }
  return { mla, sliding };
}

/** UniformTypeKVCacheSpecs.get_num_layer_tuples: the count of the most common page size. */
function layerTuples(b: Dsv4Bucket): number {
  return Math.max(0, ...b.pages.values());
}

/** kv_cache_utils._approximate_gcd: the tuple count from `lowerBound` up that pads the buckets least (ties: the larger). */
function approximateGcd(values: readonly number[], lowerBound: number): number {
  const most = Math.max(...values);
  let best = Math.max(1, lowerBound);
  let bestPad = Infinity;
  for (let d = Math.max(1, lowerBound); d <= most; d++) {
    const pad = values.reduce((sum, x) => sum + ((d - (x % d)) % d), 0);
    if (pad <= bestPad) {
      bestPad = pad;
      best = d;
    }
  }
  return best;
}

/** How vLLM lays a card's DeepSeek-V4 cache out: the bytes of one shared block, and the blocks one request is admitted with. */
export interface Dsv4Layout {
  /** One block id: `num_layer_tuples × Σ distinct compressed page sizes` (the DeepseekV4 branch of _max_memory_usage_bytes_from_groups). */
  blockBytes: number;
  /** The final groups: the compressed one, then each sliding bucket split into groups of at most `num_layer_tuples` layers. */
  groups: { blockTokens: number; windowTokens: number; count: number }[];
}

const dsv4Layouts = new WeakMap<KvGeometry, Dsv4Layout>();

/**
 * vLLM's grouping of a card's DeepSeek-V4 specs (_get_kv_cache_groups_uniform_groups):
 * the compressed bucket is one group; each sliding bucket is cut into
 * `cdiv(layers, d)` groups, d the approximate gcd of the buckets' tuple counts
 * from the compressed bucket's up; a block id then holds the largest group's
 * tuples of every compressed page size. DeepSeek-V4-Flash: 21/43/21/20 tuples
 * give d = 22, the 43 window layers two groups, blocks of 22 × 47,808 B.
 */
export function vllmDsv4Layout(g: KvGeometry): Dsv4Layout {
  const known = dsv4Layouts.get(g);
  if (known) return known;
  const { mla, sliding } = dsv4Buckets(g.compressed);
  const mlaTuples = layerTuples(mla);
  const d = approximateGcd([mlaTuples, ...sliding.map(layerTuples)], mlaTuples);
  const groups: Dsv4Layout["groups"] = mla.pages.size > 0 ? [{ blockTokens: mla.blockTokens, windowTokens: 0, count: 1 }] : [];
  let tuples = mlaTuples;
  for (const b of sliding) {
    const n = Math.ceil(layerTuples(b) / d);
    groups.push({ blockTokens: b.blockTokens, windowTokens: b.windowTokens, count: n });
    tuples = Math.max(tuples, Math.ceil(layerTuples(b) / n));
  }
  const distinct = [...mla.pages.keys()].reduce((sum, p) => sum + p, 0);
  const layout: Dsv4Layout = { blockBytes: tuples * distinct, groups };
  dsv4Layouts.set(g, layout);
  return layout;
}

/**
 * Blocks one request of `contextTokens` is admitted with
 * (Σ groups max_memory_usage_pages): the compressed group one per 256 tokens
 * of the whole context; each sliding group SlidingWindowSpec's
 * `cdiv(min(window − 1 + max_num_batched_tokens, ctx), block) + 1`, which for
 * the compressor states' 4- and 8-token blocks is most of a request's blocks.
 */
function vllmDsv4BlocksPerRequest(layout: Dsv4Layout, contextTokens: number, batchedTokens: number): number {
  return layout.groups.reduce((n, grp) => {
    const pages = grp.windowTokens === 0
      ? cdiv(contextTokens, grp.blockTokens)
      : cdiv(Math.min(grp.windowTokens - 1 + batchedTokens, contextTokens), grp.blockTokens) + 1;
    return n + grp.count * pages;
  }, 0);
}

/** Bytes a DeepSeek-V4 request of `contextTokens` needs on this card: vLLM's start-up check (blocks × block bytes). */
export function vllmDsv4SequenceBytes(g: KvGeometry, contextTokens: number, batchedTokens: number): number {
  const layout = vllmDsv4Layout(g);
  return layout.blockBytes * vllmDsv4BlocksPerRequest(layout, contextTokens, batchedTokens);
}

/**
 * A DeepSeek-V4 pool: `pool ÷ block bytes` blocks, concurrency blocks ÷
 * blocks a request, and tokens as vLLM's DeepSeek-V4 releases report them
 * ("GPU KV cache size in tokens = max_concurrency * max_model_len").
 */
function vllmDsv4Capacity(g: KvGeometry, poolBytes: number, contextTokens: number, batchedTokens: number): PoolCapacity {
  const layout = vllmDsv4Layout(g);
  const blocks = layout.blockBytes > 0 ? Math.floor(poolBytes / layout.blockBytes) : 0;
  const concurrency = blocks / vllmDsv4BlocksPerRequest(layout, contextTokens, batchedTokens);
  return { tokens: Math.floor(concurrency * contextTokens), concurrency };
}

/**
 * Bytes per token of context the compressed entries and indexer keys cost at
 * steady state, each layer's aligned page over its 256-token block (window
 * and states excluded): DeepSeek-V4-Flash 3,206.25 + 708.75 (indexer) B.
 */
export function compressedBytesPerToken(groups: readonly CompressedGroup[]): { entries: number; indexer: number } {
  let entries = 0;
  let indexer = 0;
  for (const c of groups) {
    if (c.compressRatio <= 1) continue;
    const stored = Math.floor(VLLM_DSV4_BLOCK_TOKENS / c.compressRatio);
    entries += (c.layers * alignedPage(stored * VLLM_DSV4_SLOT_BYTES)) / VLLM_DSV4_BLOCK_TOKENS;
    if (c.indexerHeadDim > 0) indexer += (c.layers * alignedPage(stored * indexerKeyBytes(c.indexerHeadDim))) / VLLM_DSV4_BLOCK_TOKENS;
  }
  return { entries, indexer };
}

// ---------------------------------------------------------------------------
// FreeToken's DeepSeek-V4 cost model
// ---------------------------------------------------------------------------
//
// A port of FlashML-org/FreeToken python/freetoken/kvcache/dsv4_cost_model.py
// @ 3c132c95 (the only stored version of that file; its callers read at
// engine/cache_budget.py @ a2f198c0 and engine/engine.py `_resolve_auto_moe_cache_size`).
// FreeToken keeps DeepSeek-V4's cache in bf16 tiers of its own, not vLLM's
// fp8_ds_mla pages: a window pool on every layer sized to a share of the full
// history, the compressed entries and indexer keys of the full history, fp32
// compress-state rings sized off the window pages, and an int64 full→window map.

/** `_BF16_BYTES = 2` (dsv4_cost_model.py:26 @ 3c132c95): every KV tier is bf16. */
const FT_DSV4_BF16_BYTES = 2;
/** `_FP32_BYTES = 4` (dsv4_cost_model.py:27): the compress-state rings. */
const FT_DSV4_FP32_BYTES = 4;
/** `_INT64_BYTES = 8` (dsv4_cost_model.py:227): the full→window map, one slot per full token. */
const FT_DSV4_INT64_BYTES = 8;
/** `_AUTO_KV_SLACK_BYTES = 2 << 30` (dsv4_cost_model.py:301): "absorbs plan-vs-measured drift (observed ~265MiB)". */
const FT_DSV4_AUTO_KV_SLACK_BYTES = 2 * 2 ** 30;
/**
 * `swa_full_tokens_ratio: float = 0.2` (FreeToken python/freetoken/engine/config.py `EngineConfig`
 * @ 8a0f41d6: "It is the DSV4 window/full ratio directly"): the window pool's share of the full
 * history. server/args.py @ 03fb0438 has no flag for it, so `ft serve` runs at this default.
 */
export const FREETOKEN_DSV4_SWA_RATIO = 0.2;
/** `min(prefill_reach_pages, 8)` (dsv4_cost_model.py `_dsv4_window_floor_pages`): one prefill chunk's reach, capped at 8 pages. */
const FT_DSV4_PREFILL_REACH_PAGES = 8;

/** Python's round(): halves go to the even neighbour (FreeToken rounds its window shares with it). */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** `ring_size_for_ratio` (dsv4_cost_model.py:61-67): compress-state ring slots per window page, 8 at ratio 4, 128 at 128; no other ratio. */
function ftRingSize(ratio: number): number {
  if (ratio === 4) return 8;
  if (ratio === 128) return 128;
  throw new Error(`FreeToken has no compress-state ring for ratio ${ratio} (only 4 / 128)`);
}

/** One DeepSeek-V4 layer as FreeToken's args give it: ratio 0 is a window-only layer. */
interface FtDsv4Layer {
  ratio: number;
  headDim: number;
  indexHeadDim: number;
}

/** `_state_bytes` (dsv4_cost_model.py:78-80): `2·(1 + overlap)·head_dim` fp32, overlap on ratio-4 layers. */
function ftStateBytes(l: FtDsv4Layer): number {
  return 2 * (1 + (l.ratio === 4 ? 1 : 0)) * l.headDim * FT_DSV4_FP32_BYTES;
}

/** `_idx_state_bytes` (dsv4_cost_model.py:83-86): the indexer's ring, `2·2·index_head_dim` fp32. */
function ftIdxStateBytes(l: FtDsv4Layer): number {
  return 2 * 2 * l.indexHeadDim * FT_DSV4_FP32_BYTES;
}

/**
 * FreeToken's view of a card's DeepSeek-V4 layers, and its page: the window,
 * `P = window_size`, which is also the KV page (engine.py `_adjust_dsv4_config`:
 * `override("page_size", P)`), so `--kv-reserve-tokens` is counted in these pages.
 */
export interface FreetokenDsv4Args {
  layers: FtDsv4Layer[];
  pageTokens: number;
}

/**
 * The layers FreeToken prices, from the geometry: ratio 1 (Modelplan's
 * window-only) is FreeToken's 0. Null, with the reason, when FreeToken's
 * model cannot price them: a ratio other than 0/4/128 (ring_size_for_ratio
 * raises) or windows of different lengths (one P for every layer).
 */
export function freetokenDsv4Args(g: KvGeometry): FreetokenDsv4Args | string {
  const windows = new Set(g.compressed.map((c) => c.windowTokens));
  if (windows.size !== 1) return "FreeToken sizes DeepSeek-V4's pages by one window (window_size) for every layer; this config gives several.";
  const layers: FtDsv4Layer[] = [];
  for (const c of g.compressed) {
    const ratio = c.compressRatio <= 1 ? 0 : c.compressRatio;
    if (ratio !== 0 && ratio !== 4 && ratio !== 128) return `FreeToken's DeepSeek-V4 cache knows compress ratios 0, 4 and 128 (ring_size_for_ratio), not ${c.compressRatio}.`;
    for (let i = 0; i < c.layers; i++) layers.push({ ratio, headDim: c.headDim, indexHeadDim: c.indexerHeadDim });
  }
  return { layers, pageTokens: [...windows][0] ?? 0 };
}

/** `dsv4_cache_per_page` (dsv4_cost_model.py:89-118): bytes per page over every tier, the window and rings scaled by `swaRatio`. */
export function freetokenDsv4CachePerPage(a: FreetokenDsv4Args, swaRatio: number): number {
  const P = a.pageTokens;
  let total = 0;
  for (const l of a.layers) {
    const kvB = l.headDim * FT_DSV4_BF16_BYTES;
    total += roundHalfEven(swaRatio * P) * kvB;
    if (l.ratio === 0) continue;
    total += Math.floor(P / l.ratio) * kvB;
    if (l.ratio === 4) {
      total += Math.floor(P / 4) * l.indexHeadDim * FT_DSV4_BF16_BYTES;
      total += roundHalfEven(swaRatio * ftRingSize(4)) * ftIdxStateBytes(l);
    }
    total += roundHalfEven(swaRatio * ftRingSize(l.ratio)) * ftStateBytes(l);
  }
  return total;
}

/** `dsv4_kv_unit_bytes` (dsv4_cost_model.py:121-136): full-tier bytes per full-history token (compressed + indexer + map), ceil. */
export function freetokenDsv4KvUnitBytes(a: FreetokenDsv4Args): number {
  const P = a.pageTokens;
  let perPage = P * FT_DSV4_INT64_BYTES;
  for (const l of a.layers) {
    if (l.ratio === 0) continue;
    perPage += Math.floor(P / l.ratio) * l.headDim * FT_DSV4_BF16_BYTES;
    if (l.ratio === 4) perPage += Math.floor(P / 4) * l.indexHeadDim * FT_DSV4_BF16_BYTES;
  }
  return Math.ceil(perPage / P);
}

/** `dsv4_window_unit_bytes` (dsv4_cost_model.py:139-153): window-tier bytes per window token (window KV + both rings), ceil. */
export function freetokenDsv4WindowUnitBytes(a: FreetokenDsv4Args): number {
  const P = a.pageTokens;
  let perPage = 0;
  for (const l of a.layers) {
    perPage += P * l.headDim * FT_DSV4_BF16_BYTES;
    if (l.ratio === 0) continue;
    perPage += ftRingSize(l.ratio) * ftStateBytes(l);
    if (l.ratio === 4) perPage += ftRingSize(4) * ftIdxStateBytes(l);
  }
  return Math.ceil(perPage / P);
}

/**
 * `dsv4_pool_sizes` + `dsv4_pool_bytes` (dsv4_cost_model.py:178-248): the
 * exact bytes of a pool of `numPages` physical pages with `winPages` window
 * pages (capped at `numPages`), `nScratch` scratch rows a compressed or
 * indexer tier, one ring scratch row and one map sentinel.
 */
export function freetokenDsv4PoolBytes(a: FreetokenDsv4Args, numPages: number, winPages: number, nScratch: number): number {
  const P = a.pageTokens;
  const fullToken = numPages * P;
  const nWinPages = Math.min(winPages, numPages);
  let total = a.layers.reduce((s, l) => s + nWinPages * P * l.headDim * FT_DSV4_BF16_BYTES, 0);
  total += (fullToken + 1) * FT_DSV4_INT64_BYTES;
  for (const l of a.layers) {
    if (l.ratio === 0) continue;
    total += (Math.floor(fullToken / l.ratio) + nScratch) * l.headDim * FT_DSV4_BF16_BYTES;
    total += (nWinPages * ftRingSize(l.ratio) + 1) * ftStateBytes(l);
    if (l.ratio === 4) {
      total += (Math.floor(fullToken / 4) + nScratch) * l.indexHeadDim * FT_DSV4_BF16_BYTES;
      total += (nWinPages * ftRingSize(4) + 1) * ftIdxStateBytes(l);
    }
  }
  return total;
}

/**
 * `_dsv4_window_floor_pages` (dsv4_cost_model.py @ 3c132c95): the window
 * pages the pool always keeps: `dsv4_required_swa_pages(min(reach, 8)·P)`
 * + the dummy, where required = `2(R + 1) + 3R (radix) + 1 + 2·chunk pages`.
 * DeepSeek-V4's cache type is rewritten to swa_radix, so the radix term counts.
 */
export function freetokenDsv4WindowFloorPages(a: FreetokenDsv4Args, maxSeqLen: number, running: number): number {
  const reach = Math.min(Math.ceil(maxSeqLen / a.pageTokens), FT_DSV4_PREFILL_REACH_PAGES);
  const reserved = 2 * (running + 1) + 3 * running + 1;
  return reserved + 2 * reach + 1;
}

/** `_dsv4_pool_sizes`' window (ratio × full, rounded up to pages, at least the floor). */
function ftWindowPages(a: FreetokenDsv4Args, numPages: number, floorPages: number, swaRatio: number): number {
  const P = a.pageTokens;
  return Math.max(floorPages, Math.ceil(roundHalfEven(swaRatio * numPages * P) / P));
}

/** What FreeToken's MoE-first planner charges for DeepSeek-V4's KV (`dsv4_auto_cost_model`). */
export interface FreetokenDsv4Cost {
  /** cache_per_page: every tier's marginal bytes per page plus the map. */
  perPageBytes: number;
  /** fixed_cache_size: the minimal pool's bytes past its pages' marginal cost. */
  fixedBytes: number;
  /** min_reserve_tokens: the window floor plus 2 GiB of slack, in tokens. */
  minReserveTokens: number;
  pageTokens: number;
}

/** `dsv4_auto_cost_model` (dsv4_cost_model.py:304-338), ratio sizing, `n_scratch = max_running_req + 1` (DSV4PagedKVCache.kv_cost). */
export function freetokenDsv4Cost(a: FreetokenDsv4Args, maxSeqLen: number, running: number, swaRatio = FREETOKEN_DSV4_SWA_RATIO): FreetokenDsv4Cost {
  const P = a.pageTokens;
  const floor = freetokenDsv4WindowFloorPages(a, maxSeqLen, running);
  const perPageBytes = freetokenDsv4CachePerPage(a, swaRatio) + P * FT_DSV4_INT64_BYTES;
  const n0 = Math.max(floor, 2);
  const base = freetokenDsv4PoolBytes(a, n0, ftWindowPages(a, n0, floor, swaRatio), running + 1);
  const slackPages = Math.ceil(FT_DSV4_AUTO_KV_SLACK_BYTES / perPageBytes);
  return { perPageBytes, fixedBytes: Math.max(0, base - n0 * perPageBytes), minReserveTokens: (n0 + slackPages) * P, pageTokens: P };
}

/**
 * The KV FreeToken reserves for DeepSeek-V4 with `--kv-reserve-tokens`
 * `reserveTokens`: `max(kv_reserve_tokens, min_reserve)` rounded up to pages
 * (engine.py `_resolve_auto_moe_cache_size`, cache_budget.py
 * `resolve_moe_cache_auto`). Bytes are the larger of what the planner
 * charges (`fixed + pages × cache_per_page`) and what the pool then
 * allocates (`dsv4_pool_bytes(_dsv4_pool_sizes(config, pages + 1), R + 1)`,
 * the plan's pages becoming --num-pages); tokens are `pages × P`.
 */
export function freetokenDsv4Reserve(a: FreetokenDsv4Args, reserveTokens: number, maxSeqLen: number, running: number): { bytes: number; tokens: number; pages: number; cost: FreetokenDsv4Cost } {
  const cost = freetokenDsv4Cost(a, maxSeqLen, running);
  const pages = Math.ceil(Math.max(reserveTokens, cost.minReserveTokens) / cost.pageTokens);
  return { bytes: freetokenDsv4PagesBytes(a, cost, pages, maxSeqLen, running), tokens: pages * cost.pageTokens, pages, cost };
}

/** Bytes of `pages` usable pages: the planner's charge or the allocation, whichever is more. */
export function freetokenDsv4PagesBytes(a: FreetokenDsv4Args, cost: FreetokenDsv4Cost, pages: number, maxSeqLen: number, running: number): number {
  const floor = freetokenDsv4WindowFloorPages(a, maxSeqLen, running);
  const allocated = freetokenDsv4PoolBytes(a, pages + 1, ftWindowPages(a, pages + 1, floor, FREETOKEN_DSV4_SWA_RATIO), running + 1);
  return Math.max(cost.fixedBytes + pages * cost.perPageBytes, allocated);
}

/** What a KV pool holds: vLLM's "GPU KV cache size: N tokens" and "Maximum concurrency for C tokens per request: X". */
export interface PoolCapacity {
  tokens: number;
  concurrency: number;
}

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
export function vllmCapacity(g: KvGeometry, elementBytes: number, poolBytes: number, contextTokens: number, batchedTokens: number): PoolCapacity {
  if (poolBytes <= 0) return { tokens: 0, concurrency: 0 };
  if (g.compressed.length > 0) return vllmDsv4Capacity(g, poolBytes, contextTokens, batchedTokens);
  const block = vllmBlockTokens(g, elementBytes);
  const kinds: { layers: number; bytesPerLayer: number; blocksPerRequest: number }[] = [];
  const fullBlocks = cdiv(contextTokens, block);
  if (g.fullLayers > 0) kinds.push({ layers: g.fullLayers, bytesPerLayer: (g.fullElemsPerToken / g.fullLayers) * elementBytes, blocksPerRequest: fullBlocks });
  if (g.mlaLayers > 0) {
    const perLayer = (g.mlaElemsPerToken * elementBytes + g.indexerBytesPerToken) / g.mlaLayers;
    kinds.push({ layers: g.mlaLayers, bytesPerLayer: perLayer, blocksPerRequest: fullBlocks });
  }
  for (const s of g.sliding) {
    kinds.push({ layers: s.layers, bytesPerLayer: (s.elemsPerToken / s.layers) * elementBytes, blocksPerRequest: vllmSlidingBlocks(s, contextTokens, batchedTokens, block) });
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
// ---------------------------------------------------------------------------

/**
 * SGLang's sliding layers: when a model mixes full and sliding layers the
 * sliding pool holds `--swa-full-tokens-ratio` (0.8) of the full pool's
 * tokens (set_num_tokens_hybrid_swa, notes §2.3).
 */
export const SGLANG_SWA_RATIO = 0.8;

/** SGLang's cost of one token of pool on this card (cell_size, with sliding layers at the SWA ratio). */
export function sglangBytesPerToken(g: KvGeometry, elementBytes: number): number {
  const sliding = g.sliding.reduce((s, x) => s + x.elemsPerToken, 0);
  const slidingShare = g.fullLayers + g.mlaLayers > 0 ? SGLANG_SWA_RATIO : 1;
  return (g.fullElemsPerToken + g.mlaElemsPerToken + sliding * slidingShare) * elementBytes + g.indexerBytesPerToken;
}

/**
 * SGLang's pool: `max_total_num_tokens = rest ÷ cell_size`; a hybrid linear
 * model first gives its states `rest × r ÷ (1 + r)` (r = 0.9,
 * --mamba-full-memory-ratio) and caps running requests by them (notes §2.5).
 */
export function sglangCapacity(g: KvGeometry, elementBytes: number, poolBytes: number, contextTokens: number): PoolCapacity {
  if (poolBytes <= 0) return { tokens: 0, concurrency: 0 };
  const perToken = sglangBytesPerToken(g, elementBytes);
  if (g.linearLayers > 0) {
    const ratio = 0.9;
    const stateBytes = (poolBytes * ratio) / (1 + ratio);
    const kvBytes = poolBytes - stateBytes;
    const tokens = perToken > 0 ? Math.floor(kvBytes / perToken) : 0;
    const states = g.linearStateBytesPerSeq > 0 ? Math.floor(stateBytes / g.linearStateBytesPerSeq) : Infinity;
    const byTokens = perToken > 0 ? tokens / contextTokens : Infinity;
    return { tokens, concurrency: Math.min(byTokens, states) };
  }
  const tokens = perToken > 0 ? Math.floor(poolBytes / perToken) : 0;
  return { tokens, concurrency: tokens / contextTokens };
}

/** What one sequence of `contextTokens` needs of SGLang's pool on this card. */
export function sglangSequenceBytes(g: KvGeometry, elementBytes: number, contextTokens: number): number {
  return sglangBytesPerToken(g, elementBytes) * contextTokens + g.linearStateBytesPerSeq;
}

// ---------------------------------------------------------------------------
// llama.cpp
// ---------------------------------------------------------------------------

/** llama.cpp pads the cache's cells to 256 (llama_kv_cache: `GGML_PAD(n_ctx, 256)`, builds b6000+). */
export const LLAMACPP_KV_PAD = 256;

function pad(n: number, to: number): number {
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

/** A card's KV bytes per token of context in the engine's own layout, sliding layers counted whole: what logs divide by. */
export function geometryBytesPerToken(g: KvGeometry, elementBytes: number): number {
  const sliding = g.sliding.reduce((s, x) => s + x.elemsPerToken, 0);
  // DeepSeek-V4's entries are vLLM's fixed fp8_ds_mla layout, whatever the element size.
  const compressed = compressedBytesPerToken(g.compressed);
  return (g.fullElemsPerToken + g.mlaElemsPerToken + sliding) * elementBytes + g.indexerBytesPerToken + compressed.entries + compressed.indexer;
}
