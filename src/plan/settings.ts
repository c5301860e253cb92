/**
 * Each engine's own defaults for the settings that change what it
 * allocates, with the version and source each was read from. A
 * plan that ignores a setting answers a different question from the one the
 * user will run, so every default here is the engine's, not ours.
 */
import { FREETOKEN_MEMORY_RATIO } from "./engines/freetoken/settings.ts";
import { LLAMACPP_BATCH, LLAMACPP_KV_UNIFIED, LLAMACPP_UBATCH } from "./engines/llamacpp/settings.ts";
import { sglangMemFraction } from "./engines/sglang/settings.ts";
import { VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT } from "./engines/vllm/kv.ts";
import {
  VLLM_NEWEST_PROFILE,
  type VllmMemoryProfile,
  vllmProfilesOf,
  vllmSchedulerDefaults,
} from "./engines/vllm/releases.ts";
import type { Engine, EngineSettings, Workload } from "./types.ts";

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
  /** llama.cpp --kv-unified: the slots share one stream of cells (kv.ts llamacppCells). */
  kvUnified: boolean;
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

/**
 * Settings are resolved for every card of every option on every slider move: the two parts that
 * read tables (a release string, SGLang's tiers) are made once per release and per card × width.
 */
const profilesByVersion = new Map<string | undefined, readonly VllmMemoryProfile[]>();
const fractionByCard = new Map<number, Map<number, number>>();

function profilesOf(version: string | undefined): readonly VllmMemoryProfile[] {
  let known = profilesByVersion.get(version);
  if (known === undefined) {
    if (profilesByVersion.size >= 256) profilesByVersion.clear();
    known = vllmProfilesOf(version);
    profilesByVersion.set(version, known);
  }
  return known;
}

function memFractionOf(cardMemoryBytes: number, tensorParallel: number): number {
  let byWidth = fractionByCard.get(cardMemoryBytes);
  if (byWidth === undefined) {
    if (fractionByCard.size >= 1024) fractionByCard.clear();
    byWidth = new Map();
    fractionByCard.set(cardMemoryBytes, byWidth);
  }
  let known = byWidth.get(tensorParallel);
  if (known === undefined) {
    known = sglangMemFraction(cardMemoryBytes, tensorParallel);
    byWidth.set(tensorParallel, known);
  }
  return known;
}

/**
 * Every setting resolved for an engine on a card of `cardMemoryBytes`: the
 * user's where given, else the engine's default. `tensorParallel` only moves
 * SGLang's reserve.
 */
export function resolveSettings(
  engine: Engine,
  cardMemoryBytes: number,
  settings: EngineSettings,
  tensorParallel = 1,
  sequences = 1,
  gpuClass = "",
): ResolvedSettings {
  // Asked for every card of every option at every slider move, with a few dozen distinct questions per
  // workload: answered from the last settings object's answers (settings are never changed once made).
  if (resolvedFor !== settings) {
    resolvedFor = settings;
    resolvedByClass.clear();
  }
  let known = resolvedByClass.get(gpuClass);
  if (known === undefined) {
    known = [];
    resolvedByClass.set(gpuClass, known);
  }
  for (const k of known)
    if (
      k.engine === engine &&
      k.cardMemoryBytes === cardMemoryBytes &&
      k.tensorParallel === tensorParallel &&
      k.sequences === sequences
    )
      return k.resolved;
  const resolved = resolveAfresh(engine, cardMemoryBytes, settings, tensorParallel, sequences, gpuClass);
  if (known.length < 64) known.push({ engine, cardMemoryBytes, tensorParallel, sequences, resolved });
  return resolved;
}

let resolvedFor: EngineSettings | null = null;
const resolvedByClass = new Map<
  string,
  { engine: Engine; cardMemoryBytes: number; tensorParallel: number; sequences: number; resolved: ResolvedSettings }[]
>();

function resolveAfresh(
  engine: Engine,
  cardMemoryBytes: number,
  settings: EngineSettings,
  tensorParallel: number,
  sequences: number,
  gpuClass: string,
): ResolvedSettings {
  const vllmProfiles = profilesOf(settings.vllmVersion);
  const vllmProfile = vllmProfiles[0] ?? VLLM_NEWEST_PROFILE;
  const sched = vllmSchedulerDefaults(vllmProfile, cardMemoryBytes, gpuClass);
  return {
    gpuMemoryUtilization:
      settings.gpuMemoryUtilization ??
      (engine === "freetoken" ? FREETOKEN_MEMORY_RATIO : vllmProfile.defaultUtilization),
    maxNumSeqs: settings.maxNumSeqs ?? sched.maxNumSeqs,
    maxNumBatchedTokens: settings.maxNumBatchedTokens ?? sched.maxNumBatchedTokens,
    dtype: settings.dtype ?? "auto",
    quantization: settings.quantization ?? "",
    enforceEager: settings.enforceEager ?? false,
    memFractionStatic: settings.memFractionStatic ?? memFractionOf(cardMemoryBytes, tensorParallel),
    ubatch: settings.ubatch ?? LLAMACPP_UBATCH.value,
    batch: settings.batch ?? LLAMACPP_BATCH.value,
    // llama-server --parallel: one slot per concurrent sequence the user asks for.
    parallel: settings.parallel ?? Math.max(1, sequences),
    kvUnified: settings.kvUnified ?? LLAMACPP_KV_UNIFIED.value,
    chunkedLocalHybridKv: settings.vllmChunkedLocalHybridKv ?? VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT,
    vllmProfile,
    vllmProfiles,
  };
}

/** The request a plan's speed is figured for when the workload does not say: 1,024 tokens in, 256 out (the serving benchmarks' common 1k-class shape). */
export const DEFAULT_INPUT_TOKENS = 1024;
export const DEFAULT_OUTPUT_TOKENS = 256;

/** The longest prompt or answer a plan takes (the page's fields, the plan link, npm run plan): past any model's context today. */
export const MAX_REQUEST_TOKENS = 10_000_000;

/** A request's whole length, in and out, at the defaults where the workload does not say: what the context must hold to serve it. */
export function requestTokensOf(w: Pick<Workload, "inputTokens" | "outputTokens">): number {
  return (w.inputTokens ?? DEFAULT_INPUT_TOKENS) + (w.outputTokens ?? DEFAULT_OUTPUT_TOKENS);
}

/** The workload a plan opens with: one sequence of 8,192 tokens, the model's KV dtype. */
export const DEFAULT_WORKLOAD: Workload = { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {} };
