/**
 * One query-options factory per remote read (docs/STYLE.md habit 4). Hub data lives
 * in react-query's cache, keyed by repo and revision (a sha once pinned); the
 * token is never part of a key.
 */
import { queryOptions } from "@tanstack/react-query";
import type { RepoSnapshot } from "../plan/index.ts";
import { catalogSnapshot } from "../hub/catalog.ts";
import { HubError } from "../hub/errors.ts";
import { browserSnapshotCache } from "../hub/persist.ts";
import type { SnapshotCache } from "../hub/persist.ts";
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

/** Retrying a gated, missing or rate-limited read only repeats the answer (or worsens a 429); a dropped connection gets one more try. */
function retryHub(failureCount: number, error: Error): boolean {
  return error instanceof HubError && error.kind === "network" && failureCount < 1;
}

/**
 * What is known with no request: the catalog's snapshot (when no revision
 * is asked for, or the catalog's own), or a snapshot read before at this sha.
 */
export function knownSnapshot(repo: string, revision: string | null, cache: SnapshotCache): RepoSnapshot | undefined {
  const catalog = catalogSnapshot(repo);
  if (catalog && (revision === null || revision === catalog.sha)) return catalog;
  return revision !== null && isCommitSha(revision) ? cache.get(repo, revision) : undefined;
}

export function repoQueryOptions(repo: string, revision: string | null, access: HubAccess, cache: SnapshotCache = browserSnapshotCache()) {
  const known = knownSnapshot(repo, revision, cache);
  const pinned = isCommitSha(revision);
  return queryOptions({
    queryKey: ["repo", repo, revision ?? "main"] as const,
    queryFn: async (): Promise<RepoSnapshot> => {
      if (known) return known;
      const { readRepo } = await loadReader();
      const snapshot = await readRepo(repo, revision, access);
      cache.put(snapshot);
      return snapshot;
    },
    staleTime: known || pinned ? Infinity : BRANCH_STALE_MS,
    retry: retryHub,
    ...(known ? { initialData: known } : {}),
  });
}

export function quantizedChildrenQueryOptions(baseRepo: string, access: HubAccess) {
  return queryOptions({
    queryKey: ["quantized-children", baseRepo] as const,
    queryFn: async () => (await loadDerivatives()).listQuantizedChildren(baseRepo, access),
    staleTime: BRANCH_STALE_MS,
    retry: retryHub,
  });
}
