/**
 * The repo field and the Hub's access settings, as one panel that redraws
 * only when its own inputs change (not on every frame of a slider drag).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { memo, useEffect, useId, useMemo, useRef, useState } from "react";
import { loadCatalogEntry } from "../hub/catalog.ts";
import { catalogIndex, type CatalogIndexEntry } from "../hub/catalogIndex.ts";
import { HubError } from "../hub/errors.ts";
import type { HubAccess as HubAccessSettings } from "../hub/read.ts";
import { parseRepoInput } from "../hub/repoId.ts";
import { checkToken, DEFAULT_HUB_URL, normalizeHubUrl, type TokenStore } from "../hub/settings.ts";
import { pinRevision, setHubUrl, setManualModel, setRepo, type AppStore } from "../state/appStore.ts";
import { HubAccess } from "../ui/HubAccess.tsx";
import { ManualModel, type ManualInput, type ManualPreset } from "../ui/ManualModel.tsx";
import { QuantizedChildren, type ChildrenState } from "../ui/QuantizedChildren.tsx";
import { RepoField, type RepoStatus } from "../ui/RepoField.tsx";
import { readProgressOf, subscribeReadProgress } from "../hub/readProgress.ts";
import { loadManual } from "./loadManual.ts";
import { quantizedChildrenQueryOptions, repoQueryOptions } from "./queries.ts";
import { RetryCountdown } from "./RetryCountdown.tsx";

/** A repo being read that is not yet the plan's: the plan (and the link) stay on the last good one until it is read. */
export interface Attempt {
  repo: string;
  revision: string | null;
}

/** What the failed read asks: wait this long and read again (a 429 or a 5xx). */
export interface RetryWay {
  seconds: number;
  /** Changes with each failure, so a new countdown starts. */
  failedAt: number;
}

interface ModelPanelProps {
  store: AppStore;
  /** The read in flight or failed, if any (App holds it: the options panel says the plan shown is the last good one). */
  attempt: Attempt | null;
  onAttempt: (attempt: Attempt | null) => void;
  retry: RetryWay | null;
  tokens: TokenStore;
  repo: string;
  revision: string;
  hubUrl: string;
  token: string | undefined;
  onToken: (token: string | undefined) => void;
  status: RepoStatus;
  /** The Hub asked for a token: the access settings open by themselves. */
  gated: boolean;
  /** A repo another part of the page asked to plan (a GGUF of it, under the options): read as if typed. */
  readRequest?: string | null;
  onReadRequestTaken?: () => void;
}

export const ModelPanel = memo(function ModelPanel({
  store,
  attempt,
  onAttempt,
  retry,
  tokens,
  repo,
  revision,
  hubUrl,
  token,
  onToken,
  status,
  gated,
  readRequest = null,
  onReadRequestTaken,
}: ModelPanelProps) {
  const queryClient = useQueryClient();
  const access = useMemo<HubAccessSettings>(
    () => (token === undefined ? { hubUrl } : { hubUrl, accessToken: token }),
    [hubUrl, token],
  );
  const catalog = useMemo(() => catalogIndex(), []);
  const [manualOpen, setManualOpen] = useState(false);
  const [manualPreset, setManualPreset] = useState<ManualPreset | null>(null);
  // The list belongs to the repo it was opened for: reading another repo closes it.
  const [childrenFor, setChildrenFor] = useState<string | null>(null);
  const childrenOpen = childrenFor === repo;
  const children = useQuery({ ...quantizedChildrenQueryOptions(repo, access), enabled: childrenOpen });
  const childrenState: ChildrenState = !childrenOpen
    ? { kind: "closed" }
    : children.error
      ? { kind: "error", message: children.error.message }
      : children.data
        ? { kind: "ready", children: children.data }
        : { kind: "loading" };

  // Each read gets a number: a slow read that answers after a newer one was asked must not replace it.
  const reads = useRef(0);

  async function planManual(input: ManualInput): Promise<string | null> {
    const { snapshotFromManual, quantConfigEssentials } = await loadManual();
    const quant = input.quantConfig === undefined ? null : quantConfigEssentials(input.quantConfig);
    const quantConfigJson = quant === null ? undefined : JSON.stringify(quant);
    const snapshot = snapshotFromManual(input.configJsonText, input.weightsBytes, input.name, quantConfigJson);
    if ("error" in snapshot) return snapshot.error;
    reads.current++;
    onAttempt(null);
    // Minified: the link carries the config, and whitespace is most of a pretty-printed one.
    setManualModel(store, {
      name: snapshot.repo,
      configJson: JSON.stringify(snapshot.config),
      weightsBytes: input.weightsBytes,
      ...(quantConfigJson === undefined ? {} : { quantConfigJson }),
    });
    return null;
  }

  /**
   * Reads a repo; only once it is read does the plan (and so the link) move
   * to it, pinned to the commit read so its link reproduces it after the
   * branch moves. A failed read leaves the last good plan on screen under
   * its message (issue 20).
   */
  function readPinned(repoId: string, rev: string | null, with_: HubAccessSettings, again: boolean): void {
    const read = ++reads.current;
    onAttempt({ repo: repoId, revision: rev });
    const options = repoQueryOptions(repoId, rev, with_);
    // A GGUF repo plans from its first header (issue 19): the plan moves to it then, not after every header.
    let moved = false;
    const moveTo = (sha: string) => {
      moved = true;
      setRepo(store, repoId, rev ?? "");
      pinRevision(store, repoId, sha);
    };
    const unsubscribe = subscribeReadProgress(() => {
      const first = readProgressOf(repoId)?.snapshot;
      if (first && !moved && read === reads.current) moveTo(first.sha);
    });
    queryClient
      .fetchQuery(again ? { ...options, staleTime: 0 } : options)
      .finally(unsubscribe)
      .then((s) => {
        if (read !== reads.current) return;
        setRepo(store, repoId, rev ?? "");
        pinRevision(store, repoId, s.sha);
        onAttempt(null);
      })
      .catch(() => {
        // The attempt's query shows the error where the user looks: under the field.
      });
  }

  function readRepoText(text: string): string | null {
    const parsed = parseRepoInput(text);
    if ("error" in parsed) return parsed.error;
    readPinned(parsed.repo, parsed.revision, access, false);
    return null;
  }

  useEffect(() => {
    if (readRequest === null) return;
    onReadRequestTaken?.();
    readRepoText(readRequest);
    // readRepoText is this render's; the request is what moves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readRequest]);

  /** The read that failed, once more: the attempt, or the plan's own repo when the page opened on it. */
  function readAgain(): void {
    const target = attempt ?? { repo, revision: revision === "" ? null : revision };
    readPinned(target.repo, target.revision, access, true);
  }

  return (
    <section className="panel panel-model" aria-labelledby="model-heading">
      <h2 id="model-heading">Model</h2>
      <RepoField
        repo={repo}
        revision={revision}
        status={status}
        catalog={catalog}
        onRead={readRepoText}
        extra={
          status.kind === "ready" && status.source !== "manual" ? (
            <QuantizedChildren
              baseRepo={repo}
              state={childrenState}
              onOpen={(open) => setChildrenFor(open ? repo : null)}
              onPlan={(child) => void readRepoText(child)}
            />
          ) : null
        }
        offline={
          retry ? (
            <RetryCountdown key={retry.failedAt} seconds={retry.seconds} onRetry={readAgain} />
          ) : status.kind === "error" && (status.errorKind === "network" || status.errorKind === "timeout") ? (
            <OfflineWays
              key={attempt?.repo ?? repo}
              catalog={catalog}
              tried={attempt?.repo ?? repo}
              onCatalog={(entry) => {
                reads.current++;
                onAttempt(null);
                if (entry.weights === "files") {
                  setRepo(store, entry.repo, "");
                  return;
                }
                // Its config.json is in the catalog, its files' sizes are not: manual mode, the config filled in.
                void loadCatalogEntry(entry.repo).then((loaded) => {
                  if (!loaded?.snapshot.config) return;
                  const quantConfig = loaded.snapshot.extraJson?.["hf_quant_config.json"];
                  setManualPreset({
                    configJsonText: JSON.stringify(loaded.snapshot.config, null, 2),
                    name: entry.repo,
                    ...(quantConfig === undefined ? {} : { quantConfig }),
                  });
                  setManualOpen(true);
                });
              }}
              onManual={() => setManualOpen(true)}
            />
          ) : null
        }
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
              onToken(checked);
              // Read again with the token now (the attempt that asked for it, or the plan's repo).
              const target = attempt ?? { repo, revision: revision === "" ? null : revision };
              readPinned(target.repo, target.revision, { hubUrl, accessToken: checked }, true);
              return null;
            }}
            onForgetToken={() => {
              tokens.clear();
              onToken(undefined);
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
      <ManualModel
        key={manualPreset?.name ?? ""}
        open={manualOpen}
        preset={manualPreset}
        onToggle={setManualOpen}
        onUse={planManual}
      />
    </section>
  );
});

interface OfflineWaysProps {
  catalog: readonly CatalogIndexEntry[];
  /** The repo the Hub was asked for: picked in the list when the catalog has it (its config at least). */
  tried: string;
  onCatalog: (entry: CatalogIndexEntry) => void;
  onManual: () => void;
}

/** The two ways on that the "cannot reach the Hub" message names: a bundled model, or one entered by hand. */
function OfflineWays({ catalog, tried, onCatalog, onManual }: OfflineWaysProps) {
  const id = useId();
  const known = catalog.find((c) => c.repo.toLowerCase() === tried.toLowerCase());
  const [picked, setPicked] = useState(known?.repo ?? catalog[0]?.repo ?? "");
  return (
    <div className="offline-ways">
      <form
        className="repo-form"
        onSubmit={(e) => {
          e.preventDefault();
          const entry = catalog.find((c) => c.repo === picked);
          if (entry) onCatalog(entry);
        }}
      >
        <div className="field grow">
          <label htmlFor={id}>Bundled catalog (plans with no network)</label>
          <select id={id} value={picked} onChange={(e) => setPicked(e.target.value)}>
            {catalog.map((c) => (
              <option key={c.repo} value={c.repo}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Plan from the catalog</button>
      </form>
      <button type="button" onClick={onManual}>
        Enter the model by hand
      </button>
    </div>
  );
}
