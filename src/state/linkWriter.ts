/**
 * Keeps the address bar's fragment equal to the plan as the user works:
 * debounced, so dragging the slider does not write history sixty times a
 * second, and with replaceState, so Back leaves the page instead of stepping
 * through every slider position.
 */
import type { Choices } from "./choices.ts";
import { encodeLink } from "./linkWire.ts";

// The page loads the writer after its first screen (src/main.tsx, CopyLink.tsx); this is its one door to the link's text.
export { linkCarriesManual } from "./linkWire.ts";
import type { Mutate, StoreApi } from "zustand/vanilla";

/** Long enough to coalesce a slider drag, short enough that a link copied from the address bar is current. */
export const LINK_WRITE_DELAY_MS = 250;

/** The part of `window` the writer uses, so tests can hand in their own. */
export interface LinkWindow {
  location: { hash: string };
  history: { replaceState(data: unknown, unused: string, url: string): void };
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(id: number): void;
}

/** Starts writing; returns the function that stops (and drops a pending write). */
export function startLinkWriter<T>(
  store: Mutate<StoreApi<T>, [["zustand/subscribeWithSelector", never]]>,
  selectChoices: (state: T) => Choices,
  win: LinkWindow,
): () => void {
  let pending: number | null = null;
  function write(): void {
    pending = null;
    const hash = `#${encodeLink(selectChoices(store.getState()))}`;
    if (win.location.hash !== hash) win.history.replaceState(null, "", hash);
  }
  // Called only when the choices change (by reference), not for the Hub's address or the notices.
  const unsubscribe = store.subscribe(selectChoices, () => {
    if (pending !== null) win.clearTimeout(pending);
    pending = win.setTimeout(write, LINK_WRITE_DELAY_MS);
  });
  return () => {
    unsubscribe();
    if (pending !== null) win.clearTimeout(pending);
  };
}

/** The link to share: the page's address with the current plan, written now rather than after the debounce. */
export function currentLink(href: string, choices: Choices): string {
  const base = href.split("#")[0] ?? href;
  return `${base}#${encodeLink(choices)}`;
}
