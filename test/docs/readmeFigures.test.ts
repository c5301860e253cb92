/**
 * The README quotes the accuracy figures as claims a reader acts on. They are held here to what the calibration and
 * the speed cases give today, so that a change that moves a figure fails until the README says it (the 2026 pool
 * figures and the per-GPU throughput were once left a round behind).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { accuracyRows, accuracyRows2026, errorSummary, headlineAccuracyRows } from "../../src/calibration/accuracy.ts";
import { speedCases } from "../plan/speedCases.ts";
import { speedTargetFigures } from "../plan/speedTargets.ts";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");

/** The first capture of a README phrase, or a failure naming the phrase the README no longer has. */
function quoted(pattern: RegExp): string[] {
  const m = pattern.exec(readme);
  if (m === null) throw new Error(`README.md no longer says ${pattern.source}`);
  return m.slice(1);
}

describe("README.md's memory figures are the calibration's", () => {
  test("the vLLM 0.19 headline: cases, KV pool and weights mean error", () => {
    const [cases, kv, weights] = quoted(
      /on (\d+) vLLM 0\.19 startups \(H100, 0\.95 utilization\) the KV pool is off by ([\d.]+)% on average and the weights by ([\d.]+)%/,
    );
    const rows = headlineAccuracyRows();
    expect(Number(cases)).toBe(rows.length);
    expect(kv).toBe(errorSummary(rows, "KV pool per card").meanAbsPct.toFixed(2));
    expect(weights).toBe(errorSummary(rows, "weights per card").meanAbsPct.toFixed(2));
  });

  test("every figure within tolerance, and the fitted / checking split", () => {
    const [figures, startups, fitted, checking] = quoted(
      /all (\d+) figures of the (\d+) logged startups are within their tolerance \((\d+) cases a constant was fitted on, (\d+) that only check it\)/,
    );
    const rows = accuracyRows();
    const all = rows.flatMap((r) => r.metrics);
    expect(all.every((m) => Math.abs(m.errorPct) <= m.tolerancePct)).toBe(true);
    expect(Number(figures)).toBe(all.length);
    expect(Number(startups)).toBe(rows.length);
    expect(Number(fitted)).toBe(rows.filter((r) => r.basis === "fitted").length);
    expect(Number(checking)).toBe(rows.filter((r) => r.basis === "checking").length);
  });

  test("the 2026 releases: pools, mean and worst, and weights", () => {
    const [pools, kvMean, kvMax, weightsMean, weightLogs] = quoted(
      /on the (\d+) pools those logs let us plan, the KV pool is off by ([\d.]+)% on average \(worst ([\d.]+)%\) and the weights by ([\d.]+)% \((\d+) logs\)/,
    );
    const rows = accuracyRows2026();
    const kv = errorSummary(rows, "KV pool per card");
    const weights = errorSummary(rows, "weights per card");
    expect(Number(pools)).toBe(kv.cases);
    expect(kvMean).toBe(kv.meanAbsPct.toFixed(2));
    expect(kvMax).toBe(kv.maxAbsPct.toFixed(2));
    expect(weightsMean).toBe(weights.meanAbsPct.toFixed(2));
    expect(Number(weightLogs)).toBe(weights.cases);
  });
});

describe("README.md's speed figures are the held-out half's", () => {
  test("decode, prefill, TPOT and per-GPU throughput medians", () => {
    const [decode, prefill, tpot, throughput] = quoted(
      /llama\.cpp single-card decode within ([\d.]+)% \(median, held out\), prefill ([\d.]+)%, vLLM\/SGLang time per output token ([\d.]+)% and per-GPU throughput ([\d.]+)%/,
    );
    const t = speedTargetFigures(speedCases().cases, "checking");
    expect(decode).toBe(t.decode.medianPct.toFixed(1));
    expect(prefill).toBe(t.prefillPp512.medianPct.toFixed(1));
    expect(tpot).toBe(t.servingTpot.medianPct.toFixed(1));
    expect(throughput).toBe(t.servingThroughputPerGpu.medianPct.toFixed(1));
  });
});
