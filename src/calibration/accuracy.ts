/**
 * Predicted against measured, for every figure engines printed at startup
 * in test/fixtures/calibration/measured.jsonl (bundled as calibration.json): what
 * the app's "Accuracy" view shows, and what test/plan/calibration.test.ts
 * and scripts/accuracy.ts hold the engine to (issues 7 and 8).
 *
 * Each case is planned exactly as the user would plan it (the same
 * placement, engine settings and card), through the same `evaluate` the page
 * uses; nothing here is fitted per case.
 */
import type { Engine, KvDtype, ModelShape, Workload } from "../plan/index.ts";
import calibration from "./calibration.json" with { type: "json" };
import { shapeFromConfig } from "../plan/index.ts";
import { evaluate, layerSplitParts, type Layout } from "../plan/index.ts";
import {
  kvElementBytes,
  kvGeometry,
  llamacppCacheBytes,
  vllmCachedGeometry,
  vllmCapacity,
  geometryBytesPerToken,
} from "../plan/index.ts";
import { GIB, VLLM_PROFILES, cudaTotalBytes, vllmOutsideBudgetBytes } from "../plan/index.ts";
import { resolveSettings, vllmProfileFor } from "../plan/index.ts";
import {
  artifactOf,
  basisOf,
  checkpointBytes,
  failed,
  gpuClassOf,
  metric,
  MIB,
  num,
  physicalBytesOf,
  placementOf,
  servingLayoutOf,
  type AccuracyRow,
  type CalibrationModel,
  type CalibrationRecord,
} from "./cases.ts";

import { is2026, model2026, newerCases, predict2026 } from "./accuracy2026.ts";

export type { AccuracyMetric, AccuracyRow, CalibrationModel, CalibrationRecord } from "./cases.ts";

/** The nodes a run spread over, as its notes say ("2 pods on 2 different nodes (Ray); TP across nodes"). */
function nodesOf(r: CalibrationRecord): number {
  const m = /on (\d+) different nodes/.exec(r.notes ?? "");
  return m?.[1] ? Math.max(1, Number(m[1])) : 1;
}

/**
 * The vLLM release a case ran, for the profile its accounting follows: the
 * version the log printed, or, where it printed none, the range its notes
 * name. llm-d-benchmark's runs say "Older vLLM profile (pre-v0.17)"; they are
 * planned as 0.11.1–0.16, the releases before 0.17 that sorted the vocabulary
 * in the sampler (0.10 did not: VLLM_PROFILES).
 */
function vllmVersionOf(r: CalibrationRecord): string | undefined {
  if (r.engine_version !== null) return "error" in vllmProfileFor(r.engine_version) ? undefined : r.engine_version;
  if (/pre-v?0\.17/i.test(r.notes ?? "")) return VLLM_PROFILES.find((p) => p.id === "0.11.1")?.representative;
  return undefined;
}

function kvDtypeOf(r: CalibrationRecord, engine: Engine): KvDtype {
  if (/^fp8/i.test(r.kv_dtype)) return "fp8";
  if (engine === "llamacpp") return /^q8_0/i.test(r.kv_dtype) ? "q8_0" : "f16";
  return "auto";
}

/** The case's serving settings, in the engines' own names. */
function workloadOf(r: CalibrationRecord, engine: Engine): Workload {
  const util = num(r.gpu_mem_util);
  const settings: Workload["settings"] = {};
  if (util !== null && engine === "vllm") settings.gpuMemoryUtilization = util;
  const vllmVersion = engine === "vllm" ? vllmVersionOf(r) : undefined;
  if (vllmVersion !== undefined) settings.vllmVersion = vllmVersion;
  if (/float32/.test(r.dtype)) settings.dtype = "float32";
  if (/--quantization fp8/.test(r.artifact)) settings.quantization = "fp8";
  return { contextTokens: r.context ?? 8192, sequences: 1, kvDtype: kvDtypeOf(r, engine), settings };
}

/** vLLM V1 (0.10 and later): the whole prediction, through the planner's own evaluation. */
function vllmV1(r: CalibrationRecord, m: CalibrationModel, shape: ModelShape, row: AccuracyRow): void {
  const cls = gpuClassOf(r.gpu);
  const physical = physicalBytesOf(r);
  if (!cls || physical === null) {
    row.note = "the card is not in the catalog: only the KV bytes per token are compared";
    return;
  }
  const tp = r.tp;
  const pp = r.pp ?? 1;
  const art = artifactOf(m, shape, "safetensors", checkpointBytes(m, shape));
  const layout = servingLayoutOf(r.id, art, "vllm", shape, cls, physical, tp, pp, nodesOf(r));
  const w = workloadOf(r, "vllm");
  const option = evaluate(layout, { repo: r.model, revision: "", shape }, w);
  row.predictedFits = option.fits;
  const first = option.cards[0];
  const part = layout.parts[0];
  if (!first || !part) return;
  const ms = r.measured;
  const weights = num(ms["weights_gib_per_card"]);
  if (weights !== null) row.metrics.push(metric("weights per card", "GiB", first.weightsBytes / GIB, weights, 2));
  const kv = num(ms["kv_available_gib_per_card"]);
  const pool = first.usableBytes - first.weightsBytes - first.engineBytes;
  // vLLM prints "Available KV cache memory" for the first pipeline stage only.
  if (kv !== null && kv > 0) row.metrics.push(metric("KV pool per card", "GiB", pool / GIB, kv, 5));
  const s = resolveSettings("vllm", physical, w.settings, tp, 1, cls);
  const elem = kvElementBytes("vllm", w.kvDtype, /float32/.test(r.dtype) ? 4 : 2);
  const tokens = num(ms["kv_tokens"]);
  if (tokens !== null && kv !== null && kv > 0) {
    // The engine's own KV accounting, fed the pool it measured: tokens to within the log's 0.005 GiB rounding.
    const geometry = pp > 1 ? (layout.parts[layout.parts.length - 1]?.kv ?? part.kv) : part.kv;
    const fromMeasured = vllmCapacity(
      vllmCachedGeometry(pp > 1 ? geometry : part.kv, s.chunkedLocalHybridKv),
      elem,
      kv * GIB,
      w.contextTokens,
      s.maxNumBatchedTokens,
    ).tokens;
    if (pp === 1)
      row.metrics.push(
        metric("KV tokens from the measured pool", "tokens", fromMeasured, tokens, (0.006 / kv) * 100 + 0.1),
      );
    row.metrics.push(metric("KV tokens (GPU KV cache size)", "tokens", option.kvPoolTokens, tokens, 5));
  }
  const conc = num(ms["max_concurrency_x"]);
  if (conc !== null) row.metrics.push(metric("max concurrency", "sequences", option.maxConcurrency, conc, 5));
  const perToken = num(r.derived["kv_bytes_per_token_per_card_from_log"]);
  // With pipeline stages the log's bytes per token mix stage 0's pool with the fewest tokens of any stage: not a per-card figure.
  if (perToken !== null && part.kv.sliding.length === 0 && pp === 1) {
    row.metrics.push(
      metric("KV bytes per token per card", "B/token", geometryBytesPerToken(part.kv, elem), perToken, 0.3),
    );
  }
  const act = num(ms["torch_peak_activation_gib"]);
  const nonTorch = num(ms["non_torch_increase_gib"]) ?? num(ms["non_torch_gib"]);
  if (weights !== null && act !== null && nonTorch !== null) {
    const context = num(ms["init_non_torch_memory_gib"]);
    const graphs = num(ms["cuda_graph_pool_actual_gib"]);
    const layersOnCard =
      part.kv.fullLayers + part.kv.mlaLayers + part.kv.linearLayers + part.kv.sliding.reduce((n, g) => n + g.layers, 0);
    const experts = part.routedExperts;
    const expertPicks = experts ? experts.moeLayers * experts.experts * (shape.moe?.expertsPerToken ?? 0) : 0;
    const outside =
      vllmOutsideBudgetBytes(tp, pp, s.enforceEager, (shape.moe?.routedExperts ?? 0) > 1, layersOnCard, expertPicks) /
      GIB;
    if (context !== null && graphs !== null) {
      row.metrics.push(
        metric(
          "whole footprint but KV",
          "GiB",
          (first.weightsBytes + first.engineBytes) / GIB + outside,
          weights + act + nonTorch + context + graphs,
          5,
        ),
      );
    } else {
      row.metrics.push(
        metric(
          "weights + engine inside the budget",
          "GiB",
          (first.weightsBytes + first.engineBytes) / GIB,
          weights + act + nonTorch,
          5,
        ),
      );
    }
  }
  row.note = `vLLM ${r.engine_version ?? "(version not printed)"}, planned with the ${s.vllmProfile.releases} profile: util ${s.gpuMemoryUtilization} of ${(cudaTotalBytes(physical, cls) / GIB).toFixed(2)} GiB`;
}

/** vLLM V0 (0.4–0.7): its accounting differs; compared are the KV bytes per token and the verdict. */
function vllmV0(r: CalibrationRecord, m: CalibrationModel, shape: ModelShape, row: AccuracyRow): void {
  const perToken =
    num(r.derived["kv_bytes_per_token_from_cpu_swap_4GiB"]) ?? num(r.derived["kv_bytes_per_token_per_card_theory"]);
  const tp = r.tp;
  const elem = 2;
  const geometry = kvGeometry(shape.layerCaches, tp);
  if (perToken !== null)
    row.metrics.push(
      metric("KV bytes per token per card", "B/token", geometryBytesPerToken(geometry, elem), perToken, 0.3),
    );
  const cls = gpuClassOf(r.gpu);
  const physical = physicalBytesOf(r);
  if (physical === null) return;
  const weightsGib = num(r.measured["weights_GB_label_is_GiB"]) ?? num(r.measured["weights_GB_label_is_GiB_per_card"]);
  // A checkpoint the log does not name (a 4-bit Qwen2.5-7B) weighs what the log says it loaded;
  // its weights are then an input, not a prediction.
  const loadedOnly = /weights [\d.]+ GiB/.test(r.artifact) && weightsGib !== null;
  const bytes = loadedOnly ? weightsGib * GIB * tp : checkpointBytes(m, shape);
  const art = artifactOf(m, shape, "safetensors", bytes);
  const layout = servingLayoutOf(r.id, art, "vllm", shape, cls ?? "", physical, tp);
  // V0 profiles one batch of max_model_len tokens when chunked prefill is off (below 32k,
  // its default), and 256 sequences: calibration Llama-3.1-8B on a 3090, 2.07 GiB at 20k and
  // 2.99 GiB at 29k, where the 27 B per token and hidden unit gives 2.06 and 2.99.
  const w = workloadOf(r, "vllm");
  const ctx = r.context ?? 8192;
  if (ctx < 32768) w.settings = { ...w.settings, maxNumBatchedTokens: ctx, maxNumSeqs: 256 };
  const option = evaluate(layout, { repo: r.model, revision: "", shape }, w);
  row.predictedFits = option.fits;
  const first = option.cards[0];
  if (first && weightsGib !== null && !loadedOnly)
    row.metrics.push(metric("weights per card", "GiB", first.weightsBytes / GIB, weightsGib, 2));
  row.note = "vLLM V0: the profile batch is max_model_len tokens (no chunked prefill below 32k); the rest as V1";
}

/** llama.cpp and ik_llama.cpp: the KV buffer at n_ctx, and the model buffer on the card. */
function llamacpp(r: CalibrationRecord, m: CalibrationModel, shape: ModelShape, row: AccuracyRow): void {
  const ms = r.measured;
  const ctx = r.context ?? 0;
  // ik_llama.cpp (mid-2025) allocates sliding layers at the full n_ctx (the record's note; --swa-full in mainline terms).
  const ik = /^ik_llama/.test(r.engine);
  const layers = ik
    ? shape.layerCaches.map((l) =>
        l.kind === "sliding"
          ? { kind: "full" as const, kvHeads: l.kvHeads, headDimK: l.headDimK, headDimV: l.headDimV }
          : l,
      )
    : shape.layerCaches;
  const g = kvGeometry(layers, 1);
  const mixed = /K iq4_nl, V f16/.test(r.kv_dtype);
  // iq4_nl is 18 bytes per 32 values, like q4_0 (ggml block sizes); f16 V stays 2 bytes.
  const elem = mixed ? (18 / 32 + 2) / 2 : kvElementBytes("llamacpp", kvDtypeOf(r, "llamacpp"), 2);
  const kvMib = num(ms["CUDA0_KV_buffer_MiB"]);
  if (kvMib !== null)
    row.metrics.push(metric("KV buffer", "MiB", llamacppCacheBytes(g, elem, ctx, 1, 512) / MIB, kvMib, 0.1));
  const saved = num(ms["vram_saved_by_swa_cache_MiB"]) ?? num(r.derived["vram_saved_by_swa_cache_MiB"]);
  if (saved !== null) {
    // The iSWA cache of May 2025 (PR #13194) padded n_swa + n_batch (2048), not n_ubatch, cells.
    const full = kvGeometry(
      shape.layerCaches.map((l) =>
        l.kind === "sliding"
          ? { kind: "full" as const, kvHeads: l.kvHeads, headDimK: l.headDimK, headDimV: l.headDimV }
          : l,
      ),
      1,
    );
    const predicted = (llamacppCacheBytes(full, 2, ctx, 1, 2048) - llamacppCacheBytes(g, 2, ctx, 1, 2048)) / MIB;
    row.metrics.push(metric("VRAM the sliding-window cache saves", "MiB", predicted, saved, 5));
  }
  const modelMib = num(ms["CUDA0_model_buffer_MiB"]);
  const fileGib = /\(([\d.]+) GiB/.exec(r.artifact)?.[1];
  const cls = gpuClassOf(r.gpu);
  const physical = physicalBytesOf(r);
  // Only a whole model on one card is compared; -ot expert offload runs are not this planner's --n-cpu-moe.
  const cpuMib = num(ms["CPU_model_buffer_MiB"]);
  if (modelMib !== null && fileGib && cls && physical !== null && (cpuMib === null || cpuMib < modelMib)) {
    const art = artifactOf(m, shape, "gguf", Number(fileGib) * GIB);
    const bits = /([\d.]+) BPW/.exec(r.artifact)?.[1];
    if (bits) art.bitsPerWeight = Number(bits);
    const parts = layerSplitParts(shape, art, cls, physical, 1);
    const p = parts[0];
    if (p) row.metrics.push(metric("model buffer on the card", "MiB", p.bodyBytes / MIB, modelMib, 2));
    // The verdict for the whole model on that one card, at the case's context and cache type.
    const layout: Layout = {
      id: r.id,
      artifact: art,
      engine: "llamacpp",
      placement: { ...placementOf(cls, 1, 1), tensorParallel: 1 },
      bitsPerWeight: art.bitsPerWeight,
      parts,
      host: null,
      hosts: 1,
      freeNow: true,
      cardsShort: 0,
      replicas: 1,
      replicasFreeNow: 1,
      dataParallel: 1,
    };
    const kvDtype = mixed ? "q4_0" : kvDtypeOf(r, "llamacpp");
    row.predictedFits = evaluate(
      layout,
      { repo: r.model, revision: "", shape },
      { contextTokens: ctx, sequences: 1, kvDtype, settings: {} },
    ).fits;
  }
  row.note = ik ? "ik_llama.cpp: sliding layers at full n_ctx, as that fork allocates them" : "llama.cpp mainline";
}

/** SGLang with DP attention: the MLA cell per token it printed. */
function sglang(r: CalibrationRecord, m: CalibrationModel, shape: ModelShape, row: AccuracyRow): void {
  const perToken = num(r.derived["kv_bytes_per_token_from_log"]);
  const g = kvGeometry(shape.layerCaches, 1);
  // SGLang's fp8 MLA cell: 512 fp8 latent + 512/128 × 4 B scales + 64 bf16 RoPE = 656 B a layer
  // (calculate_mla_kv_cache_dim); the DSA indexer's keys (the shape's 132 B a layer) only since PR #11309.
  const text = (m.config["text_config"] as Record<string, unknown> | undefined) ?? m.config;
  const rope = Number(text["qk_rope_head_dim"] ?? 64);
  const latent = g.mlaLayers > 0 ? g.mlaElemsPerToken / g.mlaLayers - rope : 0;
  const perLayer = latent + (latent / 128) * 4 + rope * 2;
  const indexer = /PR #11309/.test(r.engine_version ?? "") ? g.indexerBytesPerToken : 0;
  if (perToken !== null)
    row.metrics.push(metric("KV bytes per token per rank", "B/token", perLayer * g.mlaLayers + indexer, perToken, 0.3));
  row.note = "SGLang with DP attention: every rank keeps the whole MLA cache for its requests";
}

/** TensorRT-LLM: only the KV bytes per token (its pool rule is not one Modelplan plans). */
function trtllm(r: CalibrationRecord, shape: ModelShape, row: AccuracyRow): void {
  const perToken = num(r.derived["kv_bytes_per_token"]);
  if (perToken !== null)
    row.metrics.push(
      metric(
        "KV bytes per token",
        "B/token",
        geometryBytesPerToken(kvGeometry(shape.layerCaches, 1), 2),
        perToken,
        0.3,
      ),
    );
  row.note = "TensorRT-LLM is not an engine Modelplan plans for; only the cache geometry is compared";
}

/** The model entry for a record: its repo id, or the geometry its notes name. */
function modelFor(r: CalibrationRecord, models: Record<string, CalibrationModel>): CalibrationModel | undefined {
  if (models[r.model]) return models[r.model];
  if (/Qwen2\.5-7B/.test(r.model)) return models["Qwen/Qwen2.5-7B-Instruct"];
  if (/Llama-architecture/.test(r.model)) return models["codellama/CodeLlama-7b-hf"];
  return model2026(r, models);
}

/** One case predicted: the planner's figures beside the engine's. */
export function predictCase(r: CalibrationRecord, models: Record<string, CalibrationModel>): AccuracyRow {
  const row: AccuracyRow = {
    id: r.id,
    sourceUrl: r.source_url,
    engine: r.engine,
    engineVersion: r.engine_version ?? "",
    model: r.model,
    gpu: r.gpu,
    tensorParallel: r.tp,
    pipelineParallel: r.pp ?? 1,
    contextTokens: r.context ?? 0,
    ran: !failed(r),
    predictedFits: null,
    metrics: [],
    note: "",
    basis: basisOf(r),
  };
  const m = modelFor(r, models);
  if (!m) {
    row.note = "no geometry for this model";
    return row;
  }
  const shape = shapeFromConfig(m.config, m.params ?? null);
  const version = `${r.engine} ${r.engine_version ?? ""}`;
  // V0 is every vLLM before 0.8, and the logs that name their V0 worker.
  if (is2026(r)) predict2026(r, m, shape, row);
  else if (r.engine.startsWith("vllm") && (/\bV0\b/.test(version) || /\b0\.[4-7]\b/.test(version)))
    vllmV0(r, m, shape, row);
  else if (r.engine.startsWith("vllm")) vllmV1(r, m, shape, row);
  else if (/llama/.test(r.engine)) llamacpp(r, m, shape, row);
  else if (r.engine === "sglang") sglang(r, m, shape, row);
  else trtllm(r, shape, row);
  return row;
}

/** Predicted against measured for every bundled calibration case: the app's "Accuracy" view. */
export function accuracyRows(): AccuracyRow[] {
  const data = calibration as unknown as { cases: CalibrationRecord[]; models: Record<string, CalibrationModel> };
  return data.cases.map((c) => predictCase(c, data.models));
}

/** Predicted against measured for every bundled 2026 case (issue 15): the Accuracy view's by-release groups. */
export function accuracyRows2026(): AccuracyRow[] {
  const data = newerCases();
  return data.cases.map((c) => predictCase(c, data.models));
}

/**
 * The headline set the README and the issue-8 targets quote: vLLM 0.19 startups at utilization 0.95 that started
 * (llm-d-planner PR #205's H100 sweep).
 */
export function isVllm019HeadlineCase(r: CalibrationRecord): boolean {
  return r.engine_version === "0.19.0" && r.gpu_mem_util === 0.95 && !/failed/.test(r.id);
}

/** The headline set's rows from the bundled cases. */
export function headlineAccuracyRows(): AccuracyRow[] {
  const data = calibration as unknown as { cases: CalibrationRecord[]; models: Record<string, CalibrationModel> };
  return data.cases.filter(isVllm019HeadlineCase).map((c) => predictCase(c, data.models));
}

/** Mean and worst absolute error (percent) of one named figure over rows. */
export function errorSummary(
  rows: readonly AccuracyRow[],
  name: string,
): { cases: number; meanAbsPct: number; maxAbsPct: number } {
  const errors = rows.flatMap((r) => r.metrics.filter((x) => x.name === name).map((x) => Math.abs(x.errorPct)));
  if (errors.length === 0) return { cases: 0, meanAbsPct: 0, maxAbsPct: 0 };
  return {
    cases: errors.length,
    meanAbsPct: errors.reduce((s, e) => s + e, 0) / errors.length,
    maxAbsPct: Math.max(...errors),
  };
}
