/**
 * What FreeToken's KV holds (engine/cache_budget.py plan_cache_budget): the reserve first, experts
 * then, pages with the rest.
 */
import { freetokenDsv4Args, freetokenDsv4Reserve } from "./dsv4.ts";
import { freetokenReserveTokens } from "./memory.ts";
import { sglangBytesPerToken } from "../sglang/kv.ts";
import type { CardEval, Layout, Part } from "../../layout.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Workload } from "../../types.ts";
import { weightParts } from "../../weights.ts";

/**
 * What FreeToken's KV holds (engine/cache_budget.py plan_cache_budget): the
 * reserve first; experts then take what is left, up to all of them (two
 * layers' worth are already on the card, the floor); KV pages get the rest.
 * When the reserve does not fit after the floor, the KV is what remains and
 * FreeToken clamps max_seq_len to it rather than failing.
 */
export function freetokenCapacity(
  layout: Layout,
  part: Part,
  e: CardEval,
  w: Workload,
  shape: ModelShape,
): { tokens: number; concurrency: number } {
  if (part.kv.compressed.length > 0) return freetokenDsv4Capacity(layout, part, e, w, shape);
  const perToken = sglangBytesPerToken(part.kv, e.elementBytes);
  if (perToken <= 0) return { tokens: 0, concurrency: 0 };
  const running = Math.max(1, w.sequences);
  const states = e.needKvBytes - perToken * freetokenReserveTokens(w.contextTokens, running);
  let tokens: number;
  if (e.needKvBytes <= e.poolBytes) {
    const wp = weightParts(shape, layout.artifact);
    const moreExperts = Math.max(0, wp.moeLayers - FREETOKEN_FLOOR_EXPERT_LAYERS) * wp.expertLayerBytes;
    const left = e.poolBytes - e.needKvBytes;
    tokens = freetokenReserveTokens(w.contextTokens, running) + Math.floor(Math.max(0, left - moreExperts) / perToken);
  } else {
    tokens = Math.max(0, Math.floor((e.poolBytes - states) / perToken));
  }
  return { tokens, concurrency: Math.min(running, tokens / Math.max(1, w.contextTokens)) };
}

/**
 * FreeToken's DeepSeek-V4 pages (kv.ts freetokenDsv4Reserve): the reserve's
 * pages, then what experts leave of the pool in more pages of
 * `cache_per_page` (plan_cache_budget: `max(remaining // cache_per_page,
 * kv_reserve_pages)`); short of the reserve, the pages the pool buys.
 */
function freetokenDsv4Capacity(
  layout: Layout,
  part: Part,
  e: CardEval,
  w: Workload,
  shape: ModelShape,
): { tokens: number; concurrency: number } {
  const args = freetokenDsv4Args(part.kv);
  if (typeof args === "string") return { tokens: 0, concurrency: 0 };
  const running = Math.max(1, w.sequences);
  const reserve = freetokenDsv4Reserve(
    args,
    freetokenReserveTokens(w.contextTokens, running),
    w.contextTokens,
    running,
  );
  let pages: number;
  if (reserve.bytes <= e.poolBytes) {
    const wp = weightParts(shape, layout.artifact);
    const moreExperts = Math.max(0, wp.moeLayers - FREETOKEN_FLOOR_EXPERT_LAYERS) * wp.expertLayerBytes;
    pages =
      reserve.pages + Math.floor(Math.max(0, e.poolBytes - reserve.bytes - moreExperts) / reserve.cost.perPageBytes);
  } else {
    pages = Math.max(0, Math.floor((e.poolBytes - reserve.cost.fixedBytes) / reserve.cost.perPageBytes));
  }
  const tokens = pages * args.pageTokens;
  return { tokens, concurrency: Math.min(running, tokens / Math.max(1, w.contextTokens)) };
}

/** FreeToken's expert cache floor: two layers' experts (plan_cache_budget: `2*num_experts` slots with prefill overlap). */
export const FREETOKEN_FLOOR_EXPERT_LAYERS = 2;
