/** DeepSeek-V4 on FreeToken: a port of its own cost model (kvcache/dsv4_cost_model.py @ 3c132c95). */
import type { KvGeometry } from "../../kv.ts";

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
  if (windows.size !== 1)
    return "FreeToken sizes DeepSeek-V4's pages by one window (window_size) for every layer; this config gives several.";
  const layers: FtDsv4Layer[] = [];
  for (const c of g.compressed) {
    const ratio = c.compressRatio <= 1 ? 0 : c.compressRatio;
    if (ratio !== 0 && ratio !== 4 && ratio !== 128)
      return `FreeToken's DeepSeek-V4 cache knows compress ratios 0, 4 and 128 (ring_size_for_ratio), not ${c.compressRatio}.`;
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
export function freetokenDsv4PoolBytes(
  a: FreetokenDsv4Args,
  numPages: number,
  winPages: number,
  nScratch: number,
): number {
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
export function freetokenDsv4Cost(
  a: FreetokenDsv4Args,
  maxSeqLen: number,
  running: number,
  swaRatio = FREETOKEN_DSV4_SWA_RATIO,
): FreetokenDsv4Cost {
  const P = a.pageTokens;
  const floor = freetokenDsv4WindowFloorPages(a, maxSeqLen, running);
  const perPageBytes = freetokenDsv4CachePerPage(a, swaRatio) + P * FT_DSV4_INT64_BYTES;
  const n0 = Math.max(floor, 2);
  const base = freetokenDsv4PoolBytes(a, n0, ftWindowPages(a, n0, floor, swaRatio), running + 1);
  const slackPages = Math.ceil(FT_DSV4_AUTO_KV_SLACK_BYTES / perPageBytes);
  return {
    perPageBytes,
    fixedBytes: Math.max(0, base - n0 * perPageBytes),
    minReserveTokens: (n0 + slackPages) * P,
    pageTokens: P,
  };
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
export function freetokenDsv4Reserve(
  a: FreetokenDsv4Args,
  reserveTokens: number,
  maxSeqLen: number,
  running: number,
): { bytes: number; tokens: number; pages: number; cost: FreetokenDsv4Cost } {
  const cost = freetokenDsv4Cost(a, maxSeqLen, running);
  const pages = Math.ceil(Math.max(reserveTokens, cost.minReserveTokens) / cost.pageTokens);
  return {
    bytes: freetokenDsv4PagesBytes(a, cost, pages, maxSeqLen, running),
    tokens: pages * cost.pageTokens,
    pages,
    cost,
  };
}

/** Bytes of `pages` usable pages: the planner's charge or the allocation, whichever is more. */
export function freetokenDsv4PagesBytes(
  a: FreetokenDsv4Args,
  cost: FreetokenDsv4Cost,
  pages: number,
  maxSeqLen: number,
  running: number,
): number {
  const floor = freetokenDsv4WindowFloorPages(a, maxSeqLen, running);
  const allocated = freetokenDsv4PoolBytes(
    a,
    pages + 1,
    ftWindowPages(a, pages + 1, floor, FREETOKEN_DSV4_SWA_RATIO),
    running + 1,
  );
  return Math.max(cost.fixedBytes + pages * cost.perPageBytes, allocated);
}
