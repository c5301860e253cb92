/**
 * The stacked bars' scale, as pure functions: where each part of a row
 * starts and ends (a share of the axis) and the axis's ticks. The bars are
 * drawn as plain SVG from these (CardBars.tsx): a card's bar is six
 * rectangles, and drawing it through recharts cost 110 KB gzipped of script
 * (recharts, d3, redux) before the first bar and a chart store per card.
 */
import type { CardBarRow } from "./rows.ts";

export type BarPartKey = "weightsGib" | "mtpGib" | "kvGib" | "engineGib" | "freeGib" | "overGib";

/** One part of one row's bar: `from` and `to` are shares of the axis (0..1). */
export interface BarSegment {
  key: BarPartKey;
  from: number;
  to: number;
}

/** The parts in the order they stack, left to right: what the card holds, then what is left or over. */
const BAR_PARTS: readonly BarPartKey[] = ["weightsGib", "mtpGib", "kvGib", "engineGib", "freeGib", "overGib"];

/**
 * A row's parts laid end to end on an axis of `domainGib`; a part of 0 GiB draws nothing. What is over the
 * usable share is part of the weights, KV and engine already: it is drawn over their end, from the usable
 * share to the bar's end, not stacked after it (that drew a bar of 104 GiB for 88 GiB on an 80 GB card).
 */
export function barSegments(row: CardBarRow, domainGib: number): BarSegment[] {
  const segments: BarSegment[] = [];
  if (!(domainGib > 0)) return segments;
  let at = 0;
  for (const key of BAR_PARTS) {
    const gib = row[key];
    if (!(gib > 0)) continue;
    const from = key === "overGib" ? Math.max(0, at - gib) : at;
    segments.push({ key, from: from / domainGib, to: (from + gib) / domainGib });
    if (key !== "overGib") at += gib;
  }
  return segments;
}

/**
 * Whole-GiB ticks from 0 to at most `domainGib`, about `count` of them, at a
 * step of 1, 2 or 5 times a power of ten (the rule of recharts' and d3's
 * "nice" ticks, which the bars used before), never below 1 GiB.
 */
export function axisTicksGib(domainGib: number, count = 5): number[] {
  if (!(domainGib > 0)) return [0];
  const raw = domainGib / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power);
  const ticks: number[] = [];
  for (let t = 0; t <= domainGib + 1e-9; t += step) ticks.push(t);
  return ticks;
}
