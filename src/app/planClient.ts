/**
 * The page's side of the plan worker. Latest wins: one request is in the
 * worker at a time, and of those asked meanwhile only the newest is sent next
 * (a drag's sixty moves are a handful of plans, each of the thumb's newest
 * context). Every reply is delivered, so the page shows the last plan until
 * a newer one arrives.
 */
import type { Cluster, Plan, PlanInput, Refusal } from "../plan/index.ts";
import type { PlanJob } from "./planSession.ts";
import { planOfReply, planReplier, type PlanReply, type PlanRequest } from "./planWire.ts";

export type PlanAnswer = { job: PlanJob; plan: Plan } | { job: PlanJob; error: string };

/** Where requests go: the worker, or the same replies made on this thread. */
export interface PlanPort {
  post(request: PlanRequest): void;
  /** `onFail`: the port cannot answer (a worker that did not start); nothing sent is answered. */
  listen(onReply: (reply: PlanReply) => void, onFail: (why: string) => void): void;
}

export interface PlanClient {
  request(job: PlanJob, deliver: (answer: PlanAnswer) => void): void;
}

interface Pending {
  job: PlanJob;
  deliver: (answer: PlanAnswer) => void;
}

export function planClient(open: () => PlanPort): PlanClient {
  let port: PlanPort;
  let sentInput: PlanInput | null = null;
  let sentCluster: Cluster | null = null;
  /** The refusals of the last plan replied: a reply without its own has these (planWire.ts). */
  let refused: Refusal[] = [];
  let nextId = 0;
  let inFlight: (Pending & { id: number }) | null = null;
  let newest: Pending | null = null;

  const send = (pending: Pending) => {
    const { job } = pending;
    const request: PlanRequest = { id: ++nextId, workload: job.workload };
    if (job.slideTo) request.slideTo = job.slideTo;
    if (job.input !== sentInput) request.input = sentInput = job.input;
    if (job.cluster !== sentCluster) request.cluster = sentCluster = job.cluster;
    inFlight = { ...pending, id: request.id };
    port.post(request);
  };
  const onReply = (reply: PlanReply) => {
    const done = inFlight;
    if (!done || reply.id !== done.id) return;
    inFlight = null;
    // The worker starts on the newest while this reply is drawn.
    if (newest) {
      const next = newest;
      newest = null;
      send(next);
    }
    if (!reply.ok) return done.deliver({ job: done.job, error: reply.message });
    refused = reply.refused ?? refused;
    done.deliver({ job: done.job, plan: planOfReply(done.job, reply.plan, refused) });
  };
  const connect = (to: PlanPort) => {
    port = to;
    port.listen(onReply, (why) => {
      // A worker that cannot start (a CSP without worker-src, a chunk the network lost): the page plans on its
      // own thread from here on, as it did before the worker, and what was asked is asked again there.
      console.warn(`modelplan: the plan worker failed (${why}); planning on the page's thread`);
      sentInput = sentCluster = null;
      refused = [];
      const again = inFlight;
      inFlight = null;
      connect(inlinePlanPort());
      if (again) send(again);
    });
  };
  connect(open());
  return {
    request(job, deliver) {
      if (inFlight) newest = { job, deliver };
      else send({ job, deliver });
    },
  };
}

/**
 * The worker's replies made on this thread, a task later, across the same
 * structured clone: the fallback when the worker fails, and the tests' worker.
 */
export function inlinePlanPort(): PlanPort {
  const reply = planReplier();
  let onReply: ((reply: PlanReply) => void) | null = null;
  return {
    post(request) {
      const sent = structuredClone(request);
      setTimeout(() => onReply?.(structuredClone(reply(sent))), 0);
    },
    listen(on) {
      onReply = on;
    },
  };
}

/** The plan worker, as a Vite module worker (its own chunk, not in the first screen's JS). */
export function planWorkerPort(): PlanPort {
  const worker = new Worker(new URL("./planWorker.ts", import.meta.url), { type: "module", name: "plan" });
  return {
    post: (request) => worker.postMessage(request),
    listen(onReply, onFail) {
      worker.onmessage = (e: MessageEvent<PlanReply>) => onReply(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        worker.terminate();
        onFail(e.message || "it did not start");
      };
      worker.onmessageerror = () => {
        worker.terminate();
        onFail("a reply could not be read");
      };
    },
  };
}
