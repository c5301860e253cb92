/**
 * The page's store on zustand's vanilla core (no React in it): the page's
 * hook is zustand's own `useStore`, the link writer subscribes to the
 * choices alone (subscribeWithSelector), and the one setting kept across
 * visits, the Hub's address, is written by zustand's `persist`.
 */
import { createStore, type Mutate, type StoreApi } from "zustand/vanilla";
import { persist, subscribeWithSelector, type PersistStorage } from "zustand/middleware";
import { DEFAULT_HUB_URL, normalizeHubUrl, type TabStorage } from "../hub/settings.ts";

/** The key of the Hub's address in localStorage: a plain address, as pages before zustand wrote it. */
export const HUB_URL_KEY = "modelplan.hub-url";

type Persisted = { hubUrl: string };

/**
 * The stored value stays the bare address (not zustand's JSON envelope), so a
 * setting saved by an older page still opens; the default is not stored at all.
 */
function hubUrlStorage(storage: TabStorage | null): PersistStorage<Persisted> {
  return {
    getItem(name) {
      const saved = storage?.getItem(name);
      if (!saved) return null;
      const url = normalizeHubUrl(saved);
      return typeof url === "string" ? { state: { hubUrl: url }, version: 0 } : null;
    },
    setItem(name, value) {
      const { hubUrl } = value.state;
      try {
        if (hubUrl === DEFAULT_HUB_URL) storage?.removeItem(name);
        else if (storage?.getItem(name) !== hubUrl) storage?.setItem(name, hubUrl);
      } catch {
        // A full or refused storage: the setting holds for this visit only.
      }
    },
    removeItem(name) {
      storage?.removeItem(name);
    },
  };
}

export type PlanStore<T> = Mutate<
  StoreApi<T>,
  [["zustand/subscribeWithSelector", never], ["zustand/persist", Persisted]]
>;

/** A store holding `initial`, whose hubUrl is read from and written to `storage` (localStorage in the page; null: not kept). */
export function createPlanStore<T extends Persisted>(initial: T, storage: TabStorage | null): PlanStore<T> {
  return createStore<T>()(
    subscribeWithSelector(
      persist(() => initial, {
        name: HUB_URL_KEY,
        storage: hubUrlStorage(storage),
        partialize: (s): Persisted => ({ hubUrl: s.hubUrl }),
      }),
    ),
  );
}
