import { useSyncExternalStore } from "react";
import type { Store } from "./store.ts";

/**
 * Reads a slice of a vanilla store and re-renders when that slice changes
 * (zustand's `react.ts`). The selector must return a part of the state as
 * stored, not a new object: a fresh object on every call would re-render
 * forever.
 */
export function useStore<T, S>(store: Store<T>, select: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.getState()),
    () => select(store.getState()),
  );
}
