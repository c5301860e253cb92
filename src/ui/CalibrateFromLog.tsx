import { useDeferredValue, useId, useMemo, useState } from "react";
import {
  calibrationNotes,
  planOverheadGib,
  plannedEngineOf,
  predictedVsMeasured,
  type CalibrationRow,
} from "../calibration/calibrate.ts";
import { parseStartupLog, type StartupLogReading } from "../calibration/logparse.ts";
import type { Engine, PlanOption, Workload } from "../plan/index.ts";
import { formatTokens } from "./format.ts";
import { TableScroll } from "./TableScroll.tsx";
import { TextFileInput } from "./TextFileInput.tsx";

interface CalibrateFromLogProps {
  /** The selected option: what the log is compared with. Null when none is selected. */
  option: PlanOption | null;
  workload: Workload;
  /** Use this measured overhead (GiB per card) for this engine in the plan; the page keeps it in the settings and the link. */
  onUse(engine: Engine, overheadGib: number): void;
}

/** A pasted log larger than this is cut: startup figures are in the first lines, and a day of request logs is not. */
const MAX_LOG_CHARS = 2_000_000;
/** A file larger than this is not one startup (a day of request logs): refused before it is read. */
const MAX_LOG_FILE_BYTES = 50_000_000;

/**
 * Issue 7's "Calibrate from a log": paste (or open) the lines a vLLM,
 * llama.cpp or SGLang server printed while it started, see what it measured
 * beside what the plan predicts for the selected option, and use its
 * measured overhead in the plan.
 */
export function CalibrateFromLog({ option, workload, onUse }: CalibrateFromLogProps) {
  const id = useId();
  const [text, setText] = useState("");
  // Parsed at low priority (a deferred value): typing stays responsive while a large paste is read.
  const deferred = useDeferredValue(text);
  const reading = useMemo(
    () => (deferred.trim() === "" ? null : parseStartupLog(deferred.slice(0, MAX_LOG_CHARS))),
    [deferred],
  );

  return (
    <section className="calibrate-from-log" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Calibrate from a log</h3>
      <p className="hint">
        Paste what vLLM, llama.cpp or SGLang printed while it loaded the model. Nothing leaves your browser.
      </p>
      <div className="field">
        <label htmlFor={`${id}-log`}>Startup log</label>
        <textarea id={`${id}-log`} rows={8} spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <TextFileInput
        label="Or open a log file"
        accept=".log,.txt,text/plain"
        maxBytes={MAX_LOG_FILE_BYTES}
        whatItShouldBe="the engine's startup log"
        onText={(log) => setText(log.slice(0, MAX_LOG_CHARS))}
      />
      {reading && !option ? <p role="status">Select an option to compare the log with its prediction.</p> : null}
      {reading && option ? (
        <CalibrationReport option={option} workload={workload} reading={reading} onUse={onUse} />
      ) : null}
    </section>
  );
}

interface CalibrationReportProps {
  option: PlanOption;
  workload: Workload;
  reading: StartupLogReading;
  onUse(engine: Engine, overheadGib: number): void;
}

/** What a read log says beside the plan, and the offer to use its overhead. */
export function CalibrationReport({ option, workload, reading, onUse }: CalibrationReportProps) {
  const rows = predictedVsMeasured(option, reading);
  const notes = calibrationNotes(option, workload, reading);
  const engine = plannedEngineOf(reading.engine);
  const overhead = planOverheadGib(reading);
  return (
    <>
      <p role="status">
        {reading.engine === null ? "No engine recognised." : `Read a ${reading.engine} log.`}
        {reading.formatRead ? ` Its lines were read as ${reading.formatRead}.` : ""}
        {reading.failure ? ` It failed: ${reading.failure}` : ""}
      </p>
      <ComparisonTable rows={rows} />
      {notes.length > 0 ? (
        <ul className="notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {engine !== null && overhead !== null ? (
        workload.settings.measuredOverheadGib?.[engine] === overhead ? (
          <p role="status">
            The plan uses this measured overhead ({overhead.toFixed(2)} GiB a card) for {engine}.
          </p>
        ) : (
          <button type="button" onClick={() => onUse(engine, overhead)}>
            Use the measured overhead ({overhead.toFixed(2)} GiB a card) for {engine} in the plan
          </button>
        )
      ) : null}
    </>
  );
}

function cell(value: number | null, unit: CalibrationRow["unit"]): string {
  if (value === null) return "—";
  if (unit === "tokens") return formatTokens(value);
  if (unit === "×") return `${value.toFixed(2)}×`;
  return `${value.toFixed(2)} GiB`;
}

function errorCell(errorPct: number | null): string {
  if (errorPct === null) return "—";
  return `${errorPct > 0 ? "+" : ""}${errorPct.toFixed(1)}%`;
}

function ComparisonTable({ rows }: { rows: CalibrationRow[] }) {
  return (
    <TableScroll label="Predicted beside measured">
      <table className="calibration">
        <caption>The plan&apos;s prediction for the selected option beside what the engine measured</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Predicted</th>
            <th scope="col">Measured</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.figure}>
              <th scope="row">{r.figure}</th>
              <td className="num">{cell(r.predicted, r.unit)}</td>
              <td className="num">{cell(r.measured, r.unit)}</td>
              <td className="num">{errorCell(r.errorPct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
