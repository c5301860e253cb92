/** The page's speed tab shows what the tests hold: the bundled cases are a fresh build of the fixtures, and their errors the suite's. */
import { describe, expect, test } from "vitest";
import {
  medianAbsErrorPct,
  speedAccuracyRows,
  speedCaseRecords,
  speedLeftOut,
} from "../../src/calibration/speedAccuracy.ts";
import { accuracyViewCases, leftOutOf, predictCase } from "../plan/speedCases.ts";

describe("the Accuracy view's speed tab", () => {
  const fresh = accuracyViewCases().cases;
  test("the bundle is the fixtures' cases (run scripts/build-speed-cases.ts after changing them)", () => {
    expect(JSON.parse(JSON.stringify(speedCaseRecords()))).toEqual(JSON.parse(JSON.stringify(fresh)));
  });
  // Issue 12: "every shared benchmark figure". The tab predicts 662 figures (the other cards' rows among them); the rows of the set it makes none of (TRT-LLM
  // reference only, disaggregated serving, …) went unsaid. The bundle counts them by reason, as the fixtures give them.
  test("the rows left out are the fixtures', counted by reason, TRT-LLM's 165 first", () => {
    const leftOut = speedLeftOut();
    expect(leftOut).toEqual(leftOutOf(accuracyViewCases().skipped));
    expect(leftOut[0]).toEqual({
      reason: "trtllm: reference only (issue 12 calibrates llama.cpp, vLLM and SGLang)",
      rows: 165,
    });
    expect(leftOut.reduce((sum, l) => sum + l.rows, 0)).toBe(206);
  });
  test("each row's prediction is the speed suite's, and the checking half's decode median is the README's", () => {
    const rows = speedAccuracyRows();
    rows.forEach((r, i) => expect(r.predicted).toBe(predictCase(fresh[i] as never)));
    const decode = rows.filter(
      (r) => r.group.includes("decode") && r.half === "checking" && r.tier === "primary" && r.engine === "llamacpp",
    );
    const m = medianAbsErrorPct(decode);
    expect(m.n).toBeGreaterThan(5);
    expect(m.medianPct ?? 100).toBeLessThanOrEqual(10);
  });
});
