/**
 * A link pasted into the address bar, read with the link's reader (and so
 * zod), which the page loads only when a link is opened (issue 19).
 */
import { openLink, type AppStore } from "./appStore.ts";
import type { Choices } from "./choices.ts";
import { decodeLink, type DecodeOptions } from "./link.ts";

/**
 * A link pasted into this tab's address bar: read, it replaces the plan (its
 * bad fields fall back to the defaults, named); unreadable as a whole
 * (damaged, cut, another format), it leaves the last good plan on screen and
 * says why (issue 20), rather than throwing that plan away for the example.
 */
export function openPastedLink(
  store: AppStore,
  fragment: string,
  defaults: Choices,
  options: DecodeOptions = {},
): void {
  const next = decodeLink(fragment, defaults, { ...options, keepsPlan: true });
  if (next.choices === defaults && next.ignored.length > 0) {
    store.setState((s) => ({ ...s, linkNotices: next.ignored }));
    return;
  }
  openLink(store, next.choices, next.ignored);
}
