/**
 * The order options are shown in, best first, as the seed ranks them
 * (docs/seed/options.go.txt `Rank`).
 */
import type { PlanOption } from "./types.ts";

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
  return o.placement.cpu ? 0 : o.placement.gpusPerNode * Math.max(1, o.placement.nodes);
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
  fits: number;
  cpu: number;
  cards: number;
  nodes: number;
  quality: number;
  free: number;
  room: number;
}

function rankKeys(o: PlanOption): RankKeys {
  return {
    fits: o.fits ? 0 : 1,
    cpu: o.placement.cpu ? 1 : 0,
    cards: cardsOf(o),
    nodes: o.placement.nodes,
    quality: -quality(o.bitsPerWeight, o.placement.cpu),
    free: o.freeNow ? 0 : 1,
    room: -(o.haveBytes - o.needBytes),
  };
}

function compareKeys(a: RankKeys, b: RankKeys): number {
  return a.fits - b.fits || a.cpu - b.cpu || a.cards - b.cards || a.nodes - b.nodes || a.quality - b.quality || a.free - b.free || a.room - b.room;
}

/** The options, best first (a new array; stable for equal options). */
export function rank(options: readonly PlanOption[]): PlanOption[] {
  // Decorate once, sort on the keys: a thousand options sort in a fraction of a millisecond.
  const keyed = options.map((o, i) => ({ o, i, keys: rankKeys(o) }));
  keyed.sort((a, b) => compareKeys(a.keys, b.keys) || a.i - b.i);
  return keyed.map((k) => k.o);
}
