/**
 * The calibration worker: the Accuracy view's cases and a pasted log's comparison are made here, off the page's
 * thread and beside the plan worker rather than in it, so a slider move's plan never waits behind 81 cases
 * planned or a 2 MB log read (~50 ms in Node). Started the first time the view or a log asks (calibrationClient.ts).
 */
import { calibrationReplier } from "./calibrationReplies.ts";
import type { CalibrationReply, CalibrationRequest } from "./calibrationWire.ts";

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<CalibrationRequest>) => void) | null;
  postMessage(reply: CalibrationReply): void;
};

const reply = calibrationReplier();
scope.onmessage = (e) => scope.postMessage(reply(e.data));
