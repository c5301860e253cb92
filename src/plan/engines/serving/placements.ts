/**
 * Where vLLM and SGLang run: tensor parallel on one node at every width the heads allow and that fits
 * (with and without expert parallel for a mixture of experts), else pipeline parallel over the nodes
 * of one fabric; a MIG instance alone. How many copies the cluster holds comes with each.
 */
import type { ClassPool, EnumContext, Enumerated, FabricOrder, Layout, PoolNode } from "../../layout.ts";
import { basePlacement, layoutId, tensorParallelProblem, where } from "../../placement.ts";
import { fabricOrder, singleNodeHosts } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { Artifact, Engine } from "../../types.ts";
import { servingParts } from "../../weights.ts";

export function servingOptions(a: Artifact, engine: "vllm" | "sglang", c: EnumContext, out: Enumerated): void {
  const shape = c.shape;
  const moe = (shape.moe?.routedExperts ?? 0) > 1;
  for (const pool of c.pools) {
    if (pool.memoryBytes === null) continue;
    const mem = pool.memoryBytes;
    let placed = false;
    let widest = 0;
    for (let wdt = 1; wdt <= pool.maxPerNode; wdt++) {
      const heads = tensorParallelProblem(shape, wdt);
      if (heads) {
        out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: heads });
        continue;
      }
      widest = wdt;
      // A mixture of experts runs with expert parallel (experts whole, spread over the ranks) or
      // without it (every expert split by tensor parallel): each is its own layout, memory and speed.
      const variants = moe && wdt > 1 ? [true, false] : [false];
      let fitted = false;
      let firstWhy: string | null = null;
      for (const ep of variants) {
        const layout = singleNodeLayout(a, engine, c, pool, mem, wdt, ep);
        const why = c.problem(layout);
        if (why === null) {
          out.layouts.push(layout);
          fitted = true;
        } else if (firstWhy === null) firstWhy = why;
      }
      // Every width that fits is a choice (wider: more KV, faster decode, fewer replicas); the widths
      // below the narrowest that fits are refused in words, as before.
      if (fitted) placed = true;
      else if (!placed && firstWhy !== null)
        out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: firstWhy });
    }
    if (placed || widest === 0) continue;
    if (pool.mig) {
      out.refused.push({
        artifact: a.name,
        engine,
        where: where(pool.gpuClass, 2, 1, ""),
        reason: "a MIG instance runs one replica alone: it never joins another, on its node or across a fabric",
      });
      continue;
    }
    pipelineOptions(a, engine, c, pool, mem, widest, moe, out);
  }
}

/** A replica on one node: `width` cards, tensor-parallel, with or without expert parallel. */
function singleNodeLayout(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  width: number,
  ep: boolean,
): Layout {
  const { hosts, freeNow, freeMemBytes, nodeIds, replicas, replicasFreeNow } = singleNodeHosts(pool, width);
  const placement = basePlacement(pool.gpuClass, "", width, 1, width, 1, ep, nodeIds);
  return {
    id: layoutId(a, engine, placement, ""),
    artifact: a,
    engine,
    placement,
    bitsPerWeight: bitsOf(a),
    parts: servingParts(c.shape, a, pool.gpuClass, mem, width, 1, ep),
    host: null,
    hosts,
    freeNow,
    freeMemBytes,
    cardsShort: 0,
    replicas,
    replicasFreeNow,
    dataParallel: pool.mig ? 1 : Math.max(1, Math.floor(pool.maxPerNode / width)),
  };
}

/** Several nodes of one fabric, a node's width on each, pipeline-parallel between them. */
function pipelineOptions(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  width: number,
  moe: boolean,
  out: Enumerated,
): void {
  let biggest: { fabric: string; nodes: PoolNode[] } | null = null;
  for (const [fabric, nodes] of pool.fabrics) {
    const able = nodes.filter((n) => n.count >= width);
    if (fabric === "") {
      if (able.length > 1)
        out.refused.push({
          artifact: a.name,
          engine,
          where: `${able.length} nodes × ${width} ${pool.gpuClass}`,
          reason: "these nodes name no fabric: a replica spans nodes only over one",
        });
      continue;
    }
    if (!biggest || able.length > biggest.nodes.length) biggest = { fabric, nodes: able };
    const order = fabricOrder(able, width);
    let placed = false;
    for (let n = 2; n <= able.length; n++) {
      const layout = pipelineLayout(a, engine, c, pool, mem, width, n, fabric, moe, order, 0);
      const why = c.problem(layout);
      if (why === null) {
        out.layouts.push(layout);
        placed = true;
        break;
      }
      out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, width, n, fabric), reason: why });
    }
    if (placed) return;
  }
  // Nothing the cluster has holds it: say how many more cards would, on the biggest fabric.
  if (!biggest) return;
  const have = biggest.nodes.length;
  const order = fabricOrder(biggest.nodes, width);
  for (let n = Math.max(2, have + 1); n <= Math.max(64, have * 4); n++) {
    const layout = pipelineLayout(a, engine, c, pool, mem, width, n, biggest.fabric, moe, order, (n - have) * width);
    if (c.problem({ ...layout, cardsShort: 0 }) === null) {
      out.layouts.push(layout);
      return;
    }
  }
}

function pipelineLayout(
  a: Artifact,
  engine: Engine,
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  width: number,
  n: number,
  fabric: string,
  moe: boolean,
  order: FabricOrder,
  cardsShort: number,
): Layout {
  const ep = moe && width > 1;
  // The n nodes a replica would take: free ones first, the most free memory first (vLLM's start-up check reads the least of them).
  const placement = basePlacement(pool.gpuClass, fabric, width, n, width, n, ep, order.ids.slice(0, n));
  return {
    id: layoutId(a, engine, placement, ""),
    artifact: a,
    engine,
    placement,
    bitsPerWeight: bitsOf(a),
    parts: servingParts(c.shape, a, pool.gpuClass, mem, width, n, ep),
    host: null,
    hosts: order.able.length,
    freeNow: cardsShort === 0 && order.freeCount >= n,
    freeMemBytes: order.freeMem ? (order.freeMem[n - 1] ?? null) : null,
    cardsShort,
    replicas: cardsShort > 0 ? 0 : Math.floor(order.able.length / n),
    replicasFreeNow: cardsShort > 0 ? 0 : Math.floor(order.freeCount / n),
    dataParallel: 1,
  };
}
