/**
 * Expert parallel within one TP group (issue 13): InferenceX ran SGLang DeepSeek-R1-0528 FP8 at TP 8 on B200 with
 * decode_ep 8 (2025-11-18) and decode_ep 1 (2025-12-14) at the same lengths and concurrency
 * (test/fixtures/speed/ep-pairs.jsonl, each row with its source). EP was 5–22% slower a token, less so as the batch
 * grows. The model prices EP by the card holding the most touched experts (src/plan/speed/experts.ts
 * cardExpertShare); no term is fitted on these pairs (the runs are a month of SGLang builds apart): they check the
 * EP ÷ TP-only TPOT ratio, which the old "EP = TP-only" model put at 1 (4.7–17.8% under the measured).
 */
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKLOAD, optionSpeed, plan, readModel, speedInputOf } from "../../src/plan/index.ts";
import type { PlanOption, SpeedContext } from "../../src/plan/index.ts";
import { nodesOf8 } from "./dpAttentionFixture.ts";
import { snapshotOf } from "./fixture.ts";
import { epPairRows, measuredRows, predictCase, speedCases } from "./speedCases.ts";

/** How far the predicted EP-8 ÷ EP-1 TPOT ratio may sit from the measured one: the builds differ by a month. */
const RATIO_TOLERANCE = 0.05;

const { cases } = speedCases();
const pairRows = epPairRows();
// The 1k/1k c4 EP-8 run is in the public set itself.
const candidates = [
  ...pairRows,
  ...measuredRows().filter((r) => r.id.startsWith("ix-dsr1-b200-sglang-fp8-sn-p8x64-d8ep8x64")),
];
const tpotOf = (id: string) => {
  const c = cases.find((x) => x.id === `${id} tpot`);
  if (c === undefined) throw new Error(`no TPOT case for ${id}`);
  return c;
};
const pairs = pairRows
  .filter((r) => r.ep === 1)
  .map((one) => {
    const eight = candidates.find(
      (r) =>
        r.ep === 8 &&
        r.input_tokens === one.input_tokens &&
        r.output_tokens === one.output_tokens &&
        r.concurrency === one.concurrency,
    );
    if (eight === undefined) throw new Error(`no EP-8 run paired with ${one.id}`);
    return { one: tpotOf(one.id), eight: tpotOf(eight.id) };
  });
const predicted = (c: (typeof pairs)[number]["one"]) => {
  const p = predictCase(c);
  if (p === null) throw new Error(`no TPOT predicted for ${c.id}`);
  return p;
};

describe("TP 8 with and without expert parallel (InferenceX B200 SGLang DeepSeek-R1 FP8)", () => {
  test("four pairs, every row a checking case, the EP rows at EP 8 and the others without", () => {
    expect(pairs).toHaveLength(4);
    for (const p of pairs) expect([p.one.half, p.eight.half]).toEqual(["checking", "checking"]);
    for (const p of pairs)
      expect([p.one.input.layout.expertParallel, p.eight.input.layout.expertParallel]).toEqual([1, 8]);
  });

  // Measured EP ÷ TP-only: 1.167 (1k/1k c4), 1.124 (c16), 1.217 (8k/1k c4), 1.049 (1k/8k c64).
  test.each(pairs.map((p) => [p.eight.id, p] as const))(
    "%s: EP ÷ TP-only TPOT within 5% of the measured ratio",
    (_, p) => {
      const ratio = predicted(p.eight) / predicted(p.one);
      expect(Math.abs(ratio / (p.eight.measured / p.one.measured) - 1)).toBeLessThan(RATIO_TOLERANCE);
    },
  );

  test.each(pairs.flatMap((p) => [p.one, p.eight]).map((c) => [c.id, c] as const))("%s: within 40%", (_, c) => {
    expect(Math.abs(predicted(c) / c.measured - 1)).toBeLessThan(0.4);
  });
});

describe("the plan's own options for DeepSeek-R1 on 8 × B200 read EP as the cases do", () => {
  const s = snapshotOf("deepseek-ai__DeepSeek-R1");
  const { shape, artifacts } = readModel(s);
  const r1 = artifacts[0];
  const p = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, nodesOf8("b200-180g", 1), {
    ...DEFAULT_WORKLOAD,
    sequences: 4,
  });
  const tp8 = (ep: boolean): PlanOption => {
    const o = p.options.find(
      (x) =>
        x.engine === "sglang" &&
        x.placement.tensorParallel === 8 &&
        x.placement.expertParallel === ep &&
        x.placement.dataParallel === undefined,
    );
    if (o === undefined) throw new Error(`the plan lists no SGLang TP 8 option ${ep ? "with" : "without"} EP`);
    return o;
  };
  const [first] = pairs;
  if (r1 === undefined || first === undefined) throw new Error("no R1 artifact or no pair");
  const w = first.one.input.workload;
  const ctx: SpeedContext = {
    inputTokens: w.inputTokens,
    outputTokens: w.outputTokens,
    sequences: w.sequences,
    kvElementBytes: 2,
    fabricGBps: null,
    hostBandwidthGBps: null,
  };

  test("--ep-size 8 is an expert-parallel width of 8 (the EP-8 row's), TP alone 1", () => {
    const widths = [tp8(true), tp8(false)].map((o) => {
      const input = speedInputOf(o, shape, r1, ctx);
      if (typeof input === "string") throw new Error(input);
      return input.layout.expertParallel;
    });
    expect(widths).toEqual([first.eight.input.layout.expertParallel, first.one.input.layout.expertParallel]);
  });

  // Within 2%: the plan reads R1's own 163 files (641.3 GiB), the cases its 671 B parameters at 1 B each.
  test("the EP option is slower by the ratio the cases give (within 2%), and its basis says why", () => {
    const ep = optionSpeed(tp8(true), shape, r1, ctx);
    const tp = optionSpeed(tp8(false), shape, r1, ctx);
    if (ep.tpotMs === null || tp.tpotMs === null) throw new Error("no TPOT");
    const ratio = ep.tpotMs / tp.tpotMs / (predicted(first.eight) / predicted(first.one));
    expect(Math.abs(ratio - 1)).toBeLessThan(0.02);
    expect(ep.basis).toContain("each MoE layer waits for the card holding the most");
    expect(tp.basis).not.toContain("expert parallel");
  });
});
