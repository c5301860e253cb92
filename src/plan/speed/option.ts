/**
 * From what the planner knows (a plan option, the model's shape, its
 * artifact) to what the speed model reads (speed/types.ts), and the one
 * call the rest of the app makes: optionSpeed.
 * Here, not in speed/, because speed/ may not import the engine's types
 * (the plan lint zone forbids `../`).
 */
import { cardSpecOf, hasPeerAccess, speedCardWith } from "../cardSpecs.ts";
import type { GivenCardFigures } from "../links.ts";
import { onCpusOnly } from "../placement.ts";
import { kvBytesPerToken } from "../kvPerToken.ts";
import type { ModelShape } from "../shapeTypes.ts";
import { estimateSpeed, sequencesRunOf } from "./estimate.ts";
import { requestTokensOf } from "../settings.ts";
import { rpcCrossings } from "./rpc.ts";
import type { ComputeFormat, ExpertGroup, SpeedCard, SpeedEstimate, SpeedInput, SpeedModel } from "./types.ts";
import type { Artifact, PlanOption } from "../types.ts";

/**
 * The matrix units an artifact's weights run on: FP8 and FP4 checkpoints on
 * their own units; a GGUF's F16 on FP16 (llama.cpp's cuBLAS path), its
 * integer quants (Q4_K_M, Q8_0…) on INT8 (llama.cpp's MMQ kernels); the
 * rest on BF16. A card without the format falls back to its BF16 figure.
 */
export function computeFormatOf(artifact: Pick<Artifact, "format" | "quant">): ComputeFormat {
  const q = artifact.quant.toLowerCase();
  // A GGUF's MXFP4 runs through the same MMQ path as its other quants.
  if (artifact.format === "gguf") return /^(f16|bf16|f32)\b/.test(q) ? "fp16" : "int8";
  if (q.includes("fp8")) return "fp8";
  if (q.includes("nvfp4") || q.includes("mxfp4") || q === "fp4") return "fp4";
  return "bf16";
}

/**
 * Parameters one token multiplies: all of them for a dense model; for a
 * mixture of experts, all but the routed experts it does not pick
 * (total − routed × (1 − k/E)). Null without a parameter count.
 */
export function activeParamsOf(shape: ModelShape): number | null {
  if (shape.paramsTotal === null) return null;
  const moe = shape.moe;
  if (moe === null || moe.routedExperts <= 0 || moe.routedExpertParams === undefined) return shape.paramsTotal;
  const unpicked = 1 - Math.min(moe.expertsPerToken, moe.routedExperts) / moe.routedExperts;
  return shape.paramsTotal - moe.routedExpertParams * unpicked;
}

/**
 * The speed model's view of one artifact of a model. `kvElementBytes` is the
 * KV cache dtype's width (2 for f16/bf16, 1 for fp8/q8_0). Returns null, with
 * no guess, when the parameter count is unknown.
 */
export function speedModelOf(shape: ModelShape, artifact: Artifact, kvElementBytes: number): SpeedModel | null {
  const activeParams = activeParamsOf(shape);
  if (activeParams === null) return null;
  const moe = shape.moe;
  return {
    weightsBytes: artifact.bytes,
    routedExpertBytes: artifact.expertBytes,
    routedExperts: moe?.routedExperts ?? 0,
    expertsPerToken: moe?.expertsPerToken ?? 0,
    activeParams,
    layers: shape.layers,
    hiddenSize: shape.hiddenSize,
    kvBytesPerToken: kvBytesPerToken(shape.layerCaches, kvElementBytes),
    kvSplitByTensorParallel: shape.kvHeads > 0,
    attentionFlopsPerContextToken: 4 * shape.layers * shape.attentionHeads * shape.headDim,
    computeFormat: computeFormatOf(artifact),
    moeLayers: moeLayersOf(shape),
  };
}

/** What an option's speed needs beyond the option itself: the workload's lengths and the wires the cluster says it has. */
export interface SpeedContext {
  /** Prompt tokens of one request (`--input-tokens`, default 1024). */
  inputTokens: number;
  /** Tokens generated per request (`--output-tokens`, default 256). */
  outputTokens: number;
  /** Sequences at once (`--sequences`). */
  sequences: number;
  /** The KV dtype's element width in bytes (kv.ts kvElementBytes for the option's engine and the workload's kvDtype). */
  kvElementBytes: number;
  /** One direction of the fabric per card, GB/s; null when the fabric does not say (a default is assumed and flagged). */
  fabricGBps: number | null;
  /** The host's memory bandwidth, GB/s; null when the node does not say (a default is assumed and flagged). */
  hostBandwidthGBps: number | null;
  /** The CPU cores that run layers in a host's RAM; absent or null: host.ts DEFAULT_CPU_CORES, flagged. */
  hostCpuCores?: number | null;
  /** The context the option's command starts (--max-model-len, --context-length, llama.cpp's per-slot -c); absent: not checked. */
  contextTokens?: number;
  /** The speed figures the cluster gives a card class (links.ts cardFigures); absent: the card table's alone. */
  cardFigures?: ((gpuClass: string) => GivenCardFigures | null) | undefined;
}

/** A class's speed card: the table's, with what the cluster gives it in place. */
function speedCardIn(gpuClass: string, ctx: SpeedContext): SpeedCard {
  return speedCardWith(gpuClass, ctx.cardFigures?.(gpuClass) ?? null);
}

/** llama.cpp over RPC on hosts none of which has a card (cpuCluster.ts): every layer on a CPU, one host after another. */
function onCpuHostsOnly(option: PlanOption): boolean {
  return option.engine === "llamacpp" && !option.placement.cpu && onCpusOnly(option.placement);
}

/** The devices of a llama.cpp split that hold weights, by class: the per-card loads, host RAM left out. */
function splitDevicesOf(option: PlanOption): { gpuClass: string; bytes: number }[] {
  return option.cards
    .filter((c) => c.gpuClass !== "" && c.weightsBytes > 0)
    .map((c) => ({ gpuClass: c.gpuClass, bytes: c.weightsBytes * c.cards }));
}

/**
 * One card standing for a llama.cpp split over cards of several classes (-ts over a 4090 and a 3090):
 * the layer split runs its layers one device after another, so a token takes Σ bytesᵢ ÷ bandwidthᵢ,
 * the time of one card whose bandwidth is the harmonic mean of the devices' weighted by the bytes
 * each holds; compute the same. Kind and vendor (for the fitted terms) are the device's that holds
 * the most. Null for one class, or where a class has no spec (its speed stays unknown, not guessed).
 */
function splitCardOf(option: PlanOption, ctx: SpeedContext): SpeedCard | null {
  if (option.engine !== "llamacpp" || option.placement.tensorSplit === undefined) return null;
  const devices = splitDevicesOf(option);
  const classes = [...new Set(devices.map((d) => d.gpuClass))];
  if (classes.length < 2) return null;
  const cards = devices.map((d) => ({ bytes: d.bytes, card: speedCardIn(d.gpuClass, ctx) }));
  const total = cards.reduce((sum, d) => sum + d.bytes, 0);
  const weighted = (rate: (c: SpeedCard) => number | null): number | null => {
    let seconds = 0;
    for (const d of cards) {
      const r = rate(d.card);
      if (r === null || !(r > 0)) return null;
      seconds += d.bytes / r;
    }
    return total / seconds;
  };
  const heaviest = cards.reduce((a, b) => (b.bytes > a.bytes ? b : a)).card;
  return {
    label: classes.join(" + "),
    kind: heaviest.kind,
    vendor: heaviest.vendor,
    // The user's figures for one of them are not the table's: neither checked nor unchecked, and said.
    vendorChecked: cards.some((d) => d.card.vendorChecked === null)
      ? null
      : cards.every((d) => d.card.vendorChecked === true),
    ...(cards.some((d) => d.card.givenInCluster)
      ? { givenInCluster: { kindAssumed: cards.some((d) => d.card.givenInCluster?.kindAssumed === true) } }
      : {}),
    memBandwidthGBps: weighted((c) => c.memBandwidthGBps),
    tflops: {
      bf16: weighted((c) => c.tflops.bf16),
      fp16: weighted((c) => c.tflops.fp16),
      fp8: weighted((c) => c.tflops.fp8),
      fp4: weighted((c) => c.tflops.fp4),
      int8: weighted((c) => c.tflops.int8),
    },
  };
}

/** The card devices of a llama.cpp split, its CPU devices left out. */
function cardRowsOf(option: PlanOption): number {
  return Math.max(1, option.cards.filter((c) => c.gpuClass !== "" && c.cpuNode === undefined).length);
}

/** The slowest link between the cards of a split over several classes (null where a class has no spec). */
function slowestLinkOf(option: PlanOption): number | null {
  if (option.placement.tensorSplit === undefined) return null;
  const links = [...new Set(splitDevicesOf(option).map((d) => d.gpuClass))].map(
    (c) => cardSpecOf(c)?.link.gbpsPerDirection ?? null,
  );
  return links.length === 0 || links.includes(null) ? null : Math.min(...(links as number[]));
}

/** The weights on a llama.cpp split's CPU devices (rpc-servers on hosts without cards). */
function cpuDeviceBytesOf(option: PlanOption): number {
  let bytes = 0;
  for (const c of option.cards) if (c.cpuNode !== undefined) bytes += c.weightsBytes * c.cards;
  return bytes;
}

/** Decoder layers that carry routed experts. */
function moeLayersOf(shape: ModelShape): number {
  const moe = shape.moe;
  if (moe === null) return 0;
  return moe.moeLayers ?? Math.max(0, shape.layers - moe.denseFirstLayers);
}

/**
 * The bytes llama.cpp leaves in host RAM: --n-cpu-moe's experts, the layers -ngl does not put on the
 * cards, or the layers of a split's CPU devices (rpc-servers without cards, their rows' `cpuNode`).
 * Their experts are taken in the artifact's proportion, as for -ngl.
 */
function hostBytesOf(option: PlanOption, shape: ModelShape, artifact: Artifact): { weights: number; experts: number } {
  const p = option.placement;
  if (p.cpu || option.engine !== "llamacpp" || onCpuHostsOnly(option)) return { weights: 0, experts: 0 };
  const onCpuDevices = cpuDeviceBytesOf(option);
  if (onCpuDevices > 0) {
    const expertShare = artifact.bytes > 0 ? artifact.expertBytes / artifact.bytes : 0;
    return { weights: onCpuDevices, experts: onCpuDevices * expertShare };
  }
  const moeLayers = moeLayersOf(shape);
  if (p.cpuMoeLayers > 0 && moeLayers > 0) {
    const experts = artifact.expertBytes * Math.min(1, p.cpuMoeLayers / moeLayers);
    return { weights: experts, experts };
  }
  if (p.gpuLayers >= 0 && p.gpuLayers < shape.layers && shape.layers > 0) {
    const share = (shape.layers - p.gpuLayers) / shape.layers;
    return { weights: artifact.bytes * share, experts: artifact.expertBytes * share };
  }
  return { weights: 0, experts: 0 };
}

/** The CPU as the speed model sees it: no card figures; its RAM's bandwidth and cores come with the layout. */
export const CPU_SPEED_CARD: SpeedCard = {
  label: "CPU",
  kind: "cpu",
  vendor: "other",
  memBandwidthGBps: null,
  tflops: { bf16: null, fp16: null, fp8: null, fp4: null, int8: null },
  vendorChecked: null,
};

/**
 * One plan option as the speed model's input, or the reason it cannot be
 * one. llama.cpp's split runs its cards as pipeline stages (-sm layer);
 * vLLM/SGLang's stages span nodes one per node, so nodes − 1 hops cross the
 * fabric, and a TP group wider than a node crosses it too.
 */
export function speedInputOf(
  option: PlanOption,
  shape: ModelShape,
  artifact: Artifact,
  ctx: SpeedContext,
  model: SpeedModel | null = speedModelOf(shape, artifact, ctx.kvElementBytes),
): SpeedInput | string {
  if (model === null) return `${artifact.name}: the parameter count is unknown, so the FLOPs per token are`;
  const p = option.placement;
  // On CPU hosts alone (over RPC) the whole model runs as on one CPU, with the RPC crossings between them.
  const cpuOnly = p.cpu || onCpuHostsOnly(option);
  const spec = cpuOnly ? undefined : cardSpecOf(p.gpuClass);
  const card: SpeedCard = cpuOnly ? CPU_SPEED_CARD : (splitCardOf(option, ctx) ?? speedCardIn(p.gpuClass, ctx));
  const llamacpp = option.engine === "llamacpp";
  const cards = Math.max(1, p.gpusPerNode * p.nodes);
  const host = hostBytesOf(option, shape, artifact);
  // A data-parallel engine is its ranks side by side: the speed model sees one rank, its share of the
  // sequences and of the pool (optionSpeed adds the ranks up).
  const ranks = dataParallelRanks(option);
  const input: SpeedInput = {
    card,
    model,
    layout: {
      engine: option.engine,
      tensorParallel: llamacpp ? 1 : p.tensorParallel,
      // A split's CPU devices are no card stage: their layers are the host's share, their boundaries RPC crossings.
      pipelineStages: llamacpp
        ? cpuOnly
          ? 1
          : cpuDeviceBytesOf(option) > 0
            ? cardRowsOf(option)
            : cards
        : p.pipelineParallel,
      // SGLang's --ep-size is the TP size (engines/sglang/commands.ts) and vLLM's EP group within one DP rank is its TP
      // group: a stage's MoE layers spread their experts over its tp cards, whatever the stages.
      expertParallel: p.expertParallel ? p.tensorParallel : 1,
      hostWeightsBytes: host.weights,
      hostExpertBytes: host.experts,
      hostBandwidthGBps: ctx.hostBandwidthGBps,
      cpuOnly,
      // A split's CPU devices (rpc-servers without cards) multiply their own layers, the prompt's too.
      cpuComputedWeightsBytes: cpuOnly ? 0 : cpuDeviceBytesOf(option),
      cpuCores: ctx.hostCpuCores ?? null,
    },
    links: {
      intraNodeGBps: spec?.link.gbpsPerDirection ?? slowestLinkOf(option),
      fabricGBps: ctx.fabricGBps,
      // llama.cpp's hosts are joined by RPC, whose crossings (rpc.ts) replace the pipeline's cross-node hops.
      crossNodeHops: llamacpp ? 0 : Math.max(0, p.nodes - 1),
      tensorParallelCrossesNodes: !llamacpp && p.tensorParallel > p.gpusPerNode,
      ...(spec !== undefined && !hasPeerAccess(spec) ? { peerToPeer: false } : {}),
    },
    workload: {
      inputTokens: ctx.inputTokens,
      outputTokens: ctx.outputTokens,
      sequences: Math.ceil(ctx.sequences / ranks),
      sequencesTheKvHolds: sequencesTheKvHoldsOf(option, ctx),
    },
  };
  // Set, not spread: speedInputOf runs for every option on every slider move.
  if (llamacpp && p.nodes > 1) input.links.rpcCrossings = rpcCrossings(p.nodes);
  const group = ranks > 1 ? expertGroupOf(option, model, artifact, ctx.sequences) : null;
  if (group) input.layout.expertGroup = group;
  return input;
}

/**
 * The basis's words on an expert-parallel option within one TP group: what its figure rests on (speed/experts.ts
 * cardExpertShare), and what it was checked against: InferenceX's SGLang DeepSeek-R1 FP8 TP 8 runs on B200 with
 * EP 8 and EP 1 (test/fixtures/speed/ep-pairs.jsonl, test/plan/epPairs.test.ts; a month of builds apart, so
 * checked, not fitted).
 */
const EP_NOTE =
  "expert parallel: a card reads the touched experts it holds, whole, and each MoE layer waits for the card holding the most (routing taken as uniform; hot experts would slow it more); checked on InferenceX's SGLang DeepSeek-R1 TP 8 on B200, EP 8 against EP 1: the TPOT ratio within 5% of the measured at 4–64 sequences";

/** The basis's words for a parameter count read from config.json because the repository gave none. */
const CONFIG_COUNT_NOTE = "parameter count from config.json (the Hub gave none)";

/**
 * A request longer than the context the option's command starts: the engine refuses it (vLLM's HTTP 400: "This
 * model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778)", as
 * quoted in andrewcho-dev/opsconductor-ng vLLM_transition/TOKEN_LIMIT_FIX.md; llama-server: the slot's context),
 * so its figures describe a server started with a longer context. Said, not hidden: before, an 8,192-token prompt
 * and 1,024 more out on an 8,192 context got a time to first token and nothing else.
 */
function requestPastContext(ctx: SpeedContext): string {
  const request = requestTokensOf(ctx);
  if (ctx.contextTokens === undefined || request <= ctx.contextTokens) return "";
  const n = (t: number) => t.toLocaleString("en-US");
  return `the request (${n(ctx.inputTokens)} in + ${n(ctx.outputTokens)} out = ${n(request)} tokens) is longer than the ${n(ctx.contextTokens)}-token context the command starts, which refuses it (give a context of ${n(request)} or more): the figures price it as if it were served`;
}

/** A speed with no figure, and why. */
export function noSpeed(basis: string): SpeedEstimate {
  return {
    decodeTps: null,
    prefillTps: null,
    ttftMs: null,
    tpotMs: null,
    throughputTps: null,
    sequencesRun: 0,
    basis,
  };
}

/**
 * The speed of one plan option: the call the options, JSON, CLI and page
 * make. Null figures carry their reason in `basis`. Pass `model` (speedModelOf
 * once per artifact and KV dtype) when speeding many options of one artifact:
 * it walks the layers for the KV bytes, the rest is closed-form.
 */
export function optionSpeed(
  option: PlanOption,
  shape: ModelShape,
  artifact: Artifact,
  ctx: SpeedContext,
  model: SpeedModel | null = speedModelOf(shape, artifact, ctx.kvElementBytes),
): SpeedEstimate {
  const input = speedInputOf(option, shape, artifact, ctx, model);
  if (typeof input === "string") return noSpeed(`speed not estimated: ${input} unknown`);
  const estimate = estimateSpeed(input);
  // A count from config.json (config/params.ts) rather than the Hub's is said, as every assumption is; so is
  // what an expert-parallel TP group's figure rests on.
  const said = [
    requestPastContext(ctx),
    shape.paramsSource === "config" ? CONFIG_COUNT_NOTE : "",
    // A data-parallel expert group prices its experts its own way (expertGroup.ts); the note is the TP group's.
    input.layout.expertParallel > 1 && input.layout.expertGroup === undefined ? EP_NOTE : "",
  ].filter((n) => n !== "");
  const one = said.length > 0 ? { ...estimate, basis: [estimate.basis, ...said].join("; ") } : estimate;
  const ranks = dataParallelRanks(option);
  if (ranks === 1) return one;
  // Ranks that get a sequence at all: fewer sequences than ranks leave some idle.
  const busy = Math.min(ranks, ctx.sequences);
  return {
    ...one,
    throughputTps: one.throughputTps === null ? null : one.throughputTps * busy,
    sequencesRun: Math.min(ctx.sequences, one.sequencesRun * busy),
    basis: `${one.basis}; ${ranks} data-parallel ranks, each with its share of the sequences (throughput is theirs together)`,
  };
}

/** Whole sequences of the request's length one rank's KV pool holds; null where the plan sizes no pool for it (the CPU). */
function sequencesTheKvHoldsOf(option: PlanOption, ctx: SpeedContext): number | null {
  const perSequenceTokens = ctx.inputTokens + ctx.outputTokens;
  if (option.placement.cpu || perSequenceTokens <= 0) return null;
  return Math.floor(option.kvPoolTokens / dataParallelRanks(option) / perSequenceTokens);
}

/**
 * Everything optionSpeed reads from an option and its context that can change between two calls on
 * one layout, as numbers (unknown as −1): equal questions (one layout at two contexts of the slider)
 * have equal speeds. The pool enters only as the sequences it lets run, which is all it changes.
 * Written into `into` when given: the slider asks it of every option at every move, and a scratch array
 * compared with the last question allocates nothing when the answer is the last one.
 */
export function speedQuestionOf(option: PlanOption, ctx: SpeedContext, into: number[] = []): number[] {
  const p = option.placement;
  into[0] = sequencesRunOf(Math.ceil(ctx.sequences / dataParallelRanks(option)), sequencesTheKvHoldsOf(option, ctx));
  into[1] = p.gpuLayers;
  into[2] = p.cpuMoeLayers;
  into[3] = ctx.inputTokens;
  into[4] = ctx.outputTokens;
  into[5] = ctx.sequences;
  into[6] = ctx.kvElementBytes;
  into[7] = ctx.fabricGBps ?? -1;
  into[8] = ctx.hostBandwidthGBps ?? -1;
  into[9] = ctx.hostCpuCores ?? -1;
  // Whether the request outruns the context: the basis says so (requestPastContext), the figures do not move.
  into[10] = ctx.contextTokens !== undefined && requestTokensOf(ctx) > ctx.contextTokens ? ctx.contextTokens : 0;
  return into;
}

/**
 * A data-parallel MoE engine's expert group (speed/expertGroup.ts): vLLM's DP ranks spread the experts over
 * DP × TP cards ("expert layers form a tensor parallel group of size DP × TP", its all2all by all-gather and
 * reduce-scatter over the DP group unless told otherwise); SGLang's DP attention over them too, through DeepEP's all-to-all across
 * nodes and by gather within one (its plain --dp-size ranks are replicas). A card's bytes are its load's, its
 * experts E ÷ ranks a layer (ceil, under EP).
 */
function expertGroupOf(
  option: PlanOption,
  model: SpeedModel,
  artifact: Artifact,
  sequences: number,
): ExpertGroup | null {
  const p = option.placement;
  const dp = dataParallelRanks(option);
  const card = option.cards[0];
  if (dp <= 1 || model.routedExperts <= 1 || !card || option.engine === "llamacpp") return null;
  // SGLang's plain --dp-size ranks are whole replicas, each its own experts: no group.
  if (option.engine !== "vllm" && p.dpAttention !== true) return null;
  const ranks = dp * Math.max(1, p.tensorParallel) * Math.max(1, p.pipelineParallel);
  const e = model.routedExperts;
  const cardExpertBytes = artifact.expertBytes * (p.expertParallel ? Math.ceil(e / ranks) / e : 1 / ranks);
  const group: ExpertGroup = {
    ranks,
    ranksPerNode: Math.max(1, p.gpusPerNode),
    dataParallel: dp,
    busyRanks: Math.max(1, Math.min(dp, sequences)),
    exchange: p.dpAttention === true && p.nodes > 1 ? "all-to-all" : "gather",
    cardDenseBytes: Math.max(0, card.weightsBytes - cardExpertBytes),
    cardExpertBytes,
  };
  if (p.dpAttention === true && p.tensorParallel > 1) group.attentionTp = p.tensorParallel;
  // vLLM's allgather_reducescatter spans the DP group, or under sequence-parallel MoE (EP, TP > 1) the EP group with
  // a 1/tp chunk of the rank's tokens a card (speed/expertGroup.ts).
  if (option.engine === "vllm" && (p.tensorParallel > 1 || p.pipelineParallel > 1)) {
    const sequenceParallel = p.expertParallel && p.tensorParallel > 1;
    group.gatherRanks = sequenceParallel ? dp * p.tensorParallel : dp;
    if (sequenceParallel) group.sequenceSplit = p.tensorParallel;
  }
  return group;
}

/** The data-parallel ranks of one vLLM/SGLang engine (placement.dataParallel), 1 otherwise. */
function dataParallelRanks(option: PlanOption): number {
  return Math.max(1, option.placement.dataParallel ?? 1);
}
