import { use } from "react";
import type { Answer } from "../app/calibrationWire.ts";
import type { SpeedAccuracyRow as SpeedRow, SpeedTables } from "../calibration/speedAccuracy.ts";
import { engineName } from "./format.ts";
import { TableScroll } from "./TableScroll.tsx";
import { VirtualTable } from "./VirtualList.tsx";

/** The tab once the calibration worker has made its rows: suspends until then. */
export function SpeedAccuracyFromWorker({ load }: { load: () => Promise<Answer<SpeedTables>> }) {
  const answer = use(load());
  if (!answer.ok) return <p role="alert">The benchmark figures could not be made: {answer.message}</p>;
  return <SpeedAccuracy tables={answer.value} />;
}

/**
 * The Accuracy view's speed tab: every public benchmark figure (llama-bench, InferenceMAX/InferenceX
 * serving runs) predicted beside measured, with its source, and the medians of the half the speed
 * terms were fitted on apart from the half that only checks them. It only draws: the rows are the worker's.
 */
export function SpeedAccuracy({ tables: { rows, groups, leftOut, leftOutRows } }: { tables: SpeedTables }) {
  return (
    <section aria-label="Speed against public benchmarks">
      <p>
        {rows.length.toLocaleString("en-US")} figures from public benchmarks, each linked to its source. The speed terms
        were fitted on one half and are checked on the other (src/plan/speed/README.md says which and why).
      </p>
      {leftOutRows > 0 ? (
        // Said, so "every benchmark figure" is not read into a table that leaves some rows of the set out.
        <p className="speed-left-out">
          {leftOutRows.toLocaleString("en-US")} rows of the set are not predicted:{" "}
          {leftOut.map((l) => `${l.rows.toLocaleString("en-US")} × ${l.reason}`).join("; ")}.
        </p>
      ) : null}
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
              <tr key={`${g.engine} ${g.figure}`}>
                <th scope="row">
                  {engineName(g.engine)} {g.figure}
                </th>
                <td className="num">{cell(g.fitted)}</td>
                <td className="num">{cell(g.checking)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <VirtualTable
        label="Every speed figure"
        className="data speed-figures"
        columns={5}
        count={rows.length}
        keyOf={(i) => key(rows[i])}
        estimatePx={ROW_PX}
        head={
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">case</th>
              <th scope="col">half</th>
              <th scope="col">predicted</th>
              <th scope="col">measured</th>
              <th scope="col">error</th>
            </tr>
          </thead>
        }
        cells={(i) => {
          const r = rows[i];
          return r ? <SpeedCells row={r} /> : null;
        }}
      />
    </section>
  );
}

/** One line of the table (styles.css: .speed-figures): its height before it is measured. */
const ROW_PX = 29;

const key = (r: SpeedRow | undefined): string => (r ? `${r.id}-${r.group}` : "");

/** One benchmark figure's cells, linked to its source. */
export function SpeedCells({ row: r }: { row: SpeedRow }) {
  return (
    <>
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
      <td className="num">{r.errorPct === null ? "—" : `${r.errorPct >= 0 ? "+" : ""}${r.errorPct.toFixed(1)}%`}</td>
    </>
  );
}

function cell(m: { n: number; medianPct: number | null }): string {
  return m.medianPct === null ? "—" : `${m.n}: ${m.medianPct.toFixed(1)}%`;
}
