/**
 * What FreeToken's card holds: --memory-ratio of the FREE memory measured once
 * its own CUDA context exists (engine/cache_budget.py net_cache_budget_bytes:
 * int(memory_ratio × baseline_free) − weights − fixed pools; the 1 − ratio
 * remainder is the graphs' and activations' headroom), not of the total: another
 * process on the card shrinks it. The context sits outside it.
 */
import { CUDA_CONTEXT_BYTES, cudaTotalBytes } from "../../cards.ts";
import { cardEval } from "../engine.ts";
import { freetokenDsv4Args, freetokenDsv4Cost, freetokenDsv4Reserve } from "./dsv4.ts";
import { freetokenReserveTokens, freetokenStateSlots } from "./memory.ts";
import { sglangBytesPerToken } from "../sglang/kv.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { resolveSettings } from "../../settings.ts";
import type { Workload } from "../../types.ts";

/** FreeToken allocates bf16 paged KV for every model. */
export const FREETOKEN_KV_ELEMENT_BYTES = 2;

export function freetokenEvalCard(
  layout: Layout,
  part: Part,
  _ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): CardEval {
  const s = resolveSettings(
    "freetoken",
    part.physicalBytes,
    w.settings,
    part.tensorParallel,
    w.sequences,
    part.gpuClass,
  );
  const elem = FREETOKEN_KV_ELEMENT_BYTES;
  const free = Math.min(layout.freeMemBytes ?? Infinity, cudaTotalBytes(part.physicalBytes, part.gpuClass));
  const base = {
    settings: s,
    elementBytes: elem,
    weightsBytes: part.bodyBytes + part.embedBytes,
    usableBytes: s.gpuMemoryUtilization * Math.max(0, free - CUDA_CONTEXT_BYTES) + CUDA_CONTEXT_BYTES,
    engineBytes: CUDA_CONTEXT_BYTES,
    sequences: 1,
    outsideOk: true,
  };
  // --max-running-requests sequences share the KV the command reserves (context × sequences,
  // at least the 8,192-token floor), and size the linear states' slots before any page.
  const running = Math.max(1, w.sequences);
  const dsv4 = part.kv.compressed.length > 0 ? freetokenDsv4Args(part.kv) : null;
  if (dsv4 !== null && typeof dsv4 !== "string") {
    // DeepSeek-V4: FreeToken's own cost model (dsv4.ts), its bf16 tiers and 2 GiB slack, with
    // max_seq_len the context the command passes (--max-seq-len-override).
    return cardEval("freetoken", part, w, contextTokens, {
      ...base,
      kvAt: (c) => freetokenDsv4Reserve(dsv4, freetokenReserveTokens(c, running), c, running).bytes,
      // Past the 2 GiB slack, every page of context is a page more for each running sequence.
      stepTokens: dsv4.pageTokens,
      stepBytes: freetokenDsv4Cost(dsv4, contextTokens, running).perPageBytes * running,
    });
  }
  const states = part.kv.linearStateBytesPerSeq * freetokenStateSlots(running);
  const perToken = sglangBytesPerToken(part.kv, elem);
  return cardEval("freetoken", part, w, contextTokens, {
    ...base,
    kvAt: (c) => perToken * freetokenReserveTokens(c, running) + states,
    stepTokens: 1,
    stepBytes: perToken * running,
  });
}
