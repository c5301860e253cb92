/**
 * vLLM's releases as Modelplan plans them: what each range's profile run holds inside the budget, and
 * how a version string maps to its range.
 */
import type { VllmReleaseChoice } from "../../types.ts";
import { GIB } from "../../units.ts";

/**
 * The sampler's share of the profile run's activation peak, per sequence
 * slot and vocabulary entry: the dummy sampler run (top-p 0.9, top-k vocab − 1,
 * gpu_model_runner._dummy_sampler_run) holds [max_num_seqs, vocab] logits in
 * the model's dtype and in fp32, their softmax and the sampling noise. Fitted
 * on the 0.19 sweep, where it dominates: Llama-3.1-8B (128,256 vocab, 1024
 * seqs) 1.89 GiB = 15.45 B; Qwen2.5-7B 15.24; Gemma-2/7B 14.93; Gemma-3 15.76;
 * gpt-oss-20b 14.96. We take 15.4 for a bf16/fp16 model; an fp32 model adds
 * its 2 extra bytes of logits (Llama-3.1-8B fp32: 2.21 GiB = 17.6 B).
 * Since 0.17 top-k/top-p runs in Triton without sorting the vocabulary
 * (vllm-project/vllm PR #33538, `apply_top_k_top_p` → `apply_top_k_top_p_triton`
 * in vllm/v1/sample/ops/topk_topp_sampler.py); see VLLM_PROFILES for before.
 */
export const VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB = 15.4;

/**
 * The sampler's share in vLLM 0.11.1–0.16, which sorted the whole vocabulary:
 * `apply_top_k_top_p` (now `apply_top_k_top_p_pytorch`) holds `logits.sort()`'s
 * fp32 values and int64 indices (12 B), the radix sort's double buffers while
 * it runs, the top-k mask, the softmax of the sorted logits and the top-p
 * mask, beside the bf16 and fp32 logits. The FlashInfer sampler that spared
 * this was turned off by default in PR #26859 (2025-10-15, after 0.11.0) and
 * the Triton kernel replaced the sort in 0.17. Logs, all at 1024 sequences:
 * Qwen3-14B 0.15.0 5.64 GiB over 151,936 entries = 38.9 B (2.23 GiB in 0.18);
 * the llm-d-benchmark "pre-v0.17" runs gpt-oss-20b 7.38 GiB over 201,088 =
 * 38.5 B, Llama-3.3-70B-FP8 4.84 GiB over 128,256 = 39.6 B. We take 39.
 * PR #33538's own benchmark agrees in kind: 56 rows × 32,768 entries took
 * 92.20 MB through PyTorch's sort and 28.21 MB through the Triton kernel, 50
 * against 15.4 B an entry (its logits included).
 */
export const VLLM_SORTING_SAMPLER_BYTES_PER_SEQ_VOCAB = 39;

/** What a vLLM release's profile run adds inside util × total beyond the weights. */
export interface VllmMemoryProfile {
  /** The first release of the range, as settings and links name the profile. */
  id: "0.10" | "0.11.1" | "0.17" | "0.21" | "0.26" | "0.27" | "0.28" | "0.29";
  /** The releases it covers, in words. */
  releases: string;
  /** A release of the range: what the page's select and the command line's help name it by. */
  representative: string;
  /** The sampler's share of the activation peak per sequence slot and vocabulary entry (bf16/fp16 model). */
  samplerBytesPerSeqVocab: number;
  /**
   * Non-torch memory the profile run adds, by how the card's group communicates: `tensorParallelBytes`
   * over NVLink (custom all-reduce on), `pcieTensorParallel2Bytes` / `pcieTensorParallelWideBytes` over
   * PCIe at TP2 / TP ≥ 3 (custom all-reduce off past two PCIe-only cards: NCCL alone), and
   * `hybridSingleBytes` for a TP1 model with linear-attention (GDN/Mamba) layers.
   */
  nonTorch: {
    singleBytes: number;
    hybridSingleBytes: number;
    tensorParallelBytes: number;
    pcieTensorParallel2Bytes: number;
    pcieTensorParallelWideBytes: number;
    tensorAcrossNodesBytes: number;
    pipelineStageBytes: number;
  };
  /**
   * The CUDA-graph estimate is reserved INSIDE util × total (V1 model runner), so the KV pool shrinks by it and the
   * graphs are no longer outside the budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on).
   */
  graphsInsideBudget: boolean;
  /**
   * Which models the release runs on its V2 model runner ("Using V2 Model Runner"), and what that runner
   * holds inside the budget; null: every model runs V1.
   */
  v2: null | { models: "dense" | "dense-and-hybrid"; graphsInsideBudget: boolean; samplerBytesPerSeqVocab: number };
  /** The release's own --gpu-memory-utilization default (CacheConfig.gpu_memory_utilization). */
  defaultUtilization: number;
  /**
   * The OpenAI server's max_num_batched_tokens on a card of at least VLLM_HUGE_CARD_GIB (0.28's tier for
   * B200/B300), null where the release has only the 70 GiB tier (VLLM_SCHED_SOURCE).
   */
  hugeCardBatchedTokens: number | null;
  /** The line the worker prints its budget in: 0.27's "consumed memory (weights + non-torch)" or the older per-term line. */
  usageLine: "weight-peak-non-torch" | "consumed-peak";
  /** The logs and sources each figure came from. */
  source: string;
}

/**
 * vLLM's accounting by release range. Each differs from the next in what the
 * logs measured, for a reason in vLLM's source:
 * - 0.21 and later: the 0.17 figures, and the CUDA-graph estimate reserved
 *   inside the budget: gpu_worker.determine_available_memory computes
 *   `available_kv_cache_memory_bytes = requested_memory −
 *   profile_result.non_kv_cache_memory − cudagraph_memory_estimate_applied`,
 *   where the estimate is applied when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS
 *   is set; PR #30515 (merged Dec 2025) added it off by default, PR #38284
 *   ("[Startup][UX] Enable CUDAGraph memory profiling by default", "slated for
 *   default enablement in v0.21") turned it on and "correspondingly increases
 *   the default `--gpu-memory-utilization` to 0.92"; 0.21+ logs say "CUDA graph
 *   memory profiling is enabled (default since v0.21.0)". The estimate
 *   (gpu_model_runner.profile_cudagraph_memory) captures the first two graphs
 *   of each mode (PIECEWISE, FULL) into a scratch pool over a minimal KV cache
 *   and extrapolates: `max(first capture over modes) + Σ second capture × (graphs
 *   of the mode − 1)`. 0.19 already ran it and logged it beside the real pool
 *   ("CUDA graph pool memory: X GiB (actual), Y GiB (estimated)"): over the 35
 *   H100 logs that print both it is 0.49–1.92 GiB, within ±0.3 GiB of the pool
 *   in 29, 0.31–0.54 under it for four MoE runs (Kimi-VL TP1, gpt-oss-20b), and
 *   0.8–0.9 over it in two (Llama-3.1-8B TP2 1.69 against 0.76, Granite-3.1-2B
 *   1.60 against 0.84). Modelplan reserves its own model of the 0.21+
 *   estimate (memory.ts vllmGraphEstimateBytes: 0.19's per-layer slope per
 *   graph, without 0.19's 0.4 GiB base, which the 2026 logs do not show).
 *   From 0.28 a card of ≥ 160 GiB batches 16,384 tokens by default
 *   (VLLM_HUGE_CARD_GIB). The sampler stays 15.4 B: PR #40376 turned FlashInfer's
 *   top-k/top-p sampler on by default again (merged after 2026-04-20), which,
 *   like the Triton kernel, does not sort (0.10's FlashInfer runs measured 15 B
 *   an entry). No 0.21+ H100 log of a known model calibrates the rest: the
 *   non-torch figures are 0.19's.
 * - 0.17–0.20: calibrated on the 0.19 sweep (51 H100 logs) and Qwen3-14B
 *   on 0.18. Non-torch 0.25 GiB at TP1 (cuBLAS and NCCL workspaces), 2.06–2.21
 *   at TP ≥ 2, 0.07 on a pipeline stage at TP1 (no TP-across-nodes log: the
 *   TP figure is used).
 * - 0.11.1–0.16: the sorting sampler (VLLM_SORTING_SAMPLER_BYTES_PER_SEQ_VOCAB).
 *   Non-torch 0.13 GiB at TP1 (Qwen3-14B 0.15.0; llm-d gpt-oss-20b 0.13,
 *   Llama-3.3-70B 0.14) and 0.55 at TP2 (llm-d Llama-3.3-70B-FP8 on H100).
 *   No pipeline log: 0.19's 0.07; TP across nodes: 0.10's 1.04.
 * - 0.10–0.11.0: V1 then used FlashInfer's top-k/top-p sampler whenever it was
 *   installed (`envs.VLLM_USE_FLASHINFER_SAMPLER is not False`, "in V1, None
 *   means True", topk_topp_sampler.py of that time), which does not sort: the
 *   0.10.1.1 A100 logs leave 0.55 GiB for activation and non-torch at TP1 with
 *   256 sequences × 152,064 entries, which is 15 B an entry and nothing else.
 *   The worker then took its baseline snapshot BEFORE init_worker_distributed_environment
 *   (vllm/v1/worker/gpu_worker.py init_device of 0.10; since ~0.13 "Initialize
 *   the distributed environment BEFORE taking memory snapshot … NCCL buffers
 *   are allocated before we measure", commit 35d5cda), so what NCCL and the
 *   custom all-reduce hold is counted inside the budget, and yet it was small:
 *   with the A100's 79.25 GiB, TP2 on one node left 0.6708 and 0.6733 GiB
 *   for activation and non-torch together, of which the sampler is 0.5585:
 *   0.11 GiB of non-torch; TP2 over two nodes by Ray 1.04 (A100 40GB, 39.49
 *   GiB). TP1 left none (−0.01 to 0.00). No pipeline log: the
 *   same-node TP figure, since the stage's NCCL setup is counted too.
 */
/** vLLM 0.17–0.19's non-torch memory (H100, NVLink): what releases without a PCIe or hybrid log are planned with. */
const VLLM_019_NON_TORCH: VllmMemoryProfile["nonTorch"] = {
  singleBytes: 0.25 * GIB,
  hybridSingleBytes: 0.25 * GIB,
  tensorParallelBytes: 2.1 * GIB,
  pcieTensorParallel2Bytes: 2.1 * GIB,
  pcieTensorParallelWideBytes: 2.1 * GIB,
  tensorAcrossNodesBytes: 2.1 * GIB,
  pipelineStageBytes: 0.07 * GIB,
};

/**
 * Non-torch from 0.21 (docs/vllm-releases.md §4): NVLink keeps 0.19's 2.1 GiB (custom all-reduce on).
 * Over PCIe past two cards custom all-reduce is off ("Custom allreduce is disabled because it's not
 * supported on more than two PCIe-only GPUs", custom_all_reduce.py) and all-reduce runs on PyNCCL, whose
 * communicators (and their warm-up all-reduce) are set up in init_device BEFORE the baseline snapshot
 * ("so NCCL buffers are allocated before we measure", commit 35d5cda): they are not in the profile's
 * non-torch increase, so TP ≥ 3 over PCIe is planned with the TP1 figure, 0.25 (fitted on the 0.19 TP1
 * logs). Checked on two logs nothing was fitted on: 8 × RTX PRO 4500 gpt-oss-120b (0.28.0) leaves 0.83
 * GiB for everything but weights and KV, 0.74 of it the 256-sequence sampler, so ≤ 0.09 for non-torch
 * and graphs (−5.2% on its pool; with the 1.70 once taken here, −12.8%); Qwen3-235B-FP8 on 4 × RTX PRO
 * 6000 (0.27.1) consumed 56.89 − 55.19 = 1.70 (+3.7%): that 1.45 GiB more is not NCCL's (the TP8 run
 * shows none) and is not modelled (its FP8 MoE's kernels are the suspect, not read in source).
 * At TP2 over PCIe (custom all-reduce on where P2P works) the Qwen3-32B 0.27.1 log leaves 1.66 GiB for
 * everything but weights and KV, of which its 8,192-token forward line is 1.05: 0.6 for non-torch.
 * A TP1 hybrid model (linear-attention state, often multimodal profiling too): Agents-A1 (dev1327) 1.26
 * text-only and 0.72 + a 1.38 transient with images; Qwen3.5-122B (0.22.1) 2.68 with its 0.63 forward
 * line: we take 1.5 for non-torch and what its transient adds.
 * Dense TP1 stays 0.25 (0.08 A40 0.26.0, 0.15 gpt-oss-120b dev1229, 0.39 ThinkingCap 0.29.0).
 */
const VLLM_021_NON_TORCH: VllmMemoryProfile["nonTorch"] = {
  ...VLLM_019_NON_TORCH,
  hybridSingleBytes: 1.5 * GIB,
  pcieTensorParallel2Bytes: 0.6 * GIB,
  pcieTensorParallelWideBytes: 0.25 * GIB,
};

/** The older ranges' non-torch: one figure for every kind of link (their logs are all NVLink or one card). */
function sameOverLinks(
  singleBytes: number,
  tensorParallelBytes: number,
  tensorAcrossNodesBytes: number,
  pipelineStageBytes: number,
): VllmMemoryProfile["nonTorch"] {
  return {
    singleBytes,
    hybridSingleBytes: singleBytes,
    tensorParallelBytes,
    pcieTensorParallel2Bytes: tensorParallelBytes,
    pcieTensorParallelWideBytes: tensorParallelBytes,
    tensorAcrossNodesBytes,
    pipelineStageBytes,
  };
}

/**
 * The V2 model runner's sampler share. 0.26.0: the A40 Llama-3.1-8B log peaks at 1.01 GiB with
 * 256 sequences and a 2,048-token batch, whose forward line is 0.21: 1.01 GiB ÷ (256 × 128,256) = 33 B an
 * entry (EMPIRICAL, one log). 0.27.1: Qwen3-32B TP2 at 1,024 sequences leaves 1.66 GiB for all of
 * non-torch, peak and graphs, so its sampler is at most 1.05 GiB ÷ (1,024 × 151,936) = 7 B: we take the
 * fp32 logits alone, 4 B (a bound from one log, not a measured split).
 */
const VLLM_V2_026_SAMPLER_BYTES = 33;
const VLLM_V2_027_SAMPLER_BYTES = 4;

const FLASHINFER_SAMPLER =
  'FlashInfer top-p/top-k sampler (PR #40376; "Using FlashInfer for top-p & top-k sampling" in dev1327, 0.27.1, 0.29.0)';

/**
 * From 0.28.0 a third tier: "for GPUs like B200/B300 with >= 160GB memory, use the largest defaults",
 * `if device_memory >= 160 * GiB_bytes:` OPENAI_API_SERVER 16,384 batched tokens (PR #51726, opened 2026-08-10;
 * the diff as vllm#53961 quotes it; arg_utils.py lines 2582–2591 at tag v0.28.0, commit 2cf0a69, absent at
 * v0.27.0, commit 4bdc8a7). It gates on memory alone, so MI300X's 191.98 GiB is in it too (vllm#53961; PR
 * #54043, open, would keep ROCm out). max_num_seqs stays 1024. 0.26.0 on a 267.69 GiB B300 still printed
 * "Chunked prefill is enabled with max_num_batched_tokens=8192" (the Gemma-4-31B log, newer-found.jsonl).
 */
export const VLLM_HUGE_CARD_GIB = 160;
export const VLLM_HUGE_CARD_BATCHED_TOKENS = 16384;

export const VLLM_PROFILES: readonly VllmMemoryProfile[] = [
  {
    id: "0.29",
    releases: "0.29 and later",
    representative: "0.29",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_021_NON_TORCH,
    graphsInsideBudget: true,
    v2: { models: "dense-and-hybrid", graphsInsideBudget: true, samplerBytesPerSeqVocab: VLLM_V2_027_SAMPLER_BYTES },
    defaultUtilization: 0.92,
    hugeCardBatchedTokens: VLLM_HUGE_CARD_BATCHED_TOKENS,
    usageLine: "consumed-peak",
    source: `vLLM 0.29.0 logs: the V2 runner runs hybrid Qwen3.5-class models too and captures its graphs during profiling, reserving them ("Graph capturing finished … took 0.14 GiB" before "Available KV cache memory"; ThinkingCap 27.68 − 22.53 − 0.42 = 4.73); the 0.27 consumed/peak line; ${FLASHINFER_SAMPLER}`,
  },
  {
    id: "0.28",
    releases: "0.28",
    representative: "0.28",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_021_NON_TORCH,
    graphsInsideBudget: true,
    v2: { models: "dense", graphsInsideBudget: false, samplerBytesPerSeqVocab: VLLM_V2_027_SAMPLER_BYTES },
    defaultUtilization: 0.92,
    hugeCardBatchedTokens: VLLM_HUGE_CARD_BATCHED_TOKENS,
    usageLine: "consumed-peak",
    source: `vLLM 0.28.0: 0.27's accounting and the 16,384-token batch default on cards of ≥ 160 GiB (PR #51726, arg_utils.py at tag v0.28.0); 0.27.1 logs: "Actual usage is X GiB for consumed memory (weights + non-torch), Y GiB for peak activation" (gpu_worker.py:789; peak includes the graph estimate, PR #49208 / #57936); Qwen3-235B-FP8 TP4 85.51 − 56.89 − 0.76 = 27.86; dense models on the V2 runner (model_runner.py:329); ${FLASHINFER_SAMPLER}`,
  },
  {
    id: "0.27",
    releases: "0.27",
    representative: "0.27",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_021_NON_TORCH,
    graphsInsideBudget: true,
    v2: { models: "dense", graphsInsideBudget: false, samplerBytesPerSeqVocab: VLLM_V2_027_SAMPLER_BYTES },
    defaultUtilization: 0.92,
    hugeCardBatchedTokens: null,
    usageLine: "consumed-peak",
    source: `vLLM 0.27.1 logs: "Actual usage is X GiB for consumed memory (weights + non-torch), Y GiB for peak activation" (gpu_worker.py:789; peak includes the graph estimate, PR #49208 / #57936); Qwen3-235B-FP8 TP4 85.51 − 56.89 − 0.76 = 27.86; dense models on the V2 runner (model_runner.py:329); ${FLASHINFER_SAMPLER}`,
  },
  {
    id: "0.26",
    releases: "0.26",
    representative: "0.26",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_021_NON_TORCH,
    graphsInsideBudget: true,
    v2: { models: "dense", graphsInsideBudget: false, samplerBytesPerSeqVocab: VLLM_V2_026_SAMPLER_BYTES },
    defaultUtilization: 0.92,
    hugeCardBatchedTokens: null,
    usageLine: "weight-peak-non-torch",
    source:
      'vLLM 0.26.0: dense models on the V2 runner ("Using V2 Model Runner", gpu_worker.py:378), whose profile_cudagraph_memory() returns 0: no estimate inside (A40 Llama-3.1-8B 39.99 − 15.0 − 1.01 − 0.08 = 23.90, the 0.56 GiB pool outside); MoE models stay V1 with the estimate',
  },
  {
    id: "0.21",
    releases: "0.21 to 0.25",
    representative: "0.21",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_021_NON_TORCH,
    graphsInsideBudget: true,
    v2: null,
    defaultUtilization: 0.92,
    hugeCardBatchedTokens: null,
    usageLine: "weight-peak-non-torch",
    source:
      'vLLM source: CUDA-graph estimate inside the budget and util 0.92 by default (PR #38284, v0.21.0; "CUDA graph memory profiling is enabled (default since v0.21.0)"); gpt-oss-120b dev1229 84.12 − 66.17 − 1.17 − 0.15 − 0.06 = 16.57; FlashInfer sampler (PR #40376)',
  },
  {
    id: "0.17",
    releases: "0.17 to 0.20",
    representative: "0.19",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_019_NON_TORCH,
    graphsInsideBudget: false,
    v2: null,
    defaultUtilization: 0.9,
    hugeCardBatchedTokens: null,
    usageLine: "weight-peak-non-torch",
    source:
      "vLLM 0.19.0 H100 sweep (llm-d-planner PR #205 logs) and 0.18.0 Qwen3-14B; Triton top-k/top-p sampler (PR #33538)",
  },
  {
    id: "0.11.1",
    releases: "0.11.1 to 0.16",
    representative: "0.16",
    samplerBytesPerSeqVocab: VLLM_SORTING_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: sameOverLinks(0.13 * GIB, 0.55 * GIB, 1.04 * GIB, 0.07 * GIB),
    graphsInsideBudget: false,
    v2: null,
    defaultUtilization: 0.9,
    hugeCardBatchedTokens: null,
    usageLine: "weight-peak-non-torch",
    source:
      "vLLM 0.15.0 Qwen3-14B (llm-d-planner version sweep) and llm-d-benchmark's pre-0.17 H100 runs; sort-based top-k/top-p (FlashInfer sampler off by default since PR #26859)",
  },
  {
    id: "0.10",
    releases: "0.10 to 0.11.0",
    representative: "0.10",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: sameOverLinks(0, 0.11 * GIB, 1.04 * GIB, 0.11 * GIB),
    graphsInsideBudget: false,
    v2: null,
    defaultUtilization: 0.9,
    hugeCardBatchedTokens: null,
    usageLine: "weight-peak-non-torch",
    source:
      "vLLM 0.10.1.1 on A100 80GB/40GB (dennislee22/vLLM-benchmarking logs, util 0.25/0.5, TP1, TP2, TP2 over two nodes); FlashInfer sampler on by default in V1",
  },
];

/** The newest releases' profile: what most users run, and what a plan that names no release is made for. */
export const VLLM_NEWEST_PROFILE: VllmMemoryProfile = VLLM_PROFILES[0] as VllmMemoryProfile;

/** The profile Modelplan's older vLLM figures are calibrated on (0.17–0.20): the 0.19 sweep's. */
export const VLLM_DEFAULT_PROFILE: VllmMemoryProfile = VLLM_PROFILES.find((p) => p.id === "0.17") as VllmMemoryProfile;

/** The largest figure a release's part may have: "0.10.1.1" is a release, "0.99999" a typo. */
const RELEASE_PART = "(\\d{1,3})";

/**
 * A version as `vllm --version` prints it: X.Y[.Z[.W]], then PEP 440's pre-release (rc1, a1, b1),
 * post-release (.post1) and dev (.dev1229) parts, then a local part (+g1bf3b12d5.d20260913, +cu128,
 * +7b9cb5b7.dev). A dev build of 0.23.1rc1 is main between 0.23.0 and 0.23.1: the 0.23 range.
 */
const VERSION = new RegExp(
  `^${RELEASE_PART}\\.${RELEASE_PART}(?:\\.${RELEASE_PART})?(?:\\.${RELEASE_PART})?(?:(?:rc|a|b)\\d+)?(?:\\.post\\d+)?(?:\\.dev\\d+)?(?:\\+[0-9A-Za-z.]+)?$`,
  "i",
);

/** The forms a release may be written in, for the message that refuses one. */
export const VLLM_VERSION_FORMS = "0.29, 0.27.1, v0.19.0, 0.10.1.1, 0.23.1rc1.dev1229+g1bf3b12d5, 0.22.1+7b9cb5b7.dev";

/** A vLLM release as read: its profile, the major.minor it names, and whether it is newer than every profile's range starts. */
export interface VllmRelease {
  profile: VllmMemoryProfile;
  /** "0.23": the release's major.minor, as the page names what it planned for. */
  release: string;
  /** Past the newest range Modelplan has logs of (0.29): planned with the newest profile, and said so. */
  newerThanProfiles: boolean;
}

/** The release after the newest profile's own that Modelplan has startup logs of (0.29.x, 0.30 dev builds behave as 0.29). */
const NEWEST_SEEN = { major: 0, minor: 30 };

/**
 * The vLLM release a version string names, or a sentence saying why it is not one Modelplan models:
 * the V1 engine from 0.10 on, ranges as VLLM_PROFILES gives them (0.11 alone means 0.11.0).
 */
export function vllmReleaseFor(version: string): VllmRelease | { error: string } {
  const text = version.trim().replace(/^v/i, "");
  const m = VERSION.exec(text);
  const shown = JSON.stringify(version.slice(0, 40));
  if (!m)
    return {
      error: `${shown} is not a vLLM release: write it as vllm --version prints it, e.g. ${VLLM_VERSION_FORMS}`,
    };
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const patch = m[3] === undefined ? 0 : Number(m[3]);
  const release = `${major}.${minor}`;
  if (major === 0 && minor < 10) {
    return {
      error: `vLLM ${text} is older than the V1 engine Modelplan models (0.10 and later); its V0 accounting differs: plan with 0.10 as the nearest`,
    };
  }
  const byId = (id: VllmMemoryProfile["id"]) => VLLM_PROFILES.find((p) => p.id === id) ?? VLLM_DEFAULT_PROFILE;
  const at = (id: VllmMemoryProfile["id"]): VllmRelease => ({ profile: byId(id), release, newerThanProfiles: false });
  if (major === 0 && (minor === 10 || (minor === 11 && patch === 0))) return at("0.10");
  if (major === 0 && minor <= 16) return at("0.11.1");
  if (major === 0 && minor <= 20) return at("0.17");
  if (major === 0 && minor <= 25) return at("0.21");
  if (major === 0 && minor === 26) return at("0.26");
  if (major === 0 && minor === 27) return at("0.27");
  if (major === 0 && minor === 28) return at("0.28");
  const newer = major > NEWEST_SEEN.major || minor > NEWEST_SEEN.minor;
  return { profile: VLLM_NEWEST_PROFILE, release, newerThanProfiles: newer };
}

/** The memory profile of a vLLM release string (see vllmReleaseFor), or why it names none. */
export function vllmProfileFor(version: string): VllmMemoryProfile | { error: string } {
  const r = vllmReleaseFor(version);
  return "error" in r ? r : r.profile;
}

/**
 * The release a plan was made for, in words the page and the CLI print beside it: the named one, or with
 * none named the newest (what most users run; planning an older release is the user's choice). A release
 * newer than every profile is planned with the newest and says so.
 */
export function assumedVllmRelease(version: string | undefined): {
  profile: VllmMemoryProfile;
  named: boolean;
  /** The terminal's words (they name --vllm-version). */
  words: string;
  /** The same without the command-line advice: what the page prints beside its own release select. */
  assumption: string;
} {
  const r = version === undefined ? null : vllmReleaseFor(version);
  if (r === null || "error" in r) {
    const assumption = `vLLM ${VLLM_NEWEST_PROFILE.releases} assumed (no release named)`;
    return {
      profile: VLLM_NEWEST_PROFILE,
      named: false,
      words: `vLLM ${VLLM_NEWEST_PROFILE.releases} assumed (no release named; set --vllm-version to plan an older one)`,
      assumption,
    };
  }
  const words = r.newerThanProfiles
    ? `vLLM ${r.release} is newer than the releases Modelplan has logs of: planned as ${r.profile.releases}`
    : `vLLM ${r.release}, planned as ${r.profile.releases}`;
  return { profile: r.profile, named: true, words, assumption: words };
}

export type { VllmReleaseChoice } from "../../types.ts";

/** The release ranges a user can plan vLLM for, newest first. */
export function vllmReleaseChoices(): VllmReleaseChoice[] {
  const note = (p: VllmMemoryProfile): string =>
    p === VLLM_NEWEST_PROFILE
      ? " (the newest: planned when none is named)"
      : p === VLLM_DEFAULT_PROFILE
        ? " (calibrated on 0.17–0.19)"
        : p.graphsInsideBudget
          ? " (CUDA-graph estimate inside the budget, util 0.92)"
          : "";
  return VLLM_PROFILES.map((p) => ({ value: p.representative, label: `${p.releases}${note(p)}` }));
}

/** The choice a setting falls in ("0.15" → "0.16", the 0.11.1–0.16 range), or "" when it names none. */
export function vllmReleaseChoiceOf(version: string | undefined): string {
  if (version === undefined) return "";
  const p = vllmProfileFor(version);
  return "error" in p ? "" : p.representative;
}

/**
 * The profiles a (validated) setting names: a named release's, or with none named the newest.
 * A release Modelplan cannot read plans as none named, never as a guess.
 */
export function vllmProfilesOf(version: string | undefined): readonly VllmMemoryProfile[] {
  return [assumedVllmRelease(version).profile];
}

/**
 * vLLM's scheduler defaults depend on the card (vllm/engine/arg_utils.py
 * `_set_default_args`, v0.10–0.19, OpenAI server): on cards of ≥ 70 GiB that are
 * not A100s, max_num_batched_tokens 8192 and max_num_seqs 1024; else 2048 and 256.
 * The 0.10.1.1 logs on A100 80GB fit the smaller pair (their KV pools at util
 * 0.25 and 0.5 need the 256-sequence sampler peak).
 * The 0.19 logs confirm it on H100: "warming up sampler with 1024 dummy requests"
 * and an 8192-token profile run (docs/calibration-sources.md).
 */
export const VLLM_LARGE_CARD_GIB = 70;

/** vLLM's OpenAI-server scheduler defaults for a release on a card (get_batch_defaults; VLLM_SCHED_SOURCE). */
export function vllmSchedulerDefaults(
  profile: VllmMemoryProfile,
  cardMemoryBytes: number,
  gpuClass: string,
): { maxNumSeqs: number; maxNumBatchedTokens: number } {
  if (profile.hugeCardBatchedTokens !== null && cardMemoryBytes >= VLLM_HUGE_CARD_GIB * GIB)
    return { maxNumSeqs: 1024, maxNumBatchedTokens: profile.hugeCardBatchedTokens };
  // vLLM keeps the smaller defaults on A100s whatever their memory (PR #17885: larger batches cost them throughput).
  const large = cardMemoryBytes >= VLLM_LARGE_CARD_GIB * GIB && !/^a100/i.test(gpuClass);
  return large ? { maxNumSeqs: 1024, maxNumBatchedTokens: 8192 } : { maxNumSeqs: 256, maxNumBatchedTokens: 2048 };
}

export const VLLM_SCHED_SOURCE =
  'vLLM arg_utils (OpenAI server), 0.10 through the 2026 get_batch_defaults: ≥70 GiB cards that are not A100s 8192 tokens / 1024 seqs, else 2048 / 256; from 0.28.0 16384 tokens on cards of ≥160 GiB (PR #51726) (0.27.1 RTX PRO 6000 log: "Chunked prefill is enabled with max_num_batched_tokens=8192"; 0.26.0 A40: compile range (1, 2048))';

/** The top-k/top-p sampler each range's profile run uses, with its source. */
export function vllmSamplerOf(p: VllmMemoryProfile): { value: string; source: string } {
  if (p.id === "0.11.1")
    return {
      value: "PyTorch sort",
      source: "FlashInfer's sampler off by default (PR #26859, 2025-10-15): apply_top_k_top_p sorts the vocabulary",
    };
  if (p.id === "0.10")
    return { value: "FlashInfer", source: "V1 0.10–0.11.0: VLLM_USE_FLASHINFER_SAMPLER None means True" };
  if (p.id === "0.17")
    return { value: "Triton top-k/top-p", source: "PR #33538 (0.17): apply_top_k_top_p_triton, no sort" };
  return {
    value: "FlashInfer top-k/top-p",
    source:
      'PR #40376 ("Enable FlashInfer top-k/top-p sampler by default"): "Using FlashInfer for top-p & top-k sampling" in the dev1327, 0.27.1 and 0.29.0 logs',
  };
}
