/**
 * What to buy across card classes: for an artifact × engine that nothing on the cluster runs at the
 * workload, the fewest cards of each catalog class that would (one node of up to eight, the width
 * nodes are sold in). Each candidate is planned by the engine's own enumeration on a cluster of that one
 * node, so it is exactly what the plan would then list. Bounded: the first MAX_GROUPS groups in rank
 * order, one enumeration per class; only the full plan runs it (the slider keeps same-class changes,
 * and the page plans afresh once the thumb rests).
 */
import { CARDS, isMigClass } from "./cards.ts";
import { enumerate } from "./enumerate.ts";
import { evaluate } from "./evaluate.ts";
import type { EvalContext } from "./layout.ts";
import { cardsPerReplica, placementLabel } from "./placement.ts";
import { pricePerCardHour } from "./prices.ts";
import type { Cluster, ClusterNode, Engine, PlanInput, PlanOption, PurchaseChange, Workload } from "./types.ts";
import { engineRunsOn } from "./unifiedMemory.ts";

/** Groups searched at most: a repository of 30 quants on a small cluster stays within a few milliseconds each. */
const MAX_GROUPS = 4;
/** The widest node a purchase is sized as. */
const NODE_WIDTH = 8;
/** Changes kept per option, smallest first. */
const KEEP = 4;

function groupKey(o: PlanOption): string {
  return `${o.artifact}|${o.engine}`;
}

/** The fewest-card option of `engine` meeting the workload among a plan of `input` on `cluster`. */
function smallestMeeting(
  input: PlanInput,
  cluster: Cluster,
  w: Workload,
  engine: Engine,
  ctx: EvalContext,
): PlanOption | null {
  // Fewest cards first, and the first that meets the workload is the answer: most layouts are never evaluated.
  const layouts = enumerate(input, cluster, w, engine)
    .layouts.filter((l) => l.cardsShort === 0 && !l.placement.cpu)
    .sort((x, y) => cardsPerReplica(x.placement) - cardsPerReplica(y.placement));
  for (const l of layouts) {
    const o = evaluate(l, ctx, w);
    if (o.fitsWorkload === true) return o;
  }
  return null;
}

/** The node of the cluster with the most cards of a class, and how many. */
function richestNode(cluster: Cluster, gpuClass: string): { id: string; count: number } | null {
  let best: { id: string; count: number } | null = null;
  for (const n of cluster.nodes)
    for (const d of n.devices)
      if (d.class === gpuClass && (!best || d.count > best.count)) best = { id: n.id, count: d.count };
  return best;
}

/** The catalog, most memory a card first: bigger cards answer with fewer, and bound the search for the rest. */
const BY_MEMORY = [...CARDS].sort((x, y) => y.memoryBytes - x.memoryBytes);

/** The most cards among the KEEP fewest found so far. */
function worstKept(found: readonly PurchaseChange[]): number {
  return [...found].sort((x, y) => x.cardsAdded - y.cardsAdded)[KEEP - 1]?.cardsAdded ?? Infinity;
}

function priceOf(c: PurchaseChange, w: Workload): number {
  return c.gpuClass === "" ? 0 : c.cardsAdded * (pricePerCardHour(c.gpuClass, w.pricesPerCardHour) ?? Infinity);
}

/** Adds the cross-class changes to the options of every group nothing runs at the workload. */
export function withPurchasesAcross(input: PlanInput, cluster: Cluster, w: Workload, options: PlanOption[]): void {
  // Most plans have every group met: say so without a key per option.
  if (options.every((o) => o.fitsWorkload === true)) return;
  const meeting = new Set(options.filter((o) => o.fitsWorkload === true).map(groupKey));
  const groups: string[] = [];
  for (const o of options) {
    const k = groupKey(o);
    if (!meeting.has(k) && !groups.includes(k) && o.engine !== "freetoken") groups.push(k);
    if (groups.length >= MAX_GROUPS) break;
  }
  if (groups.length === 0) return;
  const ctx: EvalContext = { repo: input.repo, revision: input.revision, shape: input.shape };
  for (const key of groups) {
    const sample = options.find((o) => groupKey(o) === key);
    const artifact = input.artifacts.find((a) => a.name === sample?.artifact);
    if (!sample || !artifact) continue;
    const one: PlanInput = { ...input, artifacts: [artifact] };
    const found: PurchaseChange[] = [];
    const own = new Set(cluster.nodes.flatMap((n) => n.devices.map((d) => d.class)));
    for (const card of BY_MEMORY) {
      if (isMigClass(card.class) || !engineRunsOn(card.class, sample.engine)) continue;
      // The weights alone need this many of them: past a node, or past the KEEP smallest changes found
      // on bigger cards, not worth an enumeration.
      const floor = Math.ceil(artifact.bytes / card.memoryBytes);
      if (floor > NODE_WIDTH) continue;
      if (found.length >= KEEP && floor - (richestNode(cluster, card.class)?.count ?? 0) > worstKept(found)) continue;
      const node: ClusterNode = {
        id: "new",
        fabric: "",
        hostMemGib: Math.max(...cluster.nodes.map((n) => n.hostMemGib), 0),
        hostFreeGib: Math.max(...cluster.nodes.map((n) => n.hostFreeGib), 0),
        devices: [{ class: card.class, count: NODE_WIDTH, free: NODE_WIDTH }],
      };
      const o = smallestMeeting(one, { nodes: [node] }, w, sample.engine, ctx);
      if (!o) continue;
      const need = cardsPerReplica(o.placement);
      const have = richestNode(cluster, card.class);
      const added = have ? need - have.count : need;
      if (added <= 0) continue;
      found.push({
        change: have
          ? `+${added} ${card.class} on node ${have.id}: ${placementLabel(o.placement, o.engine)} runs it`
          : `+${added} ${card.class} (a node of them): ${placementLabel(o.placement, o.engine)} runs it`,
        cardsAdded: added,
        gpuClass: card.class,
      });
    }
    if (found.length === 0) continue;
    for (const o of options) {
      if (groupKey(o) !== key) continue;
      const listed = o.whatToBuy ?? [];
      // A change the option's own list already says (its cards on the node) is not said twice.
      const all = [
        ...listed,
        ...found.filter((f) => !listed.some((b) => b.gpuClass === f.gpuClass && b.cardsAdded === f.cardsAdded)),
      ];
      // Fewest cards added; then cards of a class the cluster has (on a node it has) before a new kind; then the price.
      const mine = (c: PurchaseChange): number => (c.gpuClass === "" || own.has(c.gpuClass) ? 0 : 1);
      all.sort((x, y) => x.cardsAdded - y.cardsAdded || mine(x) - mine(y) || priceOf(x, w) - priceOf(y, w) || 0);
      const kept = all.slice(0, KEEP);
      // The cluster's own cards keep a place: four new nodes of 180-256 GiB cards at +2 each hid "+4 l40s-48g"
      // from a user with 8 L40S (it comes later in the sort, so the list stays smallest first).
      const ownChange = all.find((c) => mine(c) === 0);
      if (ownChange && !kept.includes(ownChange)) kept[KEEP - 1] = ownChange;
      o.whatToBuy = kept;
    }
  }
}
