/**
 * The trade-off chart's rows (issue 13): per artifact, each layout that fits as a point of cards
 * against the engine's throughput at the workload, and which points are on the Pareto front (no
 * other layout gives as much throughput or more on as few cards or fewer, and strictly more of one).
 */
import type { PlanOption } from "../plan/index.ts";
import { engineName } from "./format.ts";
import { layoutName } from "./verdict.ts";

export interface ParetoPoint {
  id: string;
  /** "vLLM · 2 × h100-80g (TP 2)" */
  label: string;
  /** Cards of one replica; the chart's x. */
  cards: number;
  /** The engine's throughput at the workload (speed.throughputTps); the chart's y. */
  throughputTps: number;
  front: boolean;
}

/** Cards one replica takes: on one node its width, across nodes the width on each. */
function cardsOf(option: PlanOption): number {
  return option.placement.cpu ? 0 : option.placement.gpusPerNode * option.placement.nodes;
}

export function paretoPoints(options: readonly PlanOption[], artifact: string): ParetoPoint[] {
  const points = options
    .filter((o) => o.artifact === artifact && o.fits && !o.placement.cpu && typeof o.speed?.throughputTps === "number")
    .map((o) => ({
      id: o.id,
      label: `${engineName(o.engine)} · ${layoutName(o)}`,
      cards: cardsOf(o),
      throughputTps: o.speed?.throughputTps ?? 0,
      front: false,
    }));
  for (const p of points) {
    p.front = !points.some(
      (q) =>
        q !== p &&
        q.cards <= p.cards &&
        q.throughputTps >= p.throughputTps &&
        (q.cards < p.cards || q.throughputTps > p.throughputTps),
    );
  }
  return points;
}
