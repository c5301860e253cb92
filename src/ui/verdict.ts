/**
 * The workload as a requirement (issue 13): with more than one sequence asked for, an option that
 * starts but cannot hold them all says so, and names a layout of the plan that does, with that
 * layout's own figure (the engine's maxConcurrency; the page only picks it, in the plan's rank order).
 */
import type { PlanOption } from "../plan/index.ts";
import { formatCount, parallelismLabel, placementLabel } from "./format.ts";

export interface WorkloadVerdict {
  tone: "good" | "warn";
  text: string;
}

export function sequencesHeld(n: number): string {
  return n >= 10 ? formatCount(Math.floor(n)) : n.toFixed(1);
}

/** A short name for a layout: "TP 2" where that tells it apart, else where it runs ("2 × h100-80g"). */
export function layoutName(option: PlanOption): string {
  const split = parallelismLabel(option.placement);
  return split === "" ? placementLabel(option.placement) : `${placementLabel(option.placement)} (${split})`;
}

/**
 * The layout to point at: the first in the plan's order that holds the workload, of the same artifact
 * and engine if there is one, else of any.
 */
export function layoutThatHolds(option: PlanOption, options: readonly PlanOption[]): PlanOption | undefined {
  const holds = (o: PlanOption) => o.id !== option.id && o.fits && o.fitsWorkload === true;
  return (
    options.find((o) => holds(o) && o.artifact === option.artifact && o.engine === option.engine) ?? options.find(holds)
  );
}

/** Null when one sequence is asked for, or the option does not start (its badges say so). */
export function workloadVerdict(
  option: PlanOption,
  sequences: number,
  options: readonly PlanOption[],
): WorkloadVerdict | null {
  if (sequences <= 1 || !option.fits || option.fitsWorkload === undefined) return null;
  if (option.fitsWorkload) return { tone: "good", text: `holds your ${formatCount(sequences)} sequences at once` };
  const other = layoutThatHolds(option, options);
  const tail = other
    ? `; ${layoutName(other)} holds ${sequencesHeld(other.maxConcurrency)}`
    : "; no layout on this cluster holds them all";
  return {
    tone: "warn",
    text: `starts, but holds ${sequencesHeld(option.maxConcurrency)} of your ${formatCount(sequences)} sequences at once${tail}`,
  };
}
