/** SGLang's token pool: sliding layers at 0.8 of the full pool's tokens. */
import type { KvGeometry, PoolCapacity } from "../../kv.ts";

/**
 * SGLang's sliding layers: when a model mixes full and sliding layers the
 * sliding pool holds `--swa-full-tokens-ratio` (0.8) of the full pool's
 * tokens (set_num_tokens_hybrid_swa, docs/notes/architectures.md §2.3).
 */
export const SGLANG_SWA_RATIO = 0.8;

/** SGLang's cost of one token of pool on this card (cell_size, with sliding layers at the SWA ratio). */
export function sglangBytesPerToken(g: KvGeometry, elementBytes: number): number {
  const sliding = g.sliding.reduce((s, x) => s + x.elemsPerToken, 0);
  const slidingShare = g.fullLayers + g.mlaLayers > 0 ? SGLANG_SWA_RATIO : 1;
  return (g.fullElemsPerToken + g.mlaElemsPerToken + sliding * slidingShare) * elementBytes + g.indexerBytesPerToken;
}

/**
 * State slots SGLang keeps a running request of a hybrid linear model: `init_memory` caps running requests at
 * `max_mamba_cache_size // ratio` (model_runner_kv_cache_mixin.py @ 001ccef0), the ratio
 * MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = 3 while the radix cache is on (the default for gated-delta hybrids,
 * MambaRadixCache; more with `--mamba-scheduler-strategy extra_buffer`, not planned), 1 with it off, which SGLang
 * forces for Mamba2 models ("… model detected, disable radix cache", model_runner.py: Nemotron-H).
 */
export function sglangStateSlotsPerRequest(architecture: string): number {
  return architecture === "nemotron_h" ? 1 : 3;
}

/**
 * SGLang's pool: `max_total_num_tokens = rest ÷ cell_size`; a hybrid linear
 * model first gives its states `rest × r ÷ (1 + r)` (r = 0.9,
 * --mamba-full-memory-ratio) and caps running requests at states ÷ `slotsPerRequest`
 * (sglangStateSlotsPerRequest; docs/notes/architectures.md §2.5).
 */
export function sglangCapacity(
  g: KvGeometry,
  elementBytes: number,
  poolBytes: number,
  contextTokens: number,
  slotsPerRequest = 3,
): PoolCapacity {
  if (poolBytes <= 0) return { tokens: 0, concurrency: 0 };
  const perToken = sglangBytesPerToken(g, elementBytes);
  if (g.linearLayers > 0) {
    const ratio = 0.9;
    const stateBytes = (poolBytes * ratio) / (1 + ratio);
    const kvBytes = poolBytes - stateBytes;
    const tokens = perToken > 0 ? Math.floor(kvBytes / perToken) : 0;
    const states =
      g.linearStateBytesPerSeq > 0
        ? Math.floor(Math.floor(stateBytes / g.linearStateBytesPerSeq) / slotsPerRequest)
        : Infinity;
    const byTokens = perToken > 0 ? tokens / contextTokens : Infinity;
    return { tokens, concurrency: Math.min(byTokens, states) };
  }
  const tokens = perToken > 0 ? Math.floor(poolBytes / perToken) : 0;
  return { tokens, concurrency: tokens / contextTokens };
}

/** What one sequence of `contextTokens` needs of SGLang's pool on this card. */
export function sglangSequenceBytes(g: KvGeometry, elementBytes: number, contextTokens: number): number {
  return sglangBytesPerToken(g, elementBytes) * contextTokens + g.linearStateBytesPerSeq;
}

// ---------------------------------------------------------------------------
// llama.cpp
