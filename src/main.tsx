/**
 * Mounts the page: reads the plan link (never failing: a bad link opens the
 * example and says what it ignored), creates the store, keeps the address
 * bar's fragment in step with it, and provides react-query's cache.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { defaultChoices } from "./app/defaults.ts";
import { formatMessage } from "./cluster/messages.ts";
import { validateCluster } from "./cluster/validate.ts";
import { DEFAULT_HUB_URL, normalizeHubUrl, tokenStore } from "./hub/settings.ts";
import { createAppStore, openLink, type AppState } from "./state/appStore.ts";
import { decodeLink, type DecodeOptions } from "./state/link.ts";
import { startLinkWriter } from "./state/linkWriter.ts";
import "./styles.css";

/** The Hub's address is this browser's setting, not the plan's: kept in localStorage, never in a link. */
const HUB_URL_KEY = "modelplan.hub-url";

const decodeOptions: DecodeOptions = {
  checkCluster: (cluster) => validateCluster(cluster).errors.map(formatMessage),
};

function storage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    // Storage is refused in some privacy modes; the page works without it.
    return null;
  }
}

function savedHubUrl(): string {
  const saved = storage("localStorage")?.getItem(HUB_URL_KEY);
  if (!saved) return DEFAULT_HUB_URL;
  const url = normalizeHubUrl(saved);
  return typeof url === "string" ? url : DEFAULT_HUB_URL;
}

const defaults = defaultChoices();
const opened = decodeLink(window.location.hash, defaults, decodeOptions);
const initial: AppState = { choices: opened.choices, linkNotices: opened.ignored, hubUrl: savedHubUrl() };
const store = createAppStore(initial);

startLinkWriter(store, (s) => s.choices, window);
store.subscribe(() => {
  const { hubUrl } = store.getState();
  if (hubUrl === DEFAULT_HUB_URL) storage("localStorage")?.removeItem(HUB_URL_KEY);
  else storage("localStorage")?.setItem(HUB_URL_KEY, hubUrl);
});
// A link pasted into this tab's address bar (replaceState never fires this, so the writer does not loop).
window.addEventListener("hashchange", () => {
  const next = decodeLink(window.location.hash, defaults, decodeOptions);
  openLink(store, next.choices, next.ignored);
});

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
const tokens = tokenStore(storage("sessionStorage"));

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App store={store} tokens={tokens} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
