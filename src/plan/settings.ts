/**
 * Each engine's own defaults for the settings that change what it
 * allocates, with the version and source each was read from (issue 8). A
 * plan that ignores a setting answers a different question from the one the
 * user will run, so every default here is the engine's, not ours.
 */
import type { Engine, EngineSettings, KvDtype, Workload } from "./types.ts";
import { VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT } from "./kv.ts";
import { VLLM_DEFAULT_PROFILE, VLLM_NEWEST_PROFILE, VLLM_PROFILES, VLLM_UNNAMED_RELEASE_PROFILES, type VllmMemoryProfile } from "./memory.ts";

const GIB = 2 ** 30;

/** A default and where it came from. */
export interface Sourced<T> {
  value: T;
  source: string;
}

/** Every setting resolved for one engine on one card: what the plan uses. */
export interface ResolvedSettings {
  gpuMemoryUtilization: number;
  maxNumSeqs: number;
  maxNumBatchedTokens: number;
  dtype: NonNullable<EngineSettings["dtype"]>;
  quantization: "" | "fp8";
  enforceEager: boolean;
  memFractionStatic: number;
  ubatch: number;
  batch: number;
  parallel: number;
  /** vLLM: a chunked-local model keeps the hybrid KV cache manager (VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE). */
  chunkedLocalHybridKv: boolean;
  /** vLLM: what the release's profile run holds inside its budget (the newest releases' unless a release is given). */
  vllmProfile: VllmMemoryProfile;
  /**
   * vLLM: the profiles the plan must hold for, `vllmProfile` first: the named release's alone, or,
   * when none is named, the newest and the calibrated 0.17–0.20 (VLLM_UNNAMED_RELEASE_PROFILES).
   */
  vllmProfiles: readonly VllmMemoryProfile[];
}

/** The largest figure a release's part may have: "0.10.1.1" is a release, "0.99999" a typo. */
const RELEASE_PART = /^\d{1,3}$/;

/**
 * The memory profile of a vLLM release written as "0.15", "0.10.1.1" or
 * "v0.19.0" (a pre-release or local suffix such as "rc1" or "+cu128" is
 * ignored), or a sentence saying why it is not one Modelplan models: the V1
 * engine from 0.10 on, ranges as VLLM_PROFILES gives them (0.11 alone means
 * 0.11.0). 0.17–0.20 take the calibrated profile, 0.21 and later (any 0.x past it,
 * and 1.x) the newest.
 */
export function vllmProfileFor(version: string): VllmMemoryProfile | { error: string } {
  const text = version.trim().replace(/^v/i, "").replace(/(?:rc\d+|\.post\d+|\.dev\d+|\+\S*)$/i, "");
  const parts = text.split(".");
  const shown = JSON.stringify(version.slice(0, 24));
  if (parts.length < 2 || parts.length > 4 || !parts.every((x) => RELEASE_PART.test(x))) {
    return { error: `${shown} is not a vLLM release: write it as vllm --version prints it, e.g. 0.15 or 0.10.1` };
  }
  const [major, minor, patch] = parts.map(Number) as [number, number, number | undefined];
  const byId = (id: VllmMemoryProfile["id"]) => VLLM_PROFILES.find((p) => p.id === id) ?? VLLM_DEFAULT_PROFILE;
  if (major === 0 && minor < 10) {
    return { error: `vLLM ${text} is older than the V1 engine Modelplan models (0.10 and later); its V0 accounting differs: plan with 0.10 as the nearest` };
  }
  if (major === 0 && (minor === 10 || (minor === 11 && (patch ?? 0) === 0))) return byId("0.10");
  if (major === 0 && minor <= 16) return byId("0.11.1");
  if (major === 0 && minor <= 20) return byId("0.17");
  return VLLM_NEWEST_PROFILE;
}

/** One entry of the page's vLLM release select: the range's representative release, and the range in words. */
export interface VllmReleaseChoice {
  value: string;
  label: string;
}

/** The release ranges a user can plan vLLM for, newest first. */
export function vllmReleaseChoices(): VllmReleaseChoice[] {
  const note = (p: VllmMemoryProfile): string =>
    p === VLLM_DEFAULT_PROFILE ? " (calibrated on 0.17–0.19)" : p.graphsInsideBudget ? " (CUDA-graph estimate inside the budget, util 0.92)" : "";
  return VLLM_PROFILES.map((p) => ({ value: p.representative, label: `${p.releases}${note(p)}` }));
}

/** The choice a setting falls in ("0.15" → "0.16", the 0.11.1–0.16 range), or "" when it names none. */
export function vllmReleaseChoiceOf(version: string | undefined): string {
  if (version === undefined) return "";
  const p = vllmProfileFor(version);
  return "error" in p ? "" : p.representative;
}

/**
 * The profiles a (validated) setting names, the planned one first: a named release's
 * alone, or with none named the newest and the calibrated (VLLM_UNNAMED_RELEASE_PROFILES).
 * A release Modelplan cannot read plans as none named, never as a guess.
 */
function vllmProfilesOf(version: string | undefined): readonly VllmMemoryProfile[] {
  const p = version === undefined ? null : vllmProfileFor(version);
  return p === null || "error" in p ? VLLM_UNNAMED_RELEASE_PROFILES : [p];
}

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
  source: "vLLM 0.21+ CacheConfig.gpu_memory_utilization = 0.92 (PR #38284, with the CUDA-graph estimate inside the budget); 0.9 through 0.20",
};

/**
 * vLLM's scheduler defaults depend on the card (vllm/engine/arg_utils.py
 * `_set_default_args`, v0.10–0.19, OpenAI server): on cards of ≥ 70 GiB that are
 * not A100s, max_num_batched_tokens 8192 and max_num_seqs 1024; else 2048 and 256.
 * The 0.10.1.1 logs on A100 80GB fit the smaller pair (their KV pools at util
 * 0.25 and 0.5 need the 256-sequence sampler peak).
 * The 0.19 logs confirm it on H100: "warming up sampler with 1024 dummy requests"
 * and an 8192-token profile run (shared/calibration/README.md).
 */
export const VLLM_LARGE_CARD_GIB = 70;
const VLLM_SCHED_SOURCE = "vLLM 0.19 arg_utils._set_default_args (OpenAI server): ≥70 GiB cards 8192 tokens / 1024 seqs, else 2048 / 256";

/**
 * SGLang --mem-fraction-static when unset: server_args `_handle_gpu_memory_settings`
 * (2025–2026 builds) reserves memory by card size and sets the fraction to
 * (total − reserved) ÷ total; the reserve is ≥ 10 GiB on cards above 60 GB
 * (notes §2.7). Older 0.4.x builds used 0.88 at TP1, 0.87 TP2, 0.85 TP4, 0.81 TP8.
 * We model the newer rule: reserved MiB ≈ 512 + chunked_prefill × 1.5 + cuda_graph_max_bs × 2 + 1024 × tp/8.
 */
function sglangMemFraction(cardMemoryBytes: number, tensorParallel: number): number {
  const cardMib = cardMemoryBytes / 2 ** 20;
  // chunked_prefill_size by card memory (server_args, 2025): 2048 below 35 GB, 4096 below 60, 8192 above.
  const chunkedPrefill = cardMib < 35 * 1024 ? 2048 : cardMib < 60 * 1024 ? 4096 : 8192;
  // cuda_graph_max_bs by card memory (server_args, 2025): 8 below 20 GB … 256 at 80 GB class, 512 above.
  const graphMaxBs = cardMib < 20 * 1024 ? 8 : cardMib < 35 * 1024 ? 24 : cardMib < 60 * 1024 ? 80 : cardMib < 120 * 1024 ? 256 : 512;
  let reservedMib = 512 + Math.max(chunkedPrefill, 2048) * 1.5 + graphMaxBs * 2 + (tensorParallel / 8) * 1024;
  if (cardMib > 60 * 1024) reservedMib = Math.max(reservedMib, 10 * 1024);
  return Math.min(0.95, Math.max(0.5, (cardMib - reservedMib) / cardMib));
}

/** llama.cpp defaults (common/common.h, builds b6000–b7xxx, 2025–2026). */
export const LLAMACPP_UBATCH: Sourced<number> = { value: 512, source: "llama.cpp common_params.n_ubatch = 512" };
export const LLAMACPP_BATCH: Sourced<number> = { value: 2048, source: "llama.cpp common_params.n_batch = 2048" };

/**
 * Every setting resolved for an engine on a card of `cardMemoryBytes`: the
 * user's where given, else the engine's default. `tensorParallel` only moves
 * SGLang's reserve.
 */
export function resolveSettings(engine: Engine, cardMemoryBytes: number, settings: EngineSettings, tensorParallel = 1, sequences = 1, gpuClass = ""): ResolvedSettings {
  // vLLM keeps the smaller defaults on A100s whatever their memory (PR #17885: larger batches cost them throughput).
  const large = cardMemoryBytes >= VLLM_LARGE_CARD_GIB * GIB && !/^a100/i.test(gpuClass);
  const vllmProfiles = vllmProfilesOf(settings.vllmVersion);
  const vllmProfile = vllmProfiles[0] ?? VLLM_NEWEST_PROFILE;
  return {
    gpuMemoryUtilization: settings.gpuMemoryUtilization ?? (engine === "freetoken" ? FREETOKEN_MEMORY_RATIO : vllmProfile.defaultUtilization),
    maxNumSeqs: settings.maxNumSeqs ?? (large ? 1024 : 256),
    maxNumBatchedTokens: settings.maxNumBatchedTokens ?? (large ? 8192 : 2048),
    dtype: settings.dtype ?? "auto",
    quantization: settings.quantization ?? "",
    enforceEager: settings.enforceEager ?? false,
    memFractionStatic: settings.memFractionStatic ?? sglangMemFraction(cardMemoryBytes, tensorParallel),
    ubatch: settings.ubatch ?? LLAMACPP_UBATCH.value,
    batch: settings.batch ?? LLAMACPP_BATCH.value,
    // llama-server --parallel: one slot per concurrent sequence the user asks for.
    parallel: settings.parallel ?? Math.max(1, sequences),
    chunkedLocalHybridKv: settings.vllmChunkedLocalHybridKv ?? VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT,
    vllmProfile,
    vllmProfiles,
  };
}

/**
 * The settings of each release a vLLM plan must hold for (ResolvedSettings.vllmProfiles),
 * each at the user's utilization or that release's own default.
 */
export function vllmSettingsPerRelease(s: ResolvedSettings, settings: EngineSettings): ResolvedSettings[] {
  return s.vllmProfiles.map((p) => ({ ...s, vllmProfile: p, vllmProfiles: [p], gpuMemoryUtilization: settings.gpuMemoryUtilization ?? p.defaultUtilization }));
}

/** The utilization default of each release range an option is planned for: one figure, or "0.92 or 0.9" with none named. */
export function vllmUtilizationDefaults(r: ResolvedSettings): number | string {
  const all = [...new Set(r.vllmProfiles.map((p) => p.defaultUtilization))];
  return all.length === 1 ? (all[0] ?? r.gpuMemoryUtilization) : all.join(" or ");
}

/** Where the utilization default shown comes from: the planned release's, and with none named both ranges'. */
function vllmUtilizationSource(r: ResolvedSettings): string {
  if (r.vllmProfiles.length > 1) return `${VLLM_UTILIZATION.source}; with no release named each option takes whichever of the two leaves less KV`;
  return r.vllmProfile.graphsInsideBudget ? VLLM_UTILIZATION.source : `vLLM ${r.vllmProfile.releases} CacheConfig.gpu_memory_utilization = ${r.vllmProfile.defaultUtilization}`;
}

/** FreeToken --memory-ratio: 0.9 of FREE memory (FreeToken v0.1.2 docs, notes §3). */
export const FREETOKEN_MEMORY_RATIO = 0.9;

/** One default as the page's "Engine settings" disclosure shows it. */
export interface SettingDefault {
  /** The engine's own flag. */
  flag: string;
  value: number | string | boolean;
  source: string;
}

/**
 * The defaults an engine would use on a card of `cardMemoryBytes`, by the
 * engine's own flag names, each with its source: what the page shows in the
 * "Engine settings" disclosure.
 */
export function engineDefaults(engine: Engine, cardMemoryBytes: number, gpuClass = "", vllmVersion?: string): Required<Record<string, SettingDefault>> {
  const r = resolveSettings(engine, cardMemoryBytes, vllmVersion === undefined ? {} : { vllmVersion }, 1, 1, gpuClass);
  switch (engine) {
    case "vllm":
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
          source: `none named: each option is planned for ${VLLM_NEWEST_PROFILE.releases} and for ${VLLM_DEFAULT_PROFILE.releases} (the calibrated range), at each one's default utilization, and keeps the smaller KV pool`,
        },
      };
    case "sglang":
      return {
        memFractionStatic: {
          flag: "--mem-fraction-static",
          value: Math.round(r.memFractionStatic * 1000) / 1000,
          source: "SGLang server_args._handle_gpu_memory_settings (2025–2026): (total − reserve) ÷ total, reserve ≥ 10 GiB above 60 GB",
        },
        kvCacheDtype: { flag: "--kv-cache-dtype", value: "auto", source: "SGLang server_args.kv_cache_dtype = auto" },
      };
    case "llamacpp":
      return {
        cacheTypeK: { flag: "-ctk", value: "f16", source: "llama.cpp common_params.cache_type_k = GGML_TYPE_F16" },
        cacheTypeV: { flag: "-ctv", value: "f16", source: "llama.cpp common_params.cache_type_v = GGML_TYPE_F16" },
        ubatch: { flag: "-ub", value: r.ubatch, source: LLAMACPP_UBATCH.source },
        batch: { flag: "-b", value: r.batch, source: LLAMACPP_BATCH.source },
        parallel: { flag: "--parallel", value: 1, source: "one slot per concurrent sequence of the plan (llama-server -np)" },
      };
    case "freetoken":
      return {
        memoryRatio: { flag: "--memory-ratio", value: FREETOKEN_MEMORY_RATIO, source: "FreeToken v0.1.2 --memory-ratio 0.9 of free VRAM (notes §3)" },
        kvCacheDtype: { flag: "(none)", value: "bf16", source: "FreeToken allocates bf16 paged KV for every model (notes §2.1)" },
      };
  }
}

/** The KV element dtypes each engine accepts (notes §2.6). */
export function kvDtypeAllowed(engine: Engine, kv: KvDtype): boolean {
  switch (engine) {
    case "vllm":
    case "sglang":
      return kv === "auto" || kv === "fp8";
    case "llamacpp":
      return kv === "auto" || kv === "f16" || kv === "q8_0" || kv === "q4_0";
    case "freetoken":
      return kv === "auto";
  }
}

/** The workload a plan opens with: one sequence of 8,192 tokens, the model's KV dtype. */
export const DEFAULT_WORKLOAD: Workload = { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {} };
