/** What a llama.cpp card holds: its layers, their whole cache (every slot, up front) and its compute buffer, against the card less --fit's margin. */
import { cardEval } from "../engine.ts";
import { deviceComputeBytes, deviceContextBytes } from "./device.ts";
import { flashAttnOff, flashOffComputeBytes, kqStepBytes } from "./flashAttn.ts";
import { partOfferBytes } from "./free.ts";
import { LLAMACPP_KV_PAD, llamacppCacheBytes } from "./kv.ts";
import { LLAMACPP_FIT_MARGIN_BYTES } from "./memory.ts";
import { growingBytesPerToken } from "../../kv.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { resolveSettings } from "../../settings.ts";
import type { KvDtype, Workload } from "../../types.ts";

/** Bytes of one KV element: f16 2 bytes; q8_0 34 per 32 and q4_0 18 per 32 (ggml block sizes; calibration: q8_0 is exactly 34/64 of f16). */
export function llamacppKvElementBytes(kv: KvDtype): number {
  if (kv === "q8_0") return 34 / 32;
  if (kv === "q4_0") return 18 / 32;
  return 2;
}

export function evalCard(_layout: Layout, part: Part, ctx: EvalContext, w: Workload, contextTokens: number): CardEval {
  const s = resolveSettings(
    "llamacpp",
    part.physicalBytes,
    w.settings,
    part.tensorParallel,
    w.sequences,
    part.gpuClass,
  );
  const elem = llamacppKvElementBytes(w.kvDtype);
  // Without flash attention the compute buffer grows with the cache (flashAttn.ts): it is counted
  // at the workload's context, and its growth past it rides on the cache's, so the longest context holds both.
  // An rpc-server's CPU (part.cpuNode) has the CPU backend's compute buffer and no CUDA context (device.ts).
  const cpu = part.cpuNode !== undefined;
  const flashOn = deviceComputeBytes(ctx.shape, s.ubatch, part.holdsOutput, cpu);
  const computeAt = (c: number): number =>
    flashAttnOff(w) ? flashOffComputeBytes(ctx.shape, part.kv, c, s.parallel, s.ubatch, flashOn, s.kvUnified) : flashOn;
  const computeHere = computeAt(contextTokens);
  const cacheAt = (c: number): number => llamacppCacheBytes(part.kv, elem, c, s.parallel, s.ubatch, s.kvUnified);
  const e = cardEval("llamacpp", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    weightsBytes: part.bodyBytes + part.embedBytes,
    usableBytes: partOfferBytes(part) - LLAMACPP_FIT_MARGIN_BYTES,
    engineBytes: deviceContextBytes(cpu) + computeHere,
    // llama.cpp allocates every slot's context up front: n_ctx = context × --parallel.
    kvAt: (c) => cacheAt(c) + computeAt(c) - computeHere,
    stepTokens: LLAMACPP_KV_PAD / s.parallel,
    // Past the windows a 256-cell step adds its cache, and without flash attention a step of KQ and mask.
    stepBytes:
      LLAMACPP_KV_PAD * growingBytesPerToken(part.kv, elem) +
      (flashAttnOff(w) ? kqStepBytes(ctx.shape, part.kv, s.ubatch) : 0),
    sequences: 1,
    outsideOk: true,
  });
  if (part.cpuNode !== undefined) e.load.cpuNode = part.cpuNode;
  return e;
}
