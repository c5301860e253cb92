/**
 * Where vLLM and SGLang run: tensor parallel on one node at every width the heads allow and that fits
 * (with and without expert parallel for a mixture of experts); pipeline stages within one node at the
 * widths that do not fit alone (vLLM --tensor-parallel-size × --pipeline-parallel-size, SGLang
 * --tp-size × --pp-size); a node's replicas as one data-parallel engine; vLLM's data-parallel engine
 * over nodes for a mixture of experts (spanDp.ts); else pipeline parallel over the nodes of one fabric
 * at every width, and stages within nodes that no width fills (stagedPipeline); a MIG instance alone.
 * How many copies the cluster holds comes with each.
 *
 * Pruning (why not every TP × PP × DP product): at a TP width that fits alone, a pipeline of it buys
 * only KV for more cards, which another replica of the width gives as well without a hop per stage,
 * so pipelines are tried only at widths that do not fit alone, and there only the shallowest that
 * fits (each stage more: more cards, a hop more, KV only). Data parallel is one engine of every rank
 * a node holds. After evaluation, plan.ts drops a pipeline that another layout of the same artifact,
 * engine and class beats on every axis (paretoPrune).
 */
import type { ClassPool, EnumContext, Enumerated, FabricOrder, Layout, Part, PoolNode } from "../../layout.ts";
import { basePlacement, layoutId, tensorParallelProblem, where } from "../../placement.ts";
import { fabricOrder, singleNodeHosts } from "../../pools.ts";
import { sglangDpAttention } from "./dpAttention.ts";
import { dataParallelAcrossNodes } from "./spanDp.ts";
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
    const widths: number[] = [];
    const alone: boolean[] = [];
    // The parts of each TP layout that fits, by width and EP: a data-parallel engine of it holds the same on every card.
    const tpParts = new Map<string, Part[]>();
    for (let wdt = 1; wdt <= pool.maxPerNode; wdt++) {
      const heads = tensorParallelProblem(shape, wdt);
      if (heads) {
        out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: heads });
        continue;
      }
      widest = wdt;
      widths.push(wdt);
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
          tpParts.set(`${wdt}${ep ? "ep" : ""}`, layout.parts);
          fitted = true;
        } else if (firstWhy === null) firstWhy = why;
      }
      // Every width that fits is a choice (wider: more KV, faster decode, fewer replicas); the widths
      // below the narrowest that fits are refused in words, as before.
      alone.push(fitted);
      if (fitted) placed = true;
      else if (!placed && firstWhy !== null)
        out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, wdt, 1, ""), reason: firstWhy });
    }
    if (widest === 0) continue;
    if (!pool.mig && nodeSplits(a, engine, c, pool, mem, widths, alone, moe, out, tpParts)) placed = true;
    // vLLM's DP engine over nodes, where a node's own does not hold the experts (spanDp.ts); pipelines are still tried.
    if (engine === "vllm") dataParallelAcrossNodes(a, c, pool, mem, widths, out);
    // SGLang's DP attention: the node's cards as one group, or over nodes where one node's does not hold it (dpAttention.ts).
    if (engine === "sglang") sglangDpAttention(a, c, pool, out);
    if (placed) continue;
    if (pool.mig) {
      out.refused.push({
        artifact: a.name,
        engine,
        where: where(pool.gpuClass, 2, 1, ""),
        reason: "a MIG instance runs one replica alone: it never joins another, on its node or across a fabric",
      });
      continue;
    }
    pipelineOptions(a, engine, c, pool, mem, widths, moe, out);
  }
}

/**
 * A node's cards split otherwise than by TP alone; true when one fits.
 *
 * TP × PP (vLLM: "--tensor-parallel-size 4 --pipeline-parallel-size 2" on 8 GPUs, its docs' single-node
 * pipeline; SGLang: server_args.py `pp_size`, "The pipeline parallelism size.", run on one node by its
 * own test/srt/test_pp_single_node.py @ 0518ee6c, "--tp-size 2 --pp-size 4"): at each width that does
 * not fit alone, the shallowest pipeline that fits within the node.
 *
 * One engine over every replica a node holds: vLLM --data-parallel-size (EngineArgs "-dp"), SGLang
 * --dp-size (server_args.py `dp_size`, alias --data-parallel-size). vLLM spreads a mixture of
 * experts' routed experts over all DP × TP ranks (its data_parallel_deployment docs: "expert layers
 * form a tensor parallel group of size DP × TP"), so it may fit where one rank alone does not;
 * SGLang without DP attention runs dp_size independent TP groups, each holding what a replica holds.
 */
function nodeSplits(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  widths: readonly number[],
  alone: readonly boolean[],
  moe: boolean,
  out: Enumerated,
  tpParts: ReadonlyMap<string, Part[]>,
): boolean {
  let placed = false;
  const spreadsExperts = engine === "vllm" && moe;
  const variants = (ranks: number) => (moe && ranks > 1 ? [true, false] : [false]);
  for (let i = 0; i < widths.length; i++) {
    const tp = widths[i] ?? 1;
    if (!alone[i]) {
      // The weights alone need tp × pp ≥ bytes ÷ a card's memory: shallower pipelines are not evaluated.
      for (let pp = Math.max(2, fewestStages(a, mem, tp)); tp * pp <= pool.maxPerNode && pp <= c.shape.layers; pp++) {
        const fitting = variants(tp)
          .map((ep) => nodeLayout(a, engine, c, pool, mem, tp, pp, 1, ep))
          .filter((l) => c.problem(l) === null);
        if (fitting.length === 0) continue;
        out.layouts.push(...fitting);
        placed = true;
        break;
      }
    }
    const dp = Math.floor(pool.maxPerNode / tp);
    if (dp < 2 || (!alone[i] && !spreadsExperts)) continue;
    for (const ep of variants(tp * (spreadsExperts ? dp : 1))) {
      // Ranks that each hold a replica share its parts (the same object), so evaluation works them out once (evaluate.ts).
      const same = spreadsExperts ? undefined : tpParts.get(`${tp}${ep ? "ep" : ""}`);
      const layout = nodeLayout(a, engine, c, pool, mem, tp, 1, dp, ep, same);
      if (c.problem(layout) === null) {
        out.layouts.push(layout);
        placed = true;
      }
    }
  }
  return placed;
}

/**
 * Stages of `tp` cards the checkpoint needs at the least on cards of `mem` bytes: a bound, never an
 * answer. Half its bytes, since runtime --quantization fp8 halves a 16-bit checkpoint's layers.
 */
function fewestStages(a: Artifact, mem: number, tp: number): number {
  return Math.ceil(a.bytes / 2 / (tp * mem));
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
  return nodeLayout(a, engine, c, pool, mem, width, 1, 1, ep);
}

/** One engine on one node: `dp` data-parallel ranks of `pp` stages of `tp` cards (tp × pp × dp cards). */
function nodeLayout(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  tp: number,
  pp: number,
  dp: number,
  ep: boolean,
  parts?: Part[],
): Layout {
  const width = tp * pp * dp;
  const { hosts, freeNow, freeMemBytes, nodeIds, replicas, replicasFreeNow } = singleNodeHosts(pool, width);
  const base = basePlacement(pool.gpuClass, "", width, 1, tp, pp, ep, nodeIds);
  const placement = dp > 1 ? { ...base, dataParallel: dp } : base;
  const expertRanks = engine === "vllm" ? tp * dp : tp;
  return {
    id: layoutId(a, engine, placement, ""),
    artifact: a,
    engine,
    placement,
    bitsPerWeight: bitsOf(a),
    parts: parts ?? servingParts(c.shape, a, pool.gpuClass, mem, tp, pp, ep, expertRanks),
    host: null,
    hosts,
    freeNow,
    freeMemBytes,
    cardsShort: 0,
    replicas,
    replicasFreeNow,
    dataParallel: dp,
  };
}

/**
 * Several nodes of one fabric, pipeline-parallel between them: at every TP width the heads allow
 * (widest first), the fewest nodes that hold it. Deeper pipelines at a width add a node's cards and
 * a fabric hop per token for KV only (another replica gives that too), and are not listed.
 */
function pipelineOptions(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  widths: readonly number[],
  moe: boolean,
  out: Enumerated,
): void {
  const width = widths[widths.length - 1] ?? 1;
  let biggest: { fabric: string; nodes: PoolNode[] } | null = null;
  let placedAny = false;
  for (const [fabric, all] of pool.fabrics) {
    const nodes = all.filter((n) => n.count >= width);
    if (fabric === "") {
      if (nodes.length > 1)
        out.refused.push({
          artifact: a.name,
          engine,
          where: `${nodes.length} nodes × ${width} ${pool.gpuClass}`,
          reason: "these nodes name no fabric: a replica spans nodes only over one",
        });
      continue;
    }
    if (!biggest || nodes.length > biggest.nodes.length) biggest = { fabric, nodes };
    // A narrower width holds more a card, so it needs at least as many nodes as a wider one did, and
    // none where a wider one found no count on as many nodes.
    let fewest = 2;
    let failedOn = 0;
    for (let w = widths.length - 1; w >= 0; w--) {
      const tp = widths[w] ?? 1;
      const able = tp === width ? nodes : all.filter((n) => n.count >= tp);
      if (able.length <= failedOn) continue;
      const order = fabricOrder(able, tp);
      let found = false;
      // At the node's width every count is tried, its refusals said in words; narrower ones start at the bound.
      const from = tp === width ? fewest : Math.max(fewest, fewestStages(a, mem, tp));
      for (let n = from; n <= able.length && n <= c.shape.layers; n++) {
        const layout = pipelineLayout(a, engine, c, pool, mem, tp, n, fabric, moe, order, 0);
        const why = c.problem(layout);
        if (why === null) {
          out.layouts.push(layout);
          // A mixture of experts without expert parallel too (vLLM's default: every expert split by TP), on as many nodes.
          const tpOnly = layout.placement.expertParallel
            ? pipelineLayout(a, engine, c, pool, mem, tp, n, fabric, moe, order, 0, 1, false)
            : null;
          if (tpOnly && c.problem(tpOnly) === null) out.layouts.push(tpOnly);
          placedAny = true;
          found = true;
          fewest = n;
          break;
        }
        // The refusals in words are the node's full width, as before; narrower ones are not listed one by one.
        if (tp === width)
          out.refused.push({ artifact: a.name, engine, where: where(pool.gpuClass, tp, n, fabric), reason: why });
      }
      if (!found) failedOn = able.length;
    }
    if (stagedPipeline({ a, engine, c, pool, mem, moe }, widths, fabric, all, out)) placedAny = true;
    if (placedAny) return;
  }
  // Nodes that no one fabric joins but would hold it together: naming one for them is the smaller change
  // (the cards one fabric lacks stay an option too: fabrics apart may be sites apart).
  unjoinedPipeline({ a, engine, pool, mem, width, moe }, c, biggest?.nodes.length ?? 0, out);
  // Nothing the cluster has holds it: say how many more cards would, on the biggest fabric, or, with none, on the node.
  if (!biggest) {
    if (!moreCardsOnNode(a, engine, c, pool, mem, moe, out))
      moreNodesOnOneFabric(a, engine, c, pool, mem, width, moe, out);
    return;
  }
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

/**
 * The fewest of the pool's nodes, whatever fabric each names (none, or different ones), that a pipeline
 * at `width` would hold; listed as an option that lacks a fabric (it does not fit as the cluster is).
 * Tried only when they outnumber the biggest fabric's, which was tried already.
 */
function unjoinedPipeline(
  at: { a: Artifact; engine: "vllm" | "sglang"; pool: ClassPool; mem: number; width: number; moe: boolean },
  c: EnumContext,
  joined: number,
  out: Enumerated,
): void {
  const { a, engine, pool, mem, width, moe } = at;
  const nodes = [...pool.fabrics.values()].flat().filter((n) => n.count >= width);
  if (nodes.length <= Math.max(1, joined)) return;
  const order = fabricOrder(nodes, width);
  // Fewer nodes than the biggest fabric's were tried there; as the more-cards search, at most 64 stages.
  const most = Math.min(nodes.length, c.shape.layers, 64);
  for (let n = Math.max(2, joined + 1, fewestStages(a, mem, width)); n <= most; n++) {
    const layout = pipelineLayout(a, engine, c, pool, mem, width, n, "", moe, order, 0);
    if (c.problem(layout) !== null) continue;
    const lacks = { kind: "fabric" as const, nodeIds: order.ids.slice(0, n) };
    out.layouts.push({ ...layout, freeNow: false, replicas: 0, replicasFreeNow: 0, lacks });
    return;
  }
}

/**
 * Nodes that name no fabric and hold no width that fits (one L40S for a 32B model in bf16): the narrowest
 * width the heads allow, up to a node of 8, that would fit with more of the class's cards on its richest
 * node, listed as an option short of them; what to buy then names them ("+1 l40s-48g: 2 × l40s-48g").
 */
function moreCardsOnNode(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  moe: boolean,
  out: Enumerated,
): boolean {
  const nodes = [...pool.fabrics.values()].flat();
  const richest = nodes.reduce<PoolNode | null>((best, n) => (!best || n.count > best.count ? n : best), null);
  if (!richest) return false;
  for (let wdt = richest.count + 1; wdt <= 8; wdt++) {
    if (tensorParallelProblem(c.shape, wdt)) continue;
    const ep = moe && wdt > 1;
    const placement = basePlacement(pool.gpuClass, "", wdt, 1, wdt, 1, ep, [richest.id]);
    const layout: Layout = {
      id: layoutId(a, engine, placement, ""),
      artifact: a,
      engine,
      placement,
      bitsPerWeight: bitsOf(a),
      parts: servingParts(c.shape, a, pool.gpuClass, mem, wdt, 1, ep, wdt),
      host: null,
      hosts: 1,
      freeNow: false,
      freeMemBytes: null,
      cardsShort: 0,
      replicas: 0,
      replicasFreeNow: 0,
      dataParallel: 1,
    };
    if (c.problem(layout) !== null) continue;
    out.layouts.push({ ...layout, cardsShort: wdt - richest.count });
    return true;
  }
  return false;
}

/**
 * Nodes that name no fabric and that no node's worth of cards would hold (DeepSeek-R1 on one 8 × L40S box): the
 * fewest nodes of the node's own width, the box among them, that a pipeline over one fabric would hold, listed
 * short of the nodes' cards; what to buy then names the nodes and the fabric ("+16 l40s-48g as 2 more nodes of 8, on one fabric with a: …").
 */
function moreNodesOnOneFabric(
  a: Artifact,
  engine: "vllm" | "sglang",
  c: EnumContext,
  pool: ClassPool,
  mem: number,
  width: number,
  moe: boolean,
  out: Enumerated,
): void {
  const able = [...pool.fabrics.values()].flat().filter((n) => n.count >= width);
  if (able.length === 0) return;
  const order = fabricOrder(able, width);
  for (let n = able.length + 1; n <= 64; n++) {
    const layout = pipelineLayout(a, engine, c, pool, mem, width, n, "", moe, order, (n - able.length) * width);
    if (c.problem({ ...layout, cardsShort: 0 }) === null) {
      out.layouts.push(layout);
      return;
    }
  }
}

/**
 * Nodes whose card count no width the heads allow fills (a rig of 6 × RTX 3090 for Qwen2.5-72B's 64
 * heads: TP 4 leaves two cards of each idle, TP 6 does not divide them): stages of the widest width
 * that divides the count, several on each node, then over the fewest nodes that hold it (TP 2 × PP 6 on
 * two rigs: vLLM `--tensor-parallel-size 2 --pipeline-parallel-size 6 --nnodes 2`, SGLang's
 * `pp_size // nnodes` stages a node). On nodes the widest width fills (8 cards, every large model's
 * heads allow TP 8) it adds nothing the pipeline at that width does not give, and is not tried.
 */
function stagedPipeline(
  at: { a: Artifact; engine: "vllm" | "sglang"; c: EnumContext; pool: ClassPool; mem: number; moe: boolean },
  widths: readonly number[],
  fabric: string,
  all: readonly PoolNode[],
  out: Enumerated,
): boolean {
  const { a, engine, c, pool, mem, moe } = at;
  const m = pool.maxPerNode;
  if ((widths[widths.length - 1] ?? m) === m) return false;
  const tp = [...widths].reverse().find((w) => m % w === 0 && w < m);
  if (tp === undefined) return false;
  const stages = m / tp;
  const able = all.filter((n) => n.count >= m);
  const order = fabricOrder(able, m);
  for (let n = Math.max(2, fewestStages(a, mem, m)); n <= able.length && n * stages <= c.shape.layers; n++) {
    const layout = pipelineLayout(a, engine, c, pool, mem, tp, n, fabric, moe, order, 0, stages);
    if (c.problem(layout) === null) {
      out.layouts.push(layout);
      return true;
    }
  }
  return false;
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
  stagesPerNode = 1,
  expertParallel = true,
): Layout {
  const ep = moe && width > 1 && expertParallel;
  const cards = width * stagesPerNode;
  // The n nodes a replica would take: free ones first, the most free memory first (vLLM's start-up check reads the least of them).
  const placement = basePlacement(pool.gpuClass, fabric, cards, n, width, n * stagesPerNode, ep, order.ids.slice(0, n));
  // Stage slots: a node of 8 holds one stage of two TP-4 pipelines at once.
  let perNode = Infinity;
  for (const node of order.able) perNode = Math.min(perNode, Math.floor(node.count / cards));
  perNode = Number.isFinite(perNode) ? Math.max(1, perNode) : 1;
  return {
    id: layoutId(a, engine, placement, ""),
    artifact: a,
    engine,
    placement,
    bitsPerWeight: bitsOf(a),
    parts: servingParts(c.shape, a, pool.gpuClass, mem, width, n * stagesPerNode, ep),
    host: null,
    hosts: order.able.length,
    freeNow: cardsShort === 0 && order.freeCount >= n,
    freeMemBytes: order.freeMem ? (order.freeMem[n - 1] ?? null) : null,
    cardsShort,
    replicas: cardsShort > 0 ? 0 : Math.floor(order.able.length / n) * perNode,
    replicasFreeNow: cardsShort > 0 ? 0 : Math.floor(order.freeCount / n) * perNode,
    dataParallel: 1,
  };
}
