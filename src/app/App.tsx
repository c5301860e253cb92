/**
 * The planner page (issue 5). Data flows one way: the user's choices (the
 * store) and the Hub's data (react-query's cache) → readModel → plan →
 * withWorkload → the view. Nothing derived is stored: the plan is a useMemo
 * of its inputs, so a link that restores the choices restores the plan.
 */
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { catalogSnapshot } from "../hub/catalog.ts";
import { HubError } from "../hub/errors.ts";
import { snapshotFromManual } from "../hub/manual.ts";
import type { HubAccess as HubAccessSettings } from "../hub/read.ts";
import type { TokenStore } from "../hub/settings.ts";
import { largestCardBytes, plan, readModel, withWorkload, type Plan } from "../plan/index.ts";
import type { Cluster, Engine, EngineSettings as Settings, RepoSnapshot } from "../plan/types.ts";
import {
  chooseCommand,
  dismissLinkNotices,
  resetEngineSettings,
  selectOption,
  setCluster,
  setEngineSetting,
  setFilters,
  replaceWorkload,
  setWorkload,
  type AppStore,
} from "../state/appStore.ts";
import type { Filters } from "../state/choices.ts";
import { linkCarriesManual } from "../state/link.ts";
import { useStore } from "../state/useStore.ts";
import { CalibrateFromLog } from "../ui/CalibrateFromLog.tsx";
import { ClusterPanel } from "../ui/ClusterPanel.tsx";
import { CommandForm } from "../ui/CommandForm.tsx";
import { ContextControls } from "../ui/ContextControls.tsx";
import { CopyLink } from "../ui/CopyLink.tsx";
import { EngineSettings } from "../ui/EngineSettings.tsx";
import { modelSummary } from "../ui/format.ts";
import { LinkNotices } from "../ui/LinkNotices.tsx";
import { OptionsView } from "../ui/OptionsView.tsx";
import type { RepoStatus } from "../ui/RepoField.tsx";
import { ModelPanel } from "./ModelPanel.tsx";
import { repoQueryOptions } from "./queries.ts";

/** The accuracy table carries every calibration case: loaded only when a user opens it. */
const Accuracy = lazy(() => import("../ui/Accuracy.tsx").then((m) => ({ default: m.Accuracy })));
/** The Deploy panel and its manifest writers load when an option is opened, not with the page (e2e/speed.spec.ts budget). */
const DeployPanel = lazy(() => import("../ui/DeployPanel.tsx").then((m) => ({ default: m.DeployPanel })));

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
  const access = useMemo<HubAccessSettings>(() => (token === undefined ? { hubUrl } : { hubUrl, accessToken: token }), [hubUrl, token]);
  const manual = choices.manual;
  // A model given by hand replaces the repo's: nothing is asked of the Hub for it.
  const manualSnapshot = useMemo(() => (manual ? snapshotFromManual(manual.configJson, manual.weightsBytes, manual.name) : null), [manual]);
  const query = useQuery({ ...repoQueryOptions(repo, revision === "" ? null : revision, access), enabled: manual === undefined });
  const snapshot: RepoSnapshot | undefined = manualSnapshot ? ("error" in manualSnapshot ? undefined : manualSnapshot) : query.data;

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
  const enumerated = useMemo((): Plan | null => {
    if (!snapshot || !read?.ok) return null;
    return plan({ repo: snapshot.repo, revision: snapshot.sha, ...read.model }, cluster, workload);
  }, [snapshot, read, cluster, workload]);
  const shownPlan = useMemo(() => {
    if (!enumerated) return null;
    return sliding === null ? enumerated : withWorkload(enumerated, { ...workload, contextTokens: sliding });
  }, [enumerated, sliding, workload]);

  // Stable, so an option card far down the list is not redrawn for a new function on every slider frame.
  const onSelect = useCallback((id: string) => selectOption(store, id), [store]);
  const onFilters = useCallback((patch: Partial<Filters>) => setFilters(store, patch), [store]);

  const status = useMemo(
    () =>
      manualSnapshot && "error" in manualSnapshot
        ? ({ kind: "error", message: `the manual model in this link cannot be planned: ${manualSnapshot.error}`, errorKind: "model" } as const)
        : repoStatus(manual === undefined && query.isPending, manual === undefined ? query.error : null, snapshot, read, manual !== undefined),
    [manual, manualSnapshot, query.isPending, query.error, snapshot, read],
  );
  const gated = manual === undefined && query.error instanceof HubError && (query.error.kind === "gated" || query.error.kind === "token");
  // The input panels below redraw only when their own inputs change, not on every frame of a slider drag.
  const onClusterChange = useCallback((c: Cluster) => setCluster(store, c), [store]);
  const clusterPanel = useMemo(() => <ClusterPanel cluster={cluster} onChange={onClusterChange} />, [cluster, onClusterChange]);
  const onSetting = useCallback<OnSetting>((key, value) => setEngineSetting(store, key, value), [store]);
  const onResetSettings = useCallback(() => resetEngineSettings(store), [store]);
  const cardBytes = useMemo(() => largestCardBytes(cluster), [cluster]);
  const engineSettings = useMemo(
    () => <EngineSettings settings={workload.settings} cardMemoryBytes={cardBytes} onSet={onSetting} onReset={onResetSettings} />,
    [workload.settings, cardBytes, onSetting, onResetSettings],
  );
  const maxContext = shownPlan?.shape.maxContextTokens ?? workload.contextTokens;

  function applyMeasuredOverhead(engine: Engine, overheadGib: number): void {
    setEngineSetting(store, "measuredOverheadGib", { ...workload.settings.measuredOverheadGib, [engine]: overheadGib });
  }

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1>Modelplan</h1>
          <p className="tagline">Will this model fit my cluster, and how should it be split?</p>
        </div>
        <CopyLink choices={choices} carriesManual={linkCarriesManual(choices)} />
      </header>
      <LinkNotices notices={linkNotices} onDismiss={() => dismissLinkNotices(store)} />
      <div className="layout">
        <ModelPanel store={store} tokens={tokens} repo={manual ? manual.name : repo} revision={manual ? "" : revision} hubUrl={hubUrl} token={token} onToken={setToken} status={status} gated={gated} />
        <section className="panel panel-context" aria-labelledby="context-heading">
          <h2 id="context-heading">Context</h2>
          <ContextControls
            workload={workload}
            slidingContextTokens={sliding}
            maxContextTokens={maxContext}
            onSlide={setSliding}
            onSlideEnd={(tokens) => {
              setSliding(null);
              setWorkload(store, { contextTokens: tokens });
            }}
            onChange={(patch) => setWorkload(store, patch)}
          >
            {engineSettings}
          </ContextControls>
        </section>
        <section className="panel options-panel" aria-labelledby="options-heading">
          <h2 id="options-heading">Ways to run it</h2>
          {shownPlan ? (
            <OptionsView
              options={shownPlan.options}
              refused={shownPlan.refused}
              artifacts={shownPlan.artifacts}
              modelMaxContextTokens={shownPlan.shape.maxContextTokens}
              filters={choices.filters}
              selectedOptionId={choices.selectedOptionId}
              onFilters={onFilters}
              onSelect={onSelect}
              renderCommands={(option) => (
                <>
                  <CommandForm
                    plan={shownPlan}
                    option={option}
                    workload={workload}
                    onWorkloadChange={(w) => replaceWorkload(store, w)}
                    chosenIndex={option.id === choices.selectedOptionId ? choices.commandIndex : 0}
                    onChoose={(i) => {
                      selectOption(store, option.id);
                      chooseCommand(store, i);
                    }}
                  />
                  <details className="deploy">
                    <summary>Deploy: Kubernetes, Compose, Slurm</summary>
                    <Suspense fallback={<p className="muted">Loading…</p>}>
                      <DeployPanel plan={shownPlan} option={option} />
                    </Suspense>
                  </details>
                  <details className="calibrate">
                    <summary>Calibrate from a startup log</summary>
                    <CalibrateFromLog option={option} workload={workload} onUse={(engine, gib) => applyMeasuredOverhead(engine, gib)} />
                  </details>
                </>
              )}
            />
          ) : (
            <p className="muted">{status.kind === "error" ? "No plan: the model could not be read (see above)." : "Reading the model…"}</p>
          )}
        </section>
        <section className="panel panel-cluster" aria-labelledby="cluster-heading">
          <h2 id="cluster-heading">Cluster</h2>
          {clusterPanel}
        </section>
      </div>
      <AccuracyDisclosure />
      <footer className="page-foot">
        <p>
          Only reads of the Hugging Face Hub leave this page; the cluster and the plan stay in your browser and in the link you share.
        </p>
      </footer>
    </div>
  );
}

function repoStatus(pending: boolean, error: Error | null, snapshot: RepoSnapshot | undefined, read: ModelRead | null, manual: boolean): RepoStatus {
  if (error) return { kind: "error", message: error.message, errorKind: error instanceof HubError ? error.kind : "unknown" };
  if (pending || !snapshot || !read) return { kind: "loading" };
  if (!read.ok) return { kind: "error", message: read.message, errorKind: "model" };
  const source = manual ? "manual" : catalogSnapshot(snapshot.repo)?.sha === snapshot.sha ? "catalog" : "hub";
  return { kind: "ready", summary: modelSummary(read.model.shape), artifacts: read.model.artifacts, sha: snapshot.sha, source };
}

/** Issue 7's accuracy view, fetched and drawn only once a user opens it. */
function AccuracyDisclosure() {
  const [open, setOpen] = useState(false);
  return (
    <details className="panel accuracy-panel" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Accuracy: what Modelplan predicts against what engines printed</summary>
      {open ? (
        <Suspense fallback={<p className="muted">Loading the calibration cases…</p>}>
          <Accuracy />
        </Suspense>
      ) : null}
    </details>
  );
}
