/** The page's speed tab shows what the tests hold: the bundled cases are a fresh build of the fixtures, and their errors the suite's. */
import { describe, expect, test } from "vitest";
import { medianAbsErrorPct, speedAccuracyRows, speedCaseRecords } from "../../src/calibration/speedAccuracy.ts";
import { predictCase, speedCases } from "../plan/speedCases.ts";

describe("the Accuracy view's speed tab", () => {
  const fresh = speedCases().cases;
  test("the bundle is the fixtures' cases (run scripts/build-speed-cases.ts after changing them)", () => {
    expect(JSON.parse(JSON.stringify(speedCaseRecords()))).toEqual(JSON.parse(JSON.stringify(fresh)));
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
