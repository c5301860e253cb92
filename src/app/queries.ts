/**
 * One query-options factory per Hub read (docs/STYLE.md habit 4), each the one owner
 * of its key, fetcher and staleness. Hub data lives in react-query's cache,
 * keyed by repo and revision (a sha once pinned); the token is never part of
 * a key. Each fetch gets the query's AbortSignal, so a read the page no
 * longer wants (another repo typed, the tab closed) stops its requests.
 */
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { RepoSnapshot } from "../plan/index.ts";
import { EXAMPLE_ENTRY, loadCatalogEntry } from "../hub/catalog.ts";
import { catalogSha, EXAMPLE_REPO } from "../hub/catalogIndex.ts";
import { HubError, isRetryable } from "../hub/errors.ts";
import { repoKey } from "../hub/persist.ts";
import { endReadProgress, isEarly, publishReadProgress, readProgressOf } from "../hub/readProgress.ts";
import type { HubAccess } from "../hub/read.ts";
import { isCommitSha } from "../hub/repoId.ts";

/**
 * The Hub reader and its libraries (@huggingface/hub pulls in its xet and
 * blake3 code: about 88 kB gzipped, measured with vite build) load on the
 * first real read: the example plan and the catalog need none of it, so the
 * page's first paint does not wait for it.
 */
const loadReader = () => import("../hub/read.ts");
const loadDerivatives = () => import("../hub/derivatives.ts");

/** A branch may move: re-read it after this long. A sha never moves. */
const BRANCH_STALE_MS = 10 * 60 * 1000;

/**
 * Retrying a gated, missing or rate-limited read only repeats the answer (or
 * worsens a 429); a dropped connection gets one more try. A timed-out read was
 * already retried once inside the reader (hub/timeout.ts), so it is not again.
 */
function retryHub(failureCount: number, error: Error): boolean {
  return error instanceof HubError && error.kind === "network" && failureCount < 1;
}

/** Whether the bundled catalog answers this read (no revision asked, or the catalog's own): no request to the Hub. */
export function catalogAnswers(repo: string, revision: string | null): boolean {
  const sha = catalogSha(repo);
  return sha !== undefined && (revision === null || revision === sha);
}

/** The catalog's copies the page fell back on, each with why the Hub's answer was not used. */
const FALLBACKS = new WeakMap<RepoSnapshot, string>();
/** The catalog's own snapshots, as its chunks gave them: what the page plans from before (or without) the Hub. */
const BUNDLED = new WeakSet<RepoSnapshot>([EXAMPLE_ENTRY.snapshot]);

/** A catalog model's snapshot from its chunk, marked as the catalog's; undefined when the catalog has none. */
async function bundledSnapshot(repo: string): Promise<RepoSnapshot | undefined> {
  const entry = await loadCatalogEntry(repo);
  if (entry) BUNDLED.add(entry.snapshot);
  return entry?.snapshot;
}

/** Earlier reads of the Hub the page fell back on, each with why the Hub's answer was not used. */
const KEPT = new WeakMap<RepoSnapshot, string>();

/** The newest whole read of `repo` at a sha in the cache (this visit's, or one kept across visits). */
function newestKeptRead(client: QueryClient, repo: string): RepoSnapshot | undefined {
  const reads = client
    .getQueryCache()
    .findAll({ queryKey: ["repo", repo] })
    .filter((q) => isCommitSha(String(q.queryKey[2])) && q.state.status === "success" && !isEarly(q.state.data))
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  return reads[0]?.state.data as RepoSnapshot | undefined;
}

/** Why the page plans from an earlier read of the Hub kept in this browser ("the Hub did not answer"); undefined otherwise. */
export function keptReadReason(snapshot: RepoSnapshot): string | undefined {
  return KEPT.get(snapshot);
}

/** Whether the page plans from the bundled catalog's copy (its own, or kept when the Hub failed), not the Hub's answer. */
export function isBundled(snapshot: RepoSnapshot): boolean {
  return BUNDLED.has(snapshot) || FALLBACKS.has(snapshot);
}

/** Why the page plans from the bundled copy of a repo the Hub was asked for ("the Hub did not answer"); undefined when it did not fall back. */
export function hubFallbackReason(snapshot: RepoSnapshot): string | undefined {
  return FALLBACKS.get(snapshot);
}

/** The Hub did not answer (no network, a timeout, a 429 or 5xx): not an answer that the repo changed or went. */
function unanswered(err: unknown): boolean {
  return err instanceof HubError && (err.kind === "network" || err.kind === "timeout" || isRetryable(err));
}

function fallbackReason(err: unknown): string {
  if (!(err instanceof HubError)) return "the Hub's answer could not be read";
  if (err.kind === "gated" || err.kind === "token") return "the Hub asks for a token for this gated repo";
  if (unanswered(err)) return "the Hub did not answer";
  return `the Hub's answer could not be used (${err.message.slice(0, 120)})`;
}

export function repoQueryOptions(repo: string, revision: string | null, access: HubAccess) {
  const known = catalogAnswers(repo, revision);
  // The example is planned on the first screen, from the first chunk; any other catalog model loads its own.
  const initial = known && repo.toLowerCase() === EXAMPLE_REPO.toLowerCase() ? EXAMPLE_ENTRY.snapshot : undefined;
  const pinned = isCommitSha(revision);
  // A pinned commit's files never change: the catalog's copy of it is the answer. On a branch the Hub's
  // newer data wins (issue 17), and the catalog is what the page plans from meanwhile and when the Hub fails.
  const bundledOnly = known && pinned;
  return queryOptions({
    queryKey: repoKey(repo, revision),
    queryFn: async ({ signal, client }): Promise<RepoSnapshot> => {
      if (bundledOnly) {
        const bundled = await bundledSnapshot(repo);
        if (bundled) return bundled;
      }
      // Meanwhile the bundled copy (its chunk is local) is what the page plans from, unless the Hub answers first.
      let answered = false;
      if (known && !initial)
        void bundledSnapshot(repo).then((b) => {
          if (b && !answered && !signal.aborted) client.setQueryData(repoKey(repo, revision), b);
        });
      try {
        const read = await readFromHub(repo, revision, access, signal, client, pinned);
        answered = true;
        return read;
      } catch (err) {
        answered = true;
        const bundled = known && !signal.aborted ? await bundledSnapshot(repo) : undefined;
        // Network first, then the query cache: a repo read before (kept across visits at its sha) plans offline too.
        // Only for the default branch: a pinned sha or a named revision is not answered by another commit's read.
        const fallBack = !bundled && revision === null && !signal.aborted && unanswered(err);
        const kept = fallBack ? newestKeptRead(client, repo) : undefined;
        if (kept) {
          const copy = { ...kept };
          KEPT.set(copy, fallbackReason(err));
          client.setQueryData(repoKey(repo, copy.sha), copy);
          return copy;
        }
        if (!bundled) throw err;
        const copy = { ...bundled };
        FALLBACKS.set(copy, fallbackReason(err));
        // The plan pins to this sha next: that key answers with the same copy, and says why.
        if (!pinned) client.setQueryData(repoKey(repo, copy.sha), copy);
        return copy;
      }
    },
    staleTime: pinned ? Infinity : BRANCH_STALE_MS,
    retry: retryHub,
    // Which object answered says where it came from (the catalog's own, a copy kept when the Hub failed, the Hub's):
    // structural sharing would hand back the catalog's object for an equal answer.
    structuralSharing: false,
    // Shown at once, with no request; on a branch stale from the start, so the Hub is asked as the page opens.
    ...(initial ? { initialData: initial, initialDataUpdatedAt: bundledOnly ? Date.now() : 0 } : {}),
  });
}

async function readFromHub(
  repo: string,
  revision: string | null,
  access: HubAccess,
  signal: AbortSignal,
  client: QueryClient,
  pinned: boolean,
): Promise<RepoSnapshot> {
  const { readRepo } = await loadReader();
  // A GGUF repo's first header gives a plan before the others are in: that
  // snapshot answers the sha's key at once, and the full read replaces it.
  const snapshot = await readRepo(repo, revision, { ...access, signal }, (p) => {
    if (p.snapshot) client.setQueryData(repoKey(repo, p.snapshot.sha), p.snapshot);
    publishReadProgress({
      repo,
      headersRead: p.headersRead,
      headersTotal: p.headersTotal,
      bytesRead: p.bytesRead,
      snapshot: p.snapshot ?? readProgressOf(repo)?.snapshot ?? null,
    });
  }).finally(() => endReadProgress(repo));
  // The page pins its plan to the sha read next: that key then has its answer, with no second read.
  if (!pinned) client.setQueryData(repoKey(repo, snapshot.sha), snapshot);
  return snapshot;
}

export function quantizedChildrenQueryOptions(baseRepo: string, access: HubAccess) {
  return queryOptions({
    queryKey: ["quantized-children", baseRepo] as const,
    queryFn: async ({ signal }) => (await loadDerivatives()).listQuantizedChildren(baseRepo, { ...access, signal }),
    staleTime: BRANCH_STALE_MS,
    retry: retryHub,
  });
}
