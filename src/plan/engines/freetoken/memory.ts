/** FreeToken's KV reserve and its linear-state slots (--kv-reserve-tokens, --max-running-requests). */

/**
 * FreeToken keeps 8,192 tokens of KV before it sizes its expert cache
 * (--kv-reserve-tokens, v0.1.2, docs/notes/architectures.md §2.7; args tests: `kv_reserve_tokens == 8192`):
 * "KV token floor held back before --moe-cache-auto spends the rest of VRAM on
 * experts". For a model larger than the card the experts take all the rest,
 * so the reserve IS the KV pool, and max_seq_len is clamped to it
 * (engine.py `min(config.max_seq_len, num_tokens)`).
 */
export const FREETOKEN_KV_RESERVE_TOKENS = 8192;

/** FreeToken --max-running-requests: 4 (v0.1.2, docs/notes/architectures.md §3). */
export const FREETOKEN_MAX_RUNNING_REQUESTS = 4;

/**
 * The KV tokens FreeToken must hold back for `running` sequences of
 * `contextTokens` each: the plan's command passes --kv-reserve-tokens for it
 * when it exceeds the default floor.
 */
export function freetokenReserveTokens(contextTokens: number, running: number): number {
  return Math.max(FREETOKEN_KV_RESERVE_TOKENS, contextTokens * Math.max(1, running));
}

/**
 * Linear-attention (GDN, Mamba) state slots FreeToken allocates before any KV
 * page: `4·R + max(4, 2·R) + 1` under its default radix cache, R = --max-running-requests
 * (kvcache/linear_state_pool.py, docs/notes/architectures.md §2.5): 25 at the default 4, 9 at 1.
 */
export function freetokenStateSlots(running: number): number {
  const r = Math.max(1, running);
  return 4 * r + Math.max(4, 2 * r) + 1;
}
