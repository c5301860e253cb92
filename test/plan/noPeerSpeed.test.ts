/**
 * Tensor parallel over cards without peer access (src/plan/speed/links.ts NO_PEER_ALL_REDUCE_US) against vLLM runs
 * over 2, 4 and 8 RTX 4090s (IOG-Foundation/llm-inference-benchmarks @4990a807, vLLM 0.8.5; rows of
 * test/fixtures/speed/serving-other-cards.jsonl, each with its quoted line). With the NVLink-fitted all-reduce alone
 * they read 20–55% fast: NVIDIA's GeForce driver gives the cards no peer access, so vLLM's custom all-reduce is off
 * and each all-reduce is NCCL's through the host. The rows' fitted half (by id, alternately) sets the constant;
 * the other half checks it. The one-card 4090 rows, which no all-reduce touches, are never fitted on.
 */
import { describe, expect, test } from "vitest";
import { estimateSpeed, NO_PEER_ALL_REDUCE_US, speedTerms, type SpeedTerms } from "../../src/plan/index.ts";
import { absQuantile, errorPct, otherCardCases, predictCase, type SpeedCase } from "./speedCases.ts";

const noPeerTp = otherCardCases().cases.filter(
  (c) => c.group === "serving-tpot" && c.input.links.peerToPeer === false && c.input.layout.tensorParallel > 1,
);

function termsOf(c: SpeedCase): SpeedTerms {
  return speedTerms(c.engine, c.input.card.kind, c.input.card.vendor, c.input.model.routedExperts === 0);
}

/** The fit's loss at a latency: median + ½ mean |log(predicted/measured)|, as test/plan/speedFit.ts fits. */
function lossAt(sel: SpeedCase[], us: number): number {
  const errs = sel
    .map((c) => Math.abs(Math.log((predictCase(c, { ...termsOf(c), noPeerAllReduceUs: us }) ?? Infinity) / c.measured)))
    .sort((a, b) => a - b);
  const mean = errs.reduce((s, e) => s + e, 0) / errs.length;
  return (errs[Math.floor(errs.length / 2)] ?? 0) + 0.5 * mean;
}

/** The latency, whole µs from 0 to 500, at which the fitted half's loss is least (the first of equals). */
export function fitNoPeerLatencyUs(sel: SpeedCase[]): number {
  let best = 0;
  for (let us = 1; us <= 500; us++) if (lossAt(sel, us) < lossAt(sel, best)) best = us;
  return best;
}

function errs(sel: SpeedCase[], terms?: (c: SpeedCase) => SpeedTerms): number[] {
  return sel.map((c) => errorPct(predictCase(c, terms?.(c)) ?? Number.NaN, c.measured));
}

describe("vLLM TP over RTX 4090s, which have no peer access", () => {
  const fitted = noPeerTp.filter((c) => c.half === "fitted");
  const checking = noPeerTp.filter((c) => c.half === "checking");

  test("14 rows, split 7 and 7, every one on GeForce cards over PCIe", () => {
    expect([fitted.length, checking.length]).toEqual([7, 7]);
    for (const c of noPeerTp) expect(c.cardLabel).toBe("rtx4090-24g");
  });

  test("the constant is the fit on the fitted half, to the microsecond", () => {
    expect(NO_PEER_ALL_REDUCE_US).toBe(fitNoPeerLatencyUs(fitted));
  });

  test("the checking half: TPOT |error| median ≤ 24% (22.2 measured), p90 ≤ 37% (35.0)", () => {
    const e = errs(checking);
    expect(absQuantile(e, 0.5)).toBeLessThanOrEqual(24);
    expect(absQuantile(e, 0.9)).toBeLessThanOrEqual(37);
  });

  test("without it the checking half reads fast by more (the error the constant mends)", () => {
    const without = errs(checking, (c) => ({ ...termsOf(c), noPeerAllReduceUs: termsOf(c).allReduceLatencyUs }));
    expect(absQuantile(without, 0.5)).toBeGreaterThan(absQuantile(errs(checking), 0.5) + 5);
    expect(without.every((e) => e < 0)).toBe(true);
  });

  test("a card with peer access (RTX 6000 Ada) keeps the fitted all-reduce; a GeForce card does not", () => {
    const c = noPeerTp[0];
    if (c === undefined) throw new Error("no case");
    const withPeer = predictCase({ ...c, input: { ...c.input, links: { ...c.input.links, peerToPeer: true } } });
    expect(withPeer as number).toBeLessThan(predictCase(c) as number);
  });
});

test("the basis says the all-reduces go through the host, and at what cost", () => {
  const c = noPeerTp[0];
  if (c === undefined) throw new Error("no case");
  const basis = estimateSpeed(c.input).basis;
  expect(basis).toContain(
    `all-reduces through the host (the cards have no peer access; ${NO_PEER_ALL_REDUCE_US} µs each) over the cards' link`,
  );
});
