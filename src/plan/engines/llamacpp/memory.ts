/** What llama.cpp spends besides weights and KV: compute buffers, host buffers, and --fit's margin. */
import type { ModelShape } from "../../shapeTypes.ts";
import { MIB } from "../../units.ts";

/**
 * llama.cpp's fit margin: `--fit` leaves 1024 MiB free on each device
 * (common/arg.cpp --fit-target, default 1024 MiB, builds b7xxx 2026); we
 * plan against physical memory less that margin.
 */
export const LLAMACPP_FIT_MARGIN_BYTES = 1024 * MIB;

/**
 * What a CUDA card holds for llama.cpp beyond its buffers: llama_memory_breakdown_print's "unaccounted"
 * column (CUDA context, cuBLAS workspace, the allocator's slack) was 701–710 MiB on each of four RTX PRO
 * 6000 Max-Q (build 10505, GLM-5.2, test/fixtures/calibration/newer.jsonl: 707, 703, 710, 701). The plan
 * still reserves CUDA_CONTEXT_BYTES (0.51 GiB, H100's context as vLLM measured it) per card: this figure
 * is ~0.2 GiB more on Blackwell workstation cards, one build's measurement, stated and not yet applied.
 */
export const LLAMACPP_CUDA_UNACCOUNTED_BYTES = 705 * MIB;

/**
 * llama.cpp's compute buffer on a card: the logits of one ubatch on the card
 * that holds the output layer (n_ubatch × n_vocab × 4 B) and the activations
 * of one ubatch (≈ 2 × n_embd floats a token) everywhere. Calibration:
 * Gemma-3-27B, ub 512: 522.62 MiB (512 × 262,208 × 4 = 512 MiB + 10.5);
 * Qwen3-235B: 312.75 MiB at ub 512 (296.75 + 16) and 1,264 at ub 2048.
 */
export function llamacppComputeBytes(
  shape: ModelShape,
  ubatch: number,
  holdsOutput: boolean,
  rows = GPU_ACTIVATION_ROWS,
): number {
  const activations = ubatch * rows * shape.hiddenSize * 4;
  return activations + (holdsOutput ? ubatch * shape.vocabSize * 4 : 0);
}

/** Hidden-size rows a token beside the logits on a card (the CUDA calibration above: Gemma-3-27B 1, Qwen3-235B 2). */
const GPU_ACTIVATION_ROWS = 2;

/**
 * The same on the CPU backend, where the logits land above three rows, not two: llama.cpp v0.4.0's CPU build
 * printed n_ubatch·n_vocab·4 + c·n_ubatch·n_embd·4 with c = 3 for Llama-3.1 (ub 512 and 2048, 1 or 4 unified
 * sequences, 2 and 32 layers) and Qwen3-Next, 2 for Gemma-2/3, Qwen3-30B-A3B, LFM2-16L and Llama-3.1 at ub 256
 * (test/engine FINDINGS.md F2). The rows are where ggml-alloc's best fit leaves the last live activation, not a
 * tensor one can name, so the plan takes the most a dense model showed: the 2-row cases are then over by one row
 * (at most 3%, a tenth of a percent of host RAM). Where the GGUF gives a graph the plan builds (Llama, gpt-oss,
 * DeepSeek2, LFM2, Qwen3-Next: graphDims.ts), host.ts places it instead (gallocr.ts) and this constant is not used.
 */
export const CPU_ACTIVATION_ROWS = 3;

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
