import { cardMemoryBytes } from "../plan/index.ts";
import type { Cluster } from "../plan/types.ts";

/** An H100's 81,559 MiB (cards.ts): the card the engine defaults are shown for when the cluster has none. */
const FALLBACK_CARD = "h100-80g";

/**
 * The largest card the cluster has, as it reports its memory: engines pick
 * some defaults by card size (vLLM's scheduler limits, SGLang's reserve), and
 * the settings disclosure shows the defaults for that card.
 */
export function largestCardBytes(cluster: Cluster): number {
  let largest = 0;
  for (const node of cluster.nodes) {
    for (const d of node.devices) largest = Math.max(largest, cardMemoryBytes(d.class, d.memGib) ?? 0);
  }
  return largest > 0 ? largest : (cardMemoryBytes(FALLBACK_CARD) ?? 0);
}
