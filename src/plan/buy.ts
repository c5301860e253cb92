/**
 * What to buy: for an option that does not fit the cluster, or starts but does
 * not hold the workload, the smallest changes that would make it: the cards a
 * pipeline across more nodes lacks, a wider layout of the cards there are, or
 * more replicas of this one. Other card classes and unnamed fabrics: buyAcross.ts (the full plan only).
 */
import { cardsPerReplica, placementLabel } from "./placement.ts";
import type { PlanOption, PurchaseChange, Workload } from "./types.ts";

function cardsOf(o: PlanOption): number {
  return cardsPerReplica(o.placement);
}

function groupOf(o: PlanOption): string {
  return `${o.artifact}|${o.engine}|${o.placement.gpuClass}`;
}

function sequencesWord(n: number): string {
  return n >= 10 ? String(Math.floor(n)) : n.toFixed(1);
}

/** Each option's `whatToBuy`, from the plan's own options (ranked: the first that meets the workload is the fewest cards). */
export function withPurchases(options: readonly PlanOption[], w: Workload): void {
  const sequences = Math.max(1, w.sequences);
  const meeting = new Map<string, PlanOption>();
  // Each option's group once: the slider runs this on every move.
  const groups = options.map(groupOf);
  for (let i = 0; i < options.length; i++) {
    const o = options[i] as PlanOption;
    if (!o.fitsWorkload) continue;
    const g = groups[i] as string;
    const known = meeting.get(g);
    if (!known || cardsOf(o) < cardsOf(known)) meeting.set(g, o);
  }
  for (let i = 0; i < options.length; i++) {
    const o = options[i] as PlanOption;
    const buys: PurchaseChange[] = [];
    const p = o.placement;
    if (o.moreCardsNeeded > 0) {
      buys.push({
        change: `+${o.moreCardsNeeded} ${p.gpuClass}: ${placementLabel(p)}`,
        cardsAdded: o.moreCardsNeeded,
        gpuClass: p.gpuClass,
      });
    } else if (o.fits && o.fitsWorkload === false) {
      const other = meeting.get(groups[i] as string);
      if (other && other !== o) {
        buys.push({
          change: `nothing: ${placementLabel(other.placement)} on the cards there are holds ${sequencesWord(other.maxConcurrency)} of the ${sequences} sequences`,
          cardsAdded: 0,
          gpuClass: "",
        });
      }
      if (o.maxConcurrency > 0 && !p.cpu) {
        const copies = Math.ceil(sequences / o.maxConcurrency);
        const added = (copies - 1) * cardsOf(o);
        buys.push({
          change: `+${added} ${p.gpuClass} for ${copies} replicas of this layout, each holding ${sequencesWord(o.maxConcurrency)} sequences`,
          cardsAdded: added,
          gpuClass: p.gpuClass,
        });
      }
    }
    o.whatToBuy = buys;
  }
}
