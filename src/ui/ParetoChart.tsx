/**
 * Throughput against cards for one artifact, the Pareto front marked (filled and joined). Loaded on its
 * own (React.lazy), with recharts (~100 KB gzipped), and drawn only when the user opens the trade-off view.
 */
import { memo } from "react";
import { CartesianGrid, Scatter, ScatterChart, XAxis, YAxis } from "recharts";
import type { ParetoPoint } from "./pareto.ts";

function ParetoChart({ points }: { points: ParetoPoint[] }) {
  const front = points.filter((p) => p.front).sort((a, b) => a.cards - b.cards);
  const rest = points.filter((p) => !p.front);
  return (
    <ScatterChart
      className="pareto-chart"
      responsive
      style={{ width: "100%", height: 220 }}
      margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
      accessibilityLayer={false}
    >
      <CartesianGrid strokeDasharray="3 3" className="grid" />
      <XAxis type="number" dataKey="cards" name="cards" unit=" cards" allowDecimals={false} className="axis" />
      <YAxis type="number" dataKey="throughputTps" name="throughput" unit=" tok/s" width={80} className="axis" />
      <Scatter data={rest} className="pareto-rest" isAnimationActive={false} />
      {/* The front joined by the Scatter's own line, in the order of its points (by cards): no Line component, 5 KB less. */}
      <Scatter data={front} className="pareto-front" line isAnimationActive={false} />
    </ScatterChart>
  );
}

export default memo(ParetoChart);
