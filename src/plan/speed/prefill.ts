/**
 * One request's prompt, alone. Prefill multiplies every prompt token by the
 * active weights (2 × active params FLOPs per token) plus attention over the
 * tokens before it, so it is compute-bound; the weights are still read once
 * per chunk (llama.cpp's 512-token ubatch, vLLM/SGLang's chunked-prefill
 * budget), which is what makes short prompts on small cards slower per token.
 */
import { cardCompute } from "./decode.ts";
import { touchedExpertShare } from "./experts.ts";
import { DEFAULT_HOST_GBPS } from "./host.ts";
import { expertExchangeMs, expertGroupReadBytes } from "./expertGroup.ts";
import { allReduceMs, pipelineHopsMs } from "./links.ts";
import { rpcMs } from "./rpc.ts";
import type { SpeedTerms } from "./terms.ts";
import type { SpeedInput } from "./types.ts";

/** llama.cpp's logical batch (-b 2048): the ubatches of one batch are what its pipeline overlaps across cards (PR #6017). */
const LLAMACPP_BATCH_TOKENS = 2048;

export interface PrefillTime {
  /** Null when the card's compute is not known. */
  ms: number | null;
  assumed: string[];
}

export function prefillMs(input: SpeedInput, terms: SpeedTerms, promptTokens: number): PrefillTime {
  const { model, layout, card, links } = input;
  const assumed: string[] = [];
  const { tflops, format } = cardCompute(input);
  if (tflops === null || layout.cpuOnly || card.memBandwidthGBps === null) return { ms: null, assumed };
  const tp = Math.max(1, layout.tensorParallel);
  const chunkTokens = Math.min(promptTokens, terms.prefillChunkTokens);
  const chunks = Math.ceil(promptTokens / terms.prefillChunkTokens);

  const linearFlops = promptTokens * 2 * model.activeParams;
  const attentionFlops = (model.attentionFlopsPerContextToken * promptTokens * promptTokens) / 2;
  const efficiency = terms.prefillEfficiencyByFormat[format] ?? terms.prefillComputeEfficiency;
  const computeMs =
    linearFlops / (tp * tflops * efficiency * 1e9) +
    attentionFlops / (tp * tflops * terms.attentionComputeEfficiency * 1e9);

  const share = touchedExpertShare(model.routedExperts, model.expertsPerToken, chunkTokens);
  const chunkBytes = model.weightsBytes - model.routedExpertBytes * (1 - share);
  const hostChunkBytes = layout.hostWeightsBytes - layout.hostExpertBytes * (1 - share);
  // Experts spread over a data-parallel engine's ranks: a chunk reads the card's own weights once (expertGroup.ts).
  const group = layout.expertGroup;
  const perChunkBytes = group ? expertGroupReadBytes(group, model, chunkTokens) : (chunkBytes - hostChunkBytes) / tp;
  const deviceMs = (chunks * perChunkBytes) / (card.memBandwidthGBps * terms.bandwidthEfficiency * 1e6);
  let hostMs = 0;
  if (hostChunkBytes > 0) {
    const hostBw = layout.hostBandwidthGBps ?? DEFAULT_HOST_GBPS;
    if (layout.hostBandwidthGBps === null)
      assumed.push(`host bandwidth unknown: ${DEFAULT_HOST_GBPS.toFixed(1)} GB/s assumed`);
    hostMs = (chunks * hostChunkBytes) / (hostBw * terms.bandwidthEfficiency * 1e6);
  }

  const reduce = allReduceMs(tp, model.layers, model.hiddenSize, chunkTokens, links, terms);
  const hops = pipelineHopsMs(layout.pipelineStages, model.hiddenSize, chunkTokens, links, terms);
  const rpc = rpcMs(model.hiddenSize, chunkTokens, links);
  const exchange = group ? expertExchangeMs(group, model, chunkTokens, links, terms, true) : { ms: 0, assumed: "" };
  for (const a of [reduce.assumed, hops.assumed, rpc.assumed, exchange.assumed]) if (a !== "") assumed.push(a);

  let layerMs = Math.max(computeMs, deviceMs) + hostMs + chunks * (terms.stepFixedMs + reduce.ms + exchange.ms);
  const stages = Math.max(1, layout.pipelineStages);
  if (layout.engine === "llamacpp" && stages > 1) {
    // Each batch's ubatches flow through the cards like a pipeline: u ubatches
    // over N cards take (u + N − 1) slots of one card's share instead of u × N.
    const ubatchesPerBatch = Math.ceil(Math.min(promptTokens, LLAMACPP_BATCH_TOKENS) / terms.prefillChunkTokens);
    layerMs *= (ubatchesPerBatch + stages - 1) / (ubatchesPerBatch * stages);
  }
  return { ms: layerMs + chunks * (hops.ms + rpc.ms), assumed };
}
