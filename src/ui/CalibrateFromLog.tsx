import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { Answer, LogAsk } from "../app/calibrationWire.ts";
import type { CalibrationRow, LogComparison } from "../calibration/calibrate.ts";
import type { Engine, PlanOption, Workload } from "../plan/index.ts";
import { formatTokens } from "./format.ts";
import { TableScroll } from "./TableScroll.tsx";
import { TextFileInput } from "./TextFileInput.tsx";

interface CalibrateFromLogProps {
  /** The selected option: what the log is compared with. Null when none is selected. */
  option: PlanOption | null;
  workload: Workload;
  /** Reads the log and sets it beside the option: the calibration worker's (src/app/calibrationClient.ts). */
  compare(ask: LogAsk): Promise<Answer<LogComparison>>;
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
 * measured overhead in the plan. The log is read in the calibration worker.
 */
export function CalibrateFromLog({ option, workload, compare, onUse }: CalibrateFromLogProps) {
  const id = useId();
  const [text, setText] = useState("");
  /** The name of an opened file that held no text. */
  const [emptyFile, setEmptyFile] = useState<string | null>(null);
  const pasted = text.trim() !== "";
  const ask = useMemo(
    (): LogAsk | null => (pasted && option ? { text: text.slice(0, MAX_LOG_CHARS), option, workload } : null),
    [pasted, text, option, workload],
  );
  const { comparison, error } = useComparison(ask, compare);

  return (
    <section className="calibrate-from-log" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Calibrate from a log</h3>
      <p className="hint">
        Paste what vLLM, llama.cpp or SGLang printed while it loaded the model. Nothing leaves your browser.
      </p>
      <div className="field">
        <label htmlFor={`${id}-log`}>Startup log</label>
        <textarea
          id={`${id}-log`}
          rows={8}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setEmptyFile(null);
            setText(e.target.value);
          }}
        />
      </div>
      <TextFileInput
        label="Or open a log file"
        accept=".log,.txt,text/plain"
        maxBytes={MAX_LOG_FILE_BYTES}
        whatItShouldBe="the engine's startup log"
        onText={(log, fileName) => {
          // An empty file is said so, and the last log stays: a blank form would look like a comparison lost.
          setEmptyFile(log.trim() === "" ? fileName : null);
          if (log.trim() !== "") setText(log.slice(0, MAX_LOG_CHARS));
        }}
      />
      {emptyFile !== null ? (
        <p role="alert">{emptyFile} is empty: open the log the engine printed while it started, or paste its lines.</p>
      ) : null}
      {text.length > MAX_LOG_CHARS ? (
        <p className="hint">
          Only the first {MAX_LOG_CHARS.toLocaleString("en-US")} characters are read: an engine prints its startup
          figures in its first lines.
        </p>
      ) : null}
      {pasted && !option ? <p role="status">Select an option to compare the log with its prediction.</p> : null}
      {error ? <p role="alert">The log could not be read: {error}</p> : null}
      {ask && comparison ? <CalibrationReport comparison={comparison} workload={workload} onUse={onUse} /> : null}
    </section>
  );
}

/**
 * The worker's comparison for the newest ask. One ask is with the worker at a time: of those made meanwhile
 * (a paste, then typing into it) only the newest goes next, and the last comparison stays drawn until its answer.
 */
function useComparison(
  ask: LogAsk | null,
  compare: CalibrateFromLogProps["compare"],
): { comparison: LogComparison | null; error: string | null } {
  const [answered, setAnswered] = useState<{
    ask: LogAsk | null;
    comparison: LogComparison | null;
    error: string | null;
  }>({
    ask: null,
    comparison: null,
    error: null,
  });
  const asking = useRef(false);
  useEffect(() => {
    if (!ask || asking.current || answered.ask === ask) return;
    asking.current = true;
    void compare(ask).then((answer) => {
      asking.current = false;
      // A log that cannot be read keeps the last comparison drawn, under its message. After an unmount (the
      // option closed) the set is dropped.
      setAnswered((last) =>
        answer.ok
          ? { ask, comparison: answer.value, error: null }
          : { ask, comparison: last.comparison, error: answer.message },
      );
    });
  }, [ask, answered, compare]);
  return { comparison: answered.comparison, error: ask ? answered.error : null };
}

interface CalibrationReportProps {
  comparison: LogComparison;
  workload: Workload;
  onUse(engine: Engine, overheadGib: number): void;
}

/** What a read log says beside the plan, and the offer to use its overhead. */
export function CalibrationReport({ comparison, workload, onUse }: CalibrationReportProps) {
  const { engine, formatRead, failure, rows, notes, overhead } = comparison;
  return (
    <>
      <p role="status">
        {engine === null ? "No engine recognised." : `Read a ${engine} log.`}
        {formatRead ? ` Its lines were read as ${formatRead}.` : ""}
        {failure ? ` It failed: ${failure}` : ""}
      </p>
      <ComparisonTable rows={rows} />
      {notes.length > 0 ? (
        <ul className="notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {overhead !== null ? (
        workload.settings.measuredOverheadGib?.[overhead.engine] === overhead.gib ? (
          <p role="status">
            The plan uses this measured overhead ({overhead.gib.toFixed(2)} GiB a card) for {overhead.engine}.
          </p>
        ) : (
          <button type="button" onClick={() => onUse(overhead.engine, overhead.gib)}>
            Use the measured overhead ({overhead.gib.toFixed(2)} GiB a card) for {overhead.engine} in the plan
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
