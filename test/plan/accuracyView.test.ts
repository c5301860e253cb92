/**
 * The Accuracy view's overview: means and worst errors per figure, each
 * case held to its own tolerance, and the two verdicts issue 7 asks for.
 */
import { describe, expect, test } from "vitest";
import { accuracyRows, type AccuracyRow } from "../../src/calibration/accuracy.ts";
import { accuracyOverview } from "../../src/calibration/accuracyView.ts";

function row(id: string, ran: boolean, predictedFits: boolean | null, errors: [string, number, number][]): AccuracyRow {
  return {
    id,
    sourceUrl: "",
    engine: "vllm",
    engineVersion: "0.19.0",
    model: "m",
    gpu: "NVIDIA H100 80GB",
    tensorParallel: 1,
    pipelineParallel: 1,
    contextTokens: 8192,
    ran,
    predictedFits,
    note: "",
    basis: "checking",
    metrics: errors.map(([name, errorPct, tolerancePct]) => ({
      name,
      unit: "GiB",
      predicted: 1 + errorPct / 100,
      measured: 1,
      errorPct,
      tolerancePct,
    })),
  };
}

describe("accuracyOverview", () => {
  const overview = accuracyOverview([
    row("a", true, true, [
      ["weights per card", 1, 2],
      ["KV pool per card", -4, 5],
    ]),
    row("b", false, true, [["weights per card", -3, 2]]),
    row("c", true, false, [["KV pool per card", 6, 5]]),
    row("d", false, false, []),
  ]);

  test("a failed case predicted to fit is a false fit; a case that ran predicted not to is a false refusal", () => {
    expect(overview.falseFits).toEqual(["b"]);
    expect(overview.falseRefusals).toEqual(["c"]);
  });

  test("each figure's mean and worst |error|, and the cases outside their own tolerance", () => {
    expect(overview.figures).toEqual([
      { name: "weights per card", unit: "GiB", cases: 2, meanAbsPct: 2, maxAbsPct: 3, tolerancePct: 2, outside: 1 },
      { name: "KV pool per card", unit: "GiB", cases: 2, meanAbsPct: 5, maxAbsPct: 6, tolerancePct: 5, outside: 1 },
    ]);
  });

  test("over the bundled calibration set, every case is shown", () => {
    const real = accuracyOverview(accuracyRows());
    expect(real.cases).toBe(57);
    expect(real.figures.map((f) => f.name)).toContain("weights per card");
  });
});
