/**
 * Issue 12's speed targets as figures, in one place: speed.test.ts asserts them, scripts/speed-accuracy.ts prints
 * them, and the README check holds the README's quoted figures to them. Primary rows only; prefill at pp512 only.
 */
import { absQuantile, errorPct, predictCase, type CaseGroup, type SpeedCase } from "./speedCases.ts";

/** Median / p90 of |error| (percent) on one half, with how many rows gave a figure. */
export interface SpeedTargetFigures {
  decode: { n: number; medianPct: number; p90Pct: number };
  prefillPp512: { n: number; medianPct: number };
  servingTpot: { n: number; medianPct: number };
  servingThroughputPerGpu: { n: number; medianPct: number };
}

/** Signed errors of the cases that give a figure. */
export function caseErrorsPct(sel: readonly SpeedCase[]): number[] {
  return sel.flatMap((c) => {
    const p = predictCase(c);
    return p === null ? [] : [errorPct(p, c.measured)];
  });
}

const isPp512 = (c: SpeedCase): boolean => c.input.workload.inputTokens === 512;
const isServing = (c: SpeedCase): boolean => c.engine === "vllm" || c.engine === "sglang";

export function speedTargetFigures(cases: readonly SpeedCase[], half: SpeedCase["half"]): SpeedTargetFigures {
  const errs = (group: CaseGroup, more: (c: SpeedCase) => boolean = () => true): number[] =>
    caseErrorsPct(cases.filter((c) => c.group === group && c.tier === "primary" && c.half === half && more(c)));
  const decode = errs("llamacpp-decode");
  const pp512 = errs("llamacpp-prefill", isPp512);
  const tpot = errs("serving-tpot", isServing);
  const throughput = errs("serving-throughput", isServing);
  return {
    decode: { n: decode.length, medianPct: absQuantile(decode, 0.5), p90Pct: absQuantile(decode, 0.9) },
    prefillPp512: { n: pp512.length, medianPct: absQuantile(pp512, 0.5) },
    servingTpot: { n: tpot.length, medianPct: absQuantile(tpot, 0.5) },
    servingThroughputPerGpu: { n: throughput.length, medianPct: absQuantile(throughput, 0.5) },
  };
}
