/**
 * A data-parallel MoE engine's expert exchange (src/plan/speed/expertGroup.ts) against InferenceX's SGLang
 * DeepSeek-R1 decode workers with DP attention and EP (expertGroupCases.ts: their rows and why only those).
 * The two exchange terms are fitted on the even rows by id and checked on the odd ones; without them (the bytes
 * at the link's full rate and no fixed cost) every row is predicted 13–53% fast.
 */
import { describe, expect, test } from "vitest";
import { EXCHANGE_TERMS, expertExchangeMs } from "../../src/plan/index.ts";
import { exchangeCases, fitExchange, predictTpot } from "./expertGroupCases.ts";
import { absQuantile } from "./speedCases.ts";

const cases = exchangeCases();
const fitted = cases.filter((c) => c.half === "fitted");
const checking = cases.filter((c) => c.half === "checking");
const errPct = (c: (typeof cases)[number]) => ((predictTpot(c) ?? NaN) / c.measuredTpotMs - 1) * 100;

describe("the expert exchange against SGLang's DP-attention decode (InferenceX)", () => {
  test("ten rows, five a half, on GB200, GB300, H200 and MI355X", () => {
    expect(cases).toHaveLength(10);
    expect(fitted).toHaveLength(5);
    expect(new Set(cases.map((c) => c.gpuClass))).toEqual(
      new Set(["gb200-186g", "gb300-288g", "h200-141g", "mi355x-288g"]),
    );
  });

  test("the committed terms are what the grid fit gives on the fitted half", () => {
    expect(fitExchange(fitted)).toEqual(EXCHANGE_TERMS);
  });

  test("checking half: median |error| ≤ 15%, every row within 35% (widest: GB300 DP 8 at 960 a rank, +31%)", () => {
    const errs = checking.map(errPct);
    expect(absQuantile(errs, 0.5)).toBeLessThanOrEqual(15);
    for (const [i, e] of errs.entries()) expect(Math.abs(e), checking[i]?.id).toBeLessThanOrEqual(35);
  });

  test("fitted half: median |error| ≤ 5% (the one wide miss, GB300 DP 48 at 171 a rank, is +44%)", () => {
    expect(absQuantile(fitted.map(errPct), 0.5)).toBeLessThanOrEqual(5);
  });

  test("without the exchange's terms the same rows are all predicted fast", () => {
    for (const c of cases) expect(predictTpot(c, 0, 1) ?? Infinity).toBeLessThan(c.measuredTpotMs);
  });
});

describe("the exchange's bytes", () => {
  const model = { moeLayers: 58, hiddenSize: 7168, expertsPerToken: 8 } as const;
  const group = {
    ranks: 16,
    ranksPerNode: 8,
    dataParallel: 16,
    busyRanks: 16,
    exchange: "all-to-all" as const,
    cardDenseBytes: 0,
    cardExpertBytes: 0,
  };
  const links = { intraNodeGBps: 450, fabricGBps: 50, crossNodeHops: 0, tensorParallelCrossesNodes: false };
  const terms = { exchangeLatencyUs: 0, exchangeLinkShare: 1 };
  const full = { ...model, weightsBytes: 1, routedExpertBytes: 1, routedExperts: 256, activeParams: 1, layers: 61 };
  const m = { ...full, kvBytesPerToken: 0, kvSplitByTensorParallel: false, attentionFlopsPerContextToken: 0 };
  const speedModel = { ...m, computeFormat: "fp8" as const };

  test("DeepSeek-R1 DP 16 over two nodes: half of 64 tokens × 8 experts × (7,392 B out + 14,336 back) cross the 50 GB/s fabric each MoE layer", () => {
    const perLayerMs = (64 * 8 * (7168 + 224 + 2 * 7168) * (8 / 16)) / (50 * 1e6);
    expect(expertExchangeMs(group, speedModel, 64, links, terms).ms).toBeCloseTo(58 * perLayerMs, 9);
  });

  test("within one node the gather moves 2 × (R − 1) × tokens × 2H over the node's link", () => {
    const one = { ...group, ranks: 8, dataParallel: 8, busyRanks: 8, exchange: "gather" as const };
    const perLayerMs = (2 * 7 * 64 * 2 * 7168) / (450 * 1e6);
    expect(expertExchangeMs(one, speedModel, 64, links, terms).ms).toBeCloseTo(58 * perLayerMs, 9);
  });
});
