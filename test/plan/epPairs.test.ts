/**
 * Expert parallel within one TP group (issue 13): InferenceX ran SGLang DeepSeek-R1-0528 FP8 at TP 8 on B200 with
 * decode_ep 8 (2025-11-18) and decode_ep 1 (2025-12-14) at the same lengths and concurrency
 * (test/fixtures/speed/ep-pairs.jsonl, each row with its source). The model reads the same bytes for both, so it
 * gives one figure; the measured pairs differ by 5–22% (EP slower, less so as the batch grows), but the two runs
 * are a month of SGLang builds apart, so no EP term is fitted on them: they check.
 */
import { describe, expect, test } from "vitest";
import { epPairRows, measuredRows, predictCase, speedCases } from "./speedCases.ts";

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

describe("TP 8 with and without expert parallel (InferenceX B200 SGLang DeepSeek-R1 FP8)", () => {
  test("four pairs, every row a checking case", () => {
    expect(pairs).toHaveLength(4);
    for (const p of pairs) expect([p.one.half, p.eight.half]).toEqual(["checking", "checking"]);
  });
  test.each(pairs.map((p) => [p.one.id, p] as const))("%s: one figure for both, and each within 40%", (_, p) => {
    const one = predictCase(p.one);
    const eight = predictCase(p.eight);
    if (one === null || eight === null) throw new Error("no TPOT predicted");
    expect(eight).toBeCloseTo(one, 6);
    for (const c of [p.one, p.eight]) expect(Math.abs(one / c.measured - 1)).toBeLessThan(0.4);
  });
});
