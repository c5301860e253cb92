/**
 * The page's side of the calibration worker (calibrationWorker.ts): the Accuracy view's tables and a pasted
 * log's comparison, asked of the worker, so the page's thread neither fetches the engine and the calibration
 * code nor plans the cases (issue 19). The worker starts on the first ask, not with the page. Where it cannot
 * start, the same replies are made on this thread, as the plan worker's are (planClient.ts).
 */
import type { AccuracyTables } from "../calibration/accuracyView.ts";
import type { LogComparison } from "../calibration/calibrate.ts";
import type { SpeedTables } from "../calibration/speedAccuracy.ts";
import type {
  Answer,
  CalibrationAnswers,
  CalibrationAsk,
  CalibrationReply,
  CalibrationRequest,
  LogAsk,
} from "./calibrationWire.ts";
import { inlinePort, workerPort, type Port } from "./port.ts";

export type CalibrationPort = Port<CalibrationRequest, CalibrationReply>;

export interface CalibrationClient {
  /** The Accuracy view's tables: asked once, and the same promise after (the view reads it with React's `use`). */
  accuracy(): Promise<Answer<AccuracyTables>>;
  /** The speed tab's tables, likewise. */
  speed(): Promise<Answer<SpeedTables>>;
  /** A pasted log read and set beside the option's prediction. */
  compareLog(ask: LogAsk): Promise<Answer<LogComparison>>;
}

interface Waiting {
  request: CalibrationRequest;
  settle(reply: CalibrationReply): void;
}

export function calibrationClient(open: () => CalibrationPort): CalibrationClient {
  let port: CalibrationPort | null = null;
  let nextId = 0;
  const waiting = new Map<number, Waiting>();
  const settle = (reply: CalibrationReply) => {
    const asked = waiting.get(reply.id);
    waiting.delete(reply.id);
    asked?.settle(reply);
  };
  const connect = (to: CalibrationPort, onThisThread: boolean): CalibrationPort => {
    port = to;
    to.listen({
      reply: settle,
      fail: (why) => {
        if (onThisThread) {
          // The code's own chunk did not load here either: what was asked is answered in words.
          for (const { request } of [...waiting.values()])
            settle({
              id: request.id,
              ok: false,
              message: `the calibration code could not be loaded (${why}): reload the page`,
            });
          return;
        }
        console.warn(`modelplan: the calibration worker failed (${why}); calibrating on the page's thread`);
        const again = connect(inlineCalibrationPort(), true);
        for (const { request } of waiting.values()) again.post(request);
      },
    });
    return to;
  };
  const ask = <K extends CalibrationAsk["kind"]>(
    asked: CalibrationAsk & { kind: K },
  ): Promise<Answer<CalibrationAnswers[K]>> => {
    const to = port ?? connect(open(), false);
    const request: CalibrationRequest = { ...asked, id: ++nextId };
    return new Promise((resolve) => {
      waiting.set(request.id, {
        request,
        // The worker answers a request of kind K with K's answer (calibrationReplies.ts).
        settle: ({ id: _id, ...answer }) => resolve(answer as Answer<CalibrationAnswers[K]>),
      });
      to.post(request);
    });
  };
  let accuracy: Promise<Answer<AccuracyTables>> | null = null;
  let speed: Promise<Answer<SpeedTables>> | null = null;
  return {
    accuracy: () => (accuracy ??= ask({ kind: "accuracy" })),
    speed: () => (speed ??= ask({ kind: "speed" })),
    compareLog: (log) => ask({ kind: "log", ...log }),
  };
}

/** The calibration code run on this thread, from its own chunk: where no worker can start, and in the tests. */
export function inlineCalibrationPort(): CalibrationPort {
  return inlinePort(import("./calibrationReplies.ts").then((m) => m.calibrationReplier()));
}

/** The calibration worker, as a Vite module worker: its own bundle, fetched when it is first asked. */
function calibrationWorkerPort(): CalibrationPort {
  return workerPort(
    new Worker(new URL("./calibrationWorker.ts", import.meta.url), { type: "module", name: "calibration" }),
  );
}

/** The page's client: the worker where one can start (new Worker throws under a CSP without worker-src). */
export const calibration: CalibrationClient = calibrationClient(() => {
  if (typeof Worker !== "function") return inlineCalibrationPort();
  try {
    return calibrationWorkerPort();
  } catch {
    return inlineCalibrationPort();
  }
});
