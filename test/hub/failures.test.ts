/**
 * Issue 20's Hub failures, each read from the fake Hub: the kind the page
 * offers its way on by (token field, retry countdown, catalog and manual
 * mode), the status, and the wait the Hub asked for.
 */
import { describe, expect, test } from "vitest";
import { HubError, isRetryable, retryAfterSeconds } from "../../src/hub/errors.ts";
import { readRepo } from "../../src/hub/read.ts";
import { fakeHub, loadRecording, type Fault } from "./fakeHub.ts";

const HUB = "https://hub.test";
const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
const LLAMA = loadRecording("meta-llama/Llama-3.1-8B-Instruct");

async function failure(repo: string, fault: Fault, token?: string): Promise<HubError> {
  const hub = fakeHub({ recordings: [CODER, LLAMA], approvedToken: "hf_approved", fault });
  const err = await readRepo(repo, null, {
    hubUrl: HUB,
    fetch: hub.fetch,
    ...(token ? { accessToken: token } : {}),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof HubError)) throw new Error(`expected a HubError, got ${String(err)}`);
  return err;
}

describe("each Hub failure is a kind the page can offer a way on for", () => {
  test.each([
    ["401 (anonymous, no such repo)", "nobody/nothing", "none", undefined, "not-found", 401, false],
    ["401 with a bad token", "nobody/nothing", "none", "hf_wrong", "not-found", 404, false],
    ["403 gated, token not approved", "meta-llama/Llama-3.1-8B-Instruct", "none", "hf_wrong", "gated", 403, false],
    ["401 gated, no token", "meta-llama/Llama-3.1-8B-Instruct", "none", undefined, "gated", 401, false],
    [
      "429 with the Hub's RateLimit header",
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      "rate-limit",
      undefined,
      "rate-limit",
      429,
      true,
    ],
    ["500", "Qwen/Qwen2.5-Coder-32B-Instruct", "server-error", undefined, "bad-response", 500, true],
    [
      "502 HTML page from a proxy",
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      "bad-gateway",
      undefined,
      "bad-response",
      502,
      true,
    ],
    ["offline", "Qwen/Qwen2.5-Coder-32B-Instruct", "offline", undefined, "network", undefined, false],
  ] as const)("%s", async (_name, repo, fault, token, kind, status, retryable) => {
    const err = await failure(repo, fault, token);
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(isRetryable(err)).toBe(retryable);
    expect(err.message).not.toContain("hf_wrong");
  });

  test("the 429's wait is the Hub's own (t=120 of its RateLimit header), said in the message", async () => {
    const err = await failure("Qwen/Qwen2.5-Coder-32B-Instruct", "rate-limit");
    expect(err.retryAfterS).toBe(120);
    expect(err.message).toMatch(/wait 120 s before retrying/);
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  test.each([
    [{ "retry-after": "30" }, 30],
    [{ "retry-after": "Tue, 01 Dec 2026 12:01:30 GMT" }, 90],
    [{ ratelimit: '"api";r=0;t=120' }, 120],
    [{ "retry-after": "999999" }, 3600],
    [{ "retry-after": "soon" }, undefined],
    [{}, undefined],
  ])("%j → %s s", (headers, seconds) => {
    expect(retryAfterSeconds(new Headers(headers), now)).toBe(seconds);
  });
});
