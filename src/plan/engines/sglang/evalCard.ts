/** What an SGLang card holds: mem_fraction_static of the total, less the weights and its CUDA context. */
import { cudaTotalBytes } from "../../cards.ts";
import { cardEval } from "../engine.ts";
import { runElemBytes, servingWeights } from "../serving/weights.ts";
import { sglangBytesPerToken, sglangSequenceBytes } from "./kv.ts";
import { deepEpBufferBytes } from "./deepep.ts";
import { sglangContextBytes } from "./memory.ts";
import { sglangMemFraction } from "./settings.ts";
import { mtpBytesLoaded, mtpBytesSkipped } from "../vllm/mtp.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { resolveSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { KvDtype, Workload } from "../../types.ts";

/** Bytes of one KV element: "auto" is the dtype the model runs in, fp8 one byte (as vLLM). */
export function sglangKvElementBytes(kv: KvDtype, modelDtypeBytes: number): number {
  return kv === "fp8" ? 1 : modelDtypeBytes;
}

export function sglangEvalCard(
  layout: Layout,
  part: Part,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): CardEval {
  if (layout.placement.dpAttention === true) return dpAttentionCard(layout, part, ctx, w, contextTokens);
  const s = resolveSettings("sglang", part.physicalBytes, w.settings, part.tensorParallel, w.sequences, part.gpuClass);
  const elem = sglangKvElementBytes(w.kvDtype, runElemBytes(ctx.shape, s));
  const weights = servingWeights(part, ctx.shape, s);
  return cardEval("sglang", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    weightsBytes: weights.bodyBytes + weights.embedBytes - mtpBytesSkipped(part, ctx.shape, w.settings),
    usableBytes: s.memFractionStatic * cudaTotalBytes(part.physicalBytes, part.gpuClass),
    engineBytes: sglangContextBytes(part.tensorParallel),
    kvAt: (c) => sglangSequenceBytes(part.kv, elem, c),
    stepTokens: 1,
    stepBytes: sglangBytesPerToken(part.kv, elem),
    sequences: Math.max(1, w.sequences),
    outsideOk: true,
    mtpWeightsBytes: mtpBytesLoaded(part, ctx.shape, w.settings),
  });
}

/**
 * One card of SGLang's DP attention (engines/serving/dpAttention.ts): its own pool at the group's
 * mem_fraction_static (tp_size the whole group, with the DP-attention reserve at dp_size), the group's NCCL
 * context, DeepEP's buffers across nodes, its share of the MTP layer, and its DP rank's share of the sequences
 * (the scheduler divides --max-running-requests by dp_size: model_runner `server_args.max_running_requests // dp_size`).
 */
function dpAttentionCard(layout: Layout, part: Part, ctx: EvalContext, w: Workload, contextTokens: number): CardEval {
  const dp = Math.max(1, layout.dataParallel);
  const ranks = dp * Math.max(1, part.tensorParallel);
  const s = resolveSettings("sglang", part.physicalBytes, w.settings, ranks, w.sequences, part.gpuClass);
  const mla = ctx.shape.layerCaches.some((l) => l.kind === "mla");
  const fraction = w.settings.memFractionStatic ?? sglangDpAttentionFraction(part.physicalBytes, ranks, dp, mla);
  const elem = sglangKvElementBytes(w.kvDtype, runElemBytes(ctx.shape, s));
  const weights = servingWeights(part, ctx.shape, s);
  const comm = layout.placement.nodes > 1 ? sglangDeepEpBytes(ctx.shape, ranks) : 0;
  return cardEval("sglang", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    // mtpBytes* take the part's attention-TP share: a 1/dp of that is the card's 1/ranks of the MTP layer.
    weightsBytes: weights.bodyBytes + weights.embedBytes - mtpBytesSkipped(part, ctx.shape, w.settings) / dp,
    usableBytes: fraction * cudaTotalBytes(part.physicalBytes, part.gpuClass),
    engineBytes: sglangContextBytes(ranks) + comm,
    kvAt: (c) => sglangSequenceBytes(part.kv, elem, c),
    stepTokens: 1,
    stepBytes: sglangBytesPerToken(part.kv, elem),
    sequences: Math.ceil(Math.max(1, w.sequences) / dp),
    outsideOk: true,
    mtpWeightsBytes: mtpBytesLoaded(part, ctx.shape, w.settings) / dp,
    commBufferBytes: comm,
  });
}

/**
 * SGLang's default --mem-fraction-static for a DP-attention group of `tp` cards in `dp` ranks (its TP rule at
 * tp_size `tp`, the graph reserve at dp_size `dp`), kept per card and split.
 */
export function sglangDpAttentionFraction(cardBytes: number, tp: number, dp: number, mla: boolean): number {
  const key = `${cardBytes}|${tp}|${dp}|${mla ? 1 : 0}`;
  let f = dpaFractions.get(key);
  if (f === undefined) {
    f = sglangMemFraction(cardBytes, tp, mla, dp);
    dpaFractions.set(key, f);
  }
  return f;
}
const dpaFractions = new Map<string, number>();

/** DeepEP's buffers on a card of a group of `ranks` (sglang/deepep.ts), dispatching in FP8 for an FP8 checkpoint. */
function sglangDeepEpBytes(shape: ModelShape, ranks: number): number {
  const experts = shape.moe?.routedExperts ?? 0;
  if (experts <= 0) return 0;
  const b = deepEpBufferBytes(shape.hiddenSize, experts, ranks, shape.quantMethod === "fp8");
  return b.nvlBytes + b.rdmaBytes;
}
