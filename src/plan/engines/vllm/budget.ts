/**
 * vLLM's budget on a card for one release: util × total, what its profile run holds inside it, and
 * what must fit outside.
 */
import { cardSpecOf } from "../../cardSpecs.ts";
import { cudaTotalBytes } from "../../cards.ts";
import { runElemBytes } from "../serving/weights.ts";
import {
  vllmActivationBytes,
  vllmGraphReserveBytes,
  vllmNonTorchBytes,
  vllmOutsideFloorBytes,
  vllmSamplerWarmupBytes,
} from "./memory.ts";
import { VLLM_MXFP4_GRAPH_EXCESS_BYTES, VLLM_MXFP4_WARMUP_BYTES } from "./mxfp4.ts";
import type { VllmMemoryProfile } from "./releases.ts";
import type { CardEval, Layout, Part } from "../../layout.ts";
import type { ResolvedSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";

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
  const hybrid = part.kv.linearLayers > 0;
  const runner = vllmRunner(s.vllmProfile, moe, hybrid);
  // Custom all-reduce needs NVLink past two cards; over PCIe NCCL alone holds less (releases.ts).
  const link = cardSpecOf(part.gpuClass)?.link.kind === "pcie" ? "pcie" : "nvlink";
  const engineBytes =
    vllmActivationBytes(
      shape,
      s,
      runElemBytes(shape, s),
      part.holdsOutput,
      part.pipelineParallel,
      runner.samplerBytesPerSeqVocab,
    ) +
    vllmNonTorchBytes(part.tensorParallel, part.pipelineParallel, s.vllmProfile, tensorAcrossNodes, link, hybrid) +
    vllmGraphReserveBytes(runner.graphsInsideBudget, s.enforceEager, layersOnCard(part), s.maxNumSeqs);
  const outside =
    vllmOutsideFloorBytes(part.tensorParallel, part.pipelineParallel, s.enforceEager, moe, runner.graphsInsideBudget) +
    (part.holdsOutput ? vllmSamplerWarmupBytes(shape, s) : 0) +
    (moe && shape.quantMethod === "mxfp4" ? VLLM_MXFP4_WARMUP_BYTES : 0) +
    (moe && shape.quantMethod === "mxfp4" && runner.graphsInsideBudget && !s.enforceEager
      ? VLLM_MXFP4_GRAPH_EXCESS_BYTES
      : 0);
  return { settings: s, usableBytes: usable, engineBytes, outsideOk: usable + outside <= total };
}

/**
 * The model runner a release puts a model on, and what that runner holds inside the budget: V2 for dense
 * models in 0.26–0.28 and for hybrid ones too from 0.29 (their logs print "Using V2 Model Runner"); MoE
 * models stay on V1 (Qwen3-235B 0.27.1, GLM-5.2 0.26.0 print gpu_model_runner.py).
 */
export function vllmRunner(
  profile: VllmMemoryProfile,
  moe: boolean,
  hybrid: boolean,
): { v2: boolean; graphsInsideBudget: boolean; samplerBytesPerSeqVocab: number } {
  const v2 = profile.v2 !== null && !moe && (!hybrid || profile.v2.models === "dense-and-hybrid") ? profile.v2 : null;
  return v2
    ? { v2: true, graphsInsideBudget: v2.graphsInsideBudget, samplerBytesPerSeqVocab: v2.samplerBytesPerSeqVocab }
    : {
        v2: false,
        graphsInsideBudget: profile.graphsInsideBudget,
        samplerBytesPerSeqVocab: profile.samplerBytesPerSeqVocab,
      };
}

/** The layers a card runs, of every cache kind: what its CUDA graphs grow with. */
export function layersOnCard(part: Part): number {
  const kv = part.kv;
  return (
    kv.fullLayers +
    kv.mlaLayers +
    kv.linearLayers +
    kv.sliding.reduce((n, g) => n + g.layers, 0) +
    kv.compressed.reduce((n, c) => n + c.layers, 0)
  );
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
