/**
 * The plan the page shows for a job, and where it is made: chosen here, once.
 * In a browser the plan worker makes it (planClient.ts) and the page draws
 * the newest reply; where there is no Worker (the component tests in
 * happy-dom or Node) the engine runs inline, in the render, as it did
 * before the worker.
 */
import { startTransition, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Plan } from "../plan/index.ts";
import { inlinePlanPort, planClient, planWorkerPort, type PlanAnswer, type PlanClient } from "./planClient.ts";
import { planSession, type PlanJob } from "./planSession.ts";

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
 */
const client: PlanClient | null =
  typeof Worker === "function" && typeof window !== "undefined"
    ? planClient(() => {
        try {
          return planWorkerPort();
        } catch {
          // new Worker throws where the page may not start one (a CSP without worker-src).
          return inlinePlanPort();
        }
      })
    : null;

const subscribeReady = (listener: () => void) => client?.onReady(listener) ?? (() => undefined);
const isReady = () => client?.isReady() ?? false;

function useWorkerPlanView(job: PlanJob | null): PlanView {
  // `replies` counts the answers folded in: each is drawn (an effect after its commit) before the next is asked.
  const [state, setState] = useState({ view: NOTHING, replies: 0 });
  // Until the worker is up, the page plans on its own thread, as before the worker: the first plan of a load
  // would otherwise wait on the worker's chunk (~230 ms more to the first option on a loaded 2-core machine).
  const ready = useSyncExternalStore(subscribeReady, isReady, () => false);
  const early = useInlinePlanView(ready ? null : job);
  const earlyRef = useRef(early);
  const mounted = useRef(true);
  useEffect(() => {
    earlyRef.current = early;
  }, [early]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!job || !ready || !client) return;
    const to = client;
    // Not cancelled when the job changes: a reply to an older job is still newer than what is on screen.
    to.request(job, (answer) => {
      if (!mounted.current) return to.drawn();
      // A transition: drawing the new plan's cards yields to the next slider move.
      startTransition(() =>
        setState((s) => {
          // The worker's first plans carry on from the page thread's; a job already drawn is not drawn again.
          const last = s.view === NOTHING ? earlyRef.current : s.view;
          const view = "plan" in answer && last.shown?.job === answer.job ? last : viewAfter(last, answer);
          return { view, replies: s.replies + 1 };
        }),
      );
    });
  }, [job, ready]);
  useEffect(() => {
    if (state.replies > 0) client?.drawn();
  }, [state.replies]);
  return state.view === NOTHING ? early : state.view;
}

function useInlinePlanView(job: PlanJob | null): PlanView {
  const [session] = useState(planSession);
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

export const usePlanView: (job: PlanJob | null) => PlanView = client ? useWorkerPlanView : useInlinePlanView;
