/**
 * What a card-hour costs by default, for cost per million output tokens: the
 * specialty-cloud tier of the Mercatus GPU Index's on-demand table of May 2026
 * (mercatus-ai.com/blog/cloud-gpu-pricing: A100 80GB $1.10–1.50, H100 SXM5
 * $2.50–3.50, H200 SXM5 $3.50–4.50 an hour), the middle of each range. Other
 * classes have no default: their cost is null until the user gives a price.
 */

export const DEFAULT_PRICES_PER_CARD_HOUR: Readonly<Record<string, { dollars: number; source: string }>> = {
  "a100-80g": { dollars: 1.3, source: "Mercatus GPU Index, May 2026: specialty clouds $1.10–1.50 (middle)" },
  "h100-80g": { dollars: 3.0, source: "Mercatus GPU Index, May 2026: specialty clouds $2.50–3.50 (middle)" },
  "h200-141g": { dollars: 4.0, source: "Mercatus GPU Index, May 2026: specialty clouds $3.50–4.50 (middle)" },
};

/** Dollars per card-hour of a class: the user's price, else the default, else null. */
export function pricePerCardHour(
  gpuClass: string,
  prices: Readonly<Record<string, number>> | undefined,
): number | null {
  const given = prices !== undefined && Object.hasOwn(prices, gpuClass) ? prices[gpuClass] : undefined;
  if (given !== undefined) return given;
  return Object.hasOwn(DEFAULT_PRICES_PER_CARD_HOUR, gpuClass)
    ? (DEFAULT_PRICES_PER_CARD_HOUR[gpuClass]?.dollars ?? null)
    : null;
}

/** Dollars per million output tokens: the replica's cards for an hour over what it writes in that hour. */
export function costPerMillionTokens(
  dollarsPerCardHour: number | null,
  cards: number,
  throughputTps: number | null,
): number | null {
  if (dollarsPerCardHour === null || throughputTps === null || throughputTps <= 0 || cards <= 0) return null;
  return (dollarsPerCardHour * cards * 1e6) / (throughputTps * 3600);
}
