/**
 * One compared figure against the tolerance its case states: the overview counts those outside it, and the
 * page marks them. A file of its own with no engine import, so the page's drawing of the Accuracy view can
 * use it without fetching the engine (issue 19: the tables are made in the calibration worker).
 */
import type { AccuracyMetric } from "./cases.ts";

/** Is one compared figure within the tolerance its case states? */
export function withinTolerance(m: AccuracyMetric): boolean {
  return Math.abs(m.errorPct) <= m.tolerancePct;
}
