/**
 * What each engine spends beyond weights and KV, per card, and how much of a
 * card it lets itself use. Every constant says where it was measured and on
 * what engine version; src/plan/README.md explains the model in prose.
 *
 * The figures come from shared/calibration/measured.jsonl (vLLM 0.19.0 on
 * H100, 51 startup logs of llm-d-planner PR #205; llama.cpp / ik_llama.cpp
 * buffer lines) and the engines' sources quoted in
 * shared/notes/architectures.md §2.7.
 */
import type { ModelShape } from "./types.ts";
import type { ResolvedSettings } from "./settings.ts";

export const GIB = 2 ** 30;
const MIB = 2 ** 20;

/**
 * Memory the driver keeps from CUDA: nvidia-smi reports an H100 80GB as
 * 81,559 MiB while torch.cuda.mem_get_info (what vLLM and SGLang take a
 * fraction of) reports 79.19 GiB = 81,091 MiB (calibration, vLLM 0.19
 * "total_memory=79.19GiB"). vLLM's `gpu_memory_utilization × total` is of the
 * smaller figure; planning against the larger would hand a 72B at TP2 0.44 GiB
 * of KV it never gets (14% of its pool).
 */
export const DRIVER_RESERVED_BYTES = 468 * MIB;

/**
 * What CUDA reports as the total of the cards whose figure was seen, where the
 * driver keeps other than an H100's 468 MiB back from nvidia-smi's figure:
 * - A100 80GB: 79.25 GiB. torch's out-of-memory message on one reads "79.25
 *   GiB total capacity" (levihsu/OOTDiffusion#235), and vLLM 0.10.1.1's own
 *   pools agree: Qwen2-7B's KV grew 19.82 GiB at TP1 and 19.81 at TP2 from util
 *   0.25 to 0.5 (dennislee22/vLLM-benchmarking logs), a quarter of 79.24–79.28
 *   GiB. nvidia-smi's 81,920 MiB less 468 would be 79.54: 0.29 GiB the engine never sees.
 * - A100 40GB: 42,405,855,232 bytes (39.49 GiB), deviceQuery's "40441 MBytes"
 *   on one (Paderborn PC2's A100 40GB page); torch prints "39.50 GiB total
 *   capacity" on another (TianheWu/CoSeR#10): we keep the smaller. The
 *   catalog's 40,536 MiB is an older driver's nvidia-smi figure.
 * A card the inventory lists smaller than this (another driver, a MIG slice)
 * keeps its own figure.
 */
const CUDA_TOTAL_BYTES_BY_CLASS: Readonly<Record<string, number>> = {
  "a100-80g": 79.25 * 2 ** 30,
  "a100-40g": 42_405_855_232,
};

/** What CUDA reports as a card's total: what the engines' fractions are of. */
export function cudaTotalBytes(physicalBytes: number, gpuClass = ""): number {
  const seen = Object.hasOwn(CUDA_TOTAL_BYTES_BY_CLASS, gpuClass) ? CUDA_TOTAL_BYTES_BY_CLASS[gpuClass] : undefined;
  if (seen !== undefined) return Math.min(seen, physicalBytes);
  return Math.max(0, physicalBytes - DRIVER_RESERVED_BYTES);
}

// ---------------------------------------------------------------------------
// vLLM V1 (0.19): KV = util × total − weights − activation peak − non-torch
// ---------------------------------------------------------------------------

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

/**
 * The forward pass's share, per batched token and hidden unit, when the
 * vocabulary is small enough that the forward pass is the peak:
 * CodeLlama-7B (32,016 vocab, hidden 4096, 8192 tokens) 0.77 GiB = 24.6 B;
 * Granite-3.1-8B 0.85 GiB = 27 B; a pipeline stage without the sampler
 * (Llama-3.1-8B PP stage 0) 1.10 GiB = 35 B. We take 27.
 */
export const VLLM_FORWARD_BYTES_PER_TOKEN_HIDDEN = 27;

/**
 * A pipeline stage that does not sample holds its hidden states for the next
 * stage too: Llama-3.1-8B's first stage at PP2 and PP4 peaked at 1.10 GiB for
 * 8,192 tokens × 4,096 hidden = 35 B each (vLLM 0.19).
 */
export const VLLM_STAGE_FORWARD_BYTES_PER_TOKEN_HIDDEN = 35;

/**
 * vLLM's torch activation peak of the profile run (inside the budget): the
 * larger of the forward pass over max_num_batched_tokens and the sampler over
 * max_num_seqs, which only the last pipeline stage runs; the sampler's share
 * is the release's (`s.vllmProfile`).
 */
export function vllmActivationBytes(shape: ModelShape, s: ResolvedSettings, modelDtypeBytes: number, lastStage: boolean, pipelineParallel = 1): number {
  const perTokenHidden = pipelineParallel > 1 && !lastStage ? VLLM_STAGE_FORWARD_BYTES_PER_TOKEN_HIDDEN : VLLM_FORWARD_BYTES_PER_TOKEN_HIDDEN;
  const forward = s.maxNumBatchedTokens * shape.hiddenSize * perTokenHidden;
  const perEntry = s.vllmProfile.samplerBytesPerSeqVocab + Math.max(0, modelDtypeBytes - 2);
  const sampler = lastStage ? s.maxNumSeqs * shape.vocabSize * perEntry : 0;
  return Math.max(forward, sampler);
}

/**
 * Non-torch memory the profile run adds (inside the budget): cuBLAS and
 * NCCL workspaces. vLLM 0.19 on H100: 0.24–0.26 GiB at TP1 (Granite 0.46),
 * 2.06–2.21 GiB at TP ≥ 2 (custom all-reduce and NCCL buffers), 0.07 GiB on
 * a pipeline stage at TP1; other releases as VLLM_PROFILES says. A tensor-
 * parallel group spread over nodes (NCCL over the network) is told apart for
 * the releases whose logs show it.
 */
export function vllmNonTorchBytes(tensorParallel: number, pipelineParallel: number, profile: VllmMemoryProfile = VLLM_DEFAULT_PROFILE, tensorAcrossNodes = false): number {
  if (tensorParallel >= 2) return tensorAcrossNodes ? profile.nonTorch.tensorAcrossNodesBytes : profile.nonTorch.tensorParallelBytes;
  if (pipelineParallel >= 2) return profile.nonTorch.pipelineStageBytes;
  return profile.nonTorch.singleBytes;
}

/**
 * EMPIRICAL, fitted on the 0.19 logs, not derived from vLLM's source: what a
 * mixture-of-experts model's CUDA-graph pool holds above the dense line, per
 * MoE layer on the card, routed expert on the card and expert a token picks.
 * No term in vLLM's capture code was found that explains it (the fused-MoE
 * workspaces a captured batch of ≤ 512 tokens needs are tens of MiB, not a
 * GiB). That product is what lines the three fused-MoE models up: above
 * 0.4 + 0.0155 GiB a layer, Kimi-VL-A3B (26 × 64 × 6) held 0.68 GiB at TP1 and
 * 0.44 at TP2 = 6.8 and 4.4 × 10⁻⁵ GiB a unit, Qwen1.5-MoE-A2.7B (24 × 60 × 4)
 * 0.33 = 5.7, Mixtral-8x7B at TP2 (32 × 8 × 2) 0.034 = 6.6; we take 6.0. It
 * brings all six MoE figures closer, gpt-oss-20b's too (24 × 32 × 4: 1.07 and
 * 0.78 GiB above the line at TP1 and TP2), whose MXFP4 path (triton_kernels'
 * routing and matmul_ogs) still holds 0.6–0.9 GiB more than this says.
 */
export const VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK = 6.0e-5 * GIB;

/**
 * Memory vLLM 0.19 spends OUTSIDE util × total: the CUDA context (0.51 GiB at
 * TP1; with NCCL at TP ≥ 2, 1.51–1.53 GiB for dense models and 1.99 for the
 * MoE ones (Mixtral, Kimi-VL, gpt-oss); 1.43–1.48 on a pipeline) and the
 * CUDA-graph pool allocated after the KV cache (none with --enforce-eager),
 * which grows with the layers a card runs: 0.4 GiB + 0.0155 GiB a layer
 * fits Llama-3.1-8B at PP4/PP2/TP1 (8, 16, 32 layers: 0.51, 0.65, 0.91) and
 * the 80-layer 70B/72B at TP2 (1.61–1.85); a mixture of experts adds its
 * empirical term for `moeExpertPicksOnCard` = MoE layers × routed experts on
 * the card × experts per token (VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK).
 * From 0.21 (`profile.graphsInsideBudget`) the graphs sit in the room their
 * estimate reserved inside the budget, and only the context is outside.
 */
export function vllmOutsideBudgetBytes(tensorParallel: number, pipelineParallel: number, enforceEager: boolean, moe = false, layersOnCard = 32, moeExpertPicksOnCard = 0, profile: VllmMemoryProfile = VLLM_DEFAULT_PROFILE): number {
  const graphs = enforceEager || profile.graphsInsideBudget ? 0 : vllmCudaGraphPoolBytes(layersOnCard, moeExpertPicksOnCard);
  return vllmCudaContextBytes(tensorParallel, pipelineParallel, moe) + graphs;
}

/** The CUDA context (with NCCL past TP1), as vLLM 0.19's "cuda_memory" before loading showed it. */
function vllmCudaContextBytes(tensorParallel: number, pipelineParallel: number, moe: boolean): number {
  return tensorParallel >= 2 ? (moe ? 2.0 : 1.5) * GIB : pipelineParallel >= 2 ? 1.45 * GIB : 0.51 * GIB;
}

/**
 * The CUDA-graph pool of a card running `layersOnCard` layers (0.4 GiB + 0.0155 a
 * layer, fitted on the 0.19 pools; see vllmOutsideBudgetBytes) with the
 * empirical MoE term. vLLM 0.21+ reserves its own estimate of this pool inside
 * the budget; Modelplan reserves this line for it (VLLM_PROFILES says how the
 * two compare on the 0.19 logs, which print both).
 */
export function vllmCudaGraphPoolBytes(layersOnCard: number, moeExpertPicksOnCard = 0): number {
  return (0.4 + 0.0155 * layersOnCard) * GIB + moeExpertPicksOnCard * VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK;
}

/**
 * What a release reserves for CUDA graphs INSIDE util × total: the estimate
 * from 0.21 on (none with --enforce-eager, cudagraph_mode NONE), nothing before.
 */
export function vllmGraphReserveBytes(profile: VllmMemoryProfile, enforceEager: boolean, layersOnCard: number, moeExpertPicksOnCard = 0): number {
  return profile.graphsInsideBudget && !enforceEager ? vllmCudaGraphPoolBytes(layersOnCard, moeExpertPicksOnCard) : 0;
}

/**
 * After the CUDA graphs, vLLM 0.19 warms the sampler up with max_num_seqs
 * dummy requests, allocating [max_num_seqs, vocab] fp32 logits outside the
 * budget: gpt-oss-20b at util 0.95 died on "Tried to allocate 786.00 MiB"
 * (1024 × 201,088 × 4 B) there. One such tensor is what every run that
 * started had room for (Kimi-VL at TP2 kept 0.71 GiB after its context and
 * graphs, for a 0.63 GiB tensor).
 */
export function vllmSamplerWarmupBytes(shape: ModelShape, s: ResolvedSettings): number {
  return s.maxNumSeqs * shape.vocabSize * 4;
}

/**
 * The least vLLM 0.19 was seen to need outside util × total: the CUDA context
 * and the smallest CUDA-graph pool measured (0.51 GiB, Llama-3.1-8B PP4). The
 * start-up check refuses only what cannot start even then; the typical
 * figure above is what the page shows. A 24 GB card at util 0.9 keeps 2.35
 * GiB outside its budget: enough for TP4's 1.5 GiB context and small graphs,
 * not for the H100 means.
 */
export function vllmOutsideFloorBytes(tensorParallel: number, pipelineParallel: number, enforceEager: boolean, moe = false, profile: VllmMemoryProfile = VLLM_DEFAULT_PROFILE): number {
  // From 0.21 the graphs are captured into the room their estimate reserved inside the budget;
  // what the real pool exceeds the estimate by (up to 0.5 GiB on the 0.19 logs) varies in sign.
  const graphs = enforceEager || profile.graphsInsideBudget ? 0 : 0.5 * GIB;
  return vllmCudaContextBytes(tensorParallel, pipelineParallel, moe) + graphs;
}

/**
 * MXFP4 mixture-of-experts checkpoints (gpt-oss) in vLLM 0.19 on Hopper need
 * more outside the budget than context, graphs and sampler explain: both
 * gpt-oss-20b runs at util 0.95 (TP1 with 1.61 GiB left after its context and
 * graphs, TP2 with 0.42) died in the warm-up, and the same model at 0.90 (and
 * the older 0.9 run at TP1) started. 2.5 GiB above the floor is the least
 * that refuses both failures and none of the runs that started. Empirical,
 * from those logs only.
 */
export const VLLM_MXFP4_WARMUP_BYTES = 2.5 * GIB;

/**
 * From 0.21 only vLLM's own graph estimate is reserved inside the budget, so
 * what the real pool exceeds it by lands outside, beside the warm-up above
 * (whose 2.5 GiB was fitted over a floor that held 0.5 GiB of graphs). For
 * gpt-oss-20b the 0.19 logs, which print both, show 1.84 GiB real against 1.30
 * estimated at TP1 and 1.55 against 1.09 at TP2: we take the lesser excess, 0.46.
 */
export const VLLM_MXFP4_GRAPH_EXCESS_BYTES = 0.46 * GIB;

/** Rounds `n` up to a multiple of `m`. */
function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

/**
 * Bytes one routed expert of an MXFP4 checkpoint (gpt-oss) holds on one card,
 * once vLLM 0.19 has loaded it on Hopper (sm90), beyond the checkpoint's share
 * of its blocks and scales (0.5 + 1/32 byte a weight). On sm90 the oracle
 * picks the TRITON backend (both 0.19 logs: "Using 'TRITON' Mxfp4 MoE
 * backend"; TRTLLM wants sm100, CK ROCm), and:
 * - create_weights rounds the intermediate per card up to 64
 *   (mxfp4_round_up_hidden_size_and_intermediate_size: gpt-oss-20b at TP2,
 *   1440 → 1472); hidden stays;
 * - _swizzle_mxfp4 lays the packed weights out in triton_kernels'
 *   HopperMXValueLayout, both matrix dims padded to 64 bytes, and the scales
 *   in HopperMXScaleLayout, rows padded to 2 × num_warps(8) × 2 × 8 = 256 and
 *   columns to 2;
 * - the TRITON branch of process_weights_after_loading deletes the old
 *   weights but keeps the old scale parameters (the swizzled copies live in
 *   the PrecisionConfig), and replaces the biases with fp32 ones.
 * Sources: vllm-project/vllm fused_moe/oracle/mxfp4.py
 * (convert_to_mxfp4_moe_kernel_format, TRITON branch) and
 * quantization/mxfp4.py (`if self.mxfp4_backend not in TRITON_BACKENDS`),
 * quantization/utils/mxfp4_utils.py (_swizzle_mxfp4); triton-lang/triton
 * python/triton_kernels/.../layout_details/hopper_value.py (974c4f9) and
 * hopper_scale.py (57af0d6), the triton_kernels vLLM vendors (its logs load
 * vllm/third_party/triton_kernels; the exact tag 0.19 pins was not checked).
 * Calibration (vLLM 0.19.0, H100, llm-d-planner logs): gpt-oss-20b 13.64 GiB
 * at TP1, 7.01 at TP2, against 12.83 and 6.42 for the checkpoint's bytes;
 * this gives 13.62 and 6.97.
 */
export function vllmMxfp4HopperExpertGrowthBytes(hiddenSize: number, intermediatePerCard: number): number {
  const mxBlock = 32;
  const h = hiddenSize;
  // The checkpoint's share: gate, up and down, half a byte a weight and a one-byte scale per 32.
  const checkpoint = 3 * intermediatePerCard * h * (0.5 + 1 / mxBlock);
  const i = roundUp(intermediatePerCard, 64);
  // w13 is stored [hidden/2 bytes, 2·intermediate], w2 [intermediate/2 bytes, hidden].
  const weights = roundUp(h / 2, 64) * roundUp(2 * i, 64) + roundUp(i / 2, 64) * roundUp(h, 64);
  const keptScales = 2 * i * Math.ceil(h / mxBlock) + h * Math.ceil(i / mxBlock);
  const swizzledScales = roundUp(2 * i, 256) * roundUp(Math.ceil(h / mxBlock), 2) + roundUp(h, 256) * roundUp(Math.ceil(i / mxBlock), 2);
  // The checkpoint's bf16 biases are counted with the layer's other bytes; fp32 doubles them.
  const fp32BiasGrowth = (2 * i + h) * 2;
  return Math.max(0, weights + keptScales + swizzledScales + fp32BiasGrowth - checkpoint);
}

// ---------------------------------------------------------------------------
// SGLang: pool = free after weights − total × (1 − mem_fraction_static)
// ---------------------------------------------------------------------------

/**
 * What SGLang holds before its weights, inside the fraction: the CUDA
 * context (0.51 GiB at TP1 on H100, as vLLM measured it) and, at TP ≥ 2,
 * NCCL's buffers (≈ 1.5 GiB together, vLLM 0.19's TP2 context).
 */
export function sglangContextBytes(tensorParallel: number): number {
  return tensorParallel >= 2 ? 1.5 * GIB : 0.51 * GIB;
}

// ---------------------------------------------------------------------------
// llama.cpp
// ---------------------------------------------------------------------------

/**
 * llama.cpp's fit margin: `--fit` leaves 1024 MiB free on each device
 * (common/arg.cpp --fit-target, default 1024 MiB, builds b7xxx 2026); we
 * plan against physical memory less that margin.
 */
export const LLAMACPP_FIT_MARGIN_BYTES = 1024 * MIB;

/** The CUDA context a llama.cpp process holds on each card: 0.51 GiB on H100 (as vLLM's "cuda_memory" before loading). */
export const CUDA_CONTEXT_BYTES = 0.51 * GIB;

/**
 * llama.cpp's compute buffer on a card: the logits of one ubatch on the card
 * that holds the output layer (n_ubatch × n_vocab × 4 B) and the activations
 * of one ubatch (≈ 2 × n_embd floats a token) everywhere. Calibration:
 * Gemma-3-27B, ub 512: 522.62 MiB (512 × 262,208 × 4 = 512 MiB + 10.5);
 * Qwen3-235B: 312.75 MiB at ub 512 (296.75 + 16) and 1,264 at ub 2048.
 */
export function llamacppComputeBytes(shape: ModelShape, ubatch: number, holdsOutput: boolean): number {
  const activations = ubatch * 2 * shape.hiddenSize * 4;
  return activations + (holdsOutput ? ubatch * shape.vocabSize * 4 : 0);
}

/**
 * Host memory llama.cpp keeps besides the weights it was given: the output
 * buffer (n_vocab × 4 B per output slot) and the token embedding, which stays
 * in a CPU buffer (calibration: Gemma-3-27B "CPU model buffer 1102.77 MiB").
 */
export function llamacppHostBytes(shape: ModelShape, slots: number): number {
  return shape.vocabSize * 4 * Math.max(1, slots);
}

/**
 * The share of a node's RAM one replica may plan on; the system and its
 * agents keep the rest (seed options.go `hostShare`, 0.85).
 */
export const HOST_SHARE = 0.85;

// ---------------------------------------------------------------------------
// FreeToken
// ---------------------------------------------------------------------------

/**
 * FreeToken keeps 8,192 tokens of KV before it sizes its expert cache
 * (--kv-reserve-tokens, v0.1.2, notes §2.7; args tests: `kv_reserve_tokens == 8192`):
 * "KV token floor held back before --moe-cache-auto spends the rest of VRAM on
 * experts". For a model larger than the card the experts take all the rest,
 * so the reserve IS the KV pool, and max_seq_len is clamped to it
 * (engine.py `min(config.max_seq_len, num_tokens)`).
 */
export const FREETOKEN_KV_RESERVE_TOKENS = 8192;

/** FreeToken --max-running-requests: 4 (v0.1.2, notes §3). */
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
 * (kvcache/linear_state_pool.py, notes §2.5): 25 at the default 4, 9 at 1.
 */
export function freetokenStateSlots(running: number): number {
  const r = Math.max(1, running);
  return 4 * r + Math.max(4, 2 * r) + 1;
}
