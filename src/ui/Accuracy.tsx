import { lazy, Suspense, use, useState, useTransition } from "react";
import type { Answer } from "../app/calibrationWire.ts";
import type { AccuracyMetric, AccuracyRow } from "../calibration/cases.ts";
import type { AccuracyTables, FigureSummary } from "../calibration/accuracyView.ts";
import type { SpeedTables } from "../calibration/speedAccuracy.ts";
import { withinTolerance } from "../calibration/tolerance.ts";
import { TableScroll } from "./TableScroll.tsx";
import { useStaged } from "./useStaged.ts";
import { VirtualTable } from "./VirtualList.tsx";

/** The speed tab's drawing is a chunk of its own, fetched when the tab is opened. */
const loadSpeedAccuracy = () => import("./SpeedAccuracy.tsx");
const SpeedAccuracy = lazy(() => loadSpeedAccuracy().then((m) => ({ default: m.SpeedAccuracyFromWorker })));

/** Where the view's tables are made: the calibration worker (src/app/calibrationClient.ts). */
export interface AccuracySource {
  /** The same promise at every call, as React's `use` needs. */
  accuracy(): Promise<Answer<AccuracyTables>>;
  speed(): Promise<Answer<SpeedTables>>;
}

/** The view once its tables are made: suspends until then (the disclosure says they are loading meanwhile). */
export function AccuracyFromWorker({ from }: { from: AccuracySource }) {
  const answer = use(from.accuracy());
  if (!answer.ok) return <p role="alert">The calibration cases could not be made: {answer.message}</p>;
  return <Accuracy tables={answer.value} speed={from.speed} />;
}

interface AccuracyProps {
  tables: AccuracyTables;
  /** The speed tab's tables, asked when the tab is opened. */
  speed: AccuracySource["speed"];
}

/**
 * Issue 7's "Accuracy" view: what Modelplan predicts against what engines
 * printed at startup, for every bundled calibration case, with each error
 * and the means, so a user can judge the numbers before trusting a plan.
 * It only draws: every row is made in the calibration worker.
 */
export function Accuracy({ tables, speed }: AccuracyProps) {
  const { cases, overview, releases } = tables;
  const [speedOpen, setSpeedOpen] = useState(false);
  const [loadingSpeed, startTransition] = useTransition();
  // The means, the case table, the speed tab, then each release's cases: a part a frame (useStaged says why).
  const staged = useStaged(3 + releases.length);
  // As the view's own summary (App.tsx's prepareAccuracy): the tables are asked and the chunk fetched on the way to the click.
  const prepareSpeed = () => {
    void speed();
    void loadSpeedAccuracy();
  };
  return (
    <section className="accuracy" aria-labelledby="accuracy-title">
      <h2 id="accuracy-title">Accuracy</h2>
      <p>
        Predicted against measured for {overview.cases} startups that engines logged on known cards (vLLM, llama.cpp,
        SGLang, TensorRT-LLM), each linked to its source. Each vLLM case is planned for the release it ran, as the
        &quot;vLLM release&quot; engine setting would plan it (0.10, 0.11.1–0.16, 0.17–0.20, 0.21–0.25, 0.26, 0.27, 0.28
        or 0.29+); its note names the release.
      </p>
      <Verdicts falseFits={overview.falseFits} falseRefusals={overview.falseRefusals} />
      <TableScroll label="Mean and worst error of each figure">
        <SummaryTable figures={overview.figures} />
      </TableScroll>
      {staged > 1 ? <CaseTable label="Every calibration case" rows={cases} /> : null}
      {staged > 2 ? (
        <details
          className="speed-accuracy"
          onToggle={(e) => {
            const opened = e.currentTarget.open;
            // Asked as the tab opens, while its drawing's chunk is fetched; opened in a transition (App.tsx's
            // AccuracyDisclosure says why).
            if (opened) prepareSpeed();
            startTransition(() => setSpeedOpen(opened));
          }}
        >
          <summary onPointerEnter={prepareSpeed} onFocus={prepareSpeed}>
            Speed: predicted against public benchmarks
          </summary>
          {loadingSpeed ? <p className="muted">Loading the benchmark figures…</p> : null}
          <Suspense fallback={<p className="muted">Loading the benchmark figures…</p>}>
            {speedOpen ? <SpeedAccuracy load={speed} /> : null}
          </Suspense>
        </details>
      ) : null}
      {staged > 2 ? <h3>The releases people run today (2026 startups)</h3> : null}
      {releases.slice(0, Math.max(0, staged - 3)).map((g) => (
        <section key={g.release} aria-label={g.release}>
          <h4>{g.release}</h4>
          <Verdicts falseFits={g.overview.falseFits} falseRefusals={g.overview.falseRefusals} />
          {g.overview.figures.length > 0 ? <SummaryTable figures={g.overview.figures} /> : null}
          <CaseTable label={`The ${g.release} cases`} rows={g.rows} />
        </section>
      ))}
    </section>
  );
}

function Verdicts({ falseFits, falseRefusals }: { falseFits: string[]; falseRefusals: string[] }) {
  return (
    <ul className="verdicts">
      <li>
        {falseFits.length === 0
          ? "No case that failed to start is predicted to fit."
          : `${falseFits.length} ${falseFits.length === 1 ? "case" : "cases"} failed to start yet ${falseFits.length === 1 ? "is" : "are"} predicted to fit: ${falseFits.join(", ")}.`}
      </li>
      <li>
        {falseRefusals.length === 0
          ? "No case that ran is predicted not to fit."
          : `${falseRefusals.length} ${falseRefusals.length === 1 ? "case" : "cases"} ran yet ${falseRefusals.length === 1 ? "is" : "are"} predicted not to fit: ${falseRefusals.join(", ")}.`}
      </li>
    </ul>
  );
}

const pct = (x: number): string => `${x.toFixed(2)}%`;

function SummaryTable({ figures }: { figures: FigureSummary[] }) {
  return (
    <table className="accuracy-summary">
      <caption>Mean and worst absolute error of each figure over the cases that print it</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">Cases</th>
          <th scope="col">Mean |error|</th>
          <th scope="col">Worst |error|</th>
          <th scope="col">Tolerance</th>
          <th scope="col">Outside it</th>
        </tr>
      </thead>
      <tbody>
        {figures.map((f) => (
          <tr key={f.name}>
            <th scope="row">
              {f.name} <span className="unit">({f.unit})</span>
            </th>
            <td className="num">{f.cases}</td>
            <td className="num">{pct(f.meanAbsPct)}</td>
            <td className="num">{pct(f.maxAbsPct)}</td>
            <td className="num">≤ {pct(f.tolerancePct)}</td>
            <td className={f.outside > 0 ? "num bad" : "num"}>{f.outside}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function figure(value: number, unit: AccuracyMetric["unit"]): string {
  if (unit === "tokens" || unit === "B/token") return Math.round(value).toLocaleString("en-US");
  return value.toFixed(2);
}

function verdict(r: AccuracyRow): string {
  const outcome = r.ran ? "ran" : "failed";
  if (r.predictedFits === null) return `${outcome}; fit not modelled`;
  const predicted = r.predictedFits ? "predicted to fit" : "predicted not to fit";
  return `${outcome}; ${predicted}`;
}

/** A case row before it is measured: most print five or six figures, a line or two each (~150-220 px at 1280 px wide). */
const CASE_ROW_PX = 160;

/** The cases as a table whose rows are drawn as they scroll into its box (VirtualTable says why). */
function CaseTable({ label, rows }: { label: string; rows: AccuracyRow[] }) {
  return (
    <VirtualTable
      label={label}
      className="accuracy-cases"
      columns={4}
      count={rows.length}
      keyOf={(i) => rows[i]?.id ?? ""}
      estimatePx={CASE_ROW_PX}
      head={
        <>
          <caption>Every case: predicted, measured and the error of each figure</caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">Case</th>
              <th scope="col">Where</th>
              <th scope="col">Outcome</th>
              <th scope="col">Figures (predicted / measured, error)</th>
            </tr>
          </thead>
        </>
      }
      cells={(i) => {
        const r = rows[i];
        return r ? <CaseCells row={r} /> : null;
      }}
    />
  );
}

/** One case's cells: its model linked to the log or thread it came from, then each figure against its tolerance. */
export function CaseCells({ row: r }: { row: AccuracyRow }) {
  return (
    <>
      <th scope="row">
        <a href={r.sourceUrl} target="_blank" rel="noreferrer">
          {r.model}
        </a>
        <div className="hint">
          {r.engine} {r.engineVersion}
        </div>
      </th>
      <td>
        {r.gpu}, TP {r.tensorParallel}
        {r.pipelineParallel > 1 ? ` × PP ${r.pipelineParallel}` : ""}
        {r.contextTokens > 0 ? `, ${r.contextTokens.toLocaleString("en-US")} tokens` : ""}
      </td>
      <td className={!r.ran && r.predictedFits === true ? "bad" : undefined}>{verdict(r)}</td>
      <td>
        {r.metrics.length === 0 ? (
          <span className="hint">{r.note || "nothing compared"}</span>
        ) : (
          <ul className="metrics">
            {r.metrics.map((m) => (
              <li key={m.name} className={withinTolerance(m) ? undefined : "bad"}>
                {m.name}: {figure(m.predicted, m.unit)} / {figure(m.measured, m.unit)} {m.unit},{" "}
                {m.errorPct >= 0 ? "+" : ""}
                {m.errorPct.toFixed(2)}% (≤ {m.tolerancePct.toFixed(1)}%)
              </li>
            ))}
          </ul>
        )}
        {r.metrics.length > 0 && r.note ? <div className="hint">{r.note}</div> : null}
      </td>
    </>
  );
}
