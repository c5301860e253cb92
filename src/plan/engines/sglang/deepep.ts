/**
 * What DeepEP's buffer takes on every card under SGLang's `--moe-a2a-backend deepep` (its default
 * `--deepep-mode auto` allocates for both the normal and the low-latency kernels).
 *
 * sgl-project/sglang `layers/moe/token_dispatcher/deepep.py` @ 003a81bf `DeepEPBuffer.get_deepep_buffer`:
 * `num_nvl_bytes` is the larger of the dispatch and combine configs' `get_nvl_buffer_size_hint(hidden_size ×
 * param_bytes, group.size())`, `num_rdma_bytes` the larger of their `get_rdma_buffer_size_hint` and
 * `Buffer.get_low_latency_rdma_size_hint(num_max_dispatch_tokens_per_rank, hidden_size, group.size(),
 * num_experts)`, the tokens from `SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK` (128 by default, at most 1,024);
 * `param_bytes` is 1 when the dispatch runs in FP8, else 2.
 *
 * The hints are deepseek-ai/DeepEP `csrc/config.hpp` @ 030cdf0a (the legacy NVSHMEM buffer SGLang's Buffer(...)
 * builds): the low-latency layout keeps two send, two receive and two signalling buffers, a dispatch message
 * `16 + max(hidden × 2, hidden + hidden/128 × 4)` B and a combine message `hidden/128 × 4 + hidden × 2` B, the
 * send buffer `max(tokens × dispatch, E × tokens × combine)` and the receive buffer `E × tokens × max(both)`;
 * the normal NVLink buffer `num_sms/2 channels × min(ranks, 8) × recv tokens × (hidden_bytes + 8 + 128 × 8 +
 * 2 × 128 × 4)` B; `Buffer.num_sms` 20; recv tokens from `Buffer.get_dispatch_config(num_ranks)` (256 up to 8
 * ranks, 288 at 16–64, 480 at 96, 560 at 128, 720 above), the combine config taken as the dispatch's.
 * DeepSeek-V3/R1 (hidden 7,168, 256 experts) at 128 tokens: 1.78 GiB of RDMA buffer and 0.18 GiB of NVLink buffer a card.
 */
/** SGLANG_DEEPEP_NUM_MAX_DISPATCH_TOKENS_PER_RANK's default (sglang environ.py). */
const SGLANG_DEEPEP_DISPATCH_TOKENS = 128;

/** deep_ep Buffer.num_sms: the SMs the normal kernels use, two per channel. */
const DEEPEP_NUM_SMS = 20;
const NUM_MAX_NVL_PEERS = 8;
const ALIGN = 128;

const alignUp = (n: number, to: number): number => Math.ceil(n / to) * to;

/** The receive tokens of DeepEP's recommended dispatch config for a number of ranks (deep_ep/buffer.py). */
function recvTokensOf(ranks: number): { nvl: number; rdma: number } {
  if (ranks <= 8) return { nvl: 256, rdma: 128 };
  if (ranks <= 64) return { nvl: 288, rdma: 128 };
  if (ranks <= 96) return { nvl: 480, rdma: 128 };
  if (ranks <= 128) return { nvl: 560, rdma: 128 };
  return { nvl: 720, rdma: 128 };
}

/** Config::get_nvl_buffer_size_hint. */
function nvlBytes(hiddenBytes: number, ranks: number): number {
  const channels = DEEPEP_NUM_SMS / 2;
  const nvlRanks = Math.min(ranks, NUM_MAX_NVL_PEERS);
  const rdmaRanks = Math.max(1, Math.floor(ranks / NUM_MAX_NVL_PEERS));
  const slots = channels * nvlRanks * recvTokensOf(ranks).nvl;
  // hidden + SourceMeta (two ints) + top-k ids (int64) and weights (float) + scales (float), 128 each.
  const bytes = channels * nvlRanks * (2 * rdmaRanks + 3) * 4 + slots * (hiddenBytes + 8 + 128 * 8 + 128 * 4 + 128 * 4);
  return alignUp(bytes, ALIGN);
}

/** Config::get_rdma_buffer_size_hint: none within one NVLink domain (8 ranks), else two copies of each chunk. */
function normalRdmaBytes(hiddenBytes: number, ranks: number): number {
  if (ranks <= NUM_MAX_NVL_PEERS) return 0;
  const channels = DEEPEP_NUM_SMS / 2;
  const rdmaRanks = Math.floor(ranks / NUM_MAX_NVL_PEERS);
  const slots = channels * rdmaRanks * recvTokensOf(ranks).rdma;
  const bytes =
    channels * rdmaRanks * (NUM_MAX_NVL_PEERS * 2 + 2) * 2 * 4 +
    slots * 2 * (hiddenBytes + 8 + 128 * 8 + 128 * 4 + 128 * 4 + 16) +
    1_048_576;
  return alignUp(bytes, ALIGN);
}

/** get_low_latency_rdma_size_hint: LowLatencyLayout's total, rounded up past the next 128 B. */
function lowLatencyBytes(tokens: number, hidden: number, experts: number): number {
  const scales = hidden / 128;
  const dispatchMsg = 16 + Math.max(hidden * 2, hidden + scales * 4);
  const combineMsg = scales * 4 + hidden * 2;
  const send = Math.max(tokens * dispatchMsg, experts * tokens * combineMsg);
  const recv = experts * tokens * Math.max(dispatchMsg, combineMsg);
  const signalling = alignUp(experts * 4, ALIGN);
  const total = 2 * send + 2 * recv + 2 * signalling;
  return Math.floor((total + ALIGN) / ALIGN) * ALIGN;
}

/** DeepEP's buffer on one card of a group of `ranks`, bytes: its NVLink buffer and its NVSHMEM (RDMA) buffer. */
export function deepEpBufferBytes(
  hidden: number,
  experts: number,
  ranks: number,
  fp8Dispatch: boolean,
  tokens = SGLANG_DEEPEP_DISPATCH_TOKENS,
): { nvlBytes: number; rdmaBytes: number } {
  const hiddenBytes = hidden * (fp8Dispatch ? 1 : 2);
  return {
    nvlBytes: nvlBytes(hiddenBytes, ranks),
    rdmaBytes: Math.max(normalRdmaBytes(hiddenBytes, ranks), lowLatencyBytes(tokens, hidden, experts)),
  };
}
