/**
 * The page's side of the plan worker. Latest wins: one request is in the
 * worker at a time, and of those asked meanwhile only the newest is sent next
 * (a drag's sixty moves are a few dozen plans, each of the thumb's newest
 * context). Every reply is delivered, so the page shows the last plan until
 * a newer one arrives. Paced by the page: the next request goes once the page
 * has drawn the last reply (`drawn`). Unpaced, the worker (~5 ms a move)
 * answered nearly every move of a drag, and the page's thread spent its share
 * of a loaded machine starting renders the next reply made stale.
 */
import type {
  Cluster,
  HandSplit,
  Plan,
  PlanInput,
  PlanOption,
  Refusal,
  SettingDefaults,
  Workload,
} from "../plan/index.ts";
import type { PlanJob } from "./planSession.ts";
import { inlinePort, workerPort, type Port } from "./port.ts";
import {
  planOfReply,
  planReplier,
  type PlanReply,
  type PlanRequest,
  type SplitReply,
  type WireReply,
  type WireRequest,
} from "./planWire.ts";

export type PlanAnswer = { job: PlanJob; plan: Plan } | { job: PlanJob; error: string };

/** Where requests go: the worker, or the same replies made on this thread. */
export type PlanPort = Port<WireRequest, WireReply>;

export interface PlanClient {
  request(job: PlanJob, deliver: (answer: PlanAnswer) => void): void;
  /** The page has drawn the last answer delivered: the newest request waiting goes. */
  drawn(): void;
  /**
   * The command form's --tensor-split, checked by the worker's engine for an option of the plan made for
   * `workload` (the model is the last plan's): the page does not fetch the engine a second time for it.
   */
  checkSplit(ask: SplitAsk, answer: (result: HandSplit) => void): void;
}

export interface SplitAsk {
  workload: Workload;
  option: PlanOption;
  text: string;
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
  /** The engines' defaults of the last plan replied: a reply without its own has these (planWire.ts). */
  let settingDefaults: SettingDefaults | null = null;
  let nextId = 0;
  let inFlight: (Pending & { id: number }) | null = null;
  let newest: Pending | null = null;
  /** An answer is delivered and the page has not yet drawn it. */
  let drawing = false;
  /** The split checks asked and not yet answered, by request id: asked at once, beside the plans' queue. */
  const splits = new Map<number, (result: HandSplit) => void>();

  const send = (pending: Pending) => {
    const { job } = pending;
    const request: PlanRequest = { id: ++nextId, workload: job.workload };
    if (job.slideTo) request.slideTo = job.slideTo;
    if (job.commandsFor) request.commandsFor = job.commandsFor;
    if (job.input !== sentInput) request.input = sentInput = job.input;
    if (job.cluster !== sentCluster) request.cluster = sentCluster = job.cluster;
    inFlight = { ...pending, id: request.id };
    port.post(request);
  };
  const sendNewest = () => {
    if (inFlight || drawing || !newest) return;
    const next = newest;
    newest = null;
    send(next);
  };
  const onSplit = (reply: SplitReply) => {
    const answer = splits.get(reply.id);
    splits.delete(reply.id);
    answer?.(reply.ok ? reply.split : { ok: false, words: `the split could not be checked (${reply.message})` });
  };
  const onPlan = (reply: PlanReply) => {
    const done = inFlight;
    if (!done || reply.id !== done.id) return;
    inFlight = null;
    drawing = true;
    if (!reply.ok) return done.deliver({ job: done.job, error: reply.message });
    refused = reply.refused ?? refused;
    settingDefaults = reply.settingDefaults ?? settingDefaults;
    if (!settingDefaults)
      return done.deliver({ job: done.job, error: "the plan worker replied without the engines' defaults" });
    done.deliver({ job: done.job, plan: planOfReply(done.job, reply.plan, refused, settingDefaults) });
  };
  // Ids are drawn from one counter: a reply is a split check's when its id is one asked.
  const onReply = (reply: WireReply) =>
    splits.has(reply.id) ? onSplit(reply as SplitReply) : onPlan(reply as PlanReply);
  const connect = (to: PlanPort, onThisThread = false) => {
    port = to;
    port.listen({
      reply: onReply,
      fail: (why) => {
        // A split check asked of a port that cannot answer is said so, not left waiting.
        for (const id of [...splits.keys()]) onSplit({ id, ok: false, message: why });
        if (onThisThread) {
          // The engine's own chunk did not load here either: what was asked is answered in words.
          const lost = inFlight;
          inFlight = null;
          drawing = true;
          lost?.deliver({ job: lost.job, error: `the planning engine could not be loaded (${why}): reload the page` });
          return;
        }
        // A worker that cannot start (a CSP without worker-src, a chunk the network lost): the page plans on
        // its own thread from here on, as it did before the worker, and what was asked is asked again there.
        console.warn(`modelplan: the plan worker failed (${why}); planning on the page's thread`);
        sentInput = sentCluster = null;
        refused = [];
        settingDefaults = null;
        const again = inFlight;
        inFlight = null;
        connect(inlinePlanPort(), true);
        if (again) send(again);
      },
    });
  };
  connect(open());
  return {
    request(job, deliver) {
      newest = { job, deliver };
      sendNewest();
    },
    drawn() {
      drawing = false;
      sendNewest();
    },
    checkSplit(ask, answer) {
      const id = ++nextId;
      splits.set(id, answer);
      port.post({ id, split: ask });
    },
  };
}

/**
 * The worker's replies made on this thread, a task later, across the same
 * structured clone: the fallback when the worker fails, and the tests' worker.
 * The engine is loaded when the port opens (a chunk of its own: the first
 * screen's JS does not carry it).
 */
export function inlinePlanPort(): PlanPort {
  return inlinePort(import("./planSession.ts").then((m) => planReplier(m.planSession())));
}

/** The plan worker, as a Vite module worker (its own chunk, not in the first screen's JS). */
export function planWorkerPort(): PlanPort {
  return workerPort(new Worker(new URL("./planWorker.ts", import.meta.url), { type: "module", name: "plan" }));
}
