/** What an SGLang card holds: mem_fraction_static of the total, less the weights and its CUDA context. */
import { cudaTotalBytes } from "../../cards.ts";
import { cardEval } from "../engine.ts";
import { runElemBytes, servingWeights } from "../serving/weights.ts";
import { sglangBytesPerToken, sglangSequenceBytes } from "./kv.ts";
import { sglangContextBytes } from "./memory.ts";
import { mtpBytesLoaded, mtpBytesSkipped } from "../vllm/mtp.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { resolveSettings } from "../../settings.ts";
import type { KvDtype, Workload } from "../../types.ts";

/** Bytes of one KV element: "auto" is the dtype the model runs in, fp8 one byte (as vLLM). */
export function sglangKvElementBytes(kv: KvDtype, modelDtypeBytes: number): number {
  return kv === "fp8" ? 1 : modelDtypeBytes;
}

export function sglangEvalCard(
  _layout: Layout,
  part: Part,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): CardEval {
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
