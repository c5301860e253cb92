/**
 * vLLM's settings per release: each range's utilization default, and the settings of each release an
 * option holds for.
 */
import { VLLM_NEWEST_PROFILE } from "./releases.ts";
import type { ResolvedSettings } from "../../settings.ts";
import type { EngineSettings } from "../../types.ts";
import type { Sourced } from "../../units.ts";

/**
 * vLLM --gpu-memory-utilization by release (`CacheConfig.gpu_memory_utilization`,
 * vllm/config/cache.py): 0.9 through 0.20; 0.92 from 0.21, raised by PR #38284 in the
 * same change that moved the CUDA-graph estimate inside the budget ("correspondingly
 * increases the default `--gpu-memory-utilization` to 0.92 to preemptively address the
 * impact on this parameter"; later cache.py reads `Field(default=0.92, gt=0, le=1)`).
 * Each profile carries its own (`defaultUtilization`); the page shows the newest's.
 */
export const VLLM_UTILIZATION: Sourced<number> = {
  value: VLLM_NEWEST_PROFILE.defaultUtilization,
  source:
    "vLLM 0.21+ CacheConfig.gpu_memory_utilization = 0.92 (PR #38284, with the CUDA-graph estimate inside the budget); 0.9 through 0.20",
};

/**
 * The settings of each release a vLLM plan must hold for (ResolvedSettings.vllmProfiles),
 * each at the user's utilization or that release's own default.
 */
export function vllmSettingsPerRelease(s: ResolvedSettings, settings: EngineSettings): ResolvedSettings[] {
  return s.vllmProfiles.map((p) => ({
    ...s,
    vllmProfile: p,
    vllmProfiles: [p],
    gpuMemoryUtilization: settings.gpuMemoryUtilization ?? p.defaultUtilization,
  }));
}

/** The utilization default of each release range an option is planned for: one figure, or "0.92 or 0.9" with none named. */
export function vllmUtilizationDefaults(r: ResolvedSettings): number | string {
  const all = [...new Set(r.vllmProfiles.map((p) => p.defaultUtilization))];
  return all.length === 1 ? (all[0] ?? r.gpuMemoryUtilization) : all.join(" or ");
}

/** Where the utilization default shown comes from: the planned release's, and with none named both ranges'. */
export function vllmUtilizationSource(r: ResolvedSettings): string {
  return r.vllmProfile.graphsInsideBudget
    ? VLLM_UTILIZATION.source
    : `vLLM ${r.vllmProfile.releases} CacheConfig.gpu_memory_utilization = ${r.vllmProfile.defaultUtilization}`;
}
