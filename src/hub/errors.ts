/**
 * Every way reading the Hub can fail, each with words a user can act on.
 * The page shows `message` as is, and offers the way on `kind` implies
 * (a token field for "gated", the catalog and manual mode for "network").
 */

export type HubErrorKind =
  | "gated"
  | "not-found"
  | "revision"
  | "rate-limit"
  | "network"
  | "bad-response"
  | "gguf-range"
  | "gguf-html"
  | "gguf-truncated"
  | "token"
  | "timeout"
  | "shape";

export class HubError extends Error {
  kind: HubErrorKind;
  /** The HTTP status that led here, when there was one. */
  status?: number;
  /** How long the Hub asked to wait before retrying (Retry-After), in seconds, when it said. */
  retryAfterS?: number;

  constructor(kind: HubErrorKind, message: string, status?: number) {
    super(message);
    this.name = "HubError";
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** An answer worth retrying after a wait: the Hub limiting requests (429), or failing for a moment (5xx). */
export function isRetryable(err: HubError): boolean {
  return err.kind === "rate-limit" || (err.status !== undefined && err.status >= 500 && err.status <= 599);
}

/** The longest wait a page counts down: a Retry-After of hours is a reason to come back later, said as such. */
const MAX_RETRY_AFTER_S = 3600;

/**
 * The wait an answer asks for, in seconds: Retry-After (RFC 9110 §10.2.3,
 * seconds or an HTTP date), else the `t=` of the RateLimit header the Hub
 * sends with a 429 (`"api";r=0;t=120`, IETF draft-ietf-httpapi-ratelimit-headers).
 */
export function retryAfterSeconds(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  let seconds: number | undefined;
  if (retryAfter && /^\d+$/.test(retryAfter)) seconds = Number(retryAfter);
  else if (retryAfter) {
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) seconds = Math.max(0, Math.ceil((at - nowMs) / 1000));
  }
  if (seconds === undefined) {
    const t = /(?:^|;)\s*t=(\d+)/.exec(headers.get("ratelimit") ?? "");
    if (t) seconds = Number(t[1]);
  }
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_S);
}

/** The page a user opens to accept a gated repo's terms. */
function repoPage(hubUrl: string, repo: string): string {
  return `${hubUrl}/${repo}`;
}

export function gatedError(hubUrl: string, repo: string, status: number, withToken: boolean): HubError {
  // Issue 3's words. With a token the Hub says 403 when the account has not
  // been granted access yet: the way on is the same page, with that account.
  const more = withToken
    ? ` (your token's account has not been granted access yet: accept the terms at ${repoPage(hubUrl, repo)} with that account)`
    : ` (${repoPage(hubUrl, repo)})`;
  return new HubError(
    "gated",
    `${repo}: this repo is gated: accept its terms on its Hub page, then paste a read token${more}`,
    status,
  );
}

export function notFoundError(hubUrl: string, repo: string, status: number, withToken: boolean): HubError {
  // Anonymously the Hub answers 401 "Invalid username or password." for a repo
  // that does not exist (or is private), not 404 (docs/notes/hub-api.md §1d).
  const privateHint = withToken
    ? "check the spelling (owner/name), and that your token's account can see it if it is private"
    : "check the spelling (owner/name); if it is private, paste a read token";
  return new HubError("not-found", `no model "${repo}" at ${hubUrl}: ${privateHint}`, status);
}

export function revisionError(repo: string, revision: string, status: number): HubError {
  return new HubError(
    "revision",
    `${repo} has no revision "${revision}": check the branch, tag or commit, or leave the revision out to read main`,
    status,
  );
}

export function rateLimitError(status: number, retryAfterS?: number): HubError {
  const wait =
    retryAfterS === undefined
      ? "wait a few minutes and retry"
      : `it asks to wait ${retryAfterS.toLocaleString("en-US")} s before retrying`;
  const err = new HubError("rate-limit", `the Hub is limiting requests from this address (429): ${wait}`, status);
  if (retryAfterS !== undefined) err.retryAfterS = retryAfterS;
  return err;
}

export function networkError(hubUrl: string, cause: string): HubError {
  return new HubError(
    "network",
    // In a browser a 429 without CORS headers also lands here, as a TypeError (hub-api.md §5).
    `cannot reach the Hub at ${hubUrl} (${cause}): check the connection or the Hub address in settings, or wait a few minutes if the Hub is limiting requests; meanwhile plan a model from the bundled catalog, or upload its config.json with the weights' size (manual mode)`,
  );
}

export function badResponseError(hubUrl: string, what: string, status?: number): HubError {
  return new HubError(
    "bad-response",
    `the Hub at ${hubUrl} answered ${what}: check the Hub address in settings, or retry later`,
    status,
  );
}

export function tokenError(): HubError {
  return new HubError(
    "token",
    'a Hub read token starts with "hf_": copy one from your Hub account\'s settings (Access Tokens), with the "read" role',
  );
}

/** A model file whose shape is past any real model's (hub/limits.ts): the repo's own file is wrong, not the Hub. */
export function shapeError(repo: string, detail: string): HubError {
  return new HubError("shape", `${repo}: ${detail}`);
}
