/** What a vLLM card holds for a workload: the budget of each release the plan holds for, the smaller pool kept. */
import { cardEval } from "../engine.ts";
import { runElemBytes, servingWeights } from "../serving/weights.ts";
import { type VllmBudget, vllmBudget } from "./budget.ts";
import { vllmDsv4Layout } from "./dsv4.ts";
import { vllmBlockTokens, vllmCachedGeometry, vllmSequenceBytes } from "./kv.ts";
import { mtpBytesLoaded, mtpBytesSkipped } from "./mtp.ts";
import { vllmMxfp4HopperGrowthBytes, vllmMxfp4MarlinGrowthBytes } from "./mxfp4.ts";
import { vllmSettingsPerRelease } from "./settings.ts";
import { growingBytesPerToken } from "../../kv.ts";
import type { CardEval, EvalContext, Layout, Part } from "../../layout.ts";
import { type ResolvedSettings, resolveSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { EngineSettings, KvDtype, Workload } from "../../types.ts";
import { GIB } from "../../units.ts";

/** Bytes of one KV element: "auto" is the dtype the model runs in (an fp32 run doubles the cache), fp8 one byte. */
export function vllmKvElementBytes(kv: KvDtype, modelDtypeBytes: number): number {
  return kv === "fp8" ? 1 : modelDtypeBytes;
}

/** The weights a vLLM card holds: the serving engines' load less an unused MTP block, and the MXFP4 experts' own layout (Hopper's, Marlin's). */
export function vllmWeightsOnCard(
  part: Part,
  shape: ModelShape,
  s: ResolvedSettings,
  settings: EngineSettings = {},
): number {
  const w = servingWeights(part, shape, s);
  return (
    w.bodyBytes +
    vllmMxfp4HopperGrowthBytes(part, shape) +
    vllmMxfp4MarlinGrowthBytes(part, shape) +
    w.embedBytes -
    mtpBytesSkipped(part, shape, settings)
  );
}

export function vllmEvalCard(
  layout: Layout,
  part: Part,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): CardEval {
  const initial = resolveSettings(
    "vllm",
    part.physicalBytes,
    w.settings,
    part.tensorParallel,
    w.sequences,
    part.gpuClass,
  );
  const elem = vllmKvElementBytes(w.kvDtype, runElemBytes(ctx.shape, initial));
  const weights = vllmWeightsOnCard(part, ctx.shape, initial, w.settings);
  const measured = w.settings.measuredOverheadGib?.vllm;
  const kv = vllmCachedGeometry(part.kv, initial.chunkedLocalHybridKv);
  // With no release named the plan holds for each range it may run on (settings.ts): the
  // smaller pool is planned, and every range's start-up check must pass.
  const budgets = vllmSettingsPerRelease(initial, w.settings).map((r) => vllmBudget(layout, part, ctx.shape, r));
  // A measured overhead (from a pasted log) replaces what each release spends inside: then the smaller budget is the smaller pool.
  const inside = (b: VllmBudget): number => (measured !== undefined && measured >= 0 ? measured * GIB : b.engineBytes);
  const chosen = budgets.reduce((a, b) => (b.usableBytes - inside(b) < a.usableBytes - inside(a) ? b : a));
  const s = chosen.settings;
  const stepTokens = vllmBlockTokens(kv, elem);
  return cardEval("vllm", part, w, contextTokens, {
    settings: s,
    elementBytes: elem,
    weightsBytes: weights,
    usableBytes: chosen.usableBytes,
    engineBytes: chosen.engineBytes,
    kvAt: (c) => vllmSequenceBytes(kv, elem, c, s.maxNumBatchedTokens),
    stepTokens,
    // DeepSeek-V4: past the windows, each 256 tokens of context take one more shared block.
    stepBytes: kv.compressed.length > 0 ? vllmDsv4Layout(kv).blockBytes : stepTokens * growingBytesPerToken(kv, elem),
    sequences: Math.max(1, w.sequences),
    outsideOk: budgets.every((b) => b.outsideOk),
    requestedBytes: Math.max(...budgets.map((b) => b.usableBytes)),
    mtpWeightsBytes: mtpBytesLoaded(part, ctx.shape, w.settings),
  });
}
