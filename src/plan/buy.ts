/**
 * What to buy: for an option that does not fit the cluster, or starts but does
 * not hold the workload, the smallest changes that would make it: the cards a
 * pipeline across more nodes lacks, a wider layout of the cards there are, or
 * more replicas of this one; RAM or a fabric for an option that lacks only that (`lacks`). Other card
 * classes: buyAcross.ts (the full plan only).
 */
import { cardsPerReplica, placementLabel } from "./placement.ts";
import type { ClusterLack, PlanOption, PurchaseChange, Workload } from "./types.ts";

function cardsOf(o: PlanOption): number {
  return cardsPerReplica(o.placement);
}

function groupOf(o: PlanOption): string {
  return `${o.artifact}|${o.engine}|${o.placement.gpuClass}`;
}

function sequencesWord(n: number): string {
  return n >= 10 ? String(Math.floor(n)) : n.toFixed(1);
}

/** "a and b", "a, b and c": node ids as a sentence names them. */
function andList(ids: readonly string[]): string {
  return ids.length <= 2 ? ids.join(" and ") : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1] ?? ""}`;
}

/** The change that is not a card: RAM on the node for what llama.cpp keeps there, or a fabric for a pipeline's nodes. */
function lackChange(o: PlanOption, lack: ClusterLack): PurchaseChange {
  const p = o.placement;
  if (lack.kind === "fabric") {
    const nodes = andList(lack.nodeIds);
    if (o.engine === "llamacpp") {
      const [head, ...workers] = lack.nodeIds;
      return {
        change: `name a fabric for ${nodes}, and llama.cpp over RPC across them runs it (rpc-server on ${andList(workers)}, llama-server --rpc on ${head ?? "the head"})`,
        cardsAdded: 0,
        gpuClass: "",
      };
    }
    return {
      change: `name a fabric for ${nodes}, and PP ${p.pipelineParallel} × TP ${p.tensorParallel} across them (${p.gpusPerNode} ${p.gpuClass} each) runs it`,
      cardsAdded: 0,
      gpuClass: "",
    };
  }
  const flag = p.cpuMoeLayers > 0 ? `--n-cpu-moe ${p.cpuMoeLayers}` : `-ngl ${p.gpuLayers}`;
  return {
    change: p.cpu
      ? `+${lack.moreGib} GiB of RAM on node ${lack.nodeId} runs it on the CPU`
      : `+${lack.moreGib} GiB of RAM on node ${lack.nodeId} lets \`${flag}\` run it`,
    cardsAdded: 0,
    gpuClass: "",
  };
}

/** Each option's `whatToBuy`, from the plan's own options (ranked: the first that meets the workload is the fewest cards). */
export function withPurchases(options: readonly PlanOption[], w: Workload): void {
  const sequences = Math.max(1, w.sequences);
  // The layouts that meet the workload, by group: made only when an option starts but falls short
  // (the slider runs this on every move, and at one sequence none does).
  let meeting: Map<string, PlanOption> | null = null;
  const meetingOf = (): Map<string, PlanOption> => {
    if (meeting) return meeting;
    const made = new Map<string, PlanOption>();
    for (const o of options) {
      if (!o.fitsWorkload) continue;
      const known = made.get(groupOf(o));
      if (!known || cardsOf(o) < cardsOf(known)) made.set(groupOf(o), o);
    }
    meeting = made;
    return made;
  };
  for (const o of options) {
    const buys: PurchaseChange[] = [];
    const p = o.placement;
    if (o.lacks) {
      buys.push(lackChange(o, o.lacks));
    } else if (o.moreCardsNeeded > 0 && p.nodes > 1 && p.fabric === "") {
      // Fabric-less nodes no node's worth of cards holds (placements.ts moreNodesOnOneFabric): new nodes, and one fabric.
      const newNodes = o.moreCardsNeeded / p.gpusPerNode;
      const have = (p.nodeIds ?? []).slice(0, p.nodes - newNodes).join(" and ");
      buys.push({
        change: `+${o.moreCardsNeeded} ${p.gpuClass} as ${newNodes} more node${newNodes === 1 ? "" : "s"} of ${p.gpusPerNode}, on one fabric with ${have}: PP ${p.pipelineParallel} × TP ${p.tensorParallel} over ${p.nodes} nodes runs it`,
        cardsAdded: o.moreCardsNeeded,
        gpuClass: p.gpuClass,
      });
    } else if (o.moreCardsNeeded > 0) {
      const head = p.nodes === 1 ? p.nodeIds?.[0] : undefined;
      const onNode = head !== undefined ? ` on node ${head}` : "";
      buys.push({
        change: `+${o.moreCardsNeeded} ${p.gpuClass}${onNode}: ${placementLabel(p)}`,
        cardsAdded: o.moreCardsNeeded,
        gpuClass: p.gpuClass,
      });
    } else if (o.fits && o.fitsWorkload === false) {
      const other = meetingOf().get(groupOf(o));
      if (other && other !== o) {
        buys.push({
          change: `nothing: ${placementLabel(other.placement)} on the cards there are holds ${sequencesWord(other.maxConcurrency)} of the ${sequences} sequences`,
          cardsAdded: 0,
          gpuClass: "",
        });
      }
      if (o.maxConcurrency > 0 && !p.cpu) {
        const copies = Math.ceil(sequences / o.maxConcurrency);
        // Only the copies the cluster cannot hold already need cards: 7 copies of a one-card layout on 16 cards need none.
        const held = o.replicas ?? 0;
        const added = Math.max(0, copies - held) * cardsOf(o);
        const each = `each holding ${sequencesWord(o.maxConcurrency)} sequences`;
        buys.push({
          change:
            added === 0
              ? `nothing: ${copies} replicas of this layout on the cards there are (they hold ${held}), ${each}`
              : `+${added} ${p.gpuClass} for ${copies} replicas of this layout (the cluster holds ${held}), ${each}`,
          cardsAdded: added,
          gpuClass: added === 0 ? "" : p.gpuClass,
        });
      }
    }
    o.whatToBuy = buys;
  }
}
