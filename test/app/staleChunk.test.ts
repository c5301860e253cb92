/**
 * The stale-chunk reload (src/app/staleChunk.ts): a lazy chunk the new service worker's cache no longer holds
 * reloads the page once a version, never in a loop, and never where a reload would not be served from the
 * worker's cache. e2e/update.spec.ts runs the real case (two releases served in turn); this holds the guard.
 */
import { describe, expect, test } from "vitest";
import { reloadOnStaleChunk } from "../../src/app/staleChunk.ts";

/** A page's window as reloadOnStaleChunk sees it: its events, its worker, and the reloads asked. */
function page(controlled: boolean) {
  const events = new EventTarget();
  const reloads: number[] = [];
  const win = Object.assign(events, {
    navigator: { serviceWorker: controlled ? { controller: {} } : { controller: null } },
    location: { reload: () => reloads.push(reloads.length + 1) },
  });
  return {
    win: win as unknown as Window,
    reloads,
    failChunk: () => events.dispatchEvent(new Event("vite:preloadError")),
  };
}

/** sessionStorage as the page has it: one tab's, kept across its reloads. */
function tabStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

describe("a chunk of this version gone from the cache and the host", () => {
  test("reloads once; after that reload, the same version's failure is left to the error boundary", () => {
    const storage = tabStorage();
    const first = page(true);
    reloadOnStaleChunk(first.win, storage);
    first.failChunk();
    expect(first.reloads).toHaveLength(1);
    // The reloaded page is still this version (the chunk is missing for good): no second reload, no loop.
    const reloaded = page(true);
    reloadOnStaleChunk(reloaded.win, storage);
    reloaded.failChunk();
    reloaded.failChunk();
    expect(reloaded.reloads).toHaveLength(0);
  });

  test("no reload without a service worker (the network's failure: the boundary's Try again says so)", () => {
    const p = page(false);
    reloadOnStaleChunk(p.win, tabStorage());
    p.failChunk();
    expect(p.reloads).toHaveLength(0);
  });

  test("no reload where the try cannot be remembered (no storage, or storage that throws): rather none than a loop", () => {
    const none = page(true);
    reloadOnStaleChunk(none.win, null);
    none.failChunk();
    expect(none.reloads).toHaveLength(0);
    const refusing = page(true);
    const throwing = {
      ...tabStorage(),
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    reloadOnStaleChunk(refusing.win, throwing);
    refusing.failChunk();
    expect(refusing.reloads).toHaveLength(0);
  });
});
