/**
 * A long list's items catching up to the list's newest values a few at a
 * time, each in an idle slice, rather than the whole list in one render.
 * Issue 19: at 4× CPU throttling (a laptop 3–4× slower than the 2-core
 * machine this was measured on) the 234 option cards catching up after the
 * slider rested were one React render and commit of every card; and since a
 * drag there outlasts the scheduler's 5 s timeout for a transition, React
 * rendered that transition synchronously: 267–539 ms tasks (Chromium trace,
 * `performWorkOnRootViaSchedulerTask > renderRootSync` with didTimeout).
 * Here each item is its own subscriber (useSyncExternalStore) and is drawn
 * in its own flushSync inside an idle callback, while the slice has time.
 */

/** A slice's own cap, under the idle period's 50 ms: what is left of the frame stays the page's. */
const SLICE_MS = 20;
/** Past this the next slice runs even if the page is never idle, so a list on a busy page still catches up. */
const IDLE_TIMEOUT_MS = 1000;

export interface IdleScheduler {
  request(work: (timeLeftMs: () => number) => void): void;
}

export interface CatchUp<T> {
  /** The value the item of `key` shows as of its last catch-up; undefined until it has caught up once. */
  get(key: string): T | undefined;
  subscribe(key: string, listener: () => void): () => void;
  /**
   * The list's newest values: each item whose value differs catches up in an idle slice, those `rank`
   * puts lowest first (on screen, then near it). A newer call replaces what is still waiting.
   */
  follow(values: readonly T[], keyOf: (value: T) => string, rank: (key: string) => number): void;
}

/** `draw(notify)` draws what `notify` changes at once (React's flushSync), so the slice can time each item. */
export function catchUp<T>(draw: (notify: () => void) => void, idle: IdleScheduler = browserIdle()): CatchUp<T> {
  const caught = new Map<string, T>();
  const listeners = new Map<string, Set<() => void>>();
  let waiting: { key: string; value: T }[] = [];
  let scheduled = false;
  /** About the slowest item drawn lately (one slow draw fades): a slice starts another only when this much is left. */
  let itemMs = 0;

  const slice = (timeLeftMs: () => number) => {
    scheduled = false;
    const start = performance.now();
    const left = () => Math.min(timeLeftMs(), SLICE_MS - (performance.now() - start));
    do {
      const next = waiting.shift();
      if (!next) break;
      if (caught.get(next.key) === next.value) continue;
      const began = performance.now();
      caught.set(next.key, next.value);
      const heard = listeners.get(next.key);
      if (heard) draw(() => heard.forEach((l) => l()));
      itemMs = Math.max(itemMs * 0.9, performance.now() - began);
    } while (left() > itemMs);
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    idle.request(slice);
  };

  return {
    get: (key) => caught.get(key),
    subscribe(key, listener) {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(key);
      };
    },
    follow(values, keyOf, rank) {
      waiting = values
        .map((value) => ({ key: keyOf(value), value }))
        .filter((w) => caught.get(w.key) !== w.value)
        .map((w, i) => ({ ...w, order: rank(w.key) * values.length + i }))
        .sort((a, b) => a.order - b.order)
        .map(({ key, value }) => ({ key, value }));
      if (waiting.length > 0) schedule();
    },
  };
}

/** requestIdleCallback where the browser has it (Safari does not): a timer otherwise, a slice of SLICE_MS. */
function browserIdle(): IdleScheduler {
  return {
    request(work) {
      if (typeof requestIdleCallback === "function")
        requestIdleCallback((deadline) => work(() => deadline.timeRemaining()), { timeout: IDLE_TIMEOUT_MS });
      else setTimeout(() => work(() => SLICE_MS), 0);
    },
  };
}
