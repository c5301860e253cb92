/** What a llama.cpp card holds: its layers, their whole cache (every slot, up front) and its compute buffer, against the card less --fit's margin. */
import { CUDA_CONTEXT_BYTES } from "../../cards.ts";
import { cardEval } from "../engine.ts";
import { partOfferBytes } from "./free.ts";
import { LLAMACPP_KV_PAD, llamacppCacheBytes } from "./kv.ts";
import { LLAMACPP_FIT_MARGIN_BYTES, llamacppComputeBytes } from "./memory.ts";
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
  const s = resolveSettings("llamacpp", part.physicalBytes, w.settings, part.tensorParallel, w.sequences, part.gpuClass);
  const elem = llamacppKvElementBytes(w.kvDtype);
  return cardEval("llamacpp", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    weightsBytes: part.bodyBytes + part.embedBytes,
    usableBytes: partOfferBytes(part) - LLAMACPP_FIT_MARGIN_BYTES,
    engineBytes: CUDA_CONTEXT_BYTES + llamacppComputeBytes(ctx.shape, s.ubatch, part.holdsOutput),
    // llama.cpp allocates every slot's context up front: n_ctx = context × --parallel.
    kvAt: (c) => llamacppCacheBytes(part.kv, elem, c, s.parallel, s.ubatch),
    stepTokens: LLAMACPP_KV_PAD / s.parallel,
    stepBytes: LLAMACPP_KV_PAD * growingBytesPerToken(part.kv, elem),
    sequences: 1,
    outsideOk: true,
  });
}
