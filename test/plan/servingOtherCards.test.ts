/**
 * vLLM on cards the public set has no serving row on (test/fixtures/speed/serving-other-cards.jsonl):
 * RTX 4090 (GDDR6X, 1–8 cards, TP over PCIe), A40, H100 PCIe, A100 SXM4 80 GB and 40 GB. The terms these
 * run on are borrowed (vLLM's HBM terms, fitted on gpt-oss-120b on H100/H200/B200 SXM) or fitted on
 * other cards; nothing here is fitted on, so these are a check of how far the terms carry.
 *
 * Measured with this model on 2026-12-03 (`npx tsx scripts/speed-accuracy.ts`, the last section):
 * TPOT |error| median 19.4% / p90 37.6% over 40 rows; RTX 4090 21.4% (20 rows; one card +19.4…+24.5%,
 * TP 2–8 −5.4…−60.5%), A40 +1.4% (1), H100 PCIe 17.3% (16), A100 6.8% (3). The tolerances below are those medians
 * rounded up by about two points, so a change that moves these cards the wrong way fails here.
 */
import { describe, expect, test } from "vitest";
import { absQuantile, errorPct, otherCardCases, otherCardRows, predictCase } from "./speedCases.ts";
import type { SpeedCase } from "./speedCases.ts";

const { cases, skipped } = otherCardCases();
const tpot = cases.filter((c) => c.group === "serving-tpot");

function errs(sel: SpeedCase[]): number[] {
  return sel.map((c) => {
    const p = predictCase(c);
    expect(p, `${c.id}: no prediction`).not.toBeNull();
    return errorPct(p as number, c.measured);
  });
}

describe("vLLM on cards without a serving row in the public set", () => {
  test("every row is a case, with its source and the line it was read from", () => {
    const rows = otherCardRows();
    expect(rows).toHaveLength(40);
    expect(skipped).toEqual([]);
    for (const r of rows) {
      expect(r.source_url, r.id).toMatch(/^https:\/\//);
      expect((r as unknown as { quote?: string }).quote ?? "", r.id).not.toBe("");
    }
    expect(tpot).toHaveLength(40);
    // Never in a fitted half: the terms are not fitted on these.
    expect(cases.every((c) => c.half === "checking")).toBe(true);
  });

  test("the distills take their base models' geometry, not DeepSeek-R1's MoE", () => {
    // R1-Distill-Llama-8B on one RTX 4090: 16 GB of weights read a token, ~19 ms (measured 19.24 ms);
    // read as DeepSeek-R1 (671 B, MoE) it would be far slower or not fit at all.
    const c = tpot.find((x) => x.id.startsWith("iog-deepseek-r1-distill-llama-8b-1xrtx-4090-vllm-tp1-sharegpt-qps1"));
    expect(c?.input.model.routedExperts).toBe(0);
    expect(c?.input.model.layers).toBe(32);
    expect((c?.input.model.weightsBytes ?? 0) / 1e9).toBeCloseTo(16.06, 1);
  });

  const each: [string, number, number, (c: SpeedCase) => boolean][] = [
    ["all 40 rows", 21, 40, () => true],
    ["RTX 4090 (GDDR6X, 1–8 cards)", 23, 46, (c) => c.cardLabel === "rtx4090-24g"],
    ["H100 PCIe", 19, 24, (c) => c.cardLabel === "h100-pcie-80g"],
    ["A100 SXM4 80/40 GB", 9, 18, (c) => c.cardLabel.startsWith("a100-")],
  ];
  test.each(each)("TPOT on %s: |error| median ≤ %s%%, p90 ≤ %s%%", (_name, median, p90, pick) => {
    const e = errs(tpot.filter(pick));
    expect(absQuantile(e, 0.5)).toBeLessThanOrEqual(median);
    expect(absQuantile(e, 0.9)).toBeLessThanOrEqual(p90);
  });

  test("no TPOT case is off by more than 62% (widest: 8 × RTX 4090 TP 8, R1-Distill-Qwen-14B at 4 QPS, −60.5%)", () => {
    for (const c of tpot) expect(Math.abs(errs([c])[0] ?? Infinity), c.id).toBeLessThanOrEqual(62);
  });
});
