/**
 * Keeps the address bar's fragment equal to the plan as the user works:
 * debounced, so dragging the slider does not write history sixty times a
 * second, and with replaceState, so Back leaves the page instead of stepping
 * through every slider position. The write itself (fflate's level-9 deflate,
 * 13-18 ms on a 234-option plan's link) waits for an idle moment after the
 * debounce, so it does not join the plan's catch-up after a drag in one long
 * task (issue 19, e2e/speed.spec.ts's drag).
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
  /** Where the browser has it (Safari does not): the write waits for an idle moment, at most LINK_IDLE_TIMEOUT_MS. */
  requestIdleCallback?: (callback: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
}

/** The longest an idle write waits on a page that is never idle: the link is current within a second of the change. */
export const LINK_IDLE_TIMEOUT_MS = 750;

/** Starts writing; returns the function that stops (and drops a pending write). */
export function startLinkWriter<T>(
  store: Mutate<StoreApi<T>, [["zustand/subscribeWithSelector", never]]>,
  selectChoices: (state: T) => Choices,
  win: LinkWindow,
): () => void {
  let pending: number | null = null;
  let idle: number | null = null;
  function write(): void {
    idle = null;
    const hash = `#${encodeLink(selectChoices(store.getState()))}`;
    if (win.location.hash !== hash) win.history.replaceState(null, "", hash);
  }
  function whenIdle(): void {
    pending = null;
    if (win.requestIdleCallback) idle = win.requestIdleCallback(write, { timeout: LINK_IDLE_TIMEOUT_MS });
    else write();
  }
  function cancel(): void {
    if (pending !== null) win.clearTimeout(pending);
    if (idle !== null) win.cancelIdleCallback?.(idle);
    pending = null;
    idle = null;
  }
  // Called only when the choices change (by reference), not for the Hub's address or the notices.
  const unsubscribe = store.subscribe(selectChoices, () => {
    cancel();
    pending = win.setTimeout(whenIdle, LINK_WRITE_DELAY_MS);
  });
  return () => {
    unsubscribe();
    cancel();
  };
}

/** The link to share: the page's address with the current plan, written now rather than after the debounce. */
export function currentLink(href: string, choices: Choices): string {
  const base = href.split("#")[0] ?? href;
  return `${base}#${encodeLink(choices)}`;
}
