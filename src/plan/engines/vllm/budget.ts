/**
 * vLLM's budget on a card for one release: util × total, what its profile run holds inside it, and
 * what must fit outside.
 */
import { cudaTotalBytes } from "../../cards.ts";
import { runElemBytes } from "../serving/weights.ts";
import { vllmActivationBytes, vllmGraphReserveBytes, vllmNonTorchBytes, vllmOutsideFloorBytes, vllmSamplerWarmupBytes } from "./memory.ts";
import { VLLM_MXFP4_GRAPH_EXCESS_BYTES, VLLM_MXFP4_WARMUP_BYTES } from "./mxfp4.ts";
import type { CardEval, Layout, Part } from "../../layout.ts";
import type { ResolvedSettings } from "../../settings.ts";
import type { ModelShape } from "../../types.ts";

/** What one vLLM release lets a card use and spends inside that budget, and whether what it spends outside fits. */
export interface VllmBudget {
  settings: ResolvedSettings;
  usableBytes: number;
  engineBytes: number;
  outsideOk: boolean;
}

/**
 * vLLM's budget on a card for one release (`s.vllmProfile`): util × total, holding
 * the weights, the profile run's activation peak and non-torch memory and, from
 * 0.21, the CUDA-graph estimate; the context, the graphs of older releases and
 * the sampler's warm-up sit outside it.
 */
export function vllmBudget(layout: Layout, part: Part, shape: ModelShape, s: ResolvedSettings): VllmBudget {
  const total = cudaTotalBytes(part.physicalBytes, part.gpuClass);
  const usable = s.gpuMemoryUtilization * total;
  // A tensor-parallel group wider than a node's cards talks over the network (vLLM on Ray across nodes).
  const tensorAcrossNodes = layout.placement.nodes > 1 && layout.placement.gpusPerNode < part.tensorParallel;
  const moe = (shape.moe?.routedExperts ?? 0) > 1;
  const engineBytes = vllmActivationBytes(shape, s, runElemBytes(shape, s), part.holdsOutput, part.pipelineParallel)
    + vllmNonTorchBytes(part.tensorParallel, part.pipelineParallel, s.vllmProfile, tensorAcrossNodes)
    + vllmGraphReserveBytes(s.vllmProfile, s.enforceEager, layersOnCard(part), moeExpertPicksOnCard(part, shape));
  const outside = vllmOutsideFloorBytes(part.tensorParallel, part.pipelineParallel, s.enforceEager, moe, s.vllmProfile)
    + (part.holdsOutput ? vllmSamplerWarmupBytes(shape, s) : 0)
    + (moe && shape.quantMethod === "mxfp4" ? VLLM_MXFP4_WARMUP_BYTES : 0)
    + (moe && shape.quantMethod === "mxfp4" && s.vllmProfile.graphsInsideBudget && !s.enforceEager ? VLLM_MXFP4_GRAPH_EXCESS_BYTES : 0);
  return { settings: s, usableBytes: usable, engineBytes, outsideOk: usable + outside <= total };
}

/** The layers a card runs, of every cache kind: what its CUDA graphs grow with. */
export function layersOnCard(part: Part): number {
  const kv = part.kv;
  return kv.fullLayers + kv.mlaLayers + kv.linearLayers + kv.sliding.reduce((n, g) => n + g.layers, 0) + kv.compressed.reduce((n, c) => n + c.layers, 0);
}

/** MoE layers × routed experts on the card × experts a token picks: the empirical graph term's unit. */
export function moeExpertPicksOnCard(part: Part, shape: ModelShape): number {
  const experts = part.routedExperts;
  return experts ? experts.moeLayers * experts.experts * (shape.moe?.expertsPerToken ?? 0) : 0;
}

/**
 * vLLM's own start-up check: a card must have free at least utilization ×
 * total (`gpu_memory_utilization` is of the TOTAL, and other processes count
 * against it). Unknown free memory passes.
 */
export function vllmFreeMemoryOk(layout: Layout, evals: CardEval[]): boolean {
  if (layout.engine !== "vllm" || layout.freeMemBytes === null || layout.freeMemBytes === undefined) return true;
  const free = layout.freeMemBytes;
  return evals.every((e) => free >= (e.requestedBytes ?? e.load.usableBytes));
}
