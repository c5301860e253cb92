/** SGLang's --mem-fraction-static default, by card size. */

/**
 * SGLang --mem-fraction-static when unset: server_args `_handle_gpu_memory_settings`
 * (2025–2026 builds) reserves memory by card size and sets the fraction to
 * (total − reserved) ÷ total; the reserve is ≥ 10 GiB on cards above 60 GB
 * (docs/notes/architectures.md §2.7). Older 0.4.x builds used 0.88 at TP1, 0.87 TP2, 0.85 TP4, 0.81 TP8.
 * We model the newer rule: reserved MiB ≈ 512 + chunked_prefill × 1.5 + cuda_graph_max_bs × 2 + 1024 × tp/8.
 */
export function sglangMemFraction(cardMemoryBytes: number, tensorParallel: number): number {
  const cardMib = cardMemoryBytes / 2 ** 20;
  // chunked_prefill_size by card memory (server_args, 2025): 2048 below 35 GB, 4096 below 60, 8192 above.
  const chunkedPrefill = cardMib < 35 * 1024 ? 2048 : cardMib < 60 * 1024 ? 4096 : 8192;
  // cuda_graph_max_bs by card memory (server_args, 2025): 8 below 20 GB … 256 at 80 GB class, 512 above.
  const graphMaxBs = cardMib < 20 * 1024 ? 8 : cardMib < 35 * 1024 ? 24 : cardMib < 60 * 1024 ? 80 : cardMib < 120 * 1024 ? 256 : 512;
  let reservedMib = 512 + Math.max(chunkedPrefill, 2048) * 1.5 + graphMaxBs * 2 + (tensorParallel / 8) * 1024;
  if (cardMib > 60 * 1024) reservedMib = Math.max(reservedMib, 10 * 1024);
  return Math.min(0.95, Math.max(0.5, (cardMib - reservedMib) / cardMib));
}
