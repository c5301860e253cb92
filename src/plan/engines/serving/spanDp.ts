/**
 * One vLLM data-parallel engine over several nodes of one fabric: `--data-parallel-size` ranks of
 * `--tensor-parallel-size` cards, `--data-parallel-size-local` of them a node
 * (vllm-project/vllm docs/serving/data_parallel_deployment.md, "Internal Load Balancing": "Running a
 * single data parallel deployment across multiple nodes requires a different `vllm serve` to be run on
 * each node"). It is a layout of its own only for a mixture of experts: vLLM's expert layers "form a
 * group of size `DP × TP`", so each node more spreads the routed experts thinner (DeepSeek-R1 on two
 * nodes of 8 × H100 as DP 16 × TP 1 with EP: 16 experts a card of 256). A dense model's ranks each hold a
 * whole replica, which `replicas` already counts without one engine over the fabric.
 *
 * Always with expert parallel (`--enable-expert-parallel`, "on all nodes in the multi-node case"):
 * without it the expert layers are one tensor-parallel group of DP × TP ranks, TP across the fabric,
 * which the plan lists nowhere else.
 *
 * Pruning, as for pipelines over nodes: only at a TP width whose one-node engine
 * (that node's DP ranks, or TP alone where one rank fills the node) does not fit, since another node's
 * copy of it gives the same KV without the expert all-to-all crossing the fabric; and there only the
 * fewest nodes that hold it. SGLang is not planned here: without DP attention its `--dp-size` TP groups
 * each span all `--nnodes` (data_parallel_controller.py: `tp_size_per_node = tp_size //
 * nnodes_per_tp_group`), which is TP across the fabric; its DP attention is dpAttention.ts.
 */
import type { ClassPool, EnumContext, Enumerated, FabricOrder, Layout } from "../../layout.ts";
import { basePlacement, layoutId } from "../../placement.ts";
import { fabricOrder } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { Artifact } from "../../types.ts";
import { servingParts } from "../../weights.ts";

export function dataParallelAcrossNodes(
  a: Artifact,
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  widths: readonly number[],
  out: Enumerated,
): void {
  const experts = c.shape.moe?.routedExperts ?? 0;
  if (experts <= 1 || pool.mig) return;
  for (const tp of widths) {
    const local = Math.floor(pool.maxPerNode / tp);
    if (local < 1) continue;
    const perNode = tp * local;
    if (nodeEngineFits(a, out, pool.gpuClass, tp, perNode)) continue;
    placeAcross({ a, c, pool, mem, tp, local }, experts, out);
  }
}

/** Whether one node's engine at this width already fits: its DP ranks, or TP alone where one rank fills the node. */
function nodeEngineFits(a: Artifact, out: Enumerated, gpuClass: string, tp: number, perNode: number): boolean {
  return out.layouts.some(
    (l) =>
      l.artifact === a &&
      l.engine === "vllm" &&
      l.placement.nodes <= 1 &&
      l.placement.gpuClass === gpuClass &&
      l.placement.pipelineParallel === 1 &&
      l.placement.tensorParallel === tp &&
      l.placement.gpusPerNode === perNode,
  );
}

/** An engine's ranks: `local` of `tp` cards on each node of a class. */
interface Ranks {
  a: Artifact;
  c: EnumContext;
  pool: ClassPool;
  mem: number;
  tp: number;
  local: number;
}

/** The fewest nodes of one named fabric whose `local` ranks a node hold it; the first fabric that does. */
function placeAcross(r: Ranks, experts: number, out: Enumerated): void {
  const { a, c, pool, mem, tp, local } = r;
  const perNode = tp * local;
  // The weights alone need this many nodes' cards at the least (half the bytes: runtime fp8 halves a 16-bit checkpoint).
  const fewest = Math.max(2, Math.ceil(a.bytes / 2 / (perNode * mem)));
  for (const [fabric, all] of pool.fabrics) {
    if (fabric === "") continue;
    const able = all.filter((n) => n.count >= perNode);
    if (able.length < fewest) continue;
    const order = fabricOrder(able, perNode);
    // More ranks than experts leave some without one (vLLM's expert map); no more nodes than that.
    for (let n = fewest; n <= able.length && tp * local * n <= experts; n++) {
      const layout = acrossLayout(r, n, fabric, order);
      if (c.problem(layout) === null) {
        out.layouts.push(layout);
        return;
      }
    }
  }
}

function acrossLayout(r: Ranks, n: number, fabric: string, order: FabricOrder): Layout {
  const { a, c, pool, mem, tp, local } = r;
  const dp = local * n;
  const placement = {
    ...basePlacement(pool.gpuClass, fabric, tp * local, n, tp, 1, true, order.ids.slice(0, n)),
    dataParallel: dp,
  };
  // A node of 16 holds two nodes' shares of a DP engine of 8 a node at once.
  let perNode = Infinity;
  for (const node of order.able) perNode = Math.min(perNode, Math.floor(node.count / (tp * local)));
  perNode = Number.isFinite(perNode) ? Math.max(1, perNode) : 1;
  return {
    id: layoutId(a, "vllm", placement, ""),
    artifact: a,
    engine: "vllm",
    placement,
    bitsPerWeight: bitsOf(a),
    parts: servingParts(c.shape, a, pool.gpuClass, mem, tp, 1, true, tp * dp),
    host: null,
    hosts: order.able.length,
    freeNow: order.freeCount >= n,
    freeMemBytes: order.freeMem ? (order.freeMem[n - 1] ?? null) : null,
    cardsShort: 0,
    replicas: Math.floor(order.able.length / n) * perNode,
    replicasFreeNow: Math.floor(order.freeCount / n) * perNode,
    dataParallel: dp,
  };
}
