/**
 * The order options are shown in, best first, as the seed ranks them
 * (docs/seed/options.go.txt `Rank`).
 */
import { cardsPerReplica, onCpusOnly, splitUnsaid } from "./placement.ts";
import type { PlanOption, RankBy } from "./types.ts";

/**
 * Precision past which a bigger file is not a better model worth its
 * memory: eight bits keep what sixteen do, near enough (seed `qualityCap`
 * 8.6, which lets Q8_0's 8.5 bits count whole). On a CPU the cap is lower:
 * every bit is read from memory for every token, so a file twice the size
 * answers at half the speed, and a Q4_K_M or Q5 is the usual balance (seed
 * `cpuQualityCap` 5.8).
 */
export const QUALITY_CAP_BITS = 8.6;
export const CPU_QUALITY_CAP_BITS = 5.8;

/** An option's precision score: rising to the cap, falling gently past it. */
export function quality(bitsPerWeight: number, cpu: boolean): number {
  if (bitsPerWeight <= 0) return 0;
  const cap = cpu ? CPU_QUALITY_CAP_BITS : QUALITY_CAP_BITS;
  if (bitsPerWeight <= cap) return bitsPerWeight;
  return cap - (bitsPerWeight - cap) * 0.25;
}

function cardsOf(o: PlanOption): number {
  return cardsPerReplica(o.placement);
}

/**
 * Compares two options, best first. An option that does not fit at the
 * chosen context comes after every one that does: it is a shopping list, not
 * a choice. Then by what the hardware is, not by what it is doing: on a GPU
 * before the CPU; the fewest cards, then nodes; the better precision, up to
 * eight bits. Whether the cards are free now only breaks a tie, then the most
 * room left.
 *
 * Busy is not unfit. Ranking what was free first made every file of every
 * repository come out on the CPU on a cluster whose one card was in use,
 * which turned down the very file the card was there for. A model served onto
 * busy cards waits for one.
 */
export function compareOptions(a: PlanOption, b: PlanOption): number {
  return compareKeys(rankKeys(a), rankKeys(b));
}

/** An option's place in the order, key by key (lower first): the one definition both compareOptions and rank sort by. */
interface RankKeys {
  /** 0 when it meets the workload, 1 when it only starts, 2 when it does not fit. */
  fits: number;
  /** The chosen order's own key (see firstKey). */
  first: number;
  /** 1 for a below-3-bit artifact ranked after the 4-bit-or-better ones that fit (fewest-cards only). */
  lowBits: number;
  cpu: number;
  cards: number;
  nodes: number;
  quality: number;
  /** 1 for a vLLM/SGLang split its width does not say (TP × PP in a node, a narrower pipeline, DP ranks): after plain TP on as many cards. */
  split: number;
  free: number;
  room: number;
}

/** An option with its keys beside it, as the sort holds it: one object an option, not two (the slider sorts ~400 a move). */
interface Keyed extends RankKeys {
  o: PlanOption;
  /** Its place in the first order: equal options keep it. */
  i: number;
}

function rankKeys(o: PlanOption, by: RankBy = "fewest-cards", demoteLowBits = false): RankKeys {
  return keyed(o, 0, by, demoteLowBits);
}

function keyed(o: PlanOption, i: number, by: RankBy, demoteLowBits: boolean): Keyed {
  const cpu = onCpusOnly(o.placement);
  return {
    o,
    i,
    fits: o.fitsWorkload === true ? 0 : o.fits ? 1 : 2,
    first: firstKey(o, by),
    lowBits: demoteLowBits && o.bitsPerWeight > 0 && o.bitsPerWeight < LOW_BITS ? 1 : 0,
    // CPU hosts over RPC rank as the CPU does (after cards, every bit read from RAM), one host before several.
    cpu: cpu ? 1 : 0,
    cards: cardsOf(o),
    nodes: o.placement.nodes,
    quality: -quality(o.bitsPerWeight, cpu),
    // On as many cards plain TP answers one user sooner than stages or ranks; the older layouts keep their order.
    split: (o.engine === "vllm" || o.engine === "sglang") && splitUnsaid(o.placement) ? 1 : 0,
    free: o.freeNow ? 0 : 1,
    room: -(o.haveBytes - o.needBytes),
  };
}

function compareKeys(a: RankKeys, b: RankKeys): number {
  return (
    a.fits - b.fits ||
    a.first - b.first ||
    a.lowBits - b.lowBits ||
    a.cpu - b.cpu ||
    a.cards - b.cards ||
    a.nodes - b.nodes ||
    a.quality - b.quality ||
    a.split - b.split ||
    a.free - b.free ||
    a.room - b.room
  );
}

/**
 * Below this many bits a weight a quantization loses visibly more than Q4
 * does (the 1.58–2.7-bit dynamic quants of DeepSeek-R1: unsloth's own notes
 * call IQ1_S a last resort): fewest-cards ranks it after every artifact of
 * four bits or more that fits, so it is never recommended over a Q4 or Q8 the
 * cluster also holds.
 */
export const LOW_BITS = 3;
const GOOD_BITS = 4;

/** What the chosen order puts first, after fitting: lower first; 0 for fewest-cards, whose keys follow. */
function firstKey(o: PlanOption, by: RankBy): number {
  const big = Number.MAX_VALUE;
  const cards = Math.max(1, cardsOf(o));
  switch (by) {
    case "fewest-cards":
      return 0;
    case "throughput":
      return o.speed?.throughputTps != null ? -o.speed.throughputTps / cards : big;
    case "latency":
      // Time per output token first; the time to first token breaks ties at a millisecond's grain.
      return o.speed?.tpotMs != null ? o.speed.tpotMs * 1e6 + Math.min(1e6 - 1, o.speed.ttftMs ?? 1e6 - 1) : big;
    case "context":
      return -o.maxContextTokens;
    case "quality":
      return -Math.min(16, o.bitsPerWeight);
    case "cost":
      return o.costPerMtok != null ? o.costPerMtok : big;
  }
}

const LOW_BITS_WHY = `below ${LOW_BITS} bits a weight`;
/** Each low-bit artifact's note, written once: the slider re-ranks every option at every move. */
const lowBitsNotes = new Map<number, string>();

function lowBitsWhy(bitsPerWeight: number): string {
  let why = lowBitsNotes.get(bitsPerWeight);
  if (why === undefined) {
    why = `${LOW_BITS_WHY} (${bitsPerWeight.toFixed(2)}): ranked after the ${GOOD_BITS}-bit-or-better artifacts that fit this cluster`;
    if (lowBitsNotes.size >= 256) lowBitsNotes.clear();
    lowBitsNotes.set(bitsPerWeight, why);
  }
  return why;
}

/** The options, best first by the chosen order (a new array; stable for equal options). */
export function rank(options: readonly PlanOption[], by: RankBy = "fewest-cards"): PlanOption[] {
  return rankInOrder(options, by, null).options;
}

/**
 * The options best first, equal ones by `ties` (each option's place in the plan's first order; null: their
 * place here), and the ties in the new order. The slider passes the options in the order it last ranked
 * them: a move changes few places, and the sort (TimSort in V8) runs on nearly sorted input.
 */
export function rankInOrder(
  options: readonly PlanOption[],
  by: RankBy,
  ties: readonly number[] | null,
): { options: PlanOption[]; ties: number[] } {
  const demote = by === "fewest-cards" && options.some((o) => o.fits && o.bitsPerWeight >= GOOD_BITS);
  if (demote) {
    for (const o of options) {
      if (o.bitsPerWeight > 0 && o.bitsPerWeight < LOW_BITS) {
        const why = lowBitsWhy(o.bitsPerWeight);
        o.notes = o.notes ? [...o.notes.filter((n) => !n.startsWith(LOW_BITS_WHY)), why] : [why];
      }
    }
  }
  // Decorate once, sort on the keys: a thousand options sort in a fraction of a millisecond.
  const sorted = options.map((o, i) => keyed(o, ties?.[i] ?? i, by, demote));
  sorted.sort((a, b) => compareKeys(a, b) || a.i - b.i);
  return { options: sorted.map((k) => k.o), ties: sorted.map((k) => k.i) };
}
