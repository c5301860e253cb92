/**
 * By how much an option misses (the command form): the form checks
 * again that an option still fits after the user changes the context,
 * sequences, utilization or KV dtype, and when it does not, says by how much —
 * as the seed's serve form did for a context longer than planned.
 */
import type { PlanOption, Shortfall } from "./types.ts";
import { GIB } from "./units.ts";

export type { Shortfall } from "./types.ts";

/**
 * Round up to a tenth: telling a user 3.1 when 3.14 is missing sends them to
 * a setting that still fails.
 */
function upToTenth(gib: number): number {
  return Math.ceil(gib * 10 - 1e-9) / 10;
}

/** What an option lacks, from the planner's own need and have for its worst card. */
export function shortfallOf(
  option: Pick<PlanOption, "fits" | "needBytes" | "haveBytes" | "moreCardsNeeded" | "placement" | "engine">,
): Shortfall {
  const missingBytes = option.needBytes - option.haveBytes;
  const moreGib = missingBytes > 0 ? Math.max(0.1, upToTenth(missingBytes / GIB)) : 0;
  const moreCards = Math.max(0, option.moreCardsNeeded);
  if (option.fits) return { fits: true, moreGib: 0, moreCards: 0, words: "fits" };
  const parts: string[] = [];
  if (moreGib > 0)
    parts.push(
      option.placement.cpu ? `needs ${moreGib.toFixed(1)} GiB more RAM` : `needs ${moreGib.toFixed(1)} GiB more a card`,
    );
  if (moreCards > 0) parts.push(`needs ${moreCards} more ${moreCards === 1 ? "card" : "cards"} than the cluster has`);
  if (parts.length === 0) {
    // The budget holds it but the card does not: vLLM keeps its CUDA context
    // and graphs outside --gpu-memory-utilization (docs/calibration-sources.md).
    parts.push(
      option.engine === "vllm"
        ? "does not fit: what vLLM keeps outside its utilization budget (CUDA context, graphs) is more than the card has left; lower --gpu-memory-utilization"
        : "does not fit on the cards as they are",
    );
  }
  return { fits: false, moreGib, moreCards, words: parts.join("; ") };
}
