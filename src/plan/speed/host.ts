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
