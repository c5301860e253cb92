/**
 * The planner page. Data flows one way: the user's choices (the
 * store) and the Hub's data (react-query's cache) → readModel → a plan job
 * → plan / withWorkload (in the plan worker, usePlanView.ts) → the view.
 * Nothing derived is stored in the store: the job is a useMemo of its
 * inputs, so a link that restores the choices restores the plan.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useState, useTransition } from "react";
import { useStore } from "zustand";
import { CATALOG_COPIED, catalogSha, EXAMPLE_REPO } from "../hub/catalogIndex.ts";
import { HubError, isRetryable } from "../hub/errors.ts";
import type { HubAccess as HubAccessSettings } from "../hub/read.ts";
import type { TokenStore } from "../hub/settings.ts";
import { contextFit, readModel, type PlanInput } from "../plan/index.ts";
import type { Cluster, Engine, EngineSettings as Settings, PlanOption, RepoSnapshot, Workload } from "../plan/index.ts";
import {
  chooseCommand,
  dismissLinkNotices,
  resetEngineSettings,
  selectOption,
  setCluster,
  setEngineSetting,
  setFilters,
  replaceWorkload,
  setRepo,
  setWorkload,
  openLink,
  type AppStore,
} from "../state/appStore.ts";
import type { Filters } from "../state/choices.ts";
import { ClusterPanel } from "../ui/ClusterPanel.tsx";
import { ContextControls } from "../ui/ContextControls.tsx";
import { CopyLink } from "../ui/CopyLink.tsx";
import { engineName, formatTps, modelSummary, placementLabel } from "../ui/format.ts";
import { LinkNotices } from "../ui/LinkNotices.tsx";
import { NeedsGguf } from "../ui/NeedsGguf.tsx";
import { OptionsView } from "../ui/OptionsView.tsx";
import { RankControls } from "../ui/RankControls.tsx";
import { useModule } from "../ui/useModule.ts";
import { useSettled } from "../ui/useSettled.ts";
import type { RepoStatus } from "../ui/RepoField.tsx";
import { defaultChoices } from "./defaults.ts";
import { loadManual } from "./loadManual.ts";
import { calibration } from "./calibrationClient.ts";
import { ModelPanel, type Attempt, type RetryWay } from "./ModelPanel.tsx";
import { PlanBoundary } from "./PlanBoundary.tsx";
import type { PlanJob } from "./planSession.ts";
import { checkSplit, usePlanView } from "./usePlanView.ts";
import {
  hubFallbackReason,
  isBundled,
  keptReadReason,
  quantizedChildrenQueryOptions,
  repoQueryOptions,
} from "./queries.ts";

/** The accuracy view's drawing, loaded when a user opens it; its cases are made in the calibration worker (calibrationClient.ts). */
const loadAccuracy = () => import("../ui/Accuracy.tsx");
const Accuracy = lazy(() => loadAccuracy().then((m) => ({ default: m.AccuracyFromWorker })));
/** The Deploy panel and its manifest writers load when an option is opened, not with the page (e2e/speed.spec.ts budget). */
// Calibrate-from-a-log's form loads after the first screen, under a closed disclosure; the calibration worker reads the log.
const CalibrateFromLog = lazy(() =>
  import("../ui/CalibrateFromLog.tsx").then((m) => ({ default: m.CalibrateFromLog })),
);
const DeployPanel = lazy(() => import("../ui/DeployPanel.tsx").then((m) => ({ default: m.DeployPanel })));
/**
 * The engine settings sit under a closed disclosure: their fields (~1.5 KB gzipped) load after the first
 * screen, which draws the same closed disclosure meanwhile (the 170 KB guard, e2e/speed.spec.ts).
 */
const EngineSettings = lazy(() => import("../ui/EngineSettings.tsx").then((m) => ({ default: m.EngineSettings })));
const ENGINE_SETTINGS_LOADING = (
  <details className="engine-settings">
    <summary>Engine settings</summary>
    <p className="muted">Loading…</p>
  </details>
);
/** The command form is drawn only for the option opened: its code (~3 KB gzipped) loads after the first screen (the 170 KB guard). */
const CommandForm = lazy(() => import("../ui/CommandForm.tsx").then((m) => ({ default: m.CommandForm })));

/** How long the thumb rests before the plan is made again at its context: a pause, not a frame of a drag. */
const SLIDER_REST_MS = 120;

/** The engine's default prices only: a stable empty record, so the rank controls are not redrawn for a new one. */
const NO_PRICES: Readonly<Record<string, number>> = {};

type OnSetting = <K extends keyof Settings>(key: K, value: Settings[K] | undefined) => void;

interface AppProps {
  store: AppStore;
  tokens: TokenStore;
}

type ModelRead = { ok: true; model: ReturnType<typeof readModel> } | { ok: false; message: string };

export function App({ store, tokens }: AppProps) {
  const choices = useStore(store, (s) => s.choices);
  const hubUrl = useStore(store, (s) => s.hubUrl);
  const linkNotices = useStore(store, (s) => s.linkNotices);
  // The token lives in the Hub's token store; this copy only makes the page re-render when it changes.
  const [token, setToken] = useState(tokens.get());
  /**
   * The context while the slider is being dragged: the plan follows it
   * through withWorkload (no enumeration, no network), and the store (and
   * so the link) takes it when the drag ends.
   */
  const [sliding, setSliding] = useState<number | null>(null);

  const { repo, revision, cluster, workload } = choices;
  /**
   * The plan follows the workload and the thumb one deferred render behind: a slider move's own render
   * (the thumb, the context field) is a few milliseconds, and the job it asks (withWorkload over every
   * option, or the full enumeration on release) is asked after it. Where there is no worker the engine
   * runs in that deferred render, in slices the next move can interrupt.
   */
  const planInput = useDeferredValue(useMemo(() => ({ workload, sliding }), [workload, sliding]));
  const planWorkload = planInput.workload;
  const planSliding = planInput.sliding;
  const access = useMemo<HubAccessSettings>(
    () => (token === undefined ? { hubUrl } : { hubUrl, accessToken: token }),
    [hubUrl, token],
  );
  const manual = choices.manual;
  // A model given by hand replaces the repo's: nothing is asked of the Hub for it.
  const manualReader = useModule(loadManual, manual !== undefined);
  const manualSnapshot = useMemo(
    () =>
      manual && manualReader
        ? manualReader.snapshotFromManual(manual.configJson, manual.weightsBytes, manual.name, manual.quantConfigJson)
        : null,
    [manual, manualReader],
  );
  const query = useQuery({
    ...repoQueryOptions(repo, revision === "" ? null : revision, access),
    enabled: manual === undefined,
  });
  /** A repo asked for and not yet read: the plan and the link stay on the last good one meanwhile, and after a failure. */
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const attemptQuery = useQuery({
    // With no attempt, the plan's own read (the same key and options): a stand-in key would be seeded with the catalog's answer.
    ...(attempt
      ? repoQueryOptions(attempt.repo, attempt.revision, access)
      : repoQueryOptions(repo, revision === "" ? null : revision, access)),
    enabled: attempt !== null,
    // The read that failed is retried by the way on the user picks (countdown, token), not by remounting.
    retryOnMount: false,
  });
  const snapshot: RepoSnapshot | undefined = manualSnapshot
    ? "error" in manualSnapshot
      ? undefined
      : manualSnapshot
    : query.data;

  // The snapshot is parsed once per repo read; placements are enumerated when the model, the cluster or
  // the committed workload moves. While the slider is dragged, withWorkload re-evaluates those placements.
  const read = useMemo((): ModelRead | null => {
    if (!snapshot) return null;
    try {
      return { ok: true, model: readModel(snapshot) };
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  }, [snapshot]);
  // A context past the model's limit is planned at the limit (or stretched by YaRN when asked), said once by the field.
  const ropeScaling = planWorkload.settings.ropeScaling;
  const fit = useMemo(
    () => (read?.ok ? contextFit(read.model.shape, planWorkload.contextTokens, ropeScaling) : null),
    [read, planWorkload.contextTokens, ropeScaling],
  );
  // The workload as planned (its context at the model's limit when past it): one object, so the command form sees the plan's own.
  const fitted = useMemo(
    () =>
      fit && fit.contextTokens !== planWorkload.contextTokens
        ? { ...planWorkload, contextTokens: fit.contextTokens }
        : planWorkload,
    [fit, planWorkload],
  );
  // The model with its positions stretched when YaRN was asked; the model itself otherwise (the session keys on it).
  const fittedModel = useMemo(
    () => (read?.ok && fit && fit.shape !== read.model.shape ? { ...read.model, shape: fit.shape } : null),
    [read, fit],
  );
  // What the engine is asked: the model as planned (stretched when YaRN was asked) on the cluster, for the
  // committed workload. One object per input, so the plan session and the worker's copy key on it.
  const readInput = useMemo(() => (snapshot && read?.ok ? planInputOf(snapshot, read.model) : null), [snapshot, read]);
  const committedJob = useMemo((): PlanJob | null => {
    if (!snapshot || !readInput || !fit) return null;
    const input = fittedModel ? planInputOf(snapshot, fittedModel) : readInput;
    return { input, cluster, workload: fitted };
  }, [snapshot, readInput, fit, fittedModel, cluster, fitted]);
  // Where the thumb has rested for a moment: the plan is made again there (every layout that fits that
  // context), so a pause mid-drag shows the plan the release will show (issue 17, defect 2).
  const restingAt = useSettled(planSliding, SLIDER_REST_MS);
  const released = planSliding === null;
  const restJob = useMemo((): PlanJob | null => {
    // Released: the committed plan is shown (a release where the thumb rested is the same plan, made once).
    if (released || restingAt === null || !snapshot || !read?.ok || !readInput) return null;
    try {
      const at = contextFit(read.model.shape, restingAt, planWorkload.settings.ropeScaling);
      const input =
        at.shape === read.model.shape ? readInput : planInputOf(snapshot, { ...read.model, shape: at.shape });
      return { input, cluster, workload: { ...planWorkload, contextTokens: at.contextTokens } };
    } catch {
      return null;
    }
  }, [released, restingAt, snapshot, read, readInput, cluster, planWorkload]);
  const shownJob = useMemo((): PlanJob | null => {
    if (!committedJob) return null;
    if (planSliding === null) return committedJob;
    if (restJob && restingAt === planSliding) return restJob;
    // Between rests, the last plan's layouts re-evaluated at the thumb: their figures are right, but the
    // set of layouts may not be the one this context gets, and the page says so. Only the selected
    // option's commands are made: no other is on screen, and they are a quarter of each move's work.
    const slideTo = { ...planWorkload, contextTokens: planSliding };
    const commandsFor = choices.selectedOptionId === "" ? [] : [choices.selectedOptionId];
    return { ...(restJob ?? committedJob), slideTo, commandsFor };
  }, [committedJob, planSliding, restJob, restingAt, planWorkload, choices.selectedOptionId]);
  // Made off the page's thread in a browser: the page draws the newest plan made until the next arrives.
  const view = usePlanView(shownJob);
  // The engine's own failure is a message in the options panel, with the way back, not a blank page.
  const planError =
    view.failed && committedJob && view.failed.job.input === committedJob.input && view.failed.job.cluster === cluster
      ? view.failed.error
      : null;
  const shownPlan = shownJob && planError === null ? (view.shown?.plan ?? null) : null;
  const leave = useMemo(
    () => ({
      label: manual ? "Open without the link's model" : "Open the example model",
      run: () => setRepo(store, EXAMPLE_REPO, catalogSha(EXAMPLE_REPO) ?? ""),
    }),
    [manual, store],
  );

  // Stable, so an option card far down the list is not redrawn for a new function on every slider frame.
  const onSelect = useCallback((id: string) => selectOption(store, id), [store]);
  const onFilters = useCallback((patch: Partial<Filters>) => setFilters(store, patch), [store]);

  const attemptError = attempt ? attemptQuery.error : null;
  const status = useMemo((): RepoStatus => {
    if (attempt) return attemptError ? errorStatus(attemptError) : { kind: "loading" };
    if (manualSnapshot && "error" in manualSnapshot)
      return {
        kind: "error",
        message: `the manual model in this link cannot be planned: ${manualSnapshot.error}`,
        errorKind: "model",
      };
    return repoStatus(
      manual === undefined && query.isPending,
      manual === undefined ? query.error : null,
      snapshot,
      read,
      manual !== undefined,
      manual === undefined && query.isFetching,
    );
  }, [attempt, attemptError, manual, manualSnapshot, query.isPending, query.error, query.isFetching, snapshot, read]);
  const failure = attempt ? attemptError : manual === undefined ? query.error : null;
  const gated = failure instanceof HubError && (failure.kind === "gated" || failure.kind === "token");
  const failedAt = attempt ? attemptQuery.errorUpdatedAt : query.errorUpdatedAt;
  const retry = useMemo((): RetryWay | null => {
    if (!(failure instanceof HubError) || !isRetryable(failure)) return null;
    // Without a Retry-After: a minute for a 429 (the Hub's windows are minutes), 10 s for a 5xx.
    return { seconds: failure.retryAfterS ?? (failure.kind === "rate-limit" ? 60 : 10), failedAt };
  }, [failure, failedAt]);
  // The input panels below redraw only when their own inputs change, not on every frame of a slider drag.
  const onClusterChange = useCallback((c: Cluster) => setCluster(store, c), [store]);
  const clusterPanel = useMemo(
    () => <ClusterPanel cluster={cluster} onChange={onClusterChange} />,
    [cluster, onClusterChange],
  );
  const onSetting = useCallback<OnSetting>((key, value) => setEngineSetting(store, key, value), [store]);
  const onResetSettings = useCallback(() => resetEngineSettings(store), [store]);
  // The engines' defaults come with the plan (made in the worker): one object per card and release, so the
  // settings are not drawn again on a slider move.
  const settingDefaults = shownPlan?.settingDefaults ?? null;
  const engineSettings = useMemo(
    () => (
      <Suspense fallback={ENGINE_SETTINGS_LOADING}>
        <EngineSettings
          settings={workload.settings}
          defaults={settingDefaults}
          onSet={onSetting}
          onReset={onResetSettings}
        />
      </Suspense>
    ),
    [workload.settings, settingDefaults, onSetting, onResetSettings],
  );
  // No GPU and no GGUF: llama.cpp's own refusal says so, and the page lists the repo's GGUFs beside it.
  const needsGguf =
    shownPlan !== null && shownPlan.options.length === 0 && shownPlan.refused.some((r) => r.kind === "needs-gguf");
  const ggufs = useQuery({
    ...quantizedChildrenQueryOptions(repo, access),
    enabled: needsGguf && manual === undefined,
  });
  const [readRequest, setReadRequest] = useState<string | null>(null);
  // Stable, so the model panel (a memo) is not redrawn on every slider move for a new function.
  const onReadRequestTaken = useCallback(() => setReadRequest(null), []);
  // Stable too: the context controls' fields and slider are memos, drawn on a move only when their value moves.
  const onRopeScaling = useCallback(
    (on: boolean) => setEngineSetting(store, "ropeScaling", on ? "yarn" : undefined),
    [store],
  );
  const onSlideEnd = useCallback(
    (tokens: number) => {
      setSliding(null);
      setWorkload(store, { contextTokens: tokens });
    },
    [store],
  );
  const onWorkloadChange = useCallback(
    (patch: Partial<Omit<Workload, "settings">>) => setWorkload(store, patch),
    [store],
  );
  const gpuClasses = useMemo(
    () => [...new Set(cluster.nodes.flatMap((n) => n.devices.map((d) => d.class)))],
    [cluster],
  );
  const onRank = useCallback(
    (patch: Pick<Workload, "rankBy" | "pricesPerCardHour">) => setWorkload(store, patch),
    [store],
  );
  const rankControls = useMemo(
    () => (
      <RankControls
        rankBy={workload.rankBy ?? "fewest-cards"}
        prices={workload.pricesPerCardHour ?? NO_PRICES}
        gpuClasses={gpuClasses}
        onChange={onRank}
      />
    ),
    [workload.rankBy, workload.pricesPerCardHour, gpuClasses, onRank],
  );
  const maxContext = committedJob?.input.shape.maxContextTokens ?? workload.contextTokens;
  // The engine's answer for where the commands start a context the field or the thumb asks for.
  const plannedContextOf = useCallback(
    (tokens: number) => (read?.ok ? contextFit(read.model.shape, tokens, ropeScaling).contextTokens : tokens),
    [read, ropeScaling],
  );
  const pastLimit = useMemo(
    () =>
      fit?.message
        ? {
            message:
              fit.yarn !== null && !fit.extended
                ? `${fit.message} Tick "Extend with YaRN" to plan it so.`
                : fit.message,
            yarnPossible: fit.yarn !== null,
          }
        : null,
    [fit],
  );

  const measuredOverheadGib = workload.settings.measuredOverheadGib;
  const applyMeasuredOverhead = useCallback(
    (engine: Engine, overheadGib: number) =>
      setEngineSetting(store, "measuredOverheadGib", { ...measuredOverheadGib, [engine]: overheadGib }),
    [store, measuredOverheadGib],
  );
  const ggufsError = ggufs.error;
  const ggufsData = ggufs.data;
  const whyNone = useMemo(
    () =>
      needsGguf ? (
        <NeedsGguf
          repo={manual ? manual.name : repo}
          state={
            ggufsError
              ? { kind: "error", message: ggufsError.message }
              : ggufsData
                ? { kind: "ready", children: ggufsData }
                : manual
                  ? { kind: "closed" }
                  : { kind: "loading" }
          }
          onPlan={setReadRequest}
        />
      ) : undefined,
    [needsGguf, manual, repo, ggufsError, ggufsData],
  );
  const { selectedOptionId, commandIndex, filters } = choices;
  const renderCommands = useCallback(
    (option: PlanOption) =>
      shownPlan ? (
        <>
          <Suspense fallback={<p className="muted">Loading the commands…</p>}>
            {/* The plan's own workload: the form re-checks it without a plan of its own to make (CommandForm). */}
            <CommandForm
              plan={shownPlan}
              option={option}
              workload={shownPlan.workload}
              onWorkloadChange={(w) => replaceWorkload(store, w)}
              checkSplit={checkSplit}
              chosenIndex={option.id === selectedOptionId ? commandIndex : 0}
              onChoose={(i) => {
                selectOption(store, option.id);
                chooseCommand(store, i);
              }}
            />
          </Suspense>
          <details className="deploy">
            <summary>Deploy: Kubernetes, Compose, Slurm</summary>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <DeployPanel plan={shownPlan} option={option} />
            </Suspense>
          </details>
          <details className="calibrate">
            <summary>Calibrate from a startup log</summary>
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <CalibrateFromLog
                option={option}
                workload={fitted}
                compare={calibration.compareLog}
                onUse={(engine, gib) => applyMeasuredOverhead(engine, gib)}
              />
            </Suspense>
          </details>
        </>
      ) : null,
    [shownPlan, fitted, store, selectedOptionId, commandIndex, applyMeasuredOverhead],
  );
  // One element for the same plan and choices: a slider move's urgent render passes the list by, and only
  // the deferred render (a new shown plan) draws the cards again.
  const catchingUpToTokens = view.shown?.job.slideTo?.contextTokens ?? null;
  const sequences = planWorkload.sequences;
  const optionsView = useMemo(
    () =>
      shownPlan ? (
        <OptionsView
          options={shownPlan.options}
          refused={shownPlan.refused}
          artifacts={shownPlan.artifacts}
          modelMaxContextTokens={shownPlan.shape.maxContextTokens}
          sequences={sequences}
          catchingUpToTokens={catchingUpToTokens}
          filters={filters}
          whyNone={whyNone}
          selectedOptionId={selectedOptionId}
          onFilters={onFilters}
          onSelect={onSelect}
          renderCommands={renderCommands}
        />
      ) : null,
    [shownPlan, sequences, catchingUpToTokens, filters, whyNone, selectedOptionId, onFilters, onSelect, renderCommands],
  );

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1>Modelplan</h1>
          <p className="tagline">Will this model fit my cluster, and how should it be split?</p>
        </div>
        <CopyLink choices={choices} />
      </header>
      <LinkNotices notices={linkNotices} onDismiss={() => dismissLinkNotices(store)} />
      <main>
        {shownPlan ? <p className="top-verdict">{topVerdict(shownPlan.options)}</p> : null}
        <div className="layout">
          <ModelPanel
            store={store}
            attempt={attempt}
            onAttempt={setAttempt}
            retry={retry}
            tokens={tokens}
            repo={attempt ? attempt.repo : manual ? manual.name : repo}
            revision={attempt ? (attempt.revision ?? "") : manual ? "" : revision}
            hubUrl={hubUrl}
            token={token}
            onToken={setToken}
            status={status}
            gated={gated}
            readRequest={readRequest}
            onReadRequestTaken={onReadRequestTaken}
          />
          <section className="panel panel-context" aria-labelledby="context-heading">
            <h2 id="context-heading">Context</h2>
            <ContextControls
              workload={workload}
              slidingContextTokens={sliding}
              maxContextTokens={maxContext}
              plannedContextOf={plannedContextOf}
              pastLimit={pastLimit}
              // The box shows the click at once (the store's), not the deferred plan's copy of it.
              ropeScaling={workload.settings.ropeScaling === "yarn"}
              onRopeScaling={onRopeScaling}
              onSlide={setSliding}
              onSlideEnd={onSlideEnd}
              onChange={onWorkloadChange}
            >
              {engineSettings}
            </ContextControls>
          </section>
          <section className="panel options-panel" aria-labelledby="options-heading">
            <h2 id="options-heading">Ways to run it</h2>
            <a className="skip-link" href="#cluster">
              Skip the options, to the cluster
            </a>
            {rankControls}
            {attempt && attemptError && shownPlan ? (
              <p className="notice" role="status">
                {`Still showing the last plan, for ${manual ? manual.name : repo}: ${attempt.repo} could not be read (see the message under the repo field). The link stays on this plan.`}
              </p>
            ) : null}
            <PlanBoundary part="the plan" leave={leave} resetKey={shownPlan}>
              {planError !== null ? (
                <div className="notice" role="alert">
                  <p>
                    <strong>This model could not be planned:</strong> {planError.slice(0, 300)}
                  </p>
                  <button type="button" onClick={leave.run}>
                    {leave.label}
                  </button>
                </div>
              ) : shownPlan ? (
                optionsView
              ) : (
                <>
                  <p className="muted">
                    {status.kind === "error"
                      ? "No plan: the model could not be read (see above)."
                      : "Reading the model…"}
                  </p>
                  {status.kind === "error" && manual ? (
                    <button type="button" onClick={leave.run}>
                      {leave.label}
                    </button>
                  ) : null}
                </>
              )}
            </PlanBoundary>
          </section>
          <section className="panel panel-cluster" id="cluster" tabIndex={-1} aria-labelledby="cluster-heading">
            <h2 id="cluster-heading">Cluster</h2>
            {clusterPanel}
          </section>
        </div>
        <AccuracyDisclosure />
      </main>
      <footer className="page-foot">
        <p>
          Only reads of the Hugging Face Hub leave this page; the cluster and the plan stay in your browser and in the
          link you share.
        </p>
      </footer>
    </div>
  );
}

/**
 * The page inside a last boundary: whatever fails outside the plan's own
 * boundary still leaves a message and a way to the example plan.
 */
export function PlanPage({ store, tokens }: AppProps) {
  const choices = useStore(store, (s) => s.choices);
  const leave = useMemo(
    () => ({ label: "Open the example plan", run: () => openLink(store, defaultChoices(), []) }),
    [store],
  );
  return (
    <PlanBoundary part="the page" leave={leave} resetKey={choices}>
      <App store={store} tokens={tokens} />
    </PlanBoundary>
  );
}

/** The answer in one line, near the top at any width (issue 17: at 375 px the first option was 1,264 px down). */
function topVerdict(options: readonly PlanOption[]): string {
  const best = options.find((o) => o.fits);
  if (!best)
    return options.length === 0
      ? "Nothing runs on this cluster as it is: see Ways to run it."
      : "Nothing fits at this context: see what to add under each option.";
  const speed = best.speed?.decodeTps ?? null;
  return `Fits on ${placementLabel(best.placement)} with ${engineName(best.engine)}${speed === null ? "" : `, ${formatTps(speed)} for one user`}.`;
}

/** The engine's input for a repo read: the model, at the revision it was read at. */
function planInputOf(snapshot: RepoSnapshot, model: ReturnType<typeof readModel>): PlanInput {
  return { repo: snapshot.repo, revision: snapshot.sha, ...model };
}

function errorStatus(error: Error): RepoStatus {
  return { kind: "error", message: error.message, errorKind: error instanceof HubError ? error.kind : "unknown" };
}

function repoStatus(
  pending: boolean,
  error: Error | null,
  snapshot: RepoSnapshot | undefined,
  read: ModelRead | null,
  manual: boolean,
  fetching: boolean,
): RepoStatus {
  if (error) return errorStatus(error);
  if (pending || !snapshot || !read) return { kind: "loading" };
  if (!read.ok) return { kind: "error", message: read.message, errorKind: "model" };
  const fellBack = hubFallbackReason(snapshot);
  // The catalog's own object is what the page shows before (or without) asking the Hub; the Hub's answer, or
  // the copy kept when it failed, are other objects (queries.ts).
  const source = manual ? "manual" : isBundled(snapshot) ? "catalog" : "hub";
  const ready: RepoStatus = {
    kind: "ready",
    summary: modelSummary(read.model.shape),
    artifacts: read.model.artifacts,
    sha: snapshot.sha,
    source,
  };
  if (source === "catalog" && fellBack !== undefined)
    ready.sourceWords = `Bundled copy of ${CATALOG_COPIED}: ${fellBack}`;
  else if (source === "catalog" && fetching)
    ready.sourceWords = `Bundled copy of ${CATALOG_COPIED}, while the Hub is asked for newer data`;
  const kept = keptReadReason(snapshot);
  if (kept !== undefined) ready.sourceWords = `Kept in this browser from an earlier read of the Hub: ${kept}`;
  return ready;
}

/**
 * The worker starts on the tables and the view's chunk is fetched when a pointer enters the summary or focus
 * reaches it, as the Pareto chart's is (TradeOff.tsx): the ~150–300 ms a hand takes to click is theirs. Each
 * is asked once (the client keeps its promise, the bundler its import).
 */
function prepareAccuracy(): void {
  void calibration.accuracy();
  void loadAccuracy();
}

/** Issue 7's accuracy view, fetched and drawn only once a user opens it. */
function AccuracyDisclosure() {
  const [open, setOpen] = useState(false);
  // Opened in a transition: the boundary keeps what it showed (nothing) until the view's chunk and tables are in,
  // with a line saying so, rather than a fallback React holds for 300 ms at least once shown (its reveal throttle).
  const [loading, startTransition] = useTransition();
  return (
    <details
      className="panel accuracy-panel"
      onToggle={(e) => {
        const opened = e.currentTarget.open;
        // Opened without a pointer or focus first (a script, find in page): the worker starts now.
        if (opened) prepareAccuracy();
        startTransition(() => setOpen(opened));
      }}
    >
      <summary onPointerEnter={prepareAccuracy} onFocus={prepareAccuracy}>
        Accuracy: what Modelplan predicts against what engines printed
      </summary>
      {loading ? <p className="muted">Loading the calibration cases…</p> : null}
      <Suspense fallback={<p className="muted">Loading the calibration cases…</p>}>
        {open ? <Accuracy from={calibration} /> : null}
      </Suspense>
    </details>
  );
}
