/**
 * How many routed experts a decode step reads. Each of B tokens picks k of
 * E experts; an expert is read once per step however many tokens chose it.
 * Taking the picks as independent and uniform, an expert escapes all B
 * tokens with probability (1 − k/E)^B, so the step reads
 * E × (1 − (1 − k/E)^B) of them: k at B = 1, approaching E as B grows.
 * DeepSeek-R1 (E 256, k 8): 8 at B 1, 57.4 at B 8, 222.4 at B 64. Real routers
 * are skewed (hot experts), so this is an upper estimate of what is read.
 */

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

/** The EP share by (E, k, ep, B), filled as asked: a plan asks a few batches (1, the run, a micro-batch's) per model. */
const epShares = new Map<number, number>();

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
  const miss = 1 - k / routedExperts;
  // Past the floor every expert is touched: the most loaded card reads all n of its own.
  if (b >= Math.log(UNTOUCHED_FLOOR) / Math.log(miss)) return (n * ep) / routedExperts;
  // One number for (E, k, ep, B): exact below 2^53 while E, k and ep stay under 4,096 and B under 65,536.
  const cacheable = routedExperts < 4096 && ep < 4096 && b < 65536;
  const key = ((routedExperts * 4096 + k) * 4096 + ep) * 65536 + b;
  const cached = cacheable ? epShares.get(key) : undefined;
  if (cached !== undefined) return cached;
  const share = (expectedMaxBinomial(n, 1 - Math.pow(miss, b), ep) * ep) / routedExperts;
  if (cacheable) epShares.set(key, share);
  return share;
}
