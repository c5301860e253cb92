/**
 * What a layout holds for a workload: per-card loads, fits, the longest context, the pool and the
 * commands. The slider's path calls it for every option; nothing here enumerates.
 */
import { type CommandContext } from "./commands.ts";
import { commandsFor, engineModel, kvDtypeAllowed, pastModelContext } from "./engines/index.ts";
import {
  type CardEval,
  type EvalContext,
  fitsEval,
  type HostShare,
  type Layout,
  type LayoutEval,
  needOf,
  type Part,
} from "./layout.ts";
import { cardsPerReplica } from "./placement.ts";
import { costPerMillionTokens, pricePerCardHour } from "./prices.ts";
import { DEFAULT_INPUT_TOKENS, DEFAULT_OUTPUT_TOKENS } from "./settings.ts";
import { sglangDpAttentionFraction } from "./engines/sglang/evalCard.ts";
import { shareDefaultOf } from "./settingDefaults.ts";
import { shortfallOf } from "./shortfall.ts";
import type { ModelShape } from "./shapeTypes.ts";
import { noSpeed, optionSpeed, speedQuestionOf, type SpeedContext, speedModelOf } from "./speed/option.ts";
import type { SpeedEstimate, SpeedModel } from "./speed/types.ts";
import type { Artifact, ClusterLack, Placement, PlanOption, PurchaseChange, ShareDefault, Workload } from "./types.ts";
import { GIB } from "./units.ts";

/**
 * The largest context in [1, cap] for which `fits` holds, or 0 when not even
 * one token fits; `fits` must be monotone (a longer context never needs less).
 * Binary search: ~18 probes up to a 256k cap.
 */
export function largestFitting(fits: (contextTokens: number) => boolean, cap: number): number {
  if (cap < 1 || !fits(1)) return 0;
  if (fits(cap)) return cap;
  let lo = 1;
  let hi = cap;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Per-card evaluation of a layout at a context (no commands, no option), by its engine. */
export function evalLayout(layout: Layout, ctx: EvalContext, w: Workload, contextTokens: number): LayoutEval {
  return engineModel(layout.engine).evalLayout(layout, ctx, w, contextTokens);
}

/** The engine's pool on the worst card: its bytes, the tokens it holds and the sequences of the workload's context. */
function poolOf(
  layout: Layout,
  evals: CardEval[],
  w: Workload,
  shape: ModelShape,
): { bytes: number; tokens: number; concurrency: number } {
  const engine = engineModel(layout.engine);
  // The worst so far in locals, one object at the end: asked of every option at every slider move.
  let found = false;
  let bytes = 0;
  let tokens = 0;
  let concurrency = 0;
  for (let i = 0; i < evals.length; i++) {
    const e = evals[i];
    const part = layout.parts[i];
    if (!e || !part) continue;
    const here = Math.max(0, e.poolBytes);
    const cap = engine.capacity(layout, part, e, w, shape, here);
    if (!found || cap.tokens < tokens) {
      found = true;
      bytes = here;
      tokens = cap.tokens;
      concurrency = cap.concurrency;
    }
  }
  return { bytes, tokens, concurrency };
}

/** The CPU option's pool: the cache in host RAM, as the engine sizes it (llama.cpp's n_ctx); none where it runs none. */
function hostPoolOf(
  layout: Layout,
  host: CardEval | null,
  w: Workload,
): { bytes: number; tokens: number; concurrency: number } {
  const cap = host ? engineModel(layout.engine).hostCapacity?.(host, w) : undefined;
  return host && cap ? { bytes: Math.max(0, host.poolBytes), ...cap } : { bytes: 0, tokens: 0, concurrency: 0 };
}

/**
 * What a layout holds for a workload: per-card loads, fits, the longest
 * context, the pool and the commands. The slider's path calls this again for
 * every option; nothing here enumerates.
 */
export function evaluate(
  layout: Layout,
  ctx: EvalContext,
  w: Workload,
  known?: LayoutEval,
  shared?: Map<Part[], LayoutEval>,
): PlanOption {
  const contextTokens = Math.max(1, w.contextTokens);
  // `known`: the same layout at this workload and context, as enumeration's fit check found it. `shared`:
  // one workload's evaluations by parts, for vLLM/SGLang layouts on one node, whose cards hold only
  // what their parts say (a data-parallel engine shares its ranks' parts with the TP layout of a rank).
  const shareable =
    shared !== undefined && (layout.engine === "vllm" || layout.engine === "sglang") && layout.placement.nodes <= 1;
  const r = known ?? (shareable ? shared.get(layout.parts) : undefined) ?? evalLayout(layout, ctx, w, contextTokens);
  if (shareable) shared.set(layout.parts, r);
  const all = r.host ? [...r.evals, r.host] : r.evals;
  const memoryFits = all.every(fitsEval);
  // The worst card: the least room left after what it needs.
  let worstIndex = 0;
  for (let i = 1; i < all.length; i++) {
    const e = all[i];
    const best = all[worstIndex];
    if (e && best && e.load.usableBytes - needOf(e) < best.load.usableBytes - needOf(best)) worstIndex = i;
  }
  const worst = all[worstIndex];
  const modelMax = ctx.shape.maxContextTokens > 0 ? ctx.shape.maxContextTokens : contextTokens;
  const kvTaken = kvDtypeAllowed(layout.engine, w.kvDtype);
  let maxContextTokens = kvTaken ? modelMax : 0;
  for (const e of all) maxContextTokens = Math.min(maxContextTokens, e.outsideOk ? longestContext(e, modelMax) : 0);
  const one = layout.placement.cpu ? hostPoolOf(layout, r.host, w) : poolOf(layout, r.evals, w, ctx.shape);
  // A data-parallel engine's ranks each keep such a pool: together they hold dp times its tokens and sequences.
  const dp = layout.dataParallel;
  const pool = dp > 1 ? { bytes: one.bytes, tokens: one.tokens * dp, concurrency: one.concurrency * dp } : one;
  const hostedFits = layout.cardsShort === 0 && layout.lacks?.kind !== "fabric";
  const placement: Placement =
    r.cpuLayers > 0
      ? layout.host?.mode === "moe"
        ? { ...layout.placement, cpuMoeLayers: r.cpuLayers }
        : { ...layout.placement, gpuLayers: ctx.shape.layers - r.cpuLayers }
      : layout.placement;
  const past = pastModelContext(layout.engine, ctx.shape, w.contextTokens);
  const option: PlanOption = {
    id: layout.id,
    artifact: layout.artifact.name,
    format: layout.artifact.format,
    engine: layout.engine,
    placement,
    bitsPerWeight: layout.bitsPerWeight,
    // A data-parallel engine's every rank holds the rank's loads: dp times the cards of each.
    cards: dp > 1 ? all.map((e) => ({ ...e.load, cards: e.load.cards * dp })) : all.map((e) => e.load),
    needBytes: worst ? needOf(worst) : 0,
    haveBytes: worst ? worst.load.usableBytes : 0,
    worstCardIndex: worstIndex,
    hosts: layout.host?.mode === "cpu" && r.host ? hostsFor(layout.host, r.host) : layout.hosts,
    freeNow:
      layout.host?.mode === "cpu" && r.host
        ? cpuFreeNow(layout.host, r.host)
        : layout.freeNow && engineModel(layout.engine).startsOnFreeMemory(layout, r.evals),
    // A KV dtype the engine does not take (the slider moved to q8_0 with a vLLM option on screen) does not run at all.
    fits: memoryFits && hostedFits && kvTaken && (past === null || past.runs),
    maxContextTokens,
    kvPoolBytes: pool.bytes,
    kvPoolTokens: pool.tokens,
    maxConcurrency: pool.concurrency,
    moreCardsNeeded: layout.cardsShort,
    commands: [],
    // Every field an option has is in this literal, set below (the optional ones undefined until they say
    // something): added one by one afterwards, each option took a chain of hidden-class transitions.
    speed: SPEED_PENDING,
    fitsWorkload: false,
    replicas: 0,
    replicasFreeNow: 0,
    dataParallel: layout.dataParallel,
    costPerMtok: null,
    whatToBuy: NO_PURCHASES,
    lacks: undefined,
    notes: undefined,
    shareDefault: undefined,
    shortfall: undefined,
  };
  const lacks = lackOf(layout, r);
  if (lacks) option.lacks = lacks;
  const engineNotes = engineModel(layout.engine).layoutNotes?.(layout, ctx.shape, w);
  if (past !== null) option.notes = engineNotes ? [past.words, ...engineNotes] : [past.words];
  else if (engineNotes && engineNotes.length > 0) option.notes = engineNotes;
  // The page's slider asks for the selected option's commands alone: they are a quarter of this function's time.
  if (ctx.commandsFor === undefined || ctx.commandsFor.has(layout.id)) {
    option.commands = commandsFor(option, commandContextOf(ctx, layout, placement, w));
    // The command form's facts, with the commands it shows: the page's thread computes none of them.
    const card = option.cards[worstIndex];
    const share = card ? shareOf(layout, card.physicalBytes, ctx.shape, w) : null;
    if (share) option.shareDefault = share;
    option.shortfall = shortfallOf(option);
  }
  option.speed = speedOf(layout, option, ctx, w, worst?.elementBytes ?? 2);
  // The workload is a requirement: every sequence asked for, at once. llama.cpp sized a slot for each
  // (fits already says so); a pool holds some number of sequences, which must reach the workload's.
  const sequences = Math.max(1, w.sequences);
  option.fitsWorkload =
    option.fits && (layout.engine === "llamacpp" || layout.placement.cpu || option.maxConcurrency + 1e-9 >= sequences);
  const cpuHosts = layout.host?.mode === "cpu" && r.host ? r.host : null;
  option.replicas = cpuHosts ? option.hosts : layout.replicas;
  option.replicasFreeNow = cpuHosts && layout.host ? hostsFreeFor(layout.host, cpuHosts) : layout.replicasFreeNow;
  const cards = cardsPerReplica(layout.placement);
  option.costPerMtok = costPerMillionTokens(
    pricePerCardHour(layout.placement.gpuClass, w.pricesPerCardHour),
    cards,
    option.speed.throughputTps,
  );
  return option;
}

/** An option's speed until speedOf sets it, a few lines below (never seen outside evaluate). */
const SPEED_PENDING: SpeedEstimate = Object.freeze(noSpeed(""));
/** What to buy until withPurchases says (it sets every option's). */
const NO_PURCHASES: PurchaseChange[] = Object.freeze([]) as unknown as PurchaseChange[];

/** What the commands are written from: the model's names, the artifact, the workload and the placement's nodes. */
function commandContextOf(ctx: EvalContext, layout: Layout, placement: Placement, w: Workload): CommandContext {
  const cc: CommandContext = {
    repo: ctx.repo,
    revision: ctx.revision,
    artifact: layout.artifact,
    shape: ctx.shape,
    workload: w,
  };
  if (ctx.modelPath !== undefined) cc.modelPath = ctx.modelPath;
  if (placement.nodeIds !== undefined) cc.nodeIds = placement.nodeIds;
  const links = ctx.links;
  if (links && placement.nodeIds?.some((id) => links.hostCores(id) !== null))
    cc.nodeCpuCores = placement.nodeIds.map((id) => links.hostCores(id));
  return cc;
}

/**
 * What the cluster lacks for a layout that would run with it, when nothing else keeps it from fitting
 * at this workload: the RAM past the node's (its physical bytes, the share the plan keeps included), or a fabric.
 */
function lackOf(layout: Layout, r: LayoutEval): ClusterLack | null {
  const l = layout.lacks;
  if (!l || !r.evals.every(fitsEval)) return null;
  if (l.kind === "fabric") return r.host && !fitsEval(r.host) ? null : l;
  if (!r.host || fitsEval(r.host) || r.host.load.usableBytes <= 0) return null;
  const perUsable = r.host.load.physicalBytes / r.host.load.usableBytes;
  const moreBytes = (needOf(r.host) - r.host.load.usableBytes) * perUsable;
  return { kind: "host-ram", nodeId: l.nodeId, moreGib: Math.ceil(moreBytes / GIB - 1e-9) };
}

/** Nodes whose free RAM holds the CPU replica now (the shares are sorted ascending: a binary search, as hostsFor). */
function hostsFreeFor(host: HostShare, e: CardEval): number {
  return countAtLeast(host.nodeFreeBytes, needOf(e));
}

/** How many of an ascending array are ≥ `need`. */
function countAtLeast(a: readonly number[], need: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] ?? 0) >= need) hi = mid;
    else lo = mid + 1;
  }
  return a.length - lo;
}

/** Each artifact's speed model at a KV element width, made once: it walks the layers for the KV bytes. */
const speedModels = new WeakMap<Artifact, Map<number, SpeedModel | null>>();

/**
 * Each layout's last speed and what it was figured from (speedQuestionOf). The speed reads the option's
 * placement (its layers or experts in RAM), the sequences its pool lets run and the workload's lengths,
 * not the context the slider moves: most steps of a drag ask most options the same question.
 */
const LAST_SPEED = Symbol("lastSpeed");

/** A layout with its last speed on a symbol property: not a WeakMap entry per layout and move, whose ephemerons cost the collector (plan.ts). */
type SpeedKept = Layout & { [LAST_SPEED]?: { question: number[]; speed: SpeedEstimate } };

/**
 * The command form's greyed default on the option's card: the engine's, and under SGLang's DP attention the
 * fraction its command says (tp_size the group, the graph reserve at dp_size: sglang/evalCard.ts).
 */
function shareOf(layout: Layout, cardBytes: number, shape: ModelShape, w: Workload): ShareDefault | null {
  const p = layout.placement;
  if (p.dpAttention !== true) return shareDefaultOf(layout.engine, cardBytes, p.tensorParallel, w.settings);
  const dp = Math.max(1, layout.dataParallel);
  const mla = shape.layerCaches.some((l) => l.kind === "mla");
  return { setting: "memFractionStatic", value: sglangDpAttentionFraction(cardBytes, dp * p.tensorParallel, dp, mla) };
}

function speedOf(
  layout: Layout,
  option: PlanOption,
  ctx: EvalContext,
  w: Workload,
  elementBytes: number,
): SpeedEstimate {
  const a = layout.artifact;
  let byElement = speedModels.get(a);
  if (!byElement) {
    byElement = new Map();
    speedModels.set(a, byElement);
  }
  let model = byElement.get(elementBytes);
  if (model === undefined) {
    model = speedModelOf(ctx.shape, a, elementBytes);
    byElement.set(elementBytes, model);
  }
  const p = option.placement;
  const sc: SpeedContext = {
    inputTokens: w.inputTokens ?? DEFAULT_INPUT_TOKENS,
    outputTokens: w.outputTokens ?? DEFAULT_OUTPUT_TOKENS,
    sequences: Math.max(1, w.sequences),
    kvElementBytes: elementBytes,
    fabricGBps: p.nodes > 1 ? (ctx.links?.fabricGBps(p.fabric) ?? null) : null,
    hostBandwidthGBps: hostBandwidthOf(option, ctx),
    hostCpuCores: hostCoresOf(option, ctx),
    contextTokens: w.contextTokens,
    cardFigures: ctx.links?.cardFigures,
  };
  const question = speedQuestionOf(option, sc, scratchQuestion);
  const last = (layout as SpeedKept)[LAST_SPEED];
  if (last && sameNumbers(last.question, question)) return last.speed;
  const speed = optionSpeed(option, ctx.shape, a, sc, model);
  (layout as SpeedKept)[LAST_SPEED] = { question: question.slice(), speed };
  return speed;
}

/** The question being asked, written in place (copied only when kept): most moves ask most layouts the last one. */
const scratchQuestion: number[] = [];

/** Two questions alike, number by number: a loop, since `every`'s closure was a twentieth of the slider's time. */
function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The host memory an option's RAM-resident layers are read at: the CPU option's host, a split's CPU devices'
 * (the slowest, since each reads its own layers in turn; unknown for one, unknown for all and a default is
 * assumed and flagged), else the head's.
 */
function hostBandwidthOf(option: PlanOption, ctx: EvalContext): number | null {
  const p = option.placement;
  if (p.cpu) return ctx.links?.cpuHostGBps() ?? null;
  // A loop, not a flatMap: the slider asks this of every option at every move.
  let slowest = Infinity;
  for (const c of option.cards) {
    if (c.cpuNode === undefined) continue;
    const gbps = ctx.links?.hostGBps(c.cpuNode) ?? null;
    if (gbps === null) return null;
    slowest = Math.min(slowest, gbps);
  }
  return slowest === Infinity ? (ctx.links?.hostGBps(p.nodeIds?.[0]) ?? null) : slowest;
}

/**
 * The CPU cores a prompt's RAM-resident layers multiply on: the CPU option's host's; a split's CPU hosts', each
 * weighted by the bytes it holds (they run one after another: Σ bytes ÷ Σ bytesᵢ/coresᵢ); unknown for one,
 * unknown for all (the default is assumed and flagged); null where no CPU computes layers.
 */
function hostCoresOf(option: PlanOption, ctx: EvalContext): number | null {
  if (option.placement.cpu) return ctx.links?.cpuHostCores() ?? null;
  let bytes = 0;
  let perCore = 0;
  for (const c of option.cards) {
    if (c.cpuNode === undefined) continue;
    const cores = ctx.links?.hostCores(c.cpuNode) ?? null;
    if (cores === null) return null;
    bytes += c.weightsBytes;
    perCore += c.weightsBytes / cores;
  }
  return perCore > 0 ? bytes / perCore : null;
}

/**
 * The longest context a card holds, at most `cap`. Past the sliding windows
 * the need grows by `stepBytes` every `stepTokens`, so the answer is solved
 * from the need at `cap` and checked; where the check fails (short contexts,
 * windows not yet full) it is searched.
 */
function longestContext(e: CardEval, cap: number): number {
  const fits = (c: number): boolean => e.kvAt(c) <= e.poolBytes;
  const atCap = e.kvAt(cap);
  if (atCap <= e.poolBytes) return cap;
  if (e.stepBytes > 0) {
    const stepsAtCap = Math.ceil(cap / e.stepTokens);
    const fixed = atCap - stepsAtCap * e.stepBytes;
    const steps = Math.floor((e.poolBytes - fixed) / e.stepBytes);
    const c = Math.min(cap, Math.floor(steps * e.stepTokens));
    if (c >= 1 && fits(c) && !fits(c + 1)) return c;
  }
  return largestFitting(fits, cap);
}

/** Nodes whose RAM share holds the CPU replica (binary search over the sorted shares). */
function hostsFor(host: HostShare, e: CardEval): number {
  return countAtLeast(host.nodeUsableBytes, needOf(e));
}

function cpuFreeNow(host: HostShare, e: CardEval): boolean {
  const need = needOf(e);
  const top = host.nodeFreeBytes[host.nodeFreeBytes.length - 1] ?? 0;
  return top >= need;
}

// ---------------------------------------------------------------------------
// The cluster, by card class and fabric
