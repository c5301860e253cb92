/**
 * One decode step: every running sequence gets one token. Its time is the
 * larger of reading (weights touched + KV at the context) over bandwidth and
 * multiplying over compute, plus what neither explains (a fixed per-step
 * cost), the host's share, the all-reduces and the pipeline hops. Summed
 * over pipeline stages: one token visits them one after the other.
 */
import { expertParallelCardBytes, touchedExpertShare } from "./experts.ts";
import { cpuComputeMs, DEFAULT_HOST_GBPS } from "./host.ts";
import { HOST_BANDWIDTH_ASSUMED } from "./hostAssumed.ts";
import { expertExchangeMs, expertGroupReadBytes, tensorReduceLayers } from "./expertGroup.ts";
import { addSaid, allReduceMs, NO_WIRE, pipelineHopsMs } from "./links.ts";
import { rpcMs } from "./rpc.ts";
import type { SpeedTerms } from "./terms.ts";
import type { ComputeFormat, SpeedInput } from "./types.ts";

export interface StepTime {
  ms: number;
  /** Which bound the step sat on, for the basis. */
  bound: "memory" | "compute";
  assumed: string[];
}

/** Dense TFLOPS of the card in the model's format, falling back to bf16; null when neither is known. */
export function cardTflops(input: SpeedInput): number | null {
  return cardCompute(input).tflops;
}

/** The card's dense TFLOPS and the format they are for (the model's, or bf16 when the card lacks it). */
export function cardCompute(input: SpeedInput): { tflops: number | null; format: ComputeFormat } {
  const t = input.card.tflops;
  const own = t[input.model.computeFormat];
  return own !== null ? { tflops: own, format: input.model.computeFormat } : { tflops: t.bf16, format: "bf16" };
}

/**
 * The step for `batch` sequences at `contextTokens` of context each.
 * Needs the card's bandwidth (the caller checks); compute unknown counts as
 * no compute bound, which the caller only allows at batch 1. `alone`: the one
 * sequence in the whole engine (a data-parallel engine's other ranks idle).
 */
export function decodeStepMs(
  input: SpeedInput,
  terms: SpeedTerms,
  batch: number,
  contextTokens: number,
  alone = false,
): StepTime {
  const { model, layout, card, links } = input;
  const assumed: string[] = [];
  const share = touchedExpertShare(model.routedExperts, model.expertsPerToken, batch);
  const denseBytes = model.weightsBytes - model.routedExpertBytes;
  const touchedBytes = denseBytes + model.routedExpertBytes * share;
  const hostDense = layout.hostWeightsBytes - layout.hostExpertBytes;
  const hostTouched = hostDense + layout.hostExpertBytes * share;
  const tp = Math.max(1, layout.tensorParallel);
  const kvBytes = batch * contextTokens * model.kvBytesPerToken;
  const kvPerCard = model.kvSplitByTensorParallel ? kvBytes / tp : kvBytes;

  let hostBw = layout.hostBandwidthGBps;
  if ((layout.cpuOnly || hostTouched > 0) && hostBw === null) {
    hostBw = DEFAULT_HOST_GBPS;
    assumed.push(HOST_BANDWIDTH_ASSUMED);
  }
  const deviceBw = layout.cpuOnly ? (hostBw ?? DEFAULT_HOST_GBPS) : (card.memBandwidthGBps ?? 0);
  const deviceBytes = layout.cpuOnly ? touchedBytes : touchedBytes - hostTouched;
  // Experts spread over a data-parallel engine's ranks: the card's own bytes, its experts at the group's tokens.
  const group = layout.expertGroup;
  const cardBytes = group
    ? expertGroupReadBytes(group, model, batch, alone)
    : layout.expertParallel > 1
      ? expertParallelCardBytes(model, layout, batch)
      : deviceBytes / tp;
  const memoryMs =
    cardBytes / (deviceBw * terms.bandwidthEfficiency * 1e6) +
    kvPerCard / (deviceBw * terms.kvBandwidthEfficiency * 1e6);
  const hostMs =
    !layout.cpuOnly && hostTouched > 0
      ? hostTouched / ((hostBw ?? DEFAULT_HOST_GBPS) * terms.bandwidthEfficiency * 1e6)
      : 0;

  const tflops = cardTflops(input);
  const flops = batch * (2 * model.activeParams + model.attentionFlopsPerContextToken * contextTokens);
  // On the CPU a batch of sequences multiplies on its cores as a prompt does (host.ts); one alone is bandwidth-bound.
  const cpu = layout.cpuOnly && batch > 1 ? cpuComputeMs(flops, layout.cpuCores) : null;
  if (cpu && cpu.assumed !== "") assumed.push(cpu.assumed);
  const computeMs = layout.cpuOnly
    ? (cpu?.ms ?? 0)
    : tflops === null
      ? 0
      : flops / (tp * tflops * terms.decodeComputeEfficiency * 1e9);

  const reduce = allReduceMs(tp, tensorReduceLayers(group, model.layers), model.hiddenSize, batch, links, terms);
  const hops = pipelineHopsMs(layout.pipelineStages, model.hiddenSize, batch, links, terms);
  const rpc = rpcMs(model.hiddenSize, batch, links);
  const exchange = group ? expertExchangeMs(group, model, batch, links, terms) : NO_WIRE;
  addSaid(assumed, reduce.assumed);
  addSaid(assumed, hops.assumed);
  addSaid(assumed, rpc.assumed);
  addSaid(assumed, exchange.assumed);

  const bound = computeMs > memoryMs ? "compute" : "memory";
  const ms = Math.max(memoryMs, computeMs) + hostMs + terms.stepFixedMs + reduce.ms + hops.ms + rpc.ms + exchange.ms;
  return { ms, bound, assumed };
}
