/**
 * The slider's path: another context (or sequences, KV dtype, settings)
 * recomputes every option's loads without enumerating placements again, and
 * the longest context each option holds.
 */
import type { Workload } from "./types.ts";
import { evaluate, plan, type Layout, type Plan } from "./options.ts";
import { rank } from "./rank.ts";

/**
 * The largest context in [1, cap] for which `fits` holds, or 0 when not even
 * one token fits; `fits` must be monotone (a longer context never needs less).
 * Binary search: ~18 probes up to a 256k cap.
 */
export function largestFitting(fits: (contextTokens: number) => boolean, cap: number): number {
  if (cap < 1 || !fits(1)) return 0;
  if (fits(cap)) return cap;
  let lo = 1;
  let hi = cap;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The layouts behind a plan, on a non-enumerable symbol property: kept out of
 * its JSON and equality, and not a WeakMap entry per slider move (ephemerons
 * cost the collector more than the move itself).
 */
const LAYOUTS = Symbol("layouts");

export function rememberLayouts(p: Plan, layouts: Layout[]): void {
  Object.defineProperty(p, LAYOUTS, { value: layouts, enumerable: false });
}

function layoutsOf(p: Plan): Layout[] | undefined {
  return (p as Plan & { [LAYOUTS]?: Layout[] })[LAYOUTS];
}

/**
 * The plan for another workload: each option's KV, fits, longest context,
 * pool, concurrency and commands, recomputed from the placements already
 * found. Options keep their ids; they are ranked again, since fitting moves
 * an option up.
 */
export function withWorkload(p: Plan, workload: Workload): Plan {
  const layouts = layoutsOf(p);
  // A plan not made here (rebuilt from JSON) has no placements to recompute: plan it afresh.
  const at = p.modelPath !== undefined ? { modelPath: p.modelPath } : {};
  if (!layouts) return plan({ repo: p.repo, revision: p.revision, ...at, shape: p.shape, artifacts: p.artifacts }, p.cluster, workload);
  const ctx = { repo: p.repo, revision: p.revision, ...at, shape: p.shape };
  const options = rank(layouts.map((l) => evaluate(l, ctx, workload)));
  const next: Plan = { ...p, workload, options };
  rememberLayouts(next, layouts);
  return next;
}
