/**
 * A model planned on a cluster for a workload, and the slider's path: another workload re-evaluates
 * the same layouts without enumerating.
 */
import { withPurchases } from "./buy.ts";
import { withPurchasesAcross } from "./buyAcross.ts";
import { enumerate } from "./enumerate.ts";
import { evaluate } from "./evaluate.ts";
import type { EvalContext, Layout, LayoutEval, Part } from "./layout.ts";
import { type ClusterLinks, clusterLinks } from "./links.ts";
import { paretoPrune } from "./prune.ts";
import { rankInOrder } from "./rank.ts";
import { settingDefaultsOf } from "./settingDefaults.ts";
import type { Cluster, Plan, PlanInput, PlanOption, Workload } from "./types.ts";

/**
 * The layouts behind a plan, on a non-enumerable symbol property: kept out of
 * its JSON and equality, and not a WeakMap entry per slider move (ephemerons
 * cost the collector more than the move itself).
 */
const LAYOUTS = Symbol("layouts");
const LINKS = Symbol("links");
/** The layouts' places (indices into LAYOUTS) in the order the plan's options are ranked. */
const RANKED = Symbol("ranked");

export function rememberLayouts(p: Plan, layouts: Layout[], links: ClusterLinks, ranked: number[]): void {
  Object.defineProperty(p, LAYOUTS, { value: layouts, enumerable: false });
  Object.defineProperty(p, LINKS, { value: links, enumerable: false });
  Object.defineProperty(p, RANKED, { value: ranked, enumerable: false });
}

function layoutsOf(p: Plan): Layout[] | undefined {
  return (p as Plan & { [LAYOUTS]?: Layout[] })[LAYOUTS];
}

function rankedOf(p: Plan): number[] | undefined {
  return (p as Plan & { [RANKED]?: number[] })[RANKED];
}

/** The cluster's wires as the plan read them (read again for a plan not made here). */
function linksOf(p: Plan): ClusterLinks {
  return (p as Plan & { [LINKS]?: ClusterLinks })[LINKS] ?? clusterLinks(p.cluster);
}

export interface WithWorkloadOptions {
  /** Make the commands of these options only (by id): the page's slider shows the selected option's alone. */
  commandsFor?: readonly string[];
}

/**
 * The plan for another workload: each option's KV, fits, longest context,
 * pool, concurrency and commands, recomputed from the placements already
 * found. Options keep their ids; they are ranked again, since fitting moves
 * an option up.
 */
export function withWorkload(p: Plan, workload: Workload, only: WithWorkloadOptions = {}): Plan {
  const layouts = layoutsOf(p);
  // A plan not made here (rebuilt from JSON) has no placements to recompute: plan it afresh.
  const at = p.modelPath !== undefined ? { modelPath: p.modelPath } : {};
  if (!layouts)
    return plan(
      { repo: p.repo, revision: p.revision, ...at, shape: p.shape, artifacts: p.artifacts },
      p.cluster,
      workload,
    );
  const ctx: EvalContext = { repo: p.repo, revision: p.revision, ...at, shape: p.shape, links: linksOf(p) };
  if (only.commandsFor) ctx.commandsFor = new Set(only.commandsFor);
  const shared = new Map<Part[], LayoutEval>();
  // Evaluated in the order they were last ranked (layouts[j] for j of `order`), so the sort runs on nearly sorted input.
  const order = rankedOf(p) ?? layouts.map((_, j) => j);
  const evaluated: PlanOption[] = [];
  for (const j of order) {
    const l = layouts[j];
    if (l) evaluated.push(evaluate(l, ctx, workload, undefined, shared));
  }
  const { options, ties } = rankInOrder(evaluated, workload.rankBy ?? "fewest-cards", order);
  withPurchases(options, workload);
  const { commandsFor: _before, ...rest } = p;
  const next: Plan = { ...rest, workload, options, settingDefaults: settingDefaultsOf(p.cluster, workload.settings) };
  if (only.commandsFor) next.commandsFor = [...only.commandsFor];
  rememberLayouts(next, layouts, ctx.links ?? clusterLinks(p.cluster), ties);
  return next;
}

/**
 * Every way each artifact could run on the cluster, best first, with the
 * configurations turned down and why. `withWorkload` (context.ts) moves the
 * workload afterwards without enumerating again.
 */
export function plan(input: PlanInput, cluster: Cluster, workload: Workload): Plan {
  const enumerated = enumerate(input, cluster, workload);
  const refused = enumerated.refused;
  const links = clusterLinks(cluster);
  const ctx: EvalContext = {
    repo: input.repo,
    revision: input.revision,
    shape: input.shape,
    ...(input.modelPath !== undefined ? { modelPath: input.modelPath } : {}),
    links,
  };
  const kept = paretoPrune(
    enumerated.layouts,
    enumerated.layouts.map((l) => evaluate(l, ctx, workload, enumerated.evals?.get(l))),
  );
  const layouts = kept.layouts;
  const { options, ties } = rankInOrder(kept.options, workload.rankBy ?? "fewest-cards", null);
  withPurchases(options, workload);
  withPurchasesAcross(input, cluster, workload, options);
  const p: Plan = {
    repo: input.repo,
    revision: input.revision,
    ...(input.modelPath !== undefined ? { modelPath: input.modelPath } : {}),
    shape: input.shape,
    artifacts: input.artifacts,
    cluster,
    workload,
    options,
    refused,
    settingDefaults: settingDefaultsOf(cluster, workload.settings),
  };
  rememberLayouts(p, layouts, links, ties);
  return p;
}
