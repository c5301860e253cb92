/**
 * What one device of a llama.cpp split keeps besides its layers, by kind: a card, or the CPU an
 * rpc-server serves on a host without accelerators (tools/rpc/rpc-server.cpp `get_devices`: "If there
 * are no accelerators, fallback to CPU device").
 */
import { CUDA_CONTEXT_BYTES } from "../../cards.ts";
import { CPU_ACTIVATION_ROWS, llamacppComputeBytes } from "./memory.ts";
import type { ModelShape } from "../../shapeTypes.ts";

/** A card's CUDA context; ggml's CPU backend makes none. */
export function deviceContextBytes(cpu: boolean): number {
  return cpu ? 0 : CUDA_CONTEXT_BYTES;
}

/**
 * The device's compute buffer: on a card the CUDA calibration's rows, on a CPU the CPU backend's, the same
 * model the plan uses for llama.cpp on a CPU host (memory.ts CPU_ACTIVATION_ROWS, host.ts evalHost).
 */
export function deviceComputeBytes(shape: ModelShape, ubatch: number, holdsOutput: boolean, cpu: boolean): number {
  return cpu
    ? llamacppComputeBytes(shape, ubatch, holdsOutput, CPU_ACTIVATION_ROWS)
    : llamacppComputeBytes(shape, ubatch, holdsOutput);
}
