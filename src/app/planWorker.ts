/**
 * The plan worker: the engine runs here, off the page's thread, so a slider
 * move's re-evaluation of every option (10-35 ms of CPU on 200 options, 60-270 ms
 * of wall time at load 4-6 per core) never holds a frame (issue 19). The page
 * keeps the drawing; this file only plans.
 */
import { planSession } from "./planSession.ts";
import { planReplier, type WireReply, type WireRequest } from "./planWire.ts";

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<WireRequest>) => void) | null;
  postMessage(reply: WireReply): void;
};

const reply = planReplier(planSession());
scope.onmessage = (e) => scope.postMessage(reply(e.data));
