/**
 * What vLLM spends beyond weights and KV on a card (activation peak, non-torch, CUDA context, graphs,
 * sampler warm-up), each figure from the logs it was fitted on.
 */
import { VLLM_DEFAULT_PROFILE, type VllmMemoryProfile } from "./releases.ts";
import type { ResolvedSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import { GIB, MIB } from "../../units.ts";

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
export function vllmActivationBytes(
  shape: ModelShape,
  s: ResolvedSettings,
  modelDtypeBytes: number,
  lastStage: boolean,
  pipelineParallel = 1,
  samplerBytesPerSeqVocab = s.vllmProfile.samplerBytesPerSeqVocab,
): number {
  const perTokenHidden =
    pipelineParallel > 1 && !lastStage
      ? VLLM_STAGE_FORWARD_BYTES_PER_TOKEN_HIDDEN
      : VLLM_FORWARD_BYTES_PER_TOKEN_HIDDEN;
  const forward = s.maxNumBatchedTokens * shape.hiddenSize * perTokenHidden;
  const perEntry = samplerBytesPerSeqVocab + Math.max(0, modelDtypeBytes - 2);
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
export function vllmNonTorchBytes(
  tensorParallel: number,
  pipelineParallel: number,
  profile: VllmMemoryProfile = VLLM_DEFAULT_PROFILE,
  tensorAcrossNodes = false,
  link: "nvlink" | "pcie" = "nvlink",
  hybrid = false,
): number {
  const n = profile.nonTorch;
  if (tensorParallel >= 2) {
    if (tensorAcrossNodes) return n.tensorAcrossNodesBytes;
    if (link === "pcie") return tensorParallel === 2 ? n.pcieTensorParallel2Bytes : n.pcieTensorParallelWideBytes;
    return n.tensorParallelBytes;
  }
  if (pipelineParallel >= 2) return n.pipelineStageBytes;
  return hybrid ? n.hybridSingleBytes : n.singleBytes;
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
export function vllmOutsideBudgetBytes(
  tensorParallel: number,
  pipelineParallel: number,
  enforceEager: boolean,
  moe = false,
  layersOnCard = 32,
  moeExpertPicksOnCard = 0,
  profile: VllmMemoryProfile = VLLM_DEFAULT_PROFILE,
): number {
  const graphs =
    enforceEager || profile.graphsInsideBudget ? 0 : vllmCudaGraphPoolBytes(layersOnCard, moeExpertPicksOnCard);
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

/** The batch sizes vLLM captures by default: 1, 2, 4, then 8…248 by 8, then 256…512 by 16 (CompilationConfig, 0.11+). */
function captureSizesUpTo(largest: number): number {
  let n = 0;
  for (const size of [1, 2, 4]) if (size <= largest) n++;
  for (let size = 8; size < 256; size += 8) if (size <= largest) n++;
  for (let size = 256; size <= 512; size += 16) if (size <= largest) n++;
  return Math.max(1, n);
}

/**
 * The graphs vLLM's profiler counts (0.21+ logs: "Profiling CUDA graph memory: PIECEWISE=11 (largest=64),
 * FULL=7 (largest=32)" at 32 sequences): PIECEWISE up to max_cudagraph_capture_size = min(2 × max_num_seqs, 512),
 * FULL decode graphs up to min(max_num_seqs, 512). At 1024 sequences that is 51 + 51 = 102.
 */
export function vllmCapturedGraphs(maxNumSeqs: number): number {
  return captureSizesUpTo(Math.min(2 * maxNumSeqs, 512)) + captureSizesUpTo(Math.min(maxNumSeqs, 512));
}

/** The least estimate the 0.21+ logs printed: 0.06 GiB (gpt-oss-120b, 8 graphs); vLLM's per-graph floor is 1 MiB. */
const VLLM_GRAPH_ESTIMATE_FLOOR_BYTES = 0.05 * GIB;

/**
 * What one more captured graph adds per layer on the card: the 0.19 pool line's slope, 0.0155 GiB a layer
 * over the 102 graphs of a 1024-sequence run (vllmCudaGraphPoolBytes), 0.156 MiB a layer a graph.
 */
export const VLLM_GRAPH_BYTES_PER_LAYER_GRAPH = (0.0155 * GIB) / 102;

/**
 * vLLM 0.21+'s own CUDA-graph estimate (gpu_model_runner.profile_cudagraph_memory, stored main 2026): per mode
 * it captures the two largest graphs into a scratch pool and takes `first + max(second, 1 MiB) × (graphs − 1)`,
 * then `max(first over modes) + Σ the rest`, since PIECEWISE and FULL share one pool. With the first capture
 * about the size of the second (the logs leave no room for more), that is one graph's bytes × (graphs − 1).
 * A graph's bytes grow with the layers it launches: 0.19's per-layer slope. 0.19's 0.4 GiB base is not in
 * the 0.21+ estimates: Gemma-4-31B (60 layers, 51 + 51 graphs) printed 0.76 (0.92 here; the base would make
 * it 1.33), Qwen3-8B (36, 51 + 35) 0.52 (0.47), Qwen3-235B-FP8 TP4 (94, 11 + 7) captured 0.32 (0.24),
 * gpt-oss-120b (36, 8 graphs) 0.06 (the floor). No TP or MoE term: the estimate is per rank and vLLM 0.23
 * estimated 0.11 GiB for Qwen3.5-122B's 48 × 256 × 8 expert picks, where the 0.19 MoE term would say 5.9.
 */
export function vllmGraphEstimateBytes(layersOnCard: number, maxNumSeqs: number): number {
  const perGraph = Math.max(MIB, VLLM_GRAPH_BYTES_PER_LAYER_GRAPH * layersOnCard);
  return Math.max(VLLM_GRAPH_ESTIMATE_FLOOR_BYTES, perGraph * (vllmCapturedGraphs(maxNumSeqs) - 1));
}

/**
 * What a release reserves for CUDA graphs INSIDE util × total: from 0.21 its own estimate
 * (vllmGraphEstimateBytes); none with --enforce-eager, nothing before 0.21, nothing on the V2 runner until
 * 0.29 (`inside` false).
 */
export function vllmGraphReserveBytes(
  inside: boolean,
  enforceEager: boolean,
  layersOnCard: number,
  maxNumSeqs: number,
): number {
  if (!inside || enforceEager) return 0;
  return vllmGraphEstimateBytes(layersOnCard, maxNumSeqs);
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
export function vllmOutsideFloorBytes(
  tensorParallel: number,
  pipelineParallel: number,
  enforceEager: boolean,
  moe = false,
  graphsInsideBudget = false,
): number {
  // From 0.21 (V1 runner; V2 from 0.29) the graphs are captured into the room their estimate reserved inside
  // the budget; what the real pool exceeds the estimate by (up to 0.5 GiB on the 0.19 logs) varies in sign.
  const graphs = enforceEager || graphsInsideBudget ? 0 : 0.5 * GIB;
  return vllmCudaContextBytes(tensorParallel, pipelineParallel, moe) + graphs;
}
