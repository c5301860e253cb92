/**
 * Whether this site's own server answers: navigator.onLine says true on a network that reaches
 * nothing (and under Chromium's offline emulation), so one request the service worker never
 * answers from its cache (sw.js itself) asks. Any answer, even a 404, is online; only a failed
 * request is not. Network code lives in src/hub, this probe too.
 */
export function siteReachable(): Promise<boolean> {
  return fetch("./sw.js", { method: "HEAD", cache: "no-store" }).then(
    () => true,
    () => false,
  );
}
