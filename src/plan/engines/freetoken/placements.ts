/**
 * Where FreeToken runs: one card of compute capability 8.0 or more, the experts in host RAM, for its
 * known-good models only.
 */
import { FREETOKEN_FLOOR_EXPERT_LAYERS } from "./capacity.ts";
import { freetokenDsv4Args } from "./dsv4.ts";
import { kvGeometry } from "../../kv.ts";
import type { EnumContext, Enumerated, Layout, Part, PoolNode } from "../../layout.ts";
import { basePlacement, layoutId } from "../../placement.ts";
import { hostShare, singleNodeHosts } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { Artifact } from "../../types.ts";
import { weightParts } from "../../weights.ts";

/**
 * FreeToken's known-good checkpoints (FlashML-org/FreeToken docs/models.md,
 * v0.1.2, docs/notes/architectures.md §0): it is offered for these only.
 */
const FREETOKEN_MODELS = [
  /^deepseek-v4-flash-0731$/i,
  /^glm-5\.2-nvfp4$/i,
  /^glm-4\.7(-nvfp4)?$/i,
  /^qwen3\.[56]-35b-a3b(-fp8|-nvfp4)?$/i,
  /^qwen3\.6-27b$/i,
  /^qwen3-30b-a3b$/i,
  /^gpt-oss-(20b|120b)$/i,
  /^gemma-4-26b-a4b(-it)?$/i,
  /^gemma-4-12b(-it)?$/i,
  /^gemma-4-31b(-it)?-nvfp4$/i,
  /^minimax-m2\.5-nvfp4$/i,
  /^minimax-m3-nvfp4$/i,
  /^muse-glimmer-30b$/i,
];

/** FreeToken needs compute capability 8.0 or higher (Ampere+: its JIT kernels, docs/notes/architectures.md §3). */
export const FREETOKEN_MIN_COMPUTE_CAPABILITY = 8.0;

export function freetokenOptions(a: Artifact, c: EnumContext, out: Enumerated): void {
  const shape = c.shape;
  if (!shape.moe || a.expertBytes <= 0) return;
  const name = c.repo.split("/").pop() ?? c.repo;
  if (!FREETOKEN_MODELS.some((re) => re.test(name))) return;
  const wp = weightParts(shape, a);
  const kv = kvGeometry(shape.layerCaches, 1);
  const dsv4 = kv.compressed.length > 0 ? freetokenDsv4Args(kv) : null;
  if (typeof dsv4 === "string") {
    out.refused.push({ artifact: a.name, engine: "freetoken", where: "any", reason: dsv4 });
    return;
  }
  for (const pool of c.pools) {
    if (pool.memoryBytes === null || pool.computeCapability < FREETOKEN_MIN_COMPUTE_CAPABILITY) continue;
    // Only for a model larger than its card: otherwise vLLM or SGLang serve it whole, faster.
    if (a.bytes <= pool.memoryBytes) continue;
    let node: PoolNode | null = null;
    for (const nodes of pool.fabrics.values())
      for (const n of nodes) if (!node || n.hostMemBytes > node.hostMemBytes) node = n;
    if (!node) continue;
    const placement = basePlacement(pool.gpuClass, "", 1, 1, 1, 1, false, [node.id]);
    const nonExpert = a.bytes - wp.expertLayerBytes * wp.moeLayers;
    // On the card: everything but the experts, plus an expert cache of at least two layers' worth (plan_cache_budget floor).
    const part: Part = {
      gpuClass: pool.gpuClass,
      cards: 1,
      role: "",
      physicalBytes: pool.memoryBytes,
      bodyBytes: nonExpert + FREETOKEN_FLOOR_EXPERT_LAYERS * wp.expertLayerBytes,
      embedBytes: 0,
      tensorParallel: 1,
      pipelineParallel: 1,
      holdsOutput: true,
      kv,
    };
    const { hosts, freeNow, freeMemBytes, replicas, replicasFreeNow } = singleNodeHosts(pool, 1);
    const layout: Layout = {
      id: layoutId(a, "freetoken", placement, "experts-in-ram"),
      artifact: a,
      engine: "freetoken",
      placement,
      bitsPerWeight: bitsOf(a),
      parts: [part],
      host: hostShare("freetoken", c, node, 0),
      hosts,
      freeNow,
      freeMemBytes,
      cardsShort: 0,
      replicas,
      replicasFreeNow,
      dataParallel: 1,
    };
    const why = c.problem(layout);
    if (why === null) out.layouts.push(layout);
    else out.refused.push({ artifact: a.name, engine: "freetoken", where: `1 × ${pool.gpuClass} + RAM`, reason: why });
  }
}
