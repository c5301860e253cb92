/** What a llama.cpp card holds: its layers, their whole cache (every slot, up front) and its compute buffer, against the card less --fit's margin. */
import { cardEval, measuredEngineBytes } from "../engine.ts";
import { deviceComputeBytes, deviceContextBytes } from "./device.ts";
import { flashAttnOff, flashOffComputeBytes, kqStepBytes } from "./flashAttn.ts";
import { partOfferBytes } from "./free.ts";
import { LLAMACPP_KV_PAD, llamacppCacheBytes } from "./kv.ts";
import { LLAMACPP_FIT_MARGIN_BYTES } from "./memory.ts";
import { growingBytesPerToken } from "../../kv.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { type ResolvedSettings, resolveSettings } from "../../settings.ts";
import type { KvDtype, Workload } from "../../types.ts";

/** Bytes of one KV element: f16 2 bytes; q8_0 34 per 32 and q4_0 18 per 32 (ggml block sizes; calibration: q8_0 is exactly 34/64 of f16). */
export function llamacppKvElementBytes(kv: KvDtype): number {
  if (kv === "q8_0") return 34 / 32;
  if (kv === "q4_0") return 18 / 32;
  return 2;
}

/** What a card's fit and figures turn on at the workload, before the context moves them. */
interface CardBasis {
  s: ResolvedSettings;
  elem: number;
  cpu: boolean;
  /** The compute buffer with flash attention on (the graph's, not growing with the cache). */
  flashOn: number;
  /** The compute buffer at the asked context. */
  computeHere: number;
  weightsBytes: number;
  usableBytes: number;
}

function basisOf(part: Part, ctx: EvalContext, w: Workload, contextTokens: number): CardBasis {
  const s = resolveSettings(
    "llamacpp",
    part.physicalBytes,
    w.settings,
    part.tensorParallel,
    w.sequences,
    part.gpuClass,
  );
  // An rpc-server's CPU (part.cpuNode) has the CPU backend's compute buffer and no CUDA context (device.ts).
  const cpu = part.cpuNode !== undefined;
  const flashOn = deviceComputeBytes(ctx.shape, s.ubatch, part.holdsOutput, cpu);
  return {
    s,
    elem: llamacppKvElementBytes(w.kvDtype),
    cpu,
    flashOn,
    computeHere: computeAt(ctx, w, part, s, flashOn, contextTokens),
    weightsBytes: part.bodyBytes + part.embedBytes,
    usableBytes: partOfferBytes(part) - LLAMACPP_FIT_MARGIN_BYTES,
  };
}

// Without flash attention the compute buffer grows with the cache (flashAttn.ts): it is counted
// at the workload's context, and its growth past it rides on the cache's, so the longest context holds both.
function computeAt(ctx: EvalContext, w: Workload, part: Part, s: ResolvedSettings, flashOn: number, c: number): number {
  return flashAttnOff(w)
    ? flashOffComputeBytes(ctx.shape, part.kv, c, s.parallel, s.ubatch, flashOn, s.kvUnified)
    : flashOn;
}

function engineBytesOf(w: Workload, b: CardBasis): number {
  return measuredEngineBytes(w, "llamacpp") ?? deviceContextBytes(b.cpu) + b.computeHere;
}

/**
 * Whether the card holds its part at the context: fitsEval(evalCard(…)) without the evaluation's objects,
 * for the offload search's probes (offload.ts), which ask it of one card several times a move.
 */
export function cardFits(part: Part, ctx: EvalContext, w: Workload, contextTokens: number): boolean {
  const b = basisOf(part, ctx, w, contextTokens);
  const cache = llamacppCacheBytes(part.kv, b.elem, contextTokens, b.s.parallel, b.s.ubatch, b.s.kvUnified);
  // As evalCard's kvAt at this context sums it, so that a card at the boundary is judged alike to the last bit.
  const needKv = cache + b.computeHere - b.computeHere;
  return needKv <= b.usableBytes - b.weightsBytes - engineBytesOf(w, b);
}

export function evalCard(_layout: Layout, part: Part, ctx: EvalContext, w: Workload, contextTokens: number): CardEval {
  const b = basisOf(part, ctx, w, contextTokens);
  const { s, elem, computeHere, flashOn } = b;
  const flashOff = flashAttnOff(w);
  const e = cardEval("llamacpp", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    weightsBytes: b.weightsBytes,
    usableBytes: b.usableBytes,
    engineBytes: deviceContextBytes(b.cpu) + computeHere,
    // llama.cpp allocates every slot's context up front: n_ctx = context × --parallel. With flash attention
    // on (the default) the compute buffer does not grow with the cache, and no second call is made.
    kvAt: (c) =>
      llamacppCacheBytes(part.kv, elem, c, s.parallel, s.ubatch, s.kvUnified) +
      (flashOff ? computeAt(ctx, w, part, s, flashOn, c) : flashOn) -
      computeHere,
    stepTokens: LLAMACPP_KV_PAD / s.parallel,
    // Past the windows a 256-cell step adds its cache, and without flash attention a step of KQ and mask.
    stepBytes:
      LLAMACPP_KV_PAD * growingBytesPerToken(part.kv, elem) +
      (flashOff ? kqStepBytes(ctx.shape, part.kv, s.ubatch) : 0),
    sequences: 1,
    outsideOk: true,
  });
  if (part.cpuNode !== undefined) e.load.cpuNode = part.cpuNode;
  return e;
}
