/**
 * How far the Hub read of each repo is, for the line under the repo field
 * ("GGUF headers: 3 of 10 read, 6.0 MB"): a tiny external store, so the
 * reader (outside React) publishes and the field subscribes.
 */
import type { RepoSnapshot } from "../plan/index.ts";

export interface RepoReadProgress {
  repo: string;
  headersRead: number;
  headersTotal: number;
  bytesRead: number;
  /** The newest snapshot to plan from before the read ends, if one header is in. */
  snapshot: RepoSnapshot | null;
}

const byRepo = new Map<string, RepoReadProgress>();
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function publishReadProgress(p: RepoReadProgress): void {
  byRepo.set(p.repo, p);
  emit();
}

/** The read of this repo ended (answered or failed): its line goes. */
export function endReadProgress(repo: string): void {
  if (byRepo.delete(repo)) emit();
}

export function readProgressOf(repo: string): RepoReadProgress | undefined {
  return byRepo.get(repo);
}

/**
 * Snapshots handed out before their read ended (a GGUF repo's first header in, the other quants planned by
 * their file names): planned from at once, but never kept across visits as the read at their sha (persist.ts),
 * where a pinned link would take one for the whole read and never ask the Hub again.
 */
const EARLY = new WeakSet<object>();

export function markEarly(snapshot: RepoSnapshot): RepoSnapshot {
  EARLY.add(snapshot);
  return snapshot;
}

export function isEarly(value: unknown): boolean {
  return typeof value === "object" && value !== null && EARLY.has(value);
}

export function subscribeReadProgress(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
