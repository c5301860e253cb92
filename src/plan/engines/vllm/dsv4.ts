/**
 * DeepSeek-V4's compressed cache as vLLM lays it out (its DeepSeek-V4 specs and grouping), each figure
 * with its source file.
 */
import type { CompressedGroup, KvGeometry, PoolCapacity } from "../../kv.ts";
import { cdiv } from "../../units.ts";

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
    addPage(
      slidingBucket(VLLM_DSV4_WINDOW_BLOCK_TOKENS, c.windowTokens),
      alignedPage(VLLM_DSV4_WINDOW_BLOCK_TOKENS * VLLM_DSV4_SLOT_BYTES),
      c.layers,
    );
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
  const groups: Dsv4Layout["groups"] =
    mla.pages.size > 0 ? [{ blockTokens: mla.blockTokens, windowTokens: 0, count: 1 }] : [];
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
    const pages =
      grp.windowTokens === 0
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
export function vllmDsv4Capacity(
  g: KvGeometry,
  poolBytes: number,
  contextTokens: number,
  batchedTokens: number,
): PoolCapacity {
  const layout = vllmDsv4Layout(g);
  const blocks = layout.blockBytes > 0 ? Math.floor(poolBytes / layout.blockBytes) : 0;
  const concurrency = blocks / vllmDsv4BlocksPerRequest(layout, contextTokens, batchedTokens);
  return { tokens: Math.floor(concurrency * contextTokens), concurrency };
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
    if (c.indexerHeadDim > 0)
      indexer += (c.layers * alignedPage(stored * indexerKeyBytes(c.indexerHeadDim))) / VLLM_DSV4_BLOCK_TOKENS;
  }
  return { entries, indexer };
}
