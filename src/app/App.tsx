/**
 * The planner page (issue 5). Data flows one way: the user's choices (the
 * store) and the Hub's data (react-query's cache) → readModel → plan →
 * withWorkload → the view. Nothing derived is stored: the plan is a useMemo
 * of its inputs, so a link that restores the choices restores the plan.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { PRESETS } from "../cluster/presets.ts";
import { summarize } from "../cluster/summary.ts";
import { catalogEntries, catalogSnapshot } from "../hub/catalog.ts";
import { HubError } from "../hub/errors.ts";
import type { HubAccess as HubAccessSettings } from "../hub/read.ts";
import { parseRepoInput } from "../hub/repoId.ts";
import { checkToken, DEFAULT_HUB_URL, normalizeHubUrl, type TokenStore } from "../hub/settings.ts";
import { plan, readModel, withWorkload, type Plan } from "../plan/index.ts";
import type { Cluster, RepoSnapshot } from "../plan/types.ts";
import {
  dismissLinkNotices,
  pinRevision,
  resetEngineSettings,
  selectOption,
  setCluster,
  setEngineSetting,
  setFilters,
  setHubUrl,
  setRepo,
  setWorkload,
  type AppStore,
} from "../state/appStore.ts";
import { useStore } from "../state/useStore.ts";
import { ContextControls } from "../ui/ContextControls.tsx";
import { CopyLink } from "../ui/CopyLink.tsx";
import { EngineSettings } from "../ui/EngineSettings.tsx";
import { modelSummary } from "../ui/format.ts";
import { HubAccess } from "../ui/HubAccess.tsx";
import { LinkNotices } from "../ui/LinkNotices.tsx";
import { OptionsView } from "../ui/OptionsView.tsx";
import { RepoField, type RepoStatus } from "../ui/RepoField.tsx";
import { largestCardBytes } from "./cluster.ts";
import { repoQueryOptions } from "./queries.ts";

interface AppProps {
  store: AppStore;
  tokens: TokenStore;
}

type ModelRead = { ok: true; model: ReturnType<typeof readModel> } | { ok: false; message: string };

export function App({ store, tokens }: AppProps) {
  const choices = useStore(store, (s) => s.choices);
  const hubUrl = useStore(store, (s) => s.hubUrl);
  const linkNotices = useStore(store, (s) => s.linkNotices);
  const queryClient = useQueryClient();
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
  const query = useQuery(repoQueryOptions(repo, revision === "" ? null : revision, access));
  const snapshot: RepoSnapshot | undefined = query.data;

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

  const status = repoStatus(query.isPending, query.error, snapshot, read);
  const gated = query.error instanceof HubError && (query.error.kind === "gated" || query.error.kind === "token");
  const maxContext = shownPlan?.shape.maxContextTokens ?? workload.contextTokens;

  function readRepoText(text: string): string | null {
    const parsed = parseRepoInput(text);
    if ("error" in parsed) return parsed.error;
    setRepo(store, parsed.repo, parsed.revision ?? "");
    // Pin the plan to the commit read, so its link reproduces it after the branch moves.
    queryClient
      .fetchQuery(repoQueryOptions(parsed.repo, parsed.revision, access))
      .then((s) => pinRevision(store, parsed.repo, s.sha))
      .catch(() => {
        // The query above shows the error where the user looks: under the field.
      });
    return null;
  }

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
      <div className="layout">
        <div className="inputs">
          <section className="panel" aria-labelledby="model-heading">
            <h2 id="model-heading">Model</h2>
            <RepoField
              repo={repo}
              revision={revision}
              status={status}
              catalog={catalogEntries()}
              onRead={readRepoText}
              access={
                <HubAccess
                  hubUrl={hubUrl}
                  defaultHubUrl={DEFAULT_HUB_URL}
                  hasToken={token !== undefined}
                  tokenRemembered={tokens.remembered()}
                  open={gated}
                  onToken={(text, remember) => {
                    const checked = checkToken(text);
                    if (checked instanceof HubError) return checked.message;
                    tokens.set(checked, remember);
                    setToken(checked);
                    return null;
                  }}
                  onForgetToken={() => {
                    tokens.clear();
                    setToken(undefined);
                  }}
                  onHubUrl={(text) => {
                    const url = normalizeHubUrl(text);
                    if (url instanceof HubError) return url.message;
                    setHubUrl(store, url);
                    return null;
                  }}
                />
              }
            />
          </section>
          <section className="panel" aria-labelledby="cluster-heading">
            <h2 id="cluster-heading">Cluster</h2>
            {/* SLOT (cluster engineer, issue 4): <ClusterPanel cluster onChange /> replaces this summary and preset picker when src/ui/ClusterPanel.tsx lands. */}
            <ClusterSlot cluster={cluster} onChange={(c) => setCluster(store, c)} />
          </section>
          <section className="panel" aria-labelledby="context-heading">
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
              <EngineSettings
                settings={workload.settings}
                cardMemoryBytes={largestCardBytes(cluster)}
                onSet={(key, value) => setEngineSetting(store, key, value)}
                onReset={() => resetEngineSettings(store)}
              />
            </ContextControls>
          </section>
        </div>
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
              onFilters={(patch) => setFilters(store, patch)}
              onSelect={(id) => selectOption(store, id)}
              renderCommands={(option) => (
                // SLOT (commands engineer, issue 6): <CommandForm option plan workload onWorkloadChange /> replaces this list when src/ui/CommandForm.tsx lands.
                <ol className="commands">
                  {option.commands.map((c, i) => (
                    <li key={i}>
                      <pre>
                        <code>{c}</code>
                      </pre>
                    </li>
                  ))}
                </ol>
              )}
            />
          ) : (
            <p className="muted">{status.kind === "error" ? "No plan: the model could not be read (see above)." : "Reading the model…"}</p>
          )}
        </section>
      </div>
      <footer className="page-foot">
        <p>
          Only reads of the Hugging Face Hub leave this page; the cluster and the plan stay in your browser and in the link you share.
        </p>
      </footer>
    </div>
  );
}

function repoStatus(pending: boolean, error: Error | null, snapshot: RepoSnapshot | undefined, read: ModelRead | null): RepoStatus {
  if (error) return { kind: "error", message: error.message, errorKind: error instanceof HubError ? error.kind : "unknown" };
  if (pending || !snapshot || !read) return { kind: "loading" };
  if (!read.ok) return { kind: "error", message: read.message, errorKind: "model" };
  return { kind: "ready", summary: modelSummary(read.model.shape), artifacts: read.model.artifacts, sha: snapshot.sha, fromCatalog: catalogSnapshot(snapshot.repo)?.sha === snapshot.sha };
}

/** Until the cluster panel lands: what the cluster holds, and its presets. */
function ClusterSlot({ cluster, onChange }: { cluster: Cluster; onChange: (cluster: Cluster) => void }) {
  return (
    <div className="cluster-slot">
      <p>{summarize(cluster)}</p>
      <label htmlFor="cluster-preset">Preset</label>
      <select
        id="cluster-preset"
        value=""
        onChange={(e) => {
          const preset = PRESETS.find((p) => p.id === e.target.value);
          if (preset) onChange(preset.cluster);
        }}
      >
        <option value="">choose a preset…</option>
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
    </div>
  );
}
