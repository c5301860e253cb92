/**
 * The layouts a plan keeps once evaluated: a pipeline (stages within a node, or over nodes at a width
 * narrower than theirs) is dropped when another layout of the same artifact, engine and card class is
 * at least as good on every axis: no more cards, as much memory headroom (sequences and context) and
 * as fast (decode, throughput), and as able to start. Only pipelines, DP engines over nodes and SGLang's DP
 * attention at dp < tp are pruned: every TP width, EP on/off and one node's data-parallel engine stays, as before,
 * and a layout never prunes its EP twin. Judged once, at the plan's workload; the slider
 * keeps the plan's layouts.
 */
import type { Layout } from "./layout.ts";
import { cardsPerReplica } from "./placement.ts";
import type { PlanOption } from "./types.ts";

/** A pipeline the enumerator adds beyond one node's TP widths (TP × PP in a node, or over nodes), a DP engine over nodes, or DP attention at dp < tp. */
function prunable(o: PlanOption): boolean {
  const p = o.placement;
  if (p.cpu || (o.engine !== "vllm" && o.engine !== "sglang")) return false;
  if (spansDp(o) || dpAttentionSplit(o)) return true;
  if (p.pipelineParallel <= 1) return false;
  return p.nodes <= 1 || (o.moreCardsNeeded === 0 && o.lacks === undefined);
}

/** SGLang DP attention at dp < tp (dpAttention.ts): listed only where no layout of its cards beats it. */
function dpAttentionSplit(o: PlanOption): boolean {
  return o.placement.dpAttention === true && o.placement.tensorParallel > 1;
}

/** One data-parallel engine over several nodes (spanDp.ts). */
function spansDp(o: PlanOption): boolean {
  return o.placement.nodes > 1 && (o.placement.dataParallel ?? 1) > 1;
}

/** The same split of the same cards, one with expert parallel and one without. */
function twins(a: PlanOption, b: PlanOption): boolean {
  const p = a.placement;
  const q = b.placement;
  return (
    p.expertParallel !== q.expertParallel &&
    p.tensorParallel === q.tensorParallel &&
    p.pipelineParallel === q.pipelineParallel &&
    p.nodes === q.nodes &&
    p.gpusPerNode === q.gpusPerNode &&
    (p.dataParallel ?? 1) === (q.dataParallel ?? 1) &&
    p.dpAttention === q.dpAttention
  );
}

function atLeast(x: number | null | undefined, y: number | null | undefined): boolean {
  return (x ?? -Infinity) >= (y ?? -Infinity);
}

/**
 * Whether `b` beats or equals `a` on every axis. A DP engine over nodes never beats another kind of
 * layout: its speed leaves out the experts' all-to-all over the fabric (src/plan/README.md, known gaps).
 */
function noWorse(b: PlanOption, a: PlanOption): boolean {
  if (spansDp(b) && !spansDp(a)) return false;
  // Expert parallel on and off are two choices (issue 13), each with its own bytes and speed: one never prunes the other.
  if (twins(a, b)) return false;
  return (
    cardsPerReplica(b.placement) <= cardsPerReplica(a.placement) &&
    (b.fits || !a.fits) &&
    (b.fitsWorkload === true || a.fitsWorkload !== true) &&
    b.maxConcurrency >= a.maxConcurrency &&
    b.maxContextTokens >= a.maxContextTokens &&
    atLeast(b.speed?.decodeTps, a.speed?.decodeTps) &&
    atLeast(b.speed?.throughputTps, a.speed?.throughputTps)
  );
}

/** The options one pipeline is judged against: its artifact, engine and card class. */
function groupKey(o: PlanOption): string {
  return `${o.artifact}|${o.engine}|${o.placement.gpuClass}`;
}

/** The layouts and options to keep, in the order given. */
export function paretoPrune(layouts: Layout[], options: PlanOption[]): { layouts: Layout[]; options: PlanOption[] } {
  // Only pipelines are dropped, and only by a layout of their own artifact, engine and class: the
  // groups need only those keys (a plan of hundreds of llama.cpp splits has a few pipelines).
  const pipelineKeys = new Set<string>();
  for (const o of options) if (prunable(o)) pipelineKeys.add(groupKey(o));
  if (pipelineKeys.size === 0) return { layouts, options };
  const groups = new Map<string, number[]>();
  for (let i = 0; i < options.length; i++) {
    const o = options[i];
    if (!o || (o.engine !== "vllm" && o.engine !== "sglang")) continue;
    const key = groupKey(o);
    if (!pipelineKeys.has(key)) continue;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const drop = new Set<number>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    for (const i of g) {
      const a = options[i];
      if (!a || !prunable(a)) continue;
      // Beaten by one kept: never by a layout this loop dropped, so two equals keep one.
      if (g.some((j) => j !== i && !drop.has(j) && options[j] !== undefined && noWorse(options[j] as PlanOption, a)))
        drop.add(i);
    }
  }
  if (drop.size === 0) return { layouts, options };
  return {
    layouts: layouts.filter((_, i) => !drop.has(i)),
    options: options.filter((_, i) => !drop.has(i)),
  };
}
