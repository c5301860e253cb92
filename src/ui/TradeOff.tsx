/**
 * "Throughput against cards", one chart per artifact, under a disclosure: the charts (and recharts)
 * load and draw only when it is opened, and the front is also said in words for a screen reader.
 */
import { lazy, Suspense, useState } from "react";
import type { Artifact, PlanOption } from "../plan/index.ts";
import { formatCount, formatTps } from "./format.ts";
import { paretoPoints } from "./pareto.ts";

const loadParetoChart = () => import("./ParetoChart.tsx");
const ParetoChart = lazy(loadParetoChart);

export function TradeOff({ options, artifacts }: { options: readonly PlanOption[]; artifacts: readonly Artifact[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="trade-off" onToggle={(e) => setOpen(e.currentTarget.open)}>
      {/* recharts (~103 KB gzipped) is fetched as the hand or the focus comes to the disclosure, a moment before it opens. */}
      <summary onPointerEnter={() => void loadParetoChart()} onFocus={() => void loadParetoChart()}>
        Throughput against cards, per artifact (the Pareto front marked)
      </summary>
      {open
        ? artifacts.map((a) => {
            const points = paretoPoints(options, a.name);
            if (points.length === 0) return null;
            const front = points.filter((p) => p.front).sort((x, y) => x.cards - y.cards);
            return (
              <figure key={a.name} className="trade-off-chart">
                <figcaption>{a.name}</figcaption>
                <div
                  role="img"
                  aria-label={`${a.name}: ${formatCount(points.length)} layouts; the front: ${front.map((p) => `${p.label}, ${formatTps(p.throughputTps)}`).join("; ")}`}
                >
                  <Suspense fallback={<div className="bars-placeholder" style={{ height: 220 }} />}>
                    <ParetoChart points={points} />
                  </Suspense>
                </div>
              </figure>
            );
          })
        : null}
    </details>
  );
}
