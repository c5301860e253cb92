/**
 * How numbers and places read on the page. Pure formatting: no arithmetic
 * the engine could do happens here, only units and words.
 */
import type { Engine, ModelShape, Placement } from "../plan/index.ts";
import { kvCacheLabel, offloadWords } from "../plan/index.ts";
import { GIB } from "../plan/index.ts";

/**
 * One formatter for the whole page: `toLocaleString` builds a new
 * Intl.NumberFormat on every call, and with 50 options redrawn per slider
 * move that alone cost more than the engine's recompute (Chromium profile).
 */
const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A whole number with thousands separators: "1,234". */
export function formatCount(n: number): string {
  return WHOLE.format(n);
}

/** Bytes as GiB (2^30) with one decimal: "71.6 GiB". */
export function formatGib(bytes: number): string {
  return `${(bytes / GIB).toFixed(1)} GiB`;
}

/** Bytes as a bare GiB figure, for a chart's rows. */
export function bytesToGib(bytes: number): number {
  return bytes / GIB;
}

/** A token count with thousands separators: "32,768". */
export function formatTokens(tokens: number): string {
  return WHOLE.format(Math.round(tokens));
}

/** A parameter count the way model cards say it: "32.8B", "560M". */
export function formatParams(params: number): string {
  if (params >= 1e12) return `${(params / 1e12).toFixed(2)}T`;
  if (params >= 1e9) return `${(params / 1e9).toFixed(1)}B`;
  if (params >= 1e6) return `${Math.round(params / 1e6)}M`;
  return WHOLE.format(params);
}

/** torch dtype names as people write them: "bfloat16" → "bf16". */
export function shortDtype(dtype: string): string {
  const names: Record<string, string> = { bfloat16: "bf16", float16: "fp16", float32: "fp32", float8_e4m3fn: "fp8" };
  return names[dtype] ?? dtype;
}

/** "32.8B params · 64 layers · 8 KV heads · 32,768 ctx · bf16" */
export function modelSummary(shape: ModelShape): string {
  const parts: string[] = [];
  // A GGUF header that lists no tensors counts 0 parameters: that is "not known", not a fact to show.
  if (shape.paramsTotal !== null && shape.paramsTotal > 0) parts.push(`${formatParams(shape.paramsTotal)} params`);
  parts.push(`${shape.layers} layers`);
  if (shape.moe) parts.push(`${shape.moe.routedExperts} experts (${shape.moe.expertsPerToken} active)`);
  if (shape.kvHeads > 0 || shape.layerCaches.some((c) => c.kind === "mla" || c.kind === "compressed-mla"))
    parts.push(kvCacheLabel(shape));
  parts.push(`${formatTokens(shape.maxContextTokens)} ctx`);
  parts.push(shortDtype(shape.dtype));
  if (shape.quantMethod !== "") parts.push(shape.quantMethod);
  if (shape.hasVision) parts.push("vision");
  return parts.join(" · ");
}

const ENGINE_NAMES: Record<Engine, string> = {
  vllm: "vLLM",
  sglang: "SGLang",
  llamacpp: "llama.cpp",
  freetoken: "FreeToken",
};

export function engineName(engine: Engine): string {
  return ENGINE_NAMES[engine];
}

/** Where an option runs, in the engine's words (src/plan/placement.ts), so a card's title and the terminal's line agree. */
export { placementLabel } from "../plan/index.ts";

/** How the option splits the model, in the engines' own words: "TP 4 · PP 2 · EP". */
export function parallelismLabel(placement: Placement): string {
  const parts: string[] = [];
  if ((placement.dataParallel ?? 1) > 1) parts.push(`DP ${placement.dataParallel ?? 1}`);
  if (placement.tensorParallel > 1) parts.push(`TP ${placement.tensorParallel}`);
  if (placement.pipelineParallel > 1) parts.push(`PP ${placement.pipelineParallel}`);
  if (placement.expertParallel) parts.push("EP");
  const offload = offloadWords(placement);
  if (offload !== "") parts.push(offload);
  return parts.join(" · ");
}

/** Tokens per second as a person reads it ("42 tok/s", "1,950 tok/s"), or "not estimated". */
export function formatTps(tps: number | null): string {
  if (tps === null) return "not estimated";
  // Below 1 to two significant digits: 0.02 tok/s read "0.0 tok/s", a figure of nothing.
  const text = tps >= 100 ? Math.round(tps).toLocaleString("en-US") : tps >= 1 ? tps.toFixed(1) : tps.toPrecision(2);
  return `${text} tok/s`;
}

/** Milliseconds ("91 ms", "1.2 s"), or "not estimated". */
export function formatMs(ms: number | null): string {
  if (ms === null) return "not estimated";
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * An artifact's name as a user reads it: a split GGUF's folder and file often share a name
 * ("DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S"), said once (issue 17).
 */
export function artifactLabel(name: string): string {
  const parts = name.split("/");
  return parts.length === 2 && parts[0] === parts[1] ? (parts[0] ?? name) : name;
}
