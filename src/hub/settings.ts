/**
 * Where the Hub is, and the user's read token.
 *
 * The Hub's address is a setting so a mirror or an enterprise hub works: the
 * terminal reads HF_ENDPOINT as the Hub's own tools do, the page has a field.
 */
import { HubError, tokenError } from "./errors.ts";

export const DEFAULT_HUB_URL = "https://huggingface.co";

/** A Hub address as every request uses it: http(s), no trailing slash, no query. */
export function normalizeHubUrl(text: string): string | HubError {
  const trimmed = text.trim().replace(/\/+$/, "");
  if (trimmed === "") return DEFAULT_HUB_URL;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return new HubError("bad-response", `"${text}" is not an address: give the Hub's address, e.g. ${DEFAULT_HUB_URL}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return new HubError(
      "bad-response",
      `"${text}" is not an http(s) address: give the Hub's address, e.g. ${DEFAULT_HUB_URL}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** The terminal's Hub address: HF_ENDPOINT when set (as huggingface_hub reads it), else the public Hub. */
export function hubUrlFromEnv(env: Record<string, string | undefined>): string | HubError {
  return normalizeHubUrl(env.HF_ENDPOINT ?? "");
}

/** A pasted token, checked before any request (the library would throw a TypeError instead). */
export function checkToken(text: string): string | HubError {
  const token = text.trim();
  if (!/^hf_[A-Za-z0-9]+$/.test(token)) return tokenError();
  return token;
}

/** The part of the Web Storage API the token store needs (sessionStorage in the page). */
export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TokenStore {
  get(): string | undefined;
  /** Keeps the token in memory; with rememberInTab also in sessionStorage (this tab only, gone when it closes). */
  set(token: string, rememberInTab: boolean): void;
  clear(): void;
  /** Whether the token survives a reload of this tab. */
  remembered(): boolean;
}

const SESSION_KEY = "modelplan.hub-token";

/**
 * The read token's one home. Never localStorage (it would outlive the tab and
 * be readable by anything on the origin later), never the URL (links are
 * shared), never a log line: nothing here prints it, and HubError messages
 * never include it.
 */
export function tokenStore(session: TabStorage | null): TokenStore {
  let inMemory: string | undefined = session?.getItem(SESSION_KEY) ?? undefined;
  return {
    get: () => inMemory,
    set(token, rememberInTab) {
      inMemory = token;
      if (rememberInTab) session?.setItem(SESSION_KEY, token);
      else session?.removeItem(SESSION_KEY);
    },
    clear() {
      inMemory = undefined;
      session?.removeItem(SESSION_KEY);
    },
    remembered: () => session?.getItem(SESSION_KEY) != null,
  };
}
