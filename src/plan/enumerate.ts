/**
 * Every placement of every artifact, engine by engine, and every configuration turned down with its
 * reason.
 */
import { ENGINE_ORDER, pastModelContext } from "./engines/index.ts";
import { HOST_SHARE } from "./engines/llamacpp/memory.ts";
import { modelContextTokens } from "./engines/pastContext.ts";
import { evalLayout } from "./evaluate.ts";
import {
  type EnumContext,
  type Enumerated,
  type EvalContext,
  fitsEval,
  type Layout,
  type LayoutEval,
  needOf,
} from "./layout.ts";
import { article, gib1 } from "./placement.ts";
import { classPools } from "./pools.ts";
import type { Cluster, Engine, PlanInput, Workload } from "./types.ts";
import { engineRunsOn, unifiedMemoryEngines } from "./unifiedMemory.ts";
import { GIB } from "./units.ts";

/** Why a layout does not fit at the plan's workload, in words (its worst card against what the card offers); null when it fits. */
export function problem(
  layout: Layout,
  c: EvalContext & { workload: Workload },
  seen?: Map<Layout, LayoutEval>,
): string | null {
  // Where the engine refuses a context past the model's, memory is judged at the model's: the longer
  // one is refused in words once (enumerate), not over every width and node count. llama.cpp allocates
  // what it is asked for, past the trained context or not.
  const refused = pastModelContext(layout.engine, c.shape, c.workload.contextTokens)?.runs === false;
  const r = evalLayout(layout, c, c.workload, refused ? modelContextTokens(c.shape) : c.workload.contextTokens);
  for (const e of r.evals) {
    if (!e.outsideOk) {
      return `vLLM's CUDA context, graphs and sampler warm-up need more than the ${gib1(e.load.physicalBytes - e.load.usableBytes)} GiB ${article(e.load.gpuClass)} keeps outside --gpu-memory-utilization`;
    }
    if (!fitsEval(e) && e.load.cpuNode !== undefined)
      return `needs ${gib1(needOf(e))} GiB of ${e.load.cpuNode}'s RAM for its layers; it offers ${gib1(e.load.usableBytes)} after llama.cpp's 1 GiB --fit margin`;
    if (!fitsEval(e))
      return `needs ${gib1(needOf(e))} GiB a card; ${article(e.load.gpuClass)} offers ${gib1(e.load.usableBytes)}`;
  }
  if (r.host && !fitsEval(r.host))
    return `needs ${gib1(needOf(r.host))} GiB of host RAM; the node offers ${gib1(r.host.load.usableBytes)}`;
  // What evaluate() would work out again at the same workload and context, for a layout that is kept (plan.ts).
  if (seen && !refused && c.workload.contextTokens >= 1) seen.set(layout, r);
  return null;
}

/** Every placement of every artifact, and every configuration turned down with its reason. */
export function enumerate(input: PlanInput, cluster: Cluster, workload: Workload, only?: Engine): Enumerated {
  const pools = classPools(cluster);
  const hostUsable = cluster.nodes
    .filter((n) => n.hostMemGib > 0)
    .map((n) => n.hostMemGib * GIB * HOST_SHARE)
    .sort((x, y) => x - y);
  const hostFree = cluster.nodes
    .filter((n) => n.hostMemGib > 0)
    .map((n) => n.hostFreeGib * GIB)
    .sort((x, y) => x - y);
  let roomiest: { id: string; hostMemGib: number } | null = null;
  for (const n of cluster.nodes)
    if (n.hostMemGib > 0 && (!roomiest || n.hostMemGib > roomiest.hostMemGib)) roomiest = n;
  const base = { repo: input.repo, revision: input.revision, shape: input.shape, workload };
  const c: EnumContext = {
    ...base,
    pools,
    allHostUsable: hostUsable,
    allHostFree: hostFree,
    roomiestHostId: roomiest?.id ?? null,
    problem: (layout) => problem(layout, base, seen),
    // Nodes without cards: an RPC worker's rpc-server serves such a host's CPU (llama.cpp targets.ts).
    cpuOnlyNodes: cluster.nodes
      .filter((n) => n.devices.every((d) => d.count <= 0))
      .map((n) => ({
        id: n.id,
        fabric: n.fabric,
        hostMemBytes: n.hostMemGib * GIB,
        hostFreeBytes: n.hostFreeGib * GIB,
      })),
  };
  const seen = new Map<Layout, LayoutEval>();
  const out: Enumerated = { layouts: [], refused: [], evals: seen };
  for (const pool of pools) {
    if (pool.memoryBytes === null) {
      for (const a of input.artifacts) {
        out.refused.push({
          artifact: a.name,
          engine: a.format === "gguf" ? "llamacpp" : "vllm",
          where: pool.gpuClass,
          reason: `the card class "${pool.gpuClass}" is not in the catalog: give its memory (mem_gib) in the cluster`,
        });
      }
    }
  }
  for (const a of input.artifacts) {
    // A layout an engine has no model of (DeepSeek-V4's compressed cache on SGLang and llama.cpp) is said once, whatever the format.
    for (const engine of ENGINE_ORDER) {
      const why = engine.unmodelled(input.shape);
      if (why !== null) out.refused.push({ artifact: a.name, engine: engine.id, where: "any", reason: why });
    }
    for (const engine of ENGINE_ORDER) {
      // What to buy plans one engine on a hypothetical node (buyAcross.ts).
      if (only !== undefined && engine.id !== only) continue;
      const admitted = engine.admits(a, input.shape, workload);
      out.refused.push(...admitted.refusals);
      if (!admitted.places) continue;
      // Each engine sees only the card classes it runs on (vLLM and SGLang not on Apple's Metal or Strix Halo's GTT).
      const runs = pools.filter((p) => engineRunsOn(p.gpuClass, engine.id));
      for (const p of pools) {
        if (!runs.includes(p) && p.memoryBytes !== null)
          out.refused.push({
            artifact: a.name,
            engine: engine.id,
            where: p.gpuClass,
            reason: `${engine.label} does not run on ${p.gpuClass}: ${unifiedMemoryEngines(p.gpuClass)}`,
          });
      }
      engine.placements(a, runs.length === pools.length ? c : { ...c, pools: runs }, out);
    }
  }
  return out;
}
