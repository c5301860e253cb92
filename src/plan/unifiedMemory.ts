/**
 * Machines whose GPU shares one pool of memory with the system (Apple M-series, NVIDIA GB10,
 * AMD Strix Halo): the part of it the GPU may use, which is what the catalog lists as the card's
 * memory, and which engines run there.
 */
import type { Engine } from "./types.ts";
import { GIB } from "./units.ts";

/** Unified memory: the machine's whole pool, and the engines that run on its GPU. */
export interface UnifiedMemory {
  /** The pool the GPU and the system share, as sold (GiB × 2^30). */
  ramBytes: number;
  /** Engines that run on this GPU, and why the others do not. */
  engines: readonly Engine[];
  enginesSource: string;
}

/** RAM at or below which macOS lets the GPU wire 2/3 of it; above, 3/4. */
const APPLE_SMALL_RAM_GIB = 36;

/**
 * What Metal's `recommendedMaxWorkingSetSize` gives llama.cpp on an Apple M-series Mac with
 * macOS's default `iogpu.wired_limit_mb` (0, "the OS decides"): 2/3 of RAM up to 36 GiB, 3/4
 * above. llama.cpp reads that figure as the device's memory (ggml-metal: `recommendedMaxWorkingSetSize`,
 * printed at start-up), and warns past it. Figures it printed: 16 GiB → 10922.67 MiB
 * (github.com/abetlen/llama-cpp-python/issues/687), 32 GiB → 21845.34 MiB
 * (github.com/ollama/ollama/issues/434), both exactly 2/3; 96 GiB → 73728.00 MiB
 * (github.com/ggml-org/llama.cpp/issues/3213), exactly 3/4; 192 GiB → 144 GB (M2 Ultra,
 * github.com/raullenchai/Rapid-MLX/pull/183). No 36 or 48 GiB figure was seen, so the threshold is
 * the commonly stated one. macOS 26 gives large machines more (128 GiB → 107.52 GiB stock,
 * github.com/antirez/ds4/pull/893), so this plans on the smaller, older rule; `sudo sysctl
 * iogpu.wired_limit_mb=<MiB>` raises it, and a card's mem_gib in the cluster says what yours reports.
 */
export function appleGpuWorkingSetBytes(ramBytes: number): number {
  return ramBytes <= APPLE_SMALL_RAM_GIB * GIB ? (ramBytes * 2) / 3 : (ramBytes * 3) / 4;
}

const LLAMACPP_ONLY_APPLE =
  "llama.cpp runs on Metal; vLLM and SGLang have no Metal backend (they run on CUDA and ROCm; vLLM on macOS runs on the CPU only), and FreeToken is CUDA-only";

const GB10_ENGINES =
  'llama.cpp (CUDA, sm_121) and vLLM (aarch64 CUDA 13 builds; vLLM\'s own startup line on a DGX Spark reads "Free memory on device (114.54/121.69 GiB)") run on GB10; SGLang and FreeToken are not planned there (not checked on sm_121)';

const STRIX_ENGINES =
  "llama.cpp runs on the Radeon 8060S (Vulkan or ROCm/HIP, gfx1151); vLLM's and SGLang's ROCm builds target Instinct cards, so they are not planned there";

/** The unified-memory machines the catalog holds, by class. */
export const UNIFIED_MEMORY: Readonly<Record<string, UnifiedMemory>> = {
  "apple-m3-ultra-512g": { ramBytes: 512 * GIB, engines: ["llamacpp"], enginesSource: LLAMACPP_ONLY_APPLE },
  "apple-m3-ultra-256g": { ramBytes: 256 * GIB, engines: ["llamacpp"], enginesSource: LLAMACPP_ONLY_APPLE },
  "apple-m2-ultra-192g": { ramBytes: 192 * GIB, engines: ["llamacpp"], enginesSource: LLAMACPP_ONLY_APPLE },
  "apple-m4-max-40c-128g": { ramBytes: 128 * GIB, engines: ["llamacpp"], enginesSource: LLAMACPP_ONLY_APPLE },
  "gb10-128g": { ramBytes: 128 * GIB, engines: ["llamacpp", "vllm"], enginesSource: GB10_ENGINES },
  "strixhalo-128g": { ramBytes: 128 * GIB, engines: ["llamacpp"], enginesSource: STRIX_ENGINES },
};

/** Whether an engine runs on a class's GPU: every engine on discrete cards, the listed ones on unified-memory machines. */
export function engineRunsOn(gpuClass: string, engine: Engine): boolean {
  const u = Object.hasOwn(UNIFIED_MEMORY, gpuClass) ? UNIFIED_MEMORY[gpuClass] : undefined;
  return u === undefined || u.engines.includes(engine);
}

/** Which engines run on a unified-memory machine, and on what authority: the reason another engine is not planned there. */
export function unifiedMemoryEngines(gpuClass: string): string {
  const u = Object.hasOwn(UNIFIED_MEMORY, gpuClass) ? UNIFIED_MEMORY[gpuClass] : undefined;
  return u === undefined
    ? ""
    : `only ${u.engines.join(" and ")} run${u.engines.length === 1 ? "s" : ""} there (${u.enginesSource})`;
}
