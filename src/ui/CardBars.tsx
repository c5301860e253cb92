/**
 * The stacked bar per card: weights, the MTP block's weights when
 * speculative decoding with MTP loads them, KV cache, engine and the free
 * rest of the usable share (or how far over it), with the card's physical
 * memory marked. Plain SVG laid out in shares of the width (barScale.ts), so
 * it needs no measuring and no chart library: it draws in the same commit as
 * its card. recharts draws the trade-off view's chart (ParetoChart.tsx).
 *
 * Why not recharts, as issue 19's letter has it (measured 2026-12-01, 2 cores at load 2.3-6.4 per core): a
 * recharts BarChart per card, its chunk (107 KB gz -9) fetched as main.tsx starts, passed the initial-JS,
 * slider and drag targets within the noise of this SVG, but its first two charts made the frame that draws
 * the options a 100-300 ms task (this one's: under 80 ms); options and bars came at a median 830 ms against
 * 574 (20 cold loads each), and in 5 of 20 the bars trailed the options by 120-160 ms (this SVG: 0 in 20).
 */
import { memo } from "react";
import { axisTicksGib, barSegments, type BarPartKey } from "./barScale.ts";
import { barDomainGib, type CardBarRow } from "./rows.ts";

/** Row height and axis band in px: tall enough for a 14 px label at 375 px wide (OptionCard's placeholder uses them). */
export const ROW_PX = 26;
export const AXIS_PX = 22;
const BAR_PX = 16;

const PART_CLASS: Record<BarPartKey, string> = {
  weightsGib: "part-weights",
  mtpGib: "part-mtp",
  kvGib: "part-kv",
  engineGib: "part-engine",
  freeGib: "part-free",
  overGib: "part-over",
};

function pct(share: number): string {
  return `${(share * 100).toFixed(3)}%`;
}

function CardBarsView({ rows }: { rows: CardBarRow[] }) {
  const domainGib = barDomainGib(rows);
  const axisY = rows.length * ROW_PX;
  const marks = [...new Set(rows.map((r) => Math.round(r.physicalGib * 10) / 10))];
  const ticks = axisTicksGib(domainGib);
  const share = (gib: number) => (domainGib > 0 ? gib / domainGib : 0);
  return (
    <svg className="card-bars" width="100%" height={axisY + AXIS_PX} aria-hidden="true" focusable="false">
      {rows.map((row, i) =>
        barSegments(row, domainGib).map((s) => (
          <rect
            key={`${i}:${s.key}`}
            className={PART_CLASS[s.key]}
            x={pct(s.from)}
            y={i * ROW_PX + (ROW_PX - BAR_PX) / 2}
            width={pct(s.to - s.from)}
            height={BAR_PX}
          />
        )),
      )}
      {marks.map((gib) => (
        <line
          key={gib}
          className="physical-mark"
          x1={pct(share(gib))}
          x2={pct(share(gib))}
          y1={0}
          y2={axisY}
          strokeDasharray="3 2"
        />
      ))}
      <g className="axis">
        <line x1="0" x2="100%" y1={axisY} y2={axisY} />
        {ticks.map((gib) => {
          const at = share(gib);
          // The first and last labels stay inside the card: anchored at their start and end.
          const anchor = at < 0.05 ? "start" : at > 0.92 ? "end" : "middle";
          return (
            <g key={gib}>
              <line x1={pct(at)} x2={pct(at)} y1={axisY} y2={axisY + 4} />
              <text x={pct(at)} y={axisY + 16} textAnchor={anchor}>
                {`${gib} GiB`}
              </text>
            </g>
          );
        })}
      </g>
    </svg>
  );
}

/** Redrawn only when its rows change: the urgent render during a slider drag passes the same rows. */
export const CardBars = memo(CardBarsView);
