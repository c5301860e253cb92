/**
 * vLLM's releases as Modelplan plans them: what each range's profile run holds inside the budget, and
 * how a version string maps to its range.
 */
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
  id: "0.10" | "0.11.1" | "0.17" | "0.21";
  /** The releases it covers, in words. */
  releases: string;
  /** A release of the range: what the page's select and the command line's help name it by. */
  representative: string;
  /** The sampler's share of the activation peak per sequence slot and vocabulary entry (bf16/fp16 model). */
  samplerBytesPerSeqVocab: number;
  /** Non-torch memory the profile run adds, by how the card's group communicates. */
  nonTorch: { singleBytes: number; tensorParallelBytes: number; tensorAcrossNodesBytes: number; pipelineStageBytes: number };
  /**
   * The CUDA-graph estimate is reserved INSIDE util × total, so the KV pool shrinks by it and the
   * graphs are no longer outside the budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS on).
   */
  graphsInsideBudget: boolean;
  /** The release's own --gpu-memory-utilization default (CacheConfig.gpu_memory_utilization). */
  defaultUtilization: number;
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
 *   1.60 against 0.84). Modelplan reserves its graph-pool line
 *   (vllmCudaGraphPoolBytes) for it: on those logs that is 0.06 GiB above the
 *   logged estimate on the mean, below it by more than 0.05 GiB in 6 of 35
 *   (those two by 0.6–0.8 GiB, gpt-oss-20b and the 80-layer W8A8 70B by
 *   0.13–0.34). The sampler stays 15.4 B: PR #40376 turned FlashInfer's
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
/** vLLM 0.17–0.19's non-torch memory, which 0.21+ is planned with too (no newer log). */
const VLLM_019_NON_TORCH: VllmMemoryProfile["nonTorch"] = { singleBytes: 0.25 * GIB, tensorParallelBytes: 2.1 * GIB, tensorAcrossNodesBytes: 2.1 * GIB, pipelineStageBytes: 0.07 * GIB };

export const VLLM_PROFILES: readonly VllmMemoryProfile[] = [
  {
    id: "0.21", releases: "0.21 and later", representative: "0.21",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_019_NON_TORCH,
    graphsInsideBudget: true, defaultUtilization: 0.92,
    source: "vLLM source: CUDA-graph estimate inside the budget and util 0.92 by default (PR #38284, v0.21.0); FlashInfer sampler (PR #40376); other figures from the 0.19.0 H100 sweep",
  },
  {
    id: "0.17", releases: "0.17 to 0.20", representative: "0.19",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: VLLM_019_NON_TORCH,
    graphsInsideBudget: false, defaultUtilization: 0.9,
    source: "vLLM 0.19.0 H100 sweep (llm-d-planner PR #205 logs) and 0.18.0 Qwen3-14B; Triton top-k/top-p sampler (PR #33538)",
  },
  {
    id: "0.11.1", releases: "0.11.1 to 0.16", representative: "0.16",
    samplerBytesPerSeqVocab: VLLM_SORTING_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: { singleBytes: 0.13 * GIB, tensorParallelBytes: 0.55 * GIB, tensorAcrossNodesBytes: 1.04 * GIB, pipelineStageBytes: 0.07 * GIB },
    graphsInsideBudget: false, defaultUtilization: 0.9,
    source: "vLLM 0.15.0 Qwen3-14B (llm-d-planner version sweep) and llm-d-benchmark's pre-0.17 H100 runs; sort-based top-k/top-p (FlashInfer sampler off by default since PR #26859)",
  },
  {
    id: "0.10", releases: "0.10 to 0.11.0", representative: "0.10",
    samplerBytesPerSeqVocab: VLLM_SAMPLER_BYTES_PER_SEQ_VOCAB,
    nonTorch: { singleBytes: 0, tensorParallelBytes: 0.11 * GIB, tensorAcrossNodesBytes: 1.04 * GIB, pipelineStageBytes: 0.11 * GIB },
    graphsInsideBudget: false, defaultUtilization: 0.9,
    source: "vLLM 0.10.1.1 on A100 80GB/40GB (dennislee22/vLLM-benchmarking logs, util 0.25/0.5, TP1, TP2, TP2 over two nodes); FlashInfer sampler on by default in V1",
  },
];

/** The newest releases' profile: what most users run. */
export const VLLM_NEWEST_PROFILE: VllmMemoryProfile = VLLM_PROFILES[0] as VllmMemoryProfile;

/** The profile Modelplan's vLLM figures are calibrated on (0.17–0.20), and the fallback of a release it cannot read. */
export const VLLM_DEFAULT_PROFILE: VllmMemoryProfile = VLLM_PROFILES[1] as VllmMemoryProfile;

/**
 * What a plan that names no release must hold for: the newest releases (what
 * most users run: the graph estimate inside a 0.92 budget) AND the calibrated
 * 0.17–0.20 (no estimate, 0.9), each at its own default utilization. Each
 * option is planned with whichever leaves the smaller KV pool, so neither
 * population gets a false fit. With util unset the two differ by
 * 0.02 × total − the graph estimate: 1.58 GiB − 0.90 for Llama-3.1-8B on one
 * H100 (0.17–0.20 is 0.68 GiB smaller), 1.58 − 1.64 for Qwen2.5-72B's 80 layers
 * at TP2 (0.21+ is 0.06 smaller); with util set, 0.21+ is always smaller by
 * the estimate. Neither single profile is the smaller everywhere.
 */
export const VLLM_UNNAMED_RELEASE_PROFILES: readonly VllmMemoryProfile[] = [VLLM_NEWEST_PROFILE, VLLM_DEFAULT_PROFILE];

/** The largest figure a release's part may have: "0.10.1.1" is a release, "0.99999" a typo. */
const RELEASE_PART = /^\d{1,3}$/;

/**
 * The memory profile of a vLLM release written as "0.15", "0.10.1.1" or
 * "v0.19.0" (a pre-release or local suffix such as "rc1" or "+cu128" is
 * ignored), or a sentence saying why it is not one Modelplan models: the V1
 * engine from 0.10 on, ranges as VLLM_PROFILES gives them (0.11 alone means
 * 0.11.0). 0.17–0.20 take the calibrated profile, 0.21 and later (any 0.x past it,
 * and 1.x) the newest.
 */
export function vllmProfileFor(version: string): VllmMemoryProfile | { error: string } {
  const text = version.trim().replace(/^v/i, "").replace(/(?:rc\d+|\.post\d+|\.dev\d+|\+\S*)$/i, "");
  const parts = text.split(".");
  const shown = JSON.stringify(version.slice(0, 24));
  if (parts.length < 2 || parts.length > 4 || !parts.every((x) => RELEASE_PART.test(x))) {
    return { error: `${shown} is not a vLLM release: write it as vllm --version prints it, e.g. 0.15 or 0.10.1` };
  }
  const [major, minor, patch] = parts.map(Number) as [number, number, number | undefined];
  const byId = (id: VllmMemoryProfile["id"]) => VLLM_PROFILES.find((p) => p.id === id) ?? VLLM_DEFAULT_PROFILE;
  if (major === 0 && minor < 10) {
    return { error: `vLLM ${text} is older than the V1 engine Modelplan models (0.10 and later); its V0 accounting differs: plan with 0.10 as the nearest` };
  }
  if (major === 0 && (minor === 10 || (minor === 11 && (patch ?? 0) === 0))) return byId("0.10");
  if (major === 0 && minor <= 16) return byId("0.11.1");
  if (major === 0 && minor <= 20) return byId("0.17");
  return VLLM_NEWEST_PROFILE;
}

/** One entry of the page's vLLM release select: the range's representative release, and the range in words. */
export interface VllmReleaseChoice {
  value: string;
  label: string;
}

/** The release ranges a user can plan vLLM for, newest first. */
export function vllmReleaseChoices(): VllmReleaseChoice[] {
  const note = (p: VllmMemoryProfile): string =>
    p === VLLM_DEFAULT_PROFILE ? " (calibrated on 0.17–0.19)" : p.graphsInsideBudget ? " (CUDA-graph estimate inside the budget, util 0.92)" : "";
  return VLLM_PROFILES.map((p) => ({ value: p.representative, label: `${p.releases}${note(p)}` }));
}

/** The choice a setting falls in ("0.15" → "0.16", the 0.11.1–0.16 range), or "" when it names none. */
export function vllmReleaseChoiceOf(version: string | undefined): string {
  if (version === undefined) return "";
  const p = vllmProfileFor(version);
  return "error" in p ? "" : p.representative;
}

/**
 * The profiles a (validated) setting names, the planned one first: a named release's
 * alone, or with none named the newest and the calibrated (VLLM_UNNAMED_RELEASE_PROFILES).
 * A release Modelplan cannot read plans as none named, never as a guess.
 */
export function vllmProfilesOf(version: string | undefined): readonly VllmMemoryProfile[] {
  const p = version === undefined ? null : vllmProfileFor(version);
  return p === null || "error" in p ? VLLM_UNNAMED_RELEASE_PROFILES : [p];
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

export const VLLM_SCHED_SOURCE = "vLLM 0.19 arg_utils._set_default_args (OpenAI server): ≥70 GiB cards 8192 tokens / 1024 seqs, else 2048 / 256";
