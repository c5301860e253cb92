/**
 * The page's plans, made by one session of the engine: in the plan worker
 * (planWorker.ts) in a browser, inline where there is no Worker (the
 * component tests). The terminal and the engine's tests call `plan` itself.
 */
import {
  checkTensorSplit,
  plan,
  withWorkload,
  type Cluster,
  type HandSplit,
  type Plan,
  type PlanInput,
  type PlanOption,
  type Workload,
} from "../plan/index.ts";

/** What the page asks the engine for: one plan, or the slider's re-evaluation of one. */
export interface PlanJob {
  input: PlanInput;
  cluster: Cluster;
  /** The workload the placements are enumerated for. */
  workload: Workload;
  /**
   * While the slider moves between rests: the plan made for `workload`, its layouts re-evaluated at this
   * workload (withWorkload), not enumerated again. The page says the set of layouts may be the last one's.
   */
  slideTo?: Workload;
  /** With slideTo: the options whose commands are made (the selected one); the page shows no other's. */
  commandsFor?: string[];
}

/** The command form's question: the user's --tensor-split for an option of the plan made for `workload`. */
export interface SplitJob {
  input: PlanInput;
  workload: Workload;
  option: PlanOption;
  text: string;
}

export interface PlanSession {
  /** The job's plan; throws the engine's own error. */
  run(job: PlanJob): Plan;
  /** The option again with the typed split, or why it cannot be read or does not fit (checkTensorSplit). */
  split(job: SplitJob): HandSplit;
}

/**
 * Full plans kept: the committed one and the one where the thumb last rested. A hand that rests the
 * slider and lets go asks for the same plan twice (at rest, then as the committed workload), and on a
 * 200-option cluster each is an enumeration of 35-90 ms (e2e/speed.spec.ts's drag).
 */
const KEPT_PLANS = 2;

interface Kept {
  input: PlanInput;
  cluster: Cluster;
  /** The workload by value: the store makes a new object with the same fields on release, and the worker a clone. */
  workloadKey: string;
  plan: Plan;
}

export function planSession(): PlanSession {
  const kept: Kept[] = [];
  const planned = (input: PlanInput, cluster: Cluster, workload: Workload): Plan => {
    const workloadKey = JSON.stringify(workload);
    const at = kept.findIndex((k) => k.input === input && k.cluster === cluster && k.workloadKey === workloadKey);
    const hit = kept[at];
    if (hit) {
      kept.splice(at, 1);
      kept.unshift(hit);
      return hit.plan;
    }
    const made = plan(input, cluster, workload);
    kept.unshift({ input, cluster, workloadKey, plan: made });
    kept.length = Math.min(kept.length, KEPT_PLANS);
    return made;
  };
  return {
    run(job) {
      const made = planned(job.input, job.cluster, job.workload);
      if (!job.slideTo) return made;
      return job.commandsFor
        ? withWorkload(made, job.slideTo, { commandsFor: job.commandsFor })
        : withWorkload(made, job.slideTo);
    },
    split: ({ input, workload, option, text }) => checkTensorSplit({ ...input, workload }, option, text),
  };
}
