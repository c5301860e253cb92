/**
 * The plan the page shows for a job, and where it is made: chosen here, once.
 * In a browser the plan worker makes it (planClient.ts) and the page draws
 * the newest reply; where there is no Worker (the component tests in
 * happy-dom or Node) the engine runs inline, in the render, as it did
 * before the worker.
 */
import { startTransition, useEffect, useMemo, useRef, useState } from "react";
import type { HandSplit, Plan } from "../plan/index.ts";
import {
  inlinePlanPort,
  planClient,
  planWorkerPort,
  type PlanAnswer,
  type PlanClient,
  type SplitAsk,
} from "./planClient.ts";
import type { PlanJob, PlanSession } from "./planSession.ts";

export interface PlanView {
  /** The newest plan made, and the job it answers: kept while a newer job is being made or fails. */
  shown: { job: PlanJob; plan: Plan } | null;
  /** The newest full plan (not a slider re-evaluation) that failed, until a full plan is made again. */
  failed: { job: PlanJob; error: string } | null;
}

const NOTHING: PlanView = { shown: null, failed: null };

function viewAfter(view: PlanView, answer: PlanAnswer): PlanView {
  if ("plan" in answer) return { shown: answer, failed: answer.job.slideTo ? view.failed : null };
  // A slider position that cannot be re-evaluated leaves the last plan on screen.
  return answer.job.slideTo ? view : { shown: view.shown, failed: answer };
}

/**
 * Started as the page's script loads, so the worker's chunk is fetched and
 * compiled while the first screen renders, before the first plan is asked.
 * The built page always plans through it (or, where no worker can start, the
 * same replies made on this thread from the engine's own lazy chunk); only
 * the component tests, where there is no Worker, plan inline in the render.
 */
const client: PlanClient | null =
  typeof window === "undefined"
    ? null
    : typeof Worker === "function"
      ? planClient(() => {
          try {
            return planWorkerPort();
          } catch {
            // new Worker throws where the page may not start one (a CSP without worker-src).
            return inlinePlanPort();
          }
        })
      : import.meta.env.MODE === "test"
        ? null
        : planClient(inlinePlanPort);

function useWorkerPlanView(job: PlanJob | null): PlanView {
  // `replies` counts the answers folded in: each is drawn (an effect after its commit) before the next is asked.
  const [state, setState] = useState({ view: NOTHING, replies: 0 });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!job || !client) return;
    const to = client;
    // Not cancelled when the job changes: a reply to an older job is still newer than what is on screen.
    to.request(job, (answer) => {
      if (!mounted.current) return to.drawn();
      // A transition: drawing the new plan's cards yields to the next slider move.
      startTransition(() =>
        setState((s) => {
          const view = "plan" in answer && s.view.shown?.job === answer.job ? s.view : viewAfter(s.view, answer);
          return { view, replies: s.replies + 1 };
        }),
      );
    });
  }, [job]);
  useEffect(() => {
    if (state.replies > 0) client?.drawn();
  }, [state.replies]);
  return state.view;
}

/**
 * The inline session's maker, given by the tests' setup (test/setup/planInline.ts: Node and happy-dom have no Worker): not imported
 * here, so the engine stays out of the built page's first chunk (the built page plans through the worker).
 */
let inlineSession: (() => PlanSession) | null = null;

export function planInlineWith(session: () => PlanSession): void {
  inlineSession = session;
}

function useInlinePlanView(job: PlanJob | null): PlanView {
  const [session] = useState(() => {
    if (!inlineSession) throw new Error("no plan worker here and no inline session given (planInlineWith)");
    return inlineSession();
  });
  const answer = useMemo((): PlanAnswer | null => {
    if (!job) return null;
    try {
      return { job, plan: session.run(job) };
    } catch (e) {
      return { job, error: e instanceof Error ? e.message : String(e) };
    }
  }, [session, job]);
  // The view folds each answer into the last (React's "storing information from previous renders").
  const [folded, setFolded] = useState<{ answer: PlanAnswer | null; view: PlanView }>({ answer: null, view: NOTHING });
  if (answer === folded.answer) return folded.view;
  const next = { answer, view: answer ? viewAfter(folded.view, answer) : folded.view };
  setFolded(next);
  return next.view;
}

/**
 * The command form's --tensor-split check, for an option of `plan`: asked of the worker (its engine holds the
 * model), or made by the inline session where the page plans inline. The form's chunk carries no engine.
 */
export function checkSplit(plan: Plan, ask: Omit<SplitAsk, "workload">, answer: (result: HandSplit) => void): void {
  if (client) return client.checkSplit({ ...ask, workload: plan.workload }, answer);
  if (!inlineSession) throw new Error("no plan worker here and no inline session given (planInlineWith)");
  answer(inlineSession().split({ input: plan, workload: plan.workload, ...ask }));
}

// In the build MODE is "production", so this folds to the worker's view and the inline session (the whole
// engine) is left out of the first screen's chunk.
export const usePlanView: (job: PlanJob | null) => PlanView =
  import.meta.env.MODE === "test" && client === null ? useInlinePlanView : useWorkerPlanView;
