/**
 * How many routed experts a decode step reads. Each of B tokens picks k of
 * E experts; an expert is read once per step however many tokens chose it.
 * Taking the picks as independent and uniform, an expert escapes all B
 * tokens with probability (1 − k/E)^B, so the step reads
 * E × (1 − (1 − k/E)^B) of them: k at B = 1, approaching E as B grows.
 * DeepSeek-R1 (E 256, k 8): 8 at B 1, 57.4 at B 8, 222.4 at B 64. Real routers
 * are skewed (hot experts), so this is an upper estimate of what is read.
 */
import type { SpeedLayout, SpeedModel } from "./types.ts";

export function expectedDistinctExperts(routedExperts: number, expertsPerToken: number, tokens: number): number {
  if (routedExperts <= 0 || expertsPerToken <= 0 || tokens <= 0) return 0;
  const k = Math.min(expertsPerToken, routedExperts);
  return routedExperts * (1 - Math.pow(1 - k / routedExperts, tokens));
}

/** The share of the routed experts' bytes a step of `tokens` tokens reads: distinct ÷ E. */
export function touchedExpertShare(routedExperts: number, expertsPerToken: number, tokens: number): number {
  if (routedExperts <= 0) return 0;
  return expectedDistinctExperts(routedExperts, expertsPerToken, tokens) / routedExperts;
}

/**
 * Expert parallel (SGLang `--ep-size`, vLLM `--enable-expert-parallel` inside one TP group): a card holds
 * ⌈E/ep⌉ experts whole and reads only the touched ones it holds, where under TP alone every card reads 1/T
 * of every touched expert. Each expert is touched with p = 1 − (1 − k/E)^B (as above), so a card's count is
 * ~Binomial(⌈E/ep⌉, p), and a MoE layer waits for the most loaded card: E[max over ep cards], exactly
 * Σ_{m<n} (1 − F(m)^ep) (P(max ≤ m) = F(m)^ep, the cards independent). DeepSeek-R1 (E 256, k 8) on EP 8:
 * 2.54 experts at B 1 where TP reads 8/8 = 1 expert's worth, 6.56 against 3.82 at B 4, 30.3 against 27.8 at B 64: the
 * two meet as p → 1.
 */

/** p stops moving past this: (1 − k/E)^B below it is taken as 0 (every expert touched, the max is n). */
const UNTOUCHED_FLOOR = 1e-12;

/**
 * The EP share per (E, k, ep), by batch (index B − 1), NaN until asked: made once per model and width (R1 at EP 8:
 * 871 batches before every expert is touched, 7 KB), so a slider move reads a number and allocates nothing.
 * Keyed E × 4,096 + k, then ep: small integers, which a Map hashes fastest.
 */
const epTables = new Map<number, Map<number, Float64Array>>();

/** Batches past the table are saturated; tables stop at this many (a k/E under 1/3,000 saturates later). */
const MAX_TABLE_BATCHES = 65536;

function epTableOf(routedExperts: number, k: number, ep: number): Float64Array {
  const outerKey = routedExperts * 4096 + k;
  let byEp = epTables.get(outerKey);
  if (byEp === undefined) {
    byEp = new Map();
    epTables.set(outerKey, byEp);
  }
  let table = byEp.get(ep);
  if (table === undefined) {
    // Past this batch (1 − k/E)^B is under the floor: every expert touched.
    const saturated = Math.ceil(Math.log(UNTOUCHED_FLOOR) / Math.log(1 - k / routedExperts));
    table = new Float64Array(Math.max(0, Math.min(MAX_TABLE_BATCHES, saturated))).fill(Number.NaN);
    byEp.set(ep, table);
  }
  return table;
}

/** E[max over `cards` of Binomial(n, p)], exact; the pmf walked in logs so (1 − p)^n cannot underflow. */
export function expectedMaxBinomial(n: number, p: number, cards: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const logRatio = Math.log(p) - Math.log1p(-p);
  let logPmf = n * Math.log1p(-p);
  let cdf = 0;
  let sum = 0;
  for (let m = 0; m < n; m++) {
    cdf += Math.exp(logPmf);
    const below = Math.pow(Math.min(1, cdf), cards);
    // Once F(m)^cards is 1 to double precision the rest of the terms are 0.
    if (below >= 1) break;
    sum += 1 - below;
    logPmf += Math.log((n - m) / (m + 1)) + logRatio;
  }
  return sum;
}

/**
 * The share of the routed experts' bytes ÷ tp that the most loaded card reads in a step of `tokens` tokens
 * when the experts are spread over `expertParallel` groups of tp ÷ ep cards (ep = tp: each card its own
 * experts whole): E[max count] × ep ÷ E. Without EP (ep ≤ 1) it is touchedExpertShare, every card balanced.
 */
export function cardExpertShare(
  routedExperts: number,
  expertsPerToken: number,
  expertParallel: number,
  tokens: number,
): number {
  const ep = Math.floor(expertParallel);
  if (ep <= 1 || routedExperts <= 1 || expertsPerToken <= 0 || tokens <= 0)
    return touchedExpertShare(routedExperts, expertsPerToken, tokens);
  const k = Math.min(expertsPerToken, routedExperts);
  const b = Math.ceil(tokens);
  const n = Math.ceil(routedExperts / ep);
  const table = epTableOf(routedExperts, k, ep);
  // Past the table every expert is touched (or the batch is beyond what a table keeps): the busiest card reads its n.
  if (b > table.length) {
    const miss = Math.pow(1 - k / routedExperts, b);
    return miss < UNTOUCHED_FLOOR
      ? (n * ep) / routedExperts
      : (expectedMaxBinomial(n, 1 - miss, ep) * ep) / routedExperts;
  }
  const cached = table[b - 1] ?? Number.NaN;
  if (!Number.isNaN(cached)) return cached;
  const share = (expectedMaxBinomial(n, 1 - Math.pow(1 - k / routedExperts, b), ep) * ep) / routedExperts;
  table[b - 1] = share;
  return share;
}

/**
 * What the most loaded card of an expert-parallel TP group reads for a pass of `tokens` tokens (a decode step, a
 * prefill chunk): its 1/tp of the dense weights, and the touched experts it holds, the pass waiting for the card
 * holding the most. The MoE output is all-reduced over the TP group as under TP alone (SGLang's EP MoE without an
 * all-to-all backend, vLLM's EP at DP 1: speed/README.md), so only the bytes differ. No host bytes: vLLM and SGLang
 * keep every layer on the cards.
 */
export function expertParallelCardBytes(
  model: Pick<SpeedModel, "weightsBytes" | "routedExpertBytes" | "routedExperts" | "expertsPerToken">,
  layout: Pick<SpeedLayout, "tensorParallel" | "expertParallel">,
  tokens: number,
): number {
  const share = cardExpertShare(model.routedExperts, model.expertsPerToken, layout.expertParallel, tokens);
  const denseBytes = model.weightsBytes - model.routedExpertBytes;
  return (denseBytes + model.routedExpertBytes * share) / Math.max(1, layout.tensorParallel);
}
