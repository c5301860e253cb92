/**
 * The plan worker's messages. A plan is plain data (no functions, no class
 * instances: structured-clone safe), but the page already holds part of it,
 * so that part stays behind: the model and the cluster are sent when they
 * change, not with every slider move, and a reply leaves out what the page
 * gave. The layouts a plan keeps for withWorkload (a non-enumerable symbol
 * property) are not cloned: the worker keeps them, and re-evaluates there.
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
import type { PlanJob, PlanSession } from "./planSession.ts";

export interface PlanRequest {
  id: number;
  /** Sent when it is not the one the last request carried (the worker keeps it). */
  input?: PlanInput;
  cluster?: Cluster;
  workload: Workload;
  slideTo?: Workload;
  commandsFor?: string[];
}

/** A plan as sent: the page's own inputs left out. */
export type PlanWire = Omit<Plan, "shape" | "artifacts" | "cluster" | "workload" | "refused" | "settingDefaults">;

/**
 * `refused` is null when it is the last reply's: a slider move re-ranks the
 * options and keeps the refusals, and on issue 13's 200-option case they are
 * 144 KB of a 600 KB plan (JSON). `settingDefaults` likewise: the engine makes one
 * object per card and release, and the page keeps the one it has, so the
 * settings it draws are not drawn again for an equal copy.
 */
export type PlanReply =
  | { id: number; ok: true; plan: PlanWire; refused: Refusal[] | null; settingDefaults: SettingDefaults | null }
  | { id: number; ok: false; message: string };

/**
 * The command form's question, asked of the worker's engine rather than a second copy of it on the page:
 * a typed --tensor-split for an option of the plan made for `workload`, on the model the worker holds.
 */
export interface SplitRequest {
  id: number;
  split: { workload: Workload; option: PlanOption; text: string };
}

export type SplitReply = { id: number; ok: true; split: HandSplit } | { id: number; ok: false; message: string };

export type WireRequest = PlanRequest | SplitRequest;
export type WireReply = PlanReply | SplitReply;

/** The worker's side: each request answered from one engine session (the caller's: the engine stays out of the page's first chunk), in the order sent. */
export function planReplier(session: PlanSession): (request: WireRequest) => WireReply {
  let input: PlanInput | null = null;
  let cluster: Cluster | null = null;
  let sentRefused: Refusal[] | null = null;
  let sentDefaults: SettingDefaults | null = null;
  return (request) => {
    if ("split" in request) {
      if (!input)
        return {
          id: request.id,
          ok: false,
          message: "the plan worker was asked about a split before it had the model",
        };
      try {
        return { id: request.id, ok: true, split: session.split({ input, ...request.split }) };
      } catch (e) {
        return { id: request.id, ok: false, message: e instanceof Error ? e.message : String(e) };
      }
    }
    input = request.input ?? input;
    cluster = request.cluster ?? cluster;
    if (!input || !cluster)
      return { id: request.id, ok: false, message: "the plan worker was asked for a plan before it had the model" };
    const job: PlanJob = { input, cluster, workload: request.workload };
    if (request.slideTo) job.slideTo = request.slideTo;
    if (request.commandsFor) job.commandsFor = request.commandsFor;
    try {
      const {
        shape: _shape,
        artifacts: _artifacts,
        cluster: _cluster,
        workload: _workload,
        refused,
        settingDefaults,
        ...plan
      } = session.run(job);
      const same = refused === sentRefused;
      const sameDefaults = settingDefaults === sentDefaults;
      sentRefused = refused;
      sentDefaults = settingDefaults;
      return {
        id: request.id,
        ok: true,
        plan,
        refused: same ? null : refused,
        settingDefaults: sameDefaults ? null : settingDefaults,
      };
    } catch (e) {
      return { id: request.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  };
}

/** The page's side: the plan a reply stands for, its left-out parts the job's own objects (the views key on them). */
export function planOfReply(job: PlanJob, plan: PlanWire, refused: Refusal[], settingDefaults: SettingDefaults): Plan {
  return {
    ...plan,
    settingDefaults,
    shape: job.input.shape,
    artifacts: job.input.artifacts,
    cluster: job.cluster,
    workload: job.slideTo ?? job.workload,
    refused,
  };
}
