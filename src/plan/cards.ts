/**
 * The catalog of cards: the memory each really reports, and where that
 * figure came from. (Owned by the cluster work, issue 4; this first entry is
 * the one the rest of the engine is written against.)
 */

export interface MigProfile {
  /** "3g.40gb" */
  profile: string;
  /** Compute slices (the "3" of 3g). */
  slices: number;
  memoryBytes: number;
  source: string;
}

export interface Card {
  /** The class label's card part: "h100-80g". */
  class: string;
  /** The name nvidia-smi / rocm-smi prints. */
  name: string;
  /** What the card really reports (nvidia-smi "MiB" total × 2^20), not its marketing figure. */
  memoryBytes: number;
  source: string;
  vendor: "nvidia" | "amd";
  /** CUDA compute capability (8.0 for A100); 0 for AMD. */
  computeCapability: number;
  migProfiles: MigProfile[];
}

const MIB = 2 ** 20;

export const CARDS: readonly Card[] = [
  {
    class: "h100-80g",
    name: "NVIDIA H100 80GB HBM3",
    memoryBytes: 81559 * MIB,
    source: "nvidia-smi on 8× H100 SXM (shared/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt): 81559MiB",
    vendor: "nvidia",
    computeCapability: 9.0,
    migProfiles: [],
  },
];

/** The card a class label names, MIG suffix ignored: "a100-80g-mig-3g.40gb" → the a100-80g card. */
export function cardOf(gpuClass: string): Card | undefined {
  const base = gpuClass.split("-mig-")[0] ?? gpuClass;
  return CARDS.find((c) => c.class === base);
}

/** Whether a class names MIG instances: a replica runs on exactly one. */
export function isMigClass(gpuClass: string): boolean {
  return gpuClass.includes("-mig-");
}

/** Memory of one device of a class, in bytes: the override when given, else the catalog's; null when unknown. */
export function cardMemoryBytes(gpuClass: string, memGibOverride?: number): number | null {
  if (memGibOverride !== undefined && memGibOverride > 0) return memGibOverride * 2 ** 30;
  const card = cardOf(gpuClass);
  if (!card) return null;
  if (!isMigClass(gpuClass)) return card.memoryBytes;
  const profile = gpuClass.split("-mig-")[1];
  return card.migProfiles.find((p) => p.profile === profile)?.memoryBytes ?? null;
}
