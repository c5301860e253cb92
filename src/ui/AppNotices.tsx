/**
 * The page's own state, above the plan: offline (the plan is drawn from the
 * cached app and the bundled catalog or what was read before; the Hub cannot
 * be read), and a new version installed (it opens on the next load).
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { siteReachable } from "../hub/reachable.ts";

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

/**
 * Registers the service worker (the built site's sw.js) and tells when a new version took over. Under
 * vite-plugin-pwa's autoUpdate (skipWaiting, clientsClaim: vite.config.ts) a new version's worker, once
 * installed, at once controls this page and serves the next load, while the code on screen stays this one:
 * the page's controller changes. A page no worker controlled yet (a first visit, a hard reload) is not
 * "updated" when one first takes it: that worker serves the version on screen. Asked at each change, not
 * once when the page opened: a first visit left open sees a later release too.
 */
function useUpdateInstalled(): boolean {
  const [installed, setInstalled] = useState(false);
  useEffect(() => {
    if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
    const container = navigator.serviceWorker;
    let controlled = container.controller !== null;
    const onControllerChange = () => {
      if (controlled) setInstalled(true);
      controlled = true;
    };
    container.addEventListener("controllerchange", onControllerChange);
    // No worker (a private window, an http origin): the page works online as before.
    container.register("./sw.js").catch(() => undefined);
    return () => container.removeEventListener("controllerchange", onControllerChange);
  }, []);
  return installed;
}

/** Whether this site's server answers (src/hub/reachable.ts), asked again when the browser says it is on or off line. */
function useServerReachable(onLine: boolean): boolean {
  const [reachable, setReachable] = useState(true);
  useEffect(() => {
    let current = true;
    void siteReachable().then((ok) => current && setReachable(ok));
    return () => {
      current = false;
    };
  }, [onLine]);
  return reachable;
}

export function AppNotices() {
  const onLine = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  const reachable = useServerReachable(onLine);
  const online = onLine && reachable;
  const updated = useUpdateInstalled();
  return (
    <>
      {!online ? (
        <p className="notice" role="status">
          Offline: the page and the bundled catalog work from this browser's copy, and models read before are kept;
          reading a new repo from the Hub needs the network.
        </p>
      ) : null}
      {updated ? (
        <p className="notice" role="status">
          A new version of Modelplan was installed: it opens on the next load.
        </p>
      ) : null}
    </>
  );
}
