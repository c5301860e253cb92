/** The MTP (multi-token-prediction) weights a vLLM or SGLang card loads: only with speculative decoding on. */
import { mtpWeightBytes } from "../../config/mtp.ts";
import type { Part } from "../../layout.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { EngineSettings } from "../../types.ts";

/**
 * The checkpoint's MTP weights a card does NOT load: all of them unless speculative decoding uses MTP
 * (config/mtp.ts); vLLM (and SGLang with --speculative-algorithm NEXTN/EAGLE) builds the drafter on the last pipeline stage, split like the decoder across TP.
 */
export function mtpBytesSkipped(part: Part, shape: ModelShape, settings: EngineSettings): number {
  return (settings.speculativeMtpTokens ?? 0) > 0 || !part.holdsOutput
    ? 0
    : mtpWeightBytes(shape) / part.tensorParallel;
}

/** The MTP weights a card loads (speculative decoding on): the bar's own band. */
export function mtpBytesLoaded(part: Part, shape: ModelShape, settings: EngineSettings): number {
  return (settings.speculativeMtpTokens ?? 0) > 0 && part.holdsOutput ? mtpWeightBytes(shape) / part.tensorParallel : 0;
}
