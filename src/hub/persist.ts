/**
 * The snapshots already read, kept across visits so that a link pinned to a
 * commit sha seen before opens with no request at all. A snapshot at a sha
 * never changes, so it never goes stale; the only limit is room: at most
 * SNAPSHOT_CACHE_MAX_CHARS in all, the least recently used evicted first.
 * localStorage is fine here (public metadata); the token never comes here.
 */
import type { RepoSnapshot } from "../plan/index.ts";
import type { TabStorage } from "./settings.ts";

/**
 * 2 M characters: a snapshot without its vocabulary is 2–40 kB (DeepSeek-R1's
 * 163 shards are 17 kB), so this holds dozens, and stays well inside the
 * 5 MB per origin browsers give localStorage.
 */
export const SNAPSHOT_CACHE_MAX_CHARS = 2 * 2 ** 20;

const INDEX_KEY = "modelplan.snapshots.v1";
const ENTRY_PREFIX = "modelplan.snapshot.v1:";

interface IndexEntry {
  key: string;
  chars: number;
}

export interface SnapshotCache {
  get(repo: string, sha: string): RepoSnapshot | undefined;
  /** Keeps a snapshot read at a sha; snapshots without one (catalog, manual) are not kept. */
  put(snapshot: RepoSnapshot): void;
}

function entryKey(repo: string, sha: string): string {
  return `${ENTRY_PREFIX}${repo.toLowerCase()}@${sha}`;
}

function readIndex(storage: TabStorage): IndexEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(INDEX_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((e): e is IndexEntry => typeof e?.key === "string" && typeof e?.chars === "number") : [];
  } catch {
    return [];
  }
}

function isSnapshot(value: unknown): value is RepoSnapshot {
  const s = value as RepoSnapshot | null;
  return typeof s === "object" && s !== null && typeof s.repo === "string" && typeof s.sha === "string" && Array.isArray(s.files) && typeof s.ggufHeaders === "object";
}

export function snapshotCache(storage: TabStorage | null, maxChars = SNAPSHOT_CACHE_MAX_CHARS): SnapshotCache {
  if (!storage) return { get: () => undefined, put: () => undefined };
  // The page asks on every render (the query options are rebuilt each time):
  // a snapshot parsed once stays parsed, and storage is touched once per key.
  const parsed = new Map<string, RepoSnapshot>();
  // When each key was last asked for in this page; the stored order is brought up to date at the next put.
  const lastUse = new Map<string, number>();
  let uses = 0;
  const touch = (key: string) => lastUse.set(key, ++uses);
  const writeIndex = (index: IndexEntry[]) => {
    try {
      storage.setItem(INDEX_KEY, JSON.stringify(index));
    } catch {
      // Out of quota even for the index: the entries it lost are found again by key or read again.
    }
  };
  return {
    get(repo, sha) {
      const key = entryKey(repo, sha);
      const known = parsed.get(key);
      if (known) {
        touch(key);
        return known;
      }
      const text = storage.getItem(key);
      if (text === null) return undefined;
      try {
        const value: unknown = JSON.parse(text);
        if (!isSnapshot(value)) return undefined;
        touch(key);
        parsed.set(key, value);
        return value;
      } catch {
        storage.removeItem(key);
        return undefined;
      }
    },
    put(snapshot) {
      if (snapshot.sha === "") return;
      const key = entryKey(snapshot.repo, snapshot.sha);
      const text = JSON.stringify(snapshot);
      if (text.length > maxChars) return;
      // Least recently used first: what this page asked for moves behind the rest, in the order it was asked.
      let index = readIndex(storage)
        .filter((e) => e.key !== key)
        .map((e, i) => ({ e, used: lastUse.get(e.key), i }))
        .sort((a, b) => (a.used === undefined ? (b.used === undefined ? a.i - b.i : -1) : b.used === undefined ? 1 : a.used - b.used))
        .map(({ e }) => e);
      let used = index.reduce((sum, e) => sum + e.chars, 0);
      while (used + text.length > maxChars && index.length > 0) {
        const [oldest, ...rest] = index;
        if (oldest) {
          storage.removeItem(oldest.key);
          parsed.delete(oldest.key);
          used -= oldest.chars;
        }
        index = rest;
      }
      try {
        storage.setItem(key, text);
        writeIndex([...index, { key, chars: text.length }]);
        parsed.set(key, snapshot);
        touch(key);
      } catch {
        // The browser's own quota (shared with other data on the origin): it is only a cache.
        writeIndex(index);
      }
    },
  };
}

let pageCache: SnapshotCache | undefined;

/** The page's cache, one per page: localStorage when the browser gives it (it may throw in a sandboxed frame). */
export function browserSnapshotCache(): SnapshotCache {
  if (!pageCache) {
    try {
      pageCache = snapshotCache(globalThis.localStorage ?? null);
    } catch {
      pageCache = snapshotCache(null);
    }
  }
  return pageCache;
}
