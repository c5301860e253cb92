/** What SGLang spends outside its static fraction. */
import { GIB } from "../../units.ts";

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
