/** Placements in words and by id, and the tensor-parallel widths a model's heads allow. */
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact, Engine, Placement } from "./types.ts";
import { GIB } from "./units.ts";

/** "an h100-80g", "a b200-192g": the article a class label is read with. */
export function article(label: string): string {
  return /^[aefhilmnorsx]/i.test(label) ? `an ${label}` : `a ${label}`;
}

export function gib1(bytes: number): string {
  return (bytes / GIB).toFixed(1);
}

/** The reason a tensor-parallel width does not suit the model's heads, or null. */
export function tensorParallelProblem(shape: ModelShape, width: number): string | null {
  if (width <= 1) return null;
  if (shape.attentionHeads > 0 && shape.attentionHeads % width !== 0) {
    return `tensor parallel ${width}: ${shape.attentionHeads} attention heads do not divide by ${width}`;
  }
  // Tensor parallel splits the KV heads among the cards or, past their number, gives each card a
  // copy of one: the width divides the heads, or the heads divide the width (Qwen3-235B: 4 heads on 8).
  const kv = shape.kvHeads;
  if (kv > 0 && kv % width !== 0 && width % kv !== 0) {
    return `tensor parallel ${width}: ${kv} KV heads neither divide by ${width} nor divide it`;
  }
  return null;
}

export function where(gpuClass: string, perNode: number, nodes: number, fabric: string): string {
  // No fabric: a pipeline that lacks one (what to buy names it).
  const over = fabric === "" ? ", no fabric joins them" : ` on ${fabric}`;
  return nodes > 1 ? `${nodes} nodes × ${perNode} ${gpuClass}${over}` : `${perNode} × ${gpuClass}`;
}

/** One literal shape for every placement (the hot paths read them all): the nodes named last. */
export function basePlacement(
  gpuClass: string,
  fabric: string,
  perNode: number,
  nodes: number,
  tp: number,
  pp: number,
  ep: boolean,
  nodeIds: string[],
): Placement {
  return {
    cpu: false,
    gpuClass,
    fabric,
    gpusPerNode: perNode,
    nodes,
    tensorParallel: tp,
    pipelineParallel: pp,
    expertParallel: ep,
    cpuMoeLayers: 0,
    gpuLayers: -1,
    nodeIds,
  };
}

export function layoutId(a: Artifact, engine: Engine, p: Placement, mode: string): string {
  return [
    a.name,
    engine,
    p.cpu ? "cpu" : p.gpuClass,
    p.fabric,
    `${p.gpusPerNode}x${p.nodes}`,
    p.expertParallel ? "ep" : "",
    mode,
    // Layouts of the same cards split otherwise (TP 4 × PP 2 beside TP 8, 2 nodes × TP 4 beside × TP 8, DP ranks) keep ids of their own; the older ids are unchanged.
    ...(serving(engine) && (p.pipelineParallel !== Math.max(1, p.nodes) || (p.dataParallel ?? 1) > 1)
      ? [`tp${p.tensorParallel}pp${p.pipelineParallel}dp${p.dataParallel ?? 1}`]
      : []),
    // SGLang's DP attention over the same ranks as its plain --dp-size is another layout.
    ...(p.dpAttention === true ? ["dpa"] : []),
  ].join("|");
}

function serving(engine: Engine): boolean {
  return engine === "vllm" || engine === "sglang";
}

/** Where an option runs, in the words every view uses: "CPU", "2 × h100-80g", "2 nodes × 8 h100-80g on ib0"; a vLLM/SGLang split its width does not say is added. */
export function placementLabel(p: Placement, engine?: Engine): string {
  if (p.cpu) return "CPU";
  const cpuHosts = p.cpuHosts ?? 0;
  // llama.cpp over RPC on hosts none of which has a card: "4 CPU hosts on eth-25g".
  if (cpuHosts > 0 && cpuHosts >= p.nodes) return `${cpuHosts} CPU hosts on ${p.fabric}`;
  if (cpuHosts > 0) {
    // llama.cpp over RPC with hosts that lend only their CPU: "2 × rtx4090-24g + 1 CPU host on eth0".
    const cards = where(p.gpuClass, p.gpusPerNode, p.nodes - cpuHosts, "").replace(/, no fabric joins them$/, "");
    return `${cards} + ${cpuHosts} CPU host${cpuHosts === 1 ? "" : "s"} on ${p.fabric}`;
  }
  return where(p.gpuClass, p.gpusPerNode, p.nodes, p.fabric) + (engine && serving(engine) ? splitWords(p) : "");
}

/** What llama.cpp keeps in host RAM, in words ("34 layers' experts in RAM", "40 layers on GPU"), or "" for none said. */
export function offloadWords(p: Placement): string {
  if (p.cpuMoeLayers > 0) return `${p.cpuMoeLayers} layers' experts in RAM`;
  if (p.gpuLayers >= 0 && !p.cpu) return `${p.gpuLayers} layers on GPU`;
  return "";
}

/**
 * How a vLLM/SGLang replica splits its cards when its width alone does not say: " (TP 2 × PP 3)", " (DP 4 × TP 2)",
 * and a mixture of experts' expert parallel (" (EP 8)"), which its TP-only twin on the same cards lacks.
 */
export function splitWords(p: Placement): string {
  const dp = p.dataParallel ?? 1;
  // vLLM's and SGLang's expert group spans a stage's DP × TP ranks.
  const ep = p.expertParallel ? `EP ${dp * p.tensorParallel}` : "";
  if (p.dpAttention === true) return ` (DP attention ${dp} × TP ${p.tensorParallel}, EP ${dp * p.tensorParallel})`;
  if (dp > 1) return ` (DP ${dp} × TP ${p.tensorParallel}${ep === "" ? "" : `, ${ep}`})`;
  if (inNodeStages(p)) return ` (TP ${p.tensorParallel} × PP ${p.pipelineParallel}${ep === "" ? "" : `, ${ep}`})`;
  return ep === "" ? "" : ` (${ep})`;
}

/** Whether a vLLM/SGLang placement's width does not say its split: data-parallel ranks, or pipeline stages that are not one a node. */
export function splitUnsaid(p: Placement): boolean {
  return (p.dataParallel ?? 1) > 1 || inNodeStages(p);
}

function inNodeStages(p: Placement): boolean {
  return p.pipelineParallel > 1 && p.pipelineParallel !== Math.max(1, p.nodes);
}

/** Whether an option runs on CPUs alone: the CPU option, or llama.cpp over RPC on hosts none of which has a card (cpuCluster.ts). */
export function onCpusOnly(p: Placement): boolean {
  return p.cpu || (p.gpusPerNode === 0 && (p.cpuHosts ?? 0) > 0);
}

/** Cards one replica takes: its width on each of its nodes; none on the CPU. */
export function cardsPerReplica(p: Placement): number {
  // Hosts that lend only their CPU over RPC (cpuHosts) take no card.
  return p.cpu ? 0 : p.gpusPerNode * Math.max(1, p.nodes - (p.cpuHosts ?? 0));
}

/**
 * Which of some layouts are on the Pareto front of throughput against cards: no other gives as
 * much throughput or more on as few cards or fewer, and strictly more of one.
 */
export function paretoFront(points: readonly { cards: number; throughputTps: number }[]): boolean[] {
  return points.map(
    (p) =>
      !points.some(
        (q) =>
          q !== p &&
          q.cards <= p.cards &&
          q.throughputTps >= p.throughputTps &&
          (q.cards < p.cards || q.throughputTps > p.throughputTps),
      ),
  );
}
