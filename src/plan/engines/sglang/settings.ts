/** SGLang's --mem-fraction-static default, by card size. */

/** SGLang's memory tiers (server_args._handle_gpu_memory_settings, 2026): chunked prefill and the decode graphs' largest batch. */
function sglangTier(cardMib: number, tensorParallel: number): { chunkedPrefill: number; graphMaxBs: number } {
  const wide = tensorParallel >= 4;
  if (cardMib < 20 * 1024) return { chunkedPrefill: 2048, graphMaxBs: 8 };
  if (cardMib < 35 * 1024) return { chunkedPrefill: 2048, graphMaxBs: wide ? 80 : 24 };
  if (cardMib < 60 * 1024) return { chunkedPrefill: 4096, graphMaxBs: wide ? 160 : 32 };
  if (cardMib < 160 * 1024) return { chunkedPrefill: 8192, graphMaxBs: wide ? 512 : 256 };
  return { chunkedPrefill: 16384, graphMaxBs: 512 };
}

/**
 * The token counts SGLang captures its piecewise prefill CUDA graphs at (server_args, after PR #15927
 * "Piecewise Cuda Graph Memory Usage", Dec 2025): 4…32 by 4, 48…256 by 16, 288…512 by 32, 576…1024 by 64,
 * 1280…4096 by 256, then by 512 up to the chunked-prefill size (2048 for MLA models): 74 at 16,384.
 */
export function sglangPiecewiseGraphSizes(maxTokens: number): number {
  const steps: [number, number, number][] = [
    [4, 32, 4],
    [48, 256, 16],
    [288, 512, 32],
    [576, 1024, 64],
    [1280, 4096, 256],
    [4608, maxTokens, 512],
  ];
  let n = 0;
  for (const [from, to, by] of steps) for (let t = from; t <= Math.min(to, maxTokens); t += by) n++;
  return n;
}

/**
 * SGLang --mem-fraction-static when unset, as its 2026 builds set it: reserved MiB = 512 +
 * max(chunked_prefill, 2048) × 1.5 + cuda_graph_max_bs × 2 + tp / 8 × 1024 + 8 MiB a piecewise graph size
 * (their non-torch part), at least 10 GiB on cards above 60 GB, and the fraction (total − reserved) ÷ total,
 * rounded to 3 places. Above 160 GB (B200, MI300X) chunked prefill is 16,384. On a B200 this gives 0.854
 * at TP1 and 0.852 at TP4, which the two 2026 B200 logs imply (0.854 and 0.8518: their pools to 0.12%,
 * docs/vllm-releases.md §7); the 2025 rule (8,192 above 60 GB, no piecewise term) gave 0.922, a pool 9% large.
 * Older 0.4.x builds used 0.88 at TP1, 0.87 TP2, 0.85 TP4, 0.81 TP8.
 */
export function sglangMemFraction(
  cardMemoryBytes: number,
  tensorParallel: number,
  mla = false,
  dpAttentionRanks = 0,
): number {
  const cardMib = cardMemoryBytes / 2 ** 20;
  const { chunkedPrefill, graphMaxBs } = sglangTier(cardMib, tensorParallel);
  const piecewise = sglangPiecewiseGraphSizes(mla ? 2048 : chunkedPrefill);
  let reservedMib =
    512 + Math.max(chunkedPrefill, 2048) * 1.5 + graphMaxBs * 2 + (tensorParallel / 8) * 1024 + piecewise * 8;
  // --enable-dp-attention: "DP attention needs more padding for some operations" (cuda_graph_max_bs × dp_size × 3
  // MiB), and × 1.5 more past a graph batch of 300 (the same _handle_gpu_memory_settings).
  if (dpAttentionRanks > 1) reservedMib += graphMaxBs * dpAttentionRanks * (graphMaxBs > 300 ? 4.5 : 3);
  if (cardMib > 60 * 1024) reservedMib = Math.max(reservedMib, 10 * 1024);
  return Math.min(0.95, Math.max(0.5, Math.round(((cardMib - reservedMib) / cardMib) * 1000) / 1000));
}
