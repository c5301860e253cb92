import { useMemo } from "react";
import { medianAbsErrorPct, speedAccuracyRows, type SpeedAccuracyRow } from "../calibration/speedAccuracy.ts";
import { TableScroll } from "./TableScroll.tsx";

/**
 * The Accuracy view's speed tab: every public benchmark figure (llama-bench, InferenceMAX/InferenceX
 * serving runs) predicted beside measured, with its source, and the medians of the half the speed
 * terms were fitted on apart from the half that only checks them.
 */
export function SpeedAccuracy({ rows: given }: { rows?: SpeedAccuracyRow[] }) {
  const rows = useMemo(() => given ?? speedAccuracyRows(), [given]);
  const groups = useMemo(() => summarize(rows), [rows]);
  return (
    <section aria-label="Speed against public benchmarks">
      <p>
        {rows.length.toLocaleString("en-US")} figures from public benchmarks, each linked to its source. The speed terms
        were fitted on one half and are checked on the other (src/plan/speed/README.md says which and why).
      </p>
      <TableScroll label="Median error of each speed figure, fitted and checking halves">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">figure</th>
              <th scope="col">fitted: n, median |error|</th>
              <th scope="col">checking: n, median |error|</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.group}>
                <th scope="row">{g.group}</th>
                <td className="num">{cell(g.fitted)}</td>
                <td className="num">{cell(g.checking)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <TableScroll label="Every speed figure">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">case</th>
              <th scope="col">half</th>
              <th scope="col">predicted</th>
              <th scope="col">measured</th>
              <th scope="col">error</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.id}-${r.group}`}>
                <th scope="row">
                  <a href={r.source} rel="noreferrer noopener" target="_blank">
                    {r.id}
                  </a>{" "}
                  <span className="muted">
                    ({r.group}, {r.card})
                  </span>
                </th>
                <td>{r.half}</td>
                <td className="num">{r.predicted === null ? "—" : `${r.predicted.toFixed(1)} ${r.unit}`}</td>
                <td className="num">{`${r.measured.toFixed(1)} ${r.unit}`}</td>
                <td className="num">
                  {r.errorPct === null ? "—" : `${r.errorPct >= 0 ? "+" : ""}${r.errorPct.toFixed(1)}%`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

function cell(m: { n: number; medianPct: number | null }): string {
  return m.medianPct === null ? "—" : `${m.n}: ${m.medianPct.toFixed(1)}%`;
}

function summarize(rows: readonly SpeedAccuracyRow[]) {
  const names = [...new Set(rows.filter((r) => r.tier === "primary").map((r) => `${r.engine} ${r.group}`))];
  return names.map((group) => {
    const of = rows.filter((r) => r.tier === "primary" && `${r.engine} ${r.group}` === group);
    return {
      group,
      fitted: medianAbsErrorPct(of.filter((r) => r.half === "fitted")),
      checking: medianAbsErrorPct(of.filter((r) => r.half === "checking")),
    };
  });
}
