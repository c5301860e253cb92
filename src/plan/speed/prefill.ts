/**
 * One request's prompt, alone. Prefill multiplies every prompt token by the
 * active weights (2 × active params FLOPs per token) plus attention over the
 * tokens before it, so it is compute-bound; the weights are still read once
 * per chunk (llama.cpp's 512-token ubatch, vLLM/SGLang's chunked-prefill
 * budget), which is what makes short prompts on small cards slower per token.
 */
import { cardCompute } from "./decode.ts";
import { expertParallelCardBytes, touchedExpertShare } from "./experts.ts";
import { cpuComputeMs, DEFAULT_HOST_GBPS } from "./host.ts";
import { HOST_BANDWIDTH_ASSUMED } from "./hostAssumed.ts";
import { expertExchangeMs, expertGroupReadBytes, tensorReduceLayers } from "./expertGroup.ts";
import { addSaid, allReduceMs, NO_WIRE, pipelineHopsMs } from "./links.ts";
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

/**
 * The share of a token's FLOPs whose layers a CPU computes: all on the CPU path; an RPC split's CPU devices'
 * layers by the bytes a token multiplies there (dense + the picked experts); none for layers llama.cpp leaves
 * in the card host's RAM, whose prompt matmuls its op offload runs on the card (ggml-backend.cpp's scheduler
 * copies such weights up for batches of 32 tokens or more: the CUDA backend's `offload_op`).
 */
function cpuFlopShare(input: SpeedInput): number {
  const { model, layout } = input;
  if (layout.cpuOnly) return 1;
  const onCpu = layout.cpuComputedWeightsBytes ?? 0;
  if (onCpu <= 0 || layout.hostWeightsBytes <= 0) return 0;
  const picked = model.routedExperts > 0 ? Math.min(1, model.expertsPerToken / model.routedExperts) : 1;
  const active = model.weightsBytes - model.routedExpertBytes * (1 - picked);
  const hostActive = layout.hostWeightsBytes - layout.hostExpertBytes * (1 - picked);
  return active > 0 ? Math.min(1, ((onCpu / layout.hostWeightsBytes) * hostActive) / active) : 0;
}

export function prefillMs(input: SpeedInput, terms: SpeedTerms, promptTokens: number): PrefillTime {
  const { model, layout, card, links } = input;
  const assumed: string[] = [];
  const { tflops, format } = cardCompute(input);
  if (!layout.cpuOnly && (tflops === null || card.memBandwidthGBps === null)) return { ms: null, assumed };
  // A card the user described by one BF16 figure: its INT8 or FP8 units may be faster, which is not guessed.
  if (card.givenInCluster && format !== model.computeFormat)
    assumed.push(
      `prompt's ${model.computeFormat} matmuls priced at the given BF16 TFLOPS (the card has no ${model.computeFormat} figure)`,
    );
  const tp = Math.max(1, layout.tensorParallel);
  const chunkTokens = Math.min(promptTokens, terms.prefillChunkTokens);
  const chunks = Math.ceil(promptTokens / terms.prefillChunkTokens);

  const linearFlops = promptTokens * 2 * model.activeParams;
  const attentionFlops = (model.attentionFlopsPerContextToken * promptTokens * promptTokens) / 2;
  const efficiency = terms.prefillEfficiencyByFormat[format] ?? terms.prefillComputeEfficiency;
  // The layers a CPU holds multiply on its cores (host.ts CPU_PREFILL_GFLOPS_PER_CORE), the rest on the card.
  const onCpu = cpuFlopShare(input);
  const computeMs =
    onCpu >= 1 || tflops === null
      ? 0
      : (1 - onCpu) *
        (linearFlops / (tp * tflops * efficiency * 1e9) +
          attentionFlops / (tp * tflops * terms.attentionComputeEfficiency * 1e9));
  const cpu = onCpu > 0 ? cpuComputeMs(onCpu * (linearFlops + attentionFlops), layout.cpuCores) : NO_WIRE;
  if (cpu.assumed !== "") assumed.push(cpu.assumed);

  const share = touchedExpertShare(model.routedExperts, model.expertsPerToken, chunkTokens);
  const chunkBytes = model.weightsBytes - model.routedExpertBytes * (1 - share);
  const hostChunkBytes = layout.cpuOnly ? chunkBytes : layout.hostWeightsBytes - layout.hostExpertBytes * (1 - share);
  // Experts spread over a data-parallel engine's ranks: a chunk reads the card's own weights once (expertGroup.ts).
  const group = layout.expertGroup;
  // Under expert parallel the chunk waits for the card holding the most of the experts it touches (experts.ts).
  const perChunkBytes = group
    ? expertGroupReadBytes(group, model, chunkTokens)
    : layout.expertParallel > 1
      ? expertParallelCardBytes(model, layout, chunkTokens)
      : (chunkBytes - hostChunkBytes) / tp;
  const deviceMs = layout.cpuOnly
    ? 0
    : (chunks * perChunkBytes) / ((card.memBandwidthGBps ?? 0) * terms.bandwidthEfficiency * 1e6);
  let hostMs = 0;
  if (hostChunkBytes > 0) {
    const hostBw = layout.hostBandwidthGBps ?? DEFAULT_HOST_GBPS;
    if (layout.hostBandwidthGBps === null) assumed.push(HOST_BANDWIDTH_ASSUMED);
    hostMs = (chunks * hostChunkBytes) / (hostBw * terms.bandwidthEfficiency * 1e6);
  }

  const reduce = allReduceMs(tp, tensorReduceLayers(group, model.layers), model.hiddenSize, chunkTokens, links, terms);
  const hops = pipelineHopsMs(layout.pipelineStages, model.hiddenSize, chunkTokens, links, terms);
  const rpc = rpcMs(model.hiddenSize, chunkTokens, links);
  const exchange = group ? expertExchangeMs(group, model, chunkTokens, links, terms, true) : NO_WIRE;
  addSaid(assumed, reduce.assumed);
  addSaid(assumed, hops.assumed);
  addSaid(assumed, rpc.assumed);
  addSaid(assumed, exchange.assumed);

  // A CPU's layers: the larger of its multiplying and its reading them, after the cards' (one ubatch visits each in turn).
  let layerMs =
    Math.max(computeMs, deviceMs) + Math.max(cpu.ms, hostMs) + chunks * (terms.stepFixedMs + reduce.ms + exchange.ms);
  const stages = Math.max(1, layout.pipelineStages);
  // llama.cpp overlaps ubatches only when every device runs asynchronously with events; an RPC device reports
  // neither (ggml/src/ggml-rpc/ggml-rpc.cpp `ggml_backend_rpc_device_get_props`, caps async and events false, at
  // ggml-org/llama.cpp 075f1e0a936523f06b33173238f4c31b75bcb103), so a split over RPC runs them one after another.
  if (layout.engine === "llamacpp" && stages > 1 && (links.rpcCrossings ?? 0) <= 0) {
    // Each batch's ubatches flow through the cards like a pipeline: u ubatches
    // over N cards take (u + N − 1) slots of one card's share instead of u × N.
    const ubatchesPerBatch = Math.ceil(Math.min(promptTokens, LLAMACPP_BATCH_TOKENS) / terms.prefillChunkTokens);
    layerMs *= (ubatchesPerBatch + stages - 1) / (ubatchesPerBatch * stages);
  }
  return { ms: layerMs + chunks * (hops.ms + rpc.ms), assumed };
}
