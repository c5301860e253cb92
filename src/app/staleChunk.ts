/**
 * A chunk of this page's version that neither the cache nor the host has any more. vite-plugin-pwa's
 * autoUpdate has a new service worker take over the open page (skipWaiting, clientsClaim), and Workbox
 * drops the old version's precache as it activates: a view not opened yet (Accuracy, Import, Deploy)
 * then failed to load and the page showed only "Something in the page failed" (issue 19 audit, two
 * builds served in turn). The page loads the new version once instead, on the same link.
 */

/** This version's marker: its entry chunk's own address, which a new build's hash changes. */
const VERSION = import.meta.url;
const TRIED_KEY = "modelplan.staleChunkReload";

export function reloadOnStaleChunk(win: Window, storage: Storage | null): void {
  win.addEventListener("vite:preloadError", () => {
    // Only under a service worker: the reload is then served from its cache, offline too. Without one a
    // failed chunk is the network's, and the boundary's "Try again" says so.
    if (!win.navigator.serviceWorker?.controller || storage === null) return;
    try {
      // Once a version: a chunk still missing after the reload is said by the boundary, not reloaded forever.
      if (storage.getItem(TRIED_KEY) === VERSION) return;
      storage.setItem(TRIED_KEY, VERSION);
    } catch {
      return; // Nowhere to remember the try: no reload, rather than a loop.
    }
    win.location.reload();
  });
}
