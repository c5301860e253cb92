/** vLLM's defaults as the page's "Engine settings" shows them, each with its release and source. */
import type { SettingDefault } from "../engine.ts";
import { VLLM_NEWEST_PROFILE, VLLM_SCHED_SOURCE, vllmSamplerOf } from "./releases.ts";
import { vllmUtilizationDefaults, vllmUtilizationSource } from "./settings.ts";
import type { ResolvedSettings } from "../../settings.ts";

export function vllmDefaults(r: ResolvedSettings): Record<string, SettingDefault> {
  return {
    // With no release named each option holds for every range's own default: all of them are shown ("0.92 or 0.9").
    gpuMemoryUtilization: {
      flag: "--gpu-memory-utilization",
      value: vllmUtilizationDefaults(r),
      source: vllmUtilizationSource(r),
    },
    kvCacheDtype: {
      flag: "--kv-cache-dtype",
      value: "auto",
      source: "vLLM 0.19 CacheConfig.cache_dtype = auto (the model's dtype)",
    },
    maxNumSeqs: { flag: "--max-num-seqs", value: r.maxNumSeqs, source: VLLM_SCHED_SOURCE },
    maxNumBatchedTokens: { flag: "--max-num-batched-tokens", value: r.maxNumBatchedTokens, source: VLLM_SCHED_SOURCE },
    dtype: {
      flag: "--dtype",
      value: "auto",
      source: "vLLM 0.19 ModelConfig.dtype = auto (the checkpoint's torch_dtype)",
    },
    enforceEager: {
      flag: "--enforce-eager",
      value: false,
      source: "vLLM 0.19 ModelConfig.enforce_eager = False (CUDA graphs on)",
    },
    sampler: { flag: "VLLM_USE_FLASHINFER_SAMPLER", ...vllmSamplerOf(r.vllmProfile) },
    asyncScheduling: {
      flag: "--async-scheduling",
      value: ["0.21", "0.26", "0.27", "0.28", "0.29"].includes(r.vllmProfile.id),
      source:
        'seen on in the 0.23.1rc1.dev1327 log ("Asynchronous scheduling is enabled.", vllm.py:1109) and taken as on from 0.21; the release that turned it on and its effect on in-flight KV tokens were not read in source',
    },
    vllmVersion: {
      flag: "vllm --version",
      value: "not named",
      source: `none named: planned for the newest releases, ${VLLM_NEWEST_PROFILE.releases} (${VLLM_NEWEST_PROFILE.source.slice(0, 120)}…); name an older release to plan for it`,
    },
  };
}
