/**
 * Every Hub request has a deadline: a server that accepts the connection
 * and never answers, or sends headers and then nothing, would otherwise
 * leave "Reading … from the Hub…" on screen (and `npm run plan` waiting)
 * forever (issue 20).
 *
 * Two clocks, one figure: the answer's headers must come within `timeoutMs`
 * of asking, and then each piece of its body within `timeoutMs` of the last.
 */
import { HubError } from "./errors.ts";

/**
 * 10 s, huggingface_hub's own default for a Hub request (DEFAULT_REQUEST_TIMEOUT
 * and DEFAULT_DOWNLOAD_TIMEOUT = 10 in src/huggingface_hub/constants.py @ 03333b68,
 * https://github.com/huggingface/huggingface_hub). The terminal takes HF_HUB_TIMEOUT (seconds).
 */
export const DEFAULT_HUB_TIMEOUT_MS = 10_000;
/** An HF_HUB_TIMEOUT past an hour is a typo (milliseconds given as seconds), not a wish. */
const MAX_HUB_TIMEOUT_S = 3600;

/** What a request is, for the message: its path, never its query or a token. */
function requestName(input: RequestInfo | URL): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  return `${url.origin}${url.pathname}`;
}

export function timeoutError(what: string, stage: "headers" | "body", timeoutMs: number): HubError {
  const waited = `${(timeoutMs / 1000).toLocaleString("en-US")} s`;
  const how =
    stage === "headers"
      ? `did not answer within ${waited}`
      : `stopped sending for ${waited} in the middle of its answer`;
  return new HubError(
    "timeout",
    `the Hub timed out: ${what} ${how}, twice: check the network or the Hub's status and retry (HF_HUB_TIMEOUT sets the wait, in seconds)`,
  );
}

/** A body whose every read must come within `timeoutMs`; a stall ends the request. */
function idleBody(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  stalled: () => Error,
  abort: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(stalled()), timeoutMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), deadline]);
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (err) {
        abort();
        reader.cancel().catch(() => undefined);
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** `base` with both clocks on every request; a caller's own signal still aborts it as before. */
export function timedFetch(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const what = requestName(input);
    const own = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, own.signal]) : own.signal;
    const timer = setTimeout(() => own.abort(timeoutError(what, "headers", timeoutMs)), timeoutMs);
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (err) {
      // Our clock ran out (and not the caller's signal): say so, not "fetch failed" or "aborted".
      if (own.signal.aborted && !init?.signal?.aborted) throw own.signal.reason as HubError;
      throw err;
    } finally {
      clearTimeout(timer);
    }
    if (!res.body) return res;
    const body = idleBody(
      res.body,
      timeoutMs,
      () => timeoutError(what, "body", timeoutMs),
      () => own.abort(),
    );
    const timed = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(timed, "url", { value: res.url });
    return timed;
  };
}

/**
 * A GET (a read, safe to repeat) that timed out is tried once more: a
 * dropped packet or a slow node behind the Hub's balancer is often fine the
 * second time. Any other failure is not repeated here.
 */
export async function onceMoreIfTimedOut<T>(read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof HubError && err.kind === "timeout") || signal?.aborted) throw err;
    return read();
  }
}

/** HF_HUB_TIMEOUT (seconds) as the terminal reads it; unset is the default. */
export function hubTimeoutFromEnv(env: Record<string, string | undefined>): number | HubError {
  const raw = env.HF_HUB_TIMEOUT?.trim();
  if (raw === undefined || raw === "") return DEFAULT_HUB_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_HUB_TIMEOUT_S) {
    return new HubError(
      "bad-response",
      `HF_HUB_TIMEOUT is "${raw.slice(0, 20)}": give the seconds to wait for the Hub, more than 0 and at most ${MAX_HUB_TIMEOUT_S} (default ${DEFAULT_HUB_TIMEOUT_MS / 1000})`,
    );
  }
  return seconds * 1000;
}
