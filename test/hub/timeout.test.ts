/**
 * Issue 20's hangs: a Hub that accepts and never answers, or sends headers
 * and then stalls, on the info call, on config.json, or on a GGUF header.
 * Each read ends within its timeout (tried twice), naming the request.
 */
import { afterEach, describe, expect, test } from "vitest";
import { listQuantizedChildren } from "../../src/hub/derivatives.ts";
import { HubError } from "../../src/hub/errors.ts";
import { readRepo } from "../../src/hub/read.ts";
import { DEFAULT_HUB_TIMEOUT_MS, hubTimeoutFromEnv } from "../../src/hub/timeout.ts";
import { fakeHub, loadRecording } from "./fakeHub.ts";
import { stallingHub, type Stall, type StallingHub } from "./stallingHub.ts";

const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
const LLAMA_GGUF = loadRecording("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF");
const TIMEOUT_MS = 250;

let hub: StallingHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function failure(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof HubError)) throw new Error(`expected a HubError, got ${String(err)}`);
  return err;
}

async function timedRead(repo: string, stallOn: (path: string) => Stall | null) {
  hub = await stallingHub(stallOn, fakeHub({ recordings: [CODER, LLAMA_GGUF] }));
  const started = performance.now();
  const err = await failure(readRepo(repo, null, { hubUrl: hub.url, timeoutMs: TIMEOUT_MS }));
  return { err, ms: performance.now() - started, paths: hub.paths };
}

describe("a Hub that stalls", () => {
  test.each([
    [
      "accepts the info call and never answers",
      "silent",
      /\/api\/models\/Qwen\/Qwen2\.5-Coder-32B-Instruct\/revision\/main did not answer within 0\.25 s, twice/,
    ],
    [
      "sends the info call's headers, then nothing",
      "headers-then-nothing",
      /\/api\/models\/Qwen\/Qwen2\.5-Coder-32B-Instruct\/revision\/main stopped sending for 0\.25 s/,
    ],
  ] as const)("%s: a timeout naming the request, after one retry", async (_name, stall, named) => {
    const { err, ms, paths } = await timedRead("Qwen/Qwen2.5-Coder-32B-Instruct", (p) =>
      p.startsWith("/api/models") ? stall : null,
    );
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(named);
    expect(err.message).not.toContain("?blobs");
    expect(paths).toHaveLength(2);
    // Two waits of 0.25 s, not forever; a wide margin for a loaded machine.
    expect(ms).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(5000);
  });

  test.each(["silent", "headers-then-nothing"] as const)(
    "config.json stalling (%s) is named as config.json",
    async (stall) => {
      const { err, paths } = await timedRead("Qwen/Qwen2.5-Coder-32B-Instruct", (p) =>
        p.endsWith("/config.json") ? stall : null,
      );
      expect(err.kind).toBe("timeout");
      expect(err.message).toMatch(/\/resolve\/b47205940b83b5b484577359f71ee7b88472df67\/config\.json/);
      expect(paths.filter((p) => p.endsWith("/config.json"))).toHaveLength(2);
    },
  );

  test("a GGUF header's range request stalling is named with its file", async () => {
    const { err } = await timedRead("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", (p) =>
      p.endsWith(".gguf") ? "silent" : null,
    );
    expect(err.kind).toBe("timeout");
    expect(err.message).toMatch(/\.gguf did not answer/);
  });

  test("a stall that clears on the second try is no error: the read goes on", async () => {
    let first = true;
    hub = await stallingHub(
      (p) => {
        if (p.startsWith("/api/models") && first) {
          first = false;
          return "silent";
        }
        return null;
      },
      fakeHub({ recordings: [CODER] }),
    );
    const snap = await readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, { hubUrl: hub.url, timeoutMs: TIMEOUT_MS });
    expect(snap.sha).toBe("b47205940b83b5b484577359f71ee7b88472df67");
  });

  test("a read the page cancels is not retried, and not called a timeout", async () => {
    hub = await stallingHub(() => "silent");
    const controller = new AbortController();
    const reading = readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, {
      hubUrl: hub.url,
      timeoutMs: 5000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const err = await failure(reading);
    expect(err.kind).toBe("network");
    expect(hub.paths).toHaveLength(1);
  });

  test("the list of quantizations times out too", async () => {
    hub = await stallingHub(() => "silent");
    const err = await failure(
      listQuantizedChildren("Qwen/Qwen2.5-Coder-32B-Instruct", { hubUrl: hub.url, timeoutMs: TIMEOUT_MS }),
    );
    expect(err.kind).toBe("timeout");
    expect(hub.paths).toHaveLength(2);
  });
});

describe("HF_HUB_TIMEOUT", () => {
  test.each([
    [undefined, DEFAULT_HUB_TIMEOUT_MS],
    ["", DEFAULT_HUB_TIMEOUT_MS],
    ["30", 30_000],
    ["0.5", 500],
  ])("%s → %i ms", (raw, ms) => {
    expect(hubTimeoutFromEnv({ HF_HUB_TIMEOUT: raw })).toBe(ms);
  });

  test.each(["0", "-1", "ten", "1e9", "NaN"])("%s is refused in words", (raw) => {
    const out = hubTimeoutFromEnv({ HF_HUB_TIMEOUT: raw });
    expect(out).toBeInstanceOf(HubError);
    expect((out as HubError).message).toMatch(/HF_HUB_TIMEOUT is .*give the seconds/);
  });
});
