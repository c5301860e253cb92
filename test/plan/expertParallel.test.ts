/**
 * The most loaded card of an expert-parallel group (src/plan/speed/experts.ts), against routing simulated the way a
 * router picks: every token takes k distinct experts of E uniformly (a fixed-seed generator, so the test is the same
 * on every run), the experts laid out linearly, ⌈E/ep⌉ a card (sgl-project/sglang layers/moe/ep_moe/layer.py @
 * 00937546, `EPMoE`: `start_expert_id = tp_rank × num_experts_per_partition`), and the step's count the largest
 * over the cards. The closed form takes each expert as touched independently where a token's k picks are distinct;
 * the two agree within 1% on these six (2% allowed: 4,000 sampled steps).
 */
import { describe, expect, test } from "vitest";
import { cardExpertShare, expectedMaxBinomial } from "../../src/plan/index.ts";

/** mulberry32: a small deterministic generator, uniform on [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mean over `trials` steps of the most touched experts any one of `ep` cards holds. */
function simulatedMax(experts: number, k: number, ep: number, tokens: number, trials: number): number {
  const random = generator(12345);
  const perCard = Math.ceil(experts / ep);
  let total = 0;
  for (let t = 0; t < trials; t++) {
    const touched = new Uint8Array(experts);
    for (let b = 0; b < tokens; b++) {
      const picked = new Set<number>();
      while (picked.size < k) picked.add(Math.floor(random() * experts));
      for (const e of picked) touched[e] = 1;
    }
    let most = 0;
    for (let c = 0; c < ep; c++) {
      let n = 0;
      for (let e = c * perCard; e < Math.min(experts, (c + 1) * perCard); e++) n += touched[e] ?? 0;
      most = Math.max(most, n);
    }
    total += most;
  }
  return total / trials;
}

describe("E[max over cards] of the touched experts a card holds", () => {
  test("one expert a card: the chance that any of the cards' experts is touched", () => {
    expect(expectedMaxBinomial(1, 0.2, 4)).toBeCloseTo(1 - 0.8 ** 4, 12);
  });

  test("one card: the mean, n × p", () => {
    expect(expectedMaxBinomial(32, 0.3, 1)).toBeCloseTo(9.6, 10);
  });

  // DeepSeek-R1 (E 256, k 8) on EP 8, gpt-oss-120b (E 128, k 4) on EP 4, Mixtral (E 8, k 2) on EP 2.
  test.each([
    [256, 8, 8, 1],
    [256, 8, 8, 4],
    [256, 8, 8, 16],
    [256, 8, 8, 64],
    [128, 4, 4, 8],
    [8, 2, 2, 3],
  ])("E %i, k %i, EP %i, %i tokens: within 2% of simulated routing", (experts, k, ep, tokens) => {
    const closed = (cardExpertShare(experts, k, ep, tokens) * experts) / ep;
    expect(Math.abs(closed / simulatedMax(experts, k, ep, tokens, 4000) - 1)).toBeLessThan(0.02);
  });

  test("DeepSeek-R1 on EP 8: 2.54 experts on the busiest card at one token, where TP reads one expert's worth", () => {
    expect((cardExpertShare(256, 8, 8, 1) * 256) / 8).toBeCloseTo(2.54, 2);
    expect(cardExpertShare(256, 8, 1, 1) * 256).toBeCloseTo(8, 10);
  });

  test("the imbalance fades as every expert is touched: EP 8 over TP-only at 1, 64, 1,024 tokens", () => {
    const over = (b: number) => cardExpertShare(256, 8, 8, b) / cardExpertShare(256, 8, 1, b);
    expect(over(1)).toBeGreaterThan(2.5);
    expect(over(64)).toBeLessThan(1.15);
    expect(over(1024)).toBeCloseTo(1, 6);
  });
});
