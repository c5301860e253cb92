/**
 * A vanilla store: state, a setter and subscribers, with no React in it
 * (zustand's `vanilla.ts`). The page's hook (useStore.ts) and the URL writer
 * (main.tsx) both sit on top of it, so the link can be written without a
 * component being mounted, and tests can drive the store without a DOM.
 */

export interface Store<T> {
  getState(): T;
  /** Replaces the state (or derives it from the previous one) and tells every subscriber, once. */
  setState(next: T | ((previous: T) => T)): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(next) {
      const value = typeof next === "function" ? (next as (previous: T) => T)(state) : next;
      // Same reference: nothing changed, so no component re-renders and the link is not rewritten.
      if (Object.is(value, state)) return;
      state = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
