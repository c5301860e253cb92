/**
 * Host memory, for the CPU-only path and for weights llama.cpp leaves in RAM
 * (-ngl below the layer count, --n-cpu-moe's experts): those bytes are read
 * by the CPU at the host's bandwidth every token.
 *
 * A DDR channel is 64 bits wide, so it moves 8 bytes per transfer: DDR4-3200
 * gives 3200 MT/s × 8 B = 25.6 GB/s per channel, DDR5-4800 38.4 GB/s
 * (JEDEC JESD79-4 / JESD79-5 speed bins; the arithmetic is the standard's
 * transfer rate times the bus width).
 */

/** GB/s of one 64-bit channel at a DDR speed grade in MT/s. */
export function ddrChannelGBps(megaTransfersPerSecond: number): number {
  return (megaTransfersPerSecond * 8) / 1000;
}

/**
 * When a node does not say: two channels of DDR4-3200, 51.2 GB/s, a
 * desktop or an older workstation. Deliberately low: a server (8–12
 * channels of DDR5) does several times better and should say so. Flagged
 * in the basis whenever it is used.
 */
export const DEFAULT_HOST_GBPS = 2 * ddrChannelGBps(3200);

/**
 * What one CPU core reaches on a prompt's matrix products in llama.cpp's CPU backend, GFLOPS (2 × active
 * parameters × tokens ÷ seconds ÷ threads at llama-bench pp512). Fitted (the median of three rows) on three
 * llama-bench CPU runs of Llama-3.2-3B-Instruct Q4_K_M: Intel i5-4278U at 2 threads 17.70 t/s (56.8 a core,
 * geerlingguy/ai-benchmarks#53), Radxa Dragon Q8B at 8 threads 72.31 t/s (58.0, #54), Cix CP8180 at 12 threads
 * 81.27 t/s (43.5, #51); checked on five others (test/plan/cpuSpeed.test.ts, within a factor 2: a core's rate
 * differs by its vector units, 36–117 GFLOPS over those rows). A prompt on the CPU is compute-bound at this, not
 * at a card's TFLOPS.
 */
export const CPU_PREFILL_GFLOPS_PER_CORE = 57;

/** Cores when a node does not say: a desktop's 8 (deliberately low, as DEFAULT_HOST_GBPS); flagged where used. */
export const DEFAULT_CPU_CORES = 8;

/** The time, ms, of `flops` on a host's CPU of `cores` cores (null: the default, and said so). */
export function cpuComputeMs(flops: number, cores: number | null | undefined): { ms: number; assumed: string } {
  const n = cores ?? DEFAULT_CPU_CORES;
  const assumed =
    cores == null
      ? `CPU cores unknown: ${DEFAULT_CPU_CORES} cores at ${CPU_PREFILL_GFLOPS_PER_CORE} GFLOPS each assumed for the prompt`
      : "";
  return { ms: flops / (n * CPU_PREFILL_GFLOPS_PER_CORE * 1e6), assumed };
}
