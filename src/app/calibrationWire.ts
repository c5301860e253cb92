/**
 * The calibration worker's messages: the Accuracy view's tables and "Calibrate from a log"'s comparison, asked
 * by the page and made where the engine is (issue 19). Types only: the page's side fetches none of the code.
 */
import type { AccuracyTables } from "../calibration/accuracyView.ts";
import type { LogComparison } from "../calibration/calibrate.ts";
import type { SpeedTables } from "../calibration/speedAccuracy.ts";
import type { PlanOption, Workload } from "../plan/index.ts";

/** A pasted log, to be read and set beside the selected option's prediction for the plan's workload. */
export interface LogAsk {
  text: string;
  option: PlanOption;
  workload: Workload;
}

export type CalibrationAsk = { kind: "accuracy" } | { kind: "speed" } | ({ kind: "log" } & LogAsk);

/** What each ask is answered with. */
export interface CalibrationAnswers {
  accuracy: AccuracyTables;
  speed: SpeedTables;
  log: LogComparison;
}

/** An answer, or why there is none, in words. */
export type Answer<T> = { ok: true; value: T } | { ok: false; message: string };

export type CalibrationRequest = CalibrationAsk & { id: number };
export type CalibrationReply = { id: number } & Answer<CalibrationAnswers[CalibrationAsk["kind"]]>;
