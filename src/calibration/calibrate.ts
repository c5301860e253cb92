/**
 * A pasted startup log beside the plan's prediction for one option (
 * "Calibrate from a log"), and the measured overhead in the form the plan
 * takes it (EngineSettings.measuredOverheadGib). The page only shows these
 * rows; every number is made here.
 */
import { CUDA_CONTEXT_BYTES, GIB } from "../plan/index.ts";
import { assumedVllmRelease, vllmProfileFor } from "../plan/index.ts";
import { parseStartupLog, type LogEngine, type StartupLogReading } from "./logparse.ts";
import type { Engine, PlanOption, Workload } from "../plan/index.ts";

export interface CalibrationRow {
  /** What is compared, in words: "Weights per card". */
  figure: string;
  unit: "GiB" | "tokens" | "×";
  predicted: number | null;
  measured: number | null;
  /** (predicted − measured) ÷ |measured| × 100; null when either is missing or measured is 0. */
  errorPct: number | null;
}

/** The plan's engine a log's engine corresponds to; TensorRT-LLM is read but not planned. */
export function plannedEngineOf(engine: LogEngine | null): Engine | null {
  return engine === "vllm" || engine === "sglang" || engine === "llamacpp" ? engine : null;
}

function errorPct(predicted: number | null, measured: number | null): number | null {
  if (predicted === null || measured === null || measured === 0) return null;
  return Math.round(((predicted - measured) / Math.abs(measured)) * 1000) / 10;
}

function row(
  figure: string,
  unit: CalibrationRow["unit"],
  predicted: number | null,
  measured: number | null,
): CalibrationRow {
  return { figure, unit, predicted, measured, errorPct: errorPct(predicted, measured) };
}

const gib = (bytes: number): number => Math.round((bytes / GIB) * 100) / 100;

/**
 * The plan's figures for the option's worst card beside the log's. KV is the
 * pool for vLLM and SGLang (what "Available KV cache memory" and "KV size"
 * report) and the allocated cache for llama.cpp (its "KV buffer size").
 */
export function predictedVsMeasured(option: PlanOption, reading: StartupLogReading): CalibrationRow[] {
  const card = option.cards[option.worstCardIndex ?? 0];
  const kvPredicted = option.engine === "llamacpp" ? (card ? gib(card.kvBytes) : null) : gib(option.kvPoolBytes);
  return [
    row("Weights per card", "GiB", card ? gib(card.weightsBytes) : null, reading.weightsGib),
    row("KV cache per card", "GiB", kvPredicted, reading.kvGib),
    row("Engine overhead per card", "GiB", card ? gib(card.engineBytes) : null, planOverheadGib(reading)),
    row("KV tokens", "tokens", option.engine === "llamacpp" ? null : option.kvPoolTokens, reading.kvTokens),
    row(
      "Concurrency at this context",
      "×",
      option.engine === "llamacpp" ? null : option.maxConcurrency,
      reading.maxConcurrency,
    ),
  ];
}

/**
 * The measured overhead as the plan counts an engine's share of a card, GiB.
 * vLLM's log prints exactly the plan's part (activation peak + non-torch
 * memory inside the budget). llama.cpp's prints its compute and output
 * buffers but not the CUDA context the plan also counts there
 * (CUDA_CONTEXT_BYTES, memory.ts), so that is added back: leaving it out
 * would make a measured plan promise memory the card does not have. SGLang's
 * log does not print its overhead at all.
 */
export function planOverheadGib(reading: StartupLogReading): number | null {
  if (reading.overheadGib === null) return null;
  switch (plannedEngineOf(reading.engine)) {
    case "vllm":
      return reading.overheadGib;
    case "llamacpp":
      return Math.round((reading.overheadGib + CUDA_CONTEXT_BYTES / GIB) * 1000) / 1000;
    default:
      return null;
  }
}

/** What the user should know before trusting the comparison, in words. */
export function calibrationNotes(option: PlanOption, workload: Workload, reading: StartupLogReading): string[] {
  const notes: string[] = [];
  if (reading.engine === null) {
    notes.push(
      "No line of this text looks like a vLLM, llama.cpp or SGLang startup log: paste the lines the engine printed while it loaded.",
    );
    return notes;
  }
  const engine = plannedEngineOf(reading.engine);
  if (engine !== option.engine) {
    notes.push(
      `This log is ${reading.engine}'s; the selected option runs on ${option.engine}, so the comparison is across engines.`,
    );
  }
  if (reading.contextTokens !== null && reading.contextTokens !== workload.contextTokens) {
    notes.push(
      `The log was for a context of ${reading.contextTokens.toLocaleString("en-US")} tokens; the plan is for ${workload.contextTokens.toLocaleString("en-US")}.`,
    );
  }
  const release = vllmReleaseNote(option, workload, reading);
  if (release !== null) notes.push(release);
  if (reading.failure !== null) notes.push(`The engine failed: ${reading.failure}`);
  if (reading.unread.length > 0) notes.push(`Not in the log: ${reading.unread.join(", ")}.`);
  return notes;
}

/**
 * vLLM releases hold different things inside the budget (memory.ts VLLM_PROFILES): a log of one
 * compared with a plan for another differs in its overhead and pool by design, not by error. Said
 * when the log names its release and the plan is not for that release's profile.
 */
function vllmReleaseNote(option: PlanOption, workload: Workload, reading: StartupLogReading): string | null {
  if (option.engine !== "vllm" || reading.engine !== "vllm" || reading.engineVersion === null) return null;
  const logged = vllmProfileFor(reading.engineVersion);
  if ("error" in logged) return null;
  const named = workload.settings.vllmVersion;
  const planned = named === undefined ? null : vllmProfileFor(named);
  if (planned !== null && !("error" in planned) && planned.id === logged.id) return null;
  const plannedFor =
    planned === null || "error" in planned
      ? `no release named, so the newest (${assumedVllmRelease(undefined).profile.releases})`
      : `vLLM ${named ?? ""} (${planned.releases})`;
  return `This log is vLLM ${reading.engineVersion} (${logged.releases}); the plan is for ${plannedFor}, so the overhead and pool differ by design: set "vLLM release" to ${reading.engineVersion} in Engine settings to compare like with like.`;
}

/**
 * A log read and set beside the plan, as the page draws it: made in the calibration worker (the parser and the
 * release profiles are not on the page's thread, issue 19), drawn by src/ui/CalibrateFromLog.tsx.
 */
export interface LogComparison {
  /** How the log was read: its engine (null: no line looked like any), the format its lines were, its failure. */
  engine: LogEngine | null;
  formatRead: string | null;
  failure: string | null;
  rows: CalibrationRow[];
  notes: string[];
  /** The measured overhead the plan can take (GiB a card), for the engine the log is of; null when it prints none. */
  overhead: { engine: Engine; gib: number } | null;
}

/** A read log beside the option's prediction. */
function logComparison(option: PlanOption, workload: Workload, reading: StartupLogReading): LogComparison {
  const engine = plannedEngineOf(reading.engine);
  const gib = planOverheadGib(reading);
  return {
    engine: reading.engine,
    formatRead: reading.formatRead,
    failure: reading.failure,
    rows: predictedVsMeasured(option, reading),
    notes: calibrationNotes(option, workload, reading),
    overhead: engine !== null && gib !== null ? { engine, gib } : null,
  };
}

/** The text of a pasted log read and set beside the option's prediction. */
export function compareLog(text: string, option: PlanOption, workload: Workload): LogComparison {
  return logComparison(option, workload, parseStartupLog(text));
}
