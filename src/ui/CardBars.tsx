/**
 * The stacked bar per card (recharts): weights, the MTP block's weights when
 * speculative decoding with MTP loads them, KV cache, engine and the free
 * rest of the usable share, with the card's physical memory marked.
 * Loaded on its own (React.lazy) so the page's first script stays small.
 */
import { memo } from "react";
import { Bar, BarChart, ReferenceLine, XAxis, YAxis } from "recharts";
import { barDomainGib, type CardBarRow } from "./rows.ts";

/** Row height and axis band in px: tall enough for a 14 px label at 375 px wide. */
const ROW_PX = 26;
const AXIS_PX = 22;

const PARTS = [
  { key: "weightsGib", name: "weights", className: "part-weights" },
  { key: "mtpGib", name: "MTP weights", className: "part-mtp" },
  { key: "kvGib", name: "context (KV)", className: "part-kv" },
  { key: "engineGib", name: "engine", className: "part-engine" },
  { key: "freeGib", name: "free", className: "part-free" },
  { key: "overGib", name: "over", className: "part-over" },
] as const;

function tickGib(value: number): string {
  return `${Math.round(value)}`;
}

function CardBars({ rows }: { rows: CardBarRow[] }) {
  const domainEnd = barDomainGib(rows);
  // The MTP band exists only when speculative decoding with MTP loads those weights.
  const parts = rows.some((r) => r.mtpGib > 0) ? PARTS : PARTS.filter((p) => p.key !== "mtpGib");
  const physical = rows.map((r) => r.physicalGib);
  const uniquePhysical = [...new Set(physical.map((p) => Math.round(p * 10) / 10))];
  return (
    <BarChart
      className="card-bars"
      layout="vertical"
      data={rows}
      responsive
      style={{ width: "100%", height: rows.length * ROW_PX + AXIS_PX }}
      margin={{ top: 2, right: 8, bottom: 0, left: 0 }}
      barCategoryGap={3}
      barSize={16}
      accessibilityLayer={false}
    >
      <XAxis
        type="number"
        domain={[0, domainEnd]}
        tickFormatter={tickGib}
        unit=" GiB"
        allowDecimals={false}
        tickCount={5}
        className="axis"
      />
      <YAxis type="category" dataKey="label" width={0} hide />
      {parts.map((p) => (
        <Bar
          key={p.key}
          dataKey={p.key}
          name={p.name}
          stackId="card"
          className={p.className}
          isAnimationActive={false}
        />
      ))}
      {uniquePhysical.map((p) => (
        <ReferenceLine key={p} x={p} className="physical-mark" strokeDasharray="3 2" ifOverflow="extendDomain" />
      ))}
    </BarChart>
  );
}

/** Redrawn only when its rows change: the urgent render during a slider drag passes the same rows. */
export default memo(CardBars);
