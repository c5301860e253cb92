/**
 * The calibration worker's side: each request answered from the calibration code and the engine it plans with.
 * The bundled cases do not change, so their tables are made once (57 + 24 plans and 592 speed estimates:
 * ~40 ms cold in Node) and sent again on a second ask.
 */
import { accuracyTables, type AccuracyTables } from "../calibration/accuracyView.ts";
import { compareLog } from "../calibration/calibrate.ts";
import { speedAccuracyTables, type SpeedTables } from "../calibration/speedAccuracy.ts";
import type { CalibrationReply, CalibrationRequest } from "./calibrationWire.ts";

export function calibrationReplier(): (request: CalibrationRequest) => CalibrationReply {
  let accuracy: AccuracyTables | null = null;
  let speed: SpeedTables | null = null;
  return (request) => {
    try {
      switch (request.kind) {
        case "accuracy":
          return { id: request.id, ok: true, value: (accuracy ??= accuracyTables()) };
        case "speed":
          return { id: request.id, ok: true, value: (speed ??= speedAccuracyTables()) };
        case "log":
          return { id: request.id, ok: true, value: compareLog(request.text, request.option, request.workload) };
      }
    } catch (e) {
      return { id: request.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  };
}
