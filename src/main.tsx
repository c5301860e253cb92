/**
 * Mounts the page: reads the plan link (never failing: a bad link opens the
 * example and says what it ignored), creates the store, keeps the address
 * bar's fragment in step with it, and provides react-query's cache (with
 * its persister).
 */
import { QueryClient } from "@tanstack/react-query";
import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { PlanPage } from "./app/App.tsx";
import { reloadOnStaleChunk } from "./app/staleChunk.ts";
import { defaultChoices } from "./app/defaults.ts";
import { snapshotPersistence } from "./hub/persist.ts";
import { AppNotices } from "./ui/AppNotices.tsx";
// Static: the cluster panel on the first screen imports it too, so a dynamic import() could not move it out (Vite's INEFFECTIVE_DYNAMIC_IMPORT).
import { formatMessage } from "./cluster/messages.ts";
import { DEFAULT_HUB_URL, tokenStore } from "./hub/settings.ts";
import { createAppStore, type AppState } from "./state/appStore.ts";
import type { DecodedLink, DecodeOptions } from "./state/link.ts";
import "./styles.css";

/**
 * The link's reader and the cluster's validation (zod and its schemas, ~30 KB
 * gzipped) load only when there is a link to read: the first screen of a
 * plain visit plans the example with neither (issue 19).
 */
async function linkReader() {
  const [{ decodeLink }, { validateCluster }] = await Promise.all([
    import("./state/link.ts"),
    import("./cluster/validate.ts"),
  ]);
  const options: DecodeOptions = {
    checkCluster: (cluster) => validateCluster(cluster).errors.map(formatMessage),
  };
  return { decodeLink, options };
}

function storage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    // Storage is refused in some privacy modes; the page works without it.
    return null;
  }
}

const defaults = defaultChoices();
async function openedLink(): Promise<DecodedLink> {
  // An empty fragment is the example, as the reader would make it, with nothing ignored.
  if (window.location.hash.replace(/^#/, "") === "") return { choices: defaults, ignored: [] };
  const { decodeLink, options } = await linkReader();
  return decodeLink(window.location.hash, defaults, options);
}

/** Mounts the page on the choices the link opened (no top-level await: it would turn off the bundler's chunk merging). */
function start(opened: DecodedLink): void {
  const initial: AppState = { choices: opened.choices, linkNotices: opened.ignored, hubUrl: DEFAULT_HUB_URL };
  // The Hub's address is this browser's setting, not the plan's: the store keeps it in localStorage, never in a link.
  const store = createAppStore(initial, storage("localStorage"));

  // The writer (and fflate's deflate) loads as the first screen draws: it writes only when the choices change.
  void import("./state/linkWriter.ts").then(({ startLinkWriter }) => startLinkWriter(store, (s) => s.choices, window));
  // A link pasted into this tab's address bar (replaceState never fires this, so the writer does not loop).
  window.addEventListener("hashchange", () => {
    const fragment = window.location.hash;
    void Promise.all([linkReader(), import("./state/pastedLink.ts")]).then(([{ options }, { openPastedLink }]) =>
      openPastedLink(store, fragment, defaults, options),
    );
  });

  // A new version took over mid-visit and its cache lacks this one's lazy chunks: load the new one (staleChunk.ts).
  reloadOnStaleChunk(window, storage("sessionStorage"));

  const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
  // Snapshots read at a sha are kept in localStorage (public metadata, never the token), so a pinned link reopens with no request.
  const persistOptions = snapshotPersistence(queryClient, storage("localStorage"));
  const tokens = tokenStore(storage("sessionStorage"));

  const root = document.getElementById("root");
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions}>
          <AppNotices />
          <PlanPage store={store} tokens={tokens} />
        </PersistQueryClientProvider>
      </StrictMode>,
    );
  }
}

void openedLink().then(start);
