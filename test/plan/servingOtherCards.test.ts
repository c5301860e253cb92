/**
 * vLLM on cards the public set has no serving row on (test/fixtures/speed/serving-other-cards.jsonl):
 * RTX 4090 (GDDR6X, 1–8 cards, TP over PCIe), A40, H100 PCIe, A100 SXM4 80 GB and 40 GB, all dense models.
 * The public set's vLLM rows are all gpt-oss-120b (a MoE), so its terms put these dense runs ~20% slow
 * (19.4% median over the 40 rows). The HBM rows are now split into halves like the set's, and vLLM's dense
 * entry (vllm/hbm/dense) is fitted on one; the TP rows over RTX 4090s are split too, their fitted half setting
 * the no-peer all-reduce alone (test/plan/noPeerSpeed.test.ts). The one-card GDDR rows are never fitted on.
 *
 * Measured on 2026-12-03 (`npx tsx scripts/speed-accuracy.ts`, the last section): TPOT |error| median 5.3% /
 * p90 24.6% over the 40; the HBM checking half 8.5% / 22.6% (9); one RTX 4090 or A40 5.6% / 8.8% (7); TP 2–8
 * over 4090s 12.8% / 30.1% (14, half of them fitted; their checking half 22.2%, in noPeerSpeed); A100 11.5% /
 * 13.6% (3; TP 2 at vLLM 0.6 reads 13.6% fast, as the H100 PCIe TP 2 rows read 12–24%: the dense entry's
 * all-reduce is NVLink's 10 µs). The tolerances are those figures rounded up by about two points.
 */
import { describe, expect, test } from "vitest";
import { absQuantile, errorPct, otherCardCases, otherCardRows, predictCase } from "./speedCases.ts";
import type { SpeedCase } from "./speedCases.ts";
import { estimateSpeed } from "../../src/plan/index.ts";

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
    // One-card GDDR rows are never fitted on; the HBM rows split into halves, per card, alternately, and so do the
    // TP rows over RTX 4090s, whose fitted half sets the no-peer all-reduce alone (test/plan/noPeerSpeed.test.ts).
    const oneCard = cases.filter((c) => c.input.card.kind !== "hbm" && c.input.layout.tensorParallel === 1);
    expect(oneCard.every((c) => c.half === "checking")).toBe(true);
    const hbmRows = new Map(cases.filter((c) => c.input.card.kind === "hbm").map((c) => [c.id.split(" ")[0], c.half]));
    const fittedRows = [...hbmRows.values()].filter((h) => h === "fitted").length;
    expect(Math.abs(fittedRows - (hbmRows.size - fittedRows))).toBeLessThanOrEqual(2);
  });

  test("the distills take their base models' geometry, not DeepSeek-R1's MoE", () => {
    // R1-Distill-Llama-8B on one RTX 4090: 16 GB of weights read a token, ~19 ms (measured 19.24 ms);
    // read as DeepSeek-R1 (671 B, MoE) it would be far slower or not fit at all.
    const c = tpot.find((x) => x.id.startsWith("iog-deepseek-r1-distill-llama-8b-1xrtx-4090-vllm-tp1-sharegpt-qps1"));
    expect(c?.input.model.routedExperts).toBe(0);
    expect(c?.input.model.layers).toBe(32);
    expect((c?.input.model.weightsBytes ?? 0) / 1e9).toBeCloseTo(16.06, 1);
  });

  const oneGddrCard = (c: SpeedCase) => c.input.card.kind === "gddr" && c.input.layout.tensorParallel === 1;
  const each: [string, number, number, (c: SpeedCase) => boolean][] = [
    ["all 40 rows", 7, 27, () => true],
    ["the HBM rows' checking half", 10, 25, (c) => c.input.card.kind === "hbm" && c.half === "checking"],
    ["one RTX 4090 or A40 (never fitted)", 9, 11, oneGddrCard],
    ["TP 2–8 over RTX 4090s (no peer access)", 15, 32, (c) => !oneGddrCard(c) && c.input.card.kind === "gddr"],
    ["A100 SXM4 80/40 GB", 14, 16, (c) => c.cardLabel.startsWith("a100-")],
  ];
  test.each(each)("TPOT on %s: |error| median ≤ %i, p90 ≤ %i (per cent)", (_name, median, p90, pick) => {
    const e = errs(tpot.filter(pick));
    expect(absQuantile(e, 0.5)).toBeLessThanOrEqual(median);
    expect(absQuantile(e, 0.9)).toBeLessThanOrEqual(p90);
  });

  test("no TPOT case is off by more than 44% (widest: 8 × RTX 4090 TP 8, R1-Distill-Qwen-14B at 4 QPS, −41.2%)", () => {
    for (const c of tpot) expect(Math.abs(errs([c])[0] ?? Infinity), c.id).toBeLessThanOrEqual(44);
  });

  test("a dense model runs vLLM's dense terms, a MoE its MoE ones: the same card, two fits", () => {
    const dense = tpot.find((c) => c.cardLabel === "h100-pcie-80g");
    expect(dense).toBeDefined();
    const e = estimateSpeed(dense!.input);
    expect(e.basis).toContain("reads at 85% of bandwidth + 1.1 ms per step");
    const asMoe = estimateSpeed({
      ...dense!.input,
      model: { ...dense!.input.model, routedExperts: 128, expertsPerToken: 4 },
    });
    expect(asMoe.basis).toContain("reads at 80% of bandwidth + 2.6 ms per step");
  });
});
