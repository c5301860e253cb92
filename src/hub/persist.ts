/**
 * The snapshots already read, kept across visits by TanStack Query's
 * persister, so that a link pinned to a commit sha seen before opens with no
 * request at all. Only repo reads at a sha are kept (a snapshot at a sha
 * never changes, so they never go stale); the only limit is room: at most
 * SNAPSHOT_CACHE_MAX_CHARS in all, the least recently used dropped first.
 * localStorage is fine here (public metadata); the token is never part of a
 * query's key or data, so it never comes here.
 */
import type { Query, QueryClient } from "@tanstack/react-query";
import { createAsyncStoragePersister } from "@tanstack/query-async-storage-persister";
import type { PersistedClient, PersistQueryClientOptions } from "@tanstack/react-query-persist-client";
import { catalogSha } from "./catalogIndex.ts";
import { isEarly } from "./readProgress.ts";
import { isCommitSha } from "./repoId.ts";
import type { TabStorage } from "./settings.ts";

/**
 * 2 M characters: a snapshot without its vocabulary is 2–40 kB (DeepSeek-R1's
 * 163 shards are 17 kB), so this holds dozens, and stays well inside the
 * 5 MB per origin browsers give localStorage.
 */
export const SNAPSHOT_CACHE_MAX_CHARS = 2 * 2 ** 20;

export const PERSIST_KEY = "modelplan.queries.v2";
/** Changing it drops what every browser kept: for a change of the snapshot's shape. */
export const PERSIST_BUSTER = "snapshot-v2";

/** The keys the hand-made cache before this one wrote: removed once, to give their room back. */
const OLD_INDEX_KEY = "modelplan.snapshots.v1";

/**
 * The query key of a repo read: ["repo", owner/name, revision], "" for no
 * revision asked: that read may be answered by the bundled catalog, while
 * an explicit "main" always asks the Hub, so the two never share an entry.
 */
export function repoKey(repo: string, revision: string | null) {
  return ["repo", repo, revision ?? ""] as const;
}

/** Kept across visits: a finished read at a sha that the bundled catalog does not already hold (not an early snapshot). */
export function isKeptRead(query: Pick<Query, "queryKey" | "state">): boolean {
  const [kind, repo, revision] = query.queryKey;
  if (kind !== "repo" || typeof repo !== "string" || typeof revision !== "string" || !isCommitSha(revision))
    return false;
  if (query.state.status !== "success" || isEarly(query.state.data)) return false;
  return catalogSha(repo) !== revision;
}

/**
 * The stored text, under `maxChars`: the least recently used reads are left
 * out first, and one read larger than the whole cap is never kept.
 */
export function keepUnder(client: PersistedClient, lastUse: ReadonlyMap<string, number>, maxChars: number): string {
  const recency = (q: PersistedClient["clientState"]["queries"][number]) =>
    lastUse.get(q.queryHash) ?? q.state.dataUpdatedAt;
  const sized = client.clientState.queries.map((q) => ({ q, chars: JSON.stringify(q).length }));
  // Newest first: each is kept while the total stays under the cap.
  sized.sort((a, b) => recency(b.q) - recency(a.q));
  const frame = JSON.stringify({ ...client, clientState: { queries: [], mutations: [] } }).length;
  let used = frame;
  const kept: typeof client.clientState.queries = [];
  for (const { q, chars } of sized) {
    if (used + chars + 1 > maxChars) continue;
    kept.push(q);
    used += chars + 1;
  }
  return JSON.stringify({ ...client, clientState: { queries: kept, mutations: [] } });
}

/**
 * The page's persistence for `client`: the options PersistQueryClientProvider
 * takes. Kept reads are never garbage-collected in the page (a collected one
 * would be missing from the next save, and so lost from storage).
 */
export function snapshotPersistence(
  client: QueryClient,
  storage: TabStorage | null,
  maxChars = SNAPSHOT_CACHE_MAX_CHARS,
): Omit<PersistQueryClientOptions, "queryClient"> {
  // A restored read keeps its own object when an equal one is set over it (no structural sharing), as every
  // repo query does (queries.ts): the copy the page falls back on is told apart from the Hub's by identity.
  client.setQueryDefaults(["repo"], { gcTime: Infinity, structuralSharing: false });
  const lastUse = new Map<string, number>();
  client.getQueryCache().subscribe((event) => {
    if (event.type === "observerAdded" || (event.type === "updated" && event.action.type === "success"))
      lastUse.set(event.query.queryHash, Date.now());
  });
  try {
    storage?.removeItem(OLD_INDEX_KEY);
  } catch {
    // Storage refused: nothing was kept there either.
  }
  const persister = createAsyncStoragePersister({
    storage: storage && {
      getItem: (key) => storage.getItem(key),
      setItem: (key, value) => storage.setItem(key, value),
      removeItem: (key) => storage.removeItem(key),
    },
    key: PERSIST_KEY,
    serialize: (persisted) => keepUnder(persisted, lastUse, maxChars),
    // What was kept is checked against the snapshot's schema (zod): loaded only when something was kept.
    deserialize: async (text) => (await import("./restore.ts")).restoreClient(text),
    // Out of the browser's quota (shared with the rest of the origin): try again with half the reads, then give up.
    retry: ({ persistedClient, errorCount }) => {
      const queries = persistedClient.clientState.queries;
      if (errorCount > 4 || queries.length === 0) return undefined;
      return {
        ...persistedClient,
        clientState: { ...persistedClient.clientState, queries: queries.slice(0, Math.floor(queries.length / 2)) },
      };
    },
  });
  return {
    persister,
    maxAge: Infinity,
    buster: PERSIST_BUSTER,
    dehydrateOptions: { shouldDehydrateQuery: isKeptRead, shouldDehydrateMutation: () => false },
  };
}
