/**
 * The trade-off chart's rows (issue 13): per artifact, each layout that fits as a point of cards
 * against the engine's throughput at the workload, and which points are on the Pareto front (no
 * other layout gives as much throughput or more on as few cards or fewer, and strictly more of one).
 */
import { cardsPerReplica, paretoFront, type PlanOption } from "../plan/index.ts";
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

export function paretoPoints(options: readonly PlanOption[], artifact: string): ParetoPoint[] {
  const points = options
    .filter((o) => o.artifact === artifact && o.fits && !o.placement.cpu && typeof o.speed?.throughputTps === "number")
    .map((o) => ({
      id: o.id,
      label: `${engineName(o.engine)} · ${layoutName(o)}`,
      cards: cardsPerReplica(o.placement),
      throughputTps: o.speed?.throughputTps ?? 0,
      front: false,
    }));
  // The front is the engine's arithmetic (placement.ts); the chart only draws it.
  paretoFront(points).forEach((front, i) => {
    const p = points[i];
    if (p) p.front = front;
  });
  return points;
}
