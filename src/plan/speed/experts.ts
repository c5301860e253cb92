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
