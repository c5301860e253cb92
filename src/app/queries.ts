/**
 * One query-options factory per Hub read (docs/STYLE.md habit 4), each the one owner
 * of its key, fetcher and staleness. Hub data lives in react-query's cache,
 * keyed by repo and revision (a sha once pinned); the token is never part of
 * a key. Each fetch gets the query's AbortSignal, so a read the page no
 * longer wants (another repo typed, the tab closed) stops its requests.
 */
import { queryOptions } from "@tanstack/react-query";
import type { RepoSnapshot } from "../plan/index.ts";
import { EXAMPLE_ENTRY, loadCatalogEntry } from "../hub/catalog.ts";
import { catalogSha, EXAMPLE_REPO } from "../hub/catalogIndex.ts";
import { HubError } from "../hub/errors.ts";
import { repoKey } from "../hub/persist.ts";
import { endReadProgress, publishReadProgress, readProgressOf } from "../hub/readProgress.ts";
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

export function repoQueryOptions(repo: string, revision: string | null, access: HubAccess) {
  const known = catalogAnswers(repo, revision);
  // The example is planned on the first screen, from the first chunk; any other catalog model loads its own.
  const initial = known && repo.toLowerCase() === EXAMPLE_REPO.toLowerCase() ? EXAMPLE_ENTRY.snapshot : undefined;
  const pinned = isCommitSha(revision);
  return queryOptions({
    queryKey: repoKey(repo, revision),
    queryFn: async ({ signal, client }): Promise<RepoSnapshot> => {
      const bundled = known ? await loadCatalogEntry(repo) : undefined;
      if (bundled) return bundled.snapshot;
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
    },
    staleTime: known || pinned ? Infinity : BRANCH_STALE_MS,
    retry: retryHub,
    ...(initial ? { initialData: initial } : {}),
  });
}

export function quantizedChildrenQueryOptions(baseRepo: string, access: HubAccess) {
  return queryOptions({
    queryKey: ["quantized-children", baseRepo] as const,
    queryFn: async ({ signal }) => (await loadDerivatives()).listQuantizedChildren(baseRepo, { ...access, signal }),
    staleTime: BRANCH_STALE_MS,
    retry: retryHub,
  });
}
