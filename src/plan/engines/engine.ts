/**
 * The one interface every engine Modelplan plans for implements: its KV
 * dtypes, defaults, which artifacts it plans, its placements, what a card
 * holds (budget and KV), how its pool turns into tokens and sequences, and
 * the commands that start it. A new engine is one folder and one line in
 * engines/index.ts; a method it lacks is a type error, never a fallback to
 * another engine's accounting.
 */
import { type Arg, type CommandContext, type CommandOption } from "../commands.ts";
import type { PoolCapacity } from "../kv.ts";
import { cardLoad } from "../cardLoad.ts";
import type { CardEval, EnumContext, Enumerated, EvalContext, Layout, LayoutEval, Part } from "../layout.ts";
import type { ResolvedSettings } from "../settings.ts";
import type { ModelShape, YarnExtension } from "../shapeTypes.ts";
import type { Artifact, Engine, KvDtype, Refusal, SettingDefault, Workload } from "../types.ts";
import { GIB } from "../units.ts";

export type { SettingDefault } from "../types.ts";

/** What an engine says when the context is longer than the model's own: whether it still starts, and in words. */
export interface PastContext {
  runs: boolean;
  words: string;
}

export interface EngineModel {
  readonly id: Engine;
  /** Its name in words ("vLLM"). */
  readonly label: string;
  /** The KV cache dtypes it accepts; "auto" is the model's own. */
  readonly kvDtypes: readonly KvDtype[];
  /** Bytes of one KV element of `kv` when the model runs at `modelDtypeBytes`. */
  kvElementBytes(kv: KvDtype, modelDtypeBytes: number): number;
  /** Its defaults on a card (settings resolved for it), by its own flag names, each with its source. */
  defaults(r: ResolvedSettings): Record<string, SettingDefault>;
  /** Why it cannot plan this model's layout at all (said once per artifact), or null. */
  unmodelled(shape: ModelShape): string | null;
  /** The refusals it gives an artifact before any placement, and whether it places it at all. */
  admits(a: Artifact, shape: ModelShape, w: Workload): { refusals: Refusal[]; places: boolean };
  /** Every placement of an artifact on the cluster it plans, and the ones it turns down. */
  placements(a: Artifact, c: EnumContext, out: Enumerated): void;
  /** What each card (and the host, where it uses one) holds at a context. */
  evalLayout(layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number): LayoutEval;
  /** The tokens and sequences a card's pool of `poolBytes` holds at the workload's context. */
  capacity(layout: Layout, part: Part, e: CardEval, w: Workload, shape: ModelShape, poolBytes: number): PoolCapacity;
  /** The same for a cache in host RAM (the CPU option), where the engine runs one; absent: it holds none. */
  hostCapacity?(e: CardEval, w: Workload): PoolCapacity;
  /** What it does with a context past the model's own; null when within it. */
  pastModelContext(shape: ModelShape, contextTokens: number): PastContext | null;
  /** Its flag for the context of one sequence (vLLM --max-model-len, llama.cpp -c). */
  readonly contextFlag: string;
  /** The flags that start it with a YaRN stretch of the model's positions, or null when it has none. */
  yarnArgs(y: YarnExtension): Arg[] | null;
  /** Its own start-up check of the cards' free memory (vLLM's); true when it has none or the inventory does not say. */
  startsOnFreeMemory(layout: Layout, evals: readonly CardEval[]): boolean;
  /** The command lines that start an option, one per process (and node). */
  commands(option: CommandOption, ctx: CommandContext): string[];
  /** What the user must know about a layout that its figures do not say (llama.cpp's RPC cost, its device order); absent: nothing. */
  layoutNotes?(layout: Layout, shape: ModelShape, w?: Workload): string[];
}

/** What an engine decides about a card before the engine-neutral tail: its budget and its KV need as the context grows. */
export interface CardBudget {
  settings: ResolvedSettings;
  elementBytes: number;
  weightsBytes: number;
  usableBytes: number;
  engineBytes: number;
  kvAt: (contextTokens: number) => number;
  stepTokens: number;
  stepBytes: number;
  /** Sequences the card's KV is counted for: the workload's for vLLM/SGLang, 1 where kvAt already sizes the whole cache. */
  sequences: number;
  outsideOk: boolean;
  requestedBytes?: number;
  /** The MTP weights among weightsBytes (vLLM/SGLang with MTP speculative decoding on); absent or 0: none. */
  mtpWeightsBytes?: number;
  /** Of engineBytes, the MoE all-to-all library's buffers (SGLang's DeepEP); absent or 0: none. */
  commBufferBytes?: number;
}

/**
 * The engine-neutral tail of a card's evaluation: a measured overhead (from a
 * pasted startup log) replaces the modelled one, and the load holds the
 * workload's sequences up to what the pool gives.
 */
/** The engine's overhead a pasted startup log measured, which replaces the modelled one; null without one. */
export function measuredEngineBytes(w: Workload, engine: Engine): number | null {
  const measured = w.settings.measuredOverheadGib?.[engine];
  return measured !== undefined && measured >= 0 ? measured * GIB : null;
}

export function cardEval(engine: Engine, part: Part, w: Workload, contextTokens: number, b: CardBudget): CardEval {
  const engineBytes = measuredEngineBytes(w, engine) ?? b.engineBytes;
  const weights = b.weightsBytes;
  const usable = b.usableBytes;
  const needKv = b.kvAt(contextTokens);
  const load = cardLoad({
    gpuClass: part.gpuClass,
    cards: part.cards,
    role: part.role,
    weightsBytes: weights,
    kvBytes: Math.min(needKv * b.sequences, Math.max(needKv, usable - weights - engineBytes)),
    engineBytes,
    usableBytes: usable,
    physicalBytes: part.physicalBytes,
    mtpWeightsBytes: b.mtpWeightsBytes ?? 0,
    commBufferBytes: b.commBufferBytes ?? 0,
  });
  const e: CardEval = {
    load,
    poolBytes: usable - weights - engineBytes,
    needKvBytes: needKv,
    outsideOk: b.outsideOk,
    kvAt: b.kvAt,
    settings: b.settings,
    elementBytes: b.elementBytes,
    stepTokens: b.stepTokens,
    stepBytes: b.stepBytes,
  };
  if (b.requestedBytes !== undefined) e.requestedBytes = b.requestedBytes;
  return e;
}

/** Every part of a layout evaluated alone, no host: how the serving engines' replicas are evaluated. */
export function cardsOnly(
  evalCard: (layout: Layout, part: Part, ctx: EvalContext, w: Workload, contextTokens: number) => CardEval,
) {
  return (layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number): LayoutEval => ({
    evals: layout.parts.map((p) => evalCard(layout, p, ctx, w, contextTokens)),
    host: null,
    cpuLayers: 0,
  });
}
