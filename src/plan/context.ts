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

/** Layouts behind each plan, kept out of its JSON: what `withWorkload` re-evaluates. */
const layoutsOf = new WeakMap<Plan, Layout[]>();

export function rememberLayouts(p: Plan, layouts: Layout[]): void {
  layoutsOf.set(p, layouts);
}

/**
 * The plan for another workload: each option's KV, fits, longest context,
 * pool, concurrency and commands, recomputed from the placements already
 * found. Options keep their ids; they are ranked again, since fitting moves
 * an option up.
 */
export function withWorkload(p: Plan, workload: Workload): Plan {
  const layouts = layoutsOf.get(p);
  // A plan not made here (rebuilt from JSON) has no placements to recompute: plan it afresh.
  if (!layouts) return plan({ repo: p.repo, revision: p.revision, shape: p.shape, artifacts: p.artifacts }, p.cluster, workload);
  const ctx = { repo: p.repo, revision: p.revision, shape: p.shape };
  const options = rank(layouts.map((l) => evaluate(l, ctx, workload)));
  const next: Plan = { ...p, workload, options };
  layoutsOf.set(next, layouts);
  return next;
}
