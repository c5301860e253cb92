/** vLLM's defaults as the page's "Engine settings" shows them, each with its release and source. */
import type { SettingDefault } from "../engine.ts";
import { VLLM_NEWEST_PROFILE, VLLM_SCHED_SOURCE } from "./releases.ts";
import { vllmUtilizationDefaults, vllmUtilizationSource } from "./settings.ts";
import type { ResolvedSettings } from "../../settings.ts";

export function vllmDefaults(r: ResolvedSettings): Record<string, SettingDefault> {
  return {
    // With no release named each option holds for every range's own default: all of them are shown ("0.92 or 0.9").
    gpuMemoryUtilization: { flag: "--gpu-memory-utilization", value: vllmUtilizationDefaults(r), source: vllmUtilizationSource(r) },
    kvCacheDtype: { flag: "--kv-cache-dtype", value: "auto", source: "vLLM 0.19 CacheConfig.cache_dtype = auto (the model's dtype)" },
    maxNumSeqs: { flag: "--max-num-seqs", value: r.maxNumSeqs, source: VLLM_SCHED_SOURCE },
    maxNumBatchedTokens: { flag: "--max-num-batched-tokens", value: r.maxNumBatchedTokens, source: VLLM_SCHED_SOURCE },
    dtype: { flag: "--dtype", value: "auto", source: "vLLM 0.19 ModelConfig.dtype = auto (the checkpoint's torch_dtype)" },
    enforceEager: { flag: "--enforce-eager", value: false, source: "vLLM 0.19 ModelConfig.enforce_eager = False (CUDA graphs on)" },
    vllmVersion: {
      flag: "vllm --version",
      value: "not named",
      source: `none named: planned for the newest releases, ${VLLM_NEWEST_PROFILE.releases} (${VLLM_NEWEST_PROFILE.source.slice(0, 120)}…); name an older release to plan for it`,
    },
  };
}
