import { QueryClient } from "@tanstack/react-query";
import { persistQueryClientRestore, persistQueryClientSave } from "@tanstack/react-query-persist-client";
import { describe, expect, test } from "vitest";
import { repoQueryOptions } from "../../src/app/queries.ts";
import { EXAMPLE_REPO } from "../../src/hub/catalogIndex.ts";
import { repoKey, snapshotPersistence } from "../../src/hub/persist.ts";
import { fakeHub, loadRecording, memoryStorage } from "./fakeHub.ts";

const HUB = "https://hub.test";
const R1_GGUF = loadRecording("unsloth/DeepSeek-R1-GGUF");
const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
const SHA = "c1cd3da7ff0130842ea01b16f714c13181dd429e";

function freshClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

describe("repoQueryOptions", () => {
  test("is keyed by repo and revision, never by the token", () => {
    const options = repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, accessToken: "hf_secret" });
    expect(options.queryKey).toEqual(["repo", "unsloth/DeepSeek-R1-GGUF", SHA]);
    expect(JSON.stringify(options.queryKey)).not.toContain("hf_secret");
    expect(options.staleTime).toBe(Infinity);
  });

  test("the catalog answers with no request at all", async () => {
    const hub = fakeHub({ recordings: [CODER] });
    const snap = await freshClient().fetchQuery(
      repoQueryOptions(EXAMPLE_REPO, null, { hubUrl: HUB, fetch: hub.fetch }),
    );
    expect(snap.repo).toBe(EXAMPLE_REPO);
    expect(hub.requests).toHaveLength(0);
  });

  test("an explicit @main asks the Hub even after the catalog answered the default branch (they share no cache entry)", async () => {
    const hub = fakeHub({ recordings: [CODER] });
    const client = freshClient();
    const access = { hubUrl: HUB, fetch: hub.fetch };
    await client.fetchQuery(repoQueryOptions(EXAMPLE_REPO, null, access));
    expect(hub.requests).toHaveLength(0);
    const read = await client.fetchQuery(repoQueryOptions(EXAMPLE_REPO, "main", access));
    expect(hub.requests.map((r) => new URL(r.url).pathname)[0]).toBe(`/api/models/${EXAMPLE_REPO}/revision/main`);
    expect(read.sha).toBe(CODER.info.sha);
  });

  test("a link pinned to a sha seen before opens with no request, even in a new page", async () => {
    const storage = memoryStorage();
    const first = fakeHub({ recordings: [R1_GGUF] });
    const page1 = freshClient();
    const persistence1 = snapshotPersistence(page1, storage);
    const read = await page1.fetchQuery(
      repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, fetch: first.fetch }),
    );
    expect(read.sha).toBe(SHA);
    await persistQueryClientSave({ queryClient: page1, ...persistence1 });

    const second = fakeHub({ recordings: [R1_GGUF] });
    const page2 = freshClient();
    await persistQueryClientRestore({ queryClient: page2, ...snapshotPersistence(page2, storage) });
    const again = await page2.fetchQuery(
      repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, fetch: second.fetch }),
    );
    expect(again).toEqual(read);
    expect(second.requests).toHaveLength(0);
  });

  test("a read of main answers the sha it pinned to as well: pinning the plan costs no second read", async () => {
    const hub = fakeHub({ recordings: [loadRecording("nvidia/Qwen3-235B-A22B-NVFP4")] });
    const client = freshClient();
    const access = { hubUrl: HUB, fetch: hub.fetch };
    const snap = await client.fetchQuery(repoQueryOptions("nvidia/Qwen3-235B-A22B-NVFP4", null, access));
    expect(hub.requests).toHaveLength(3);
    await client.fetchQuery(repoQueryOptions("nvidia/Qwen3-235B-A22B-NVFP4", snap.sha, access));
    expect(hub.requests).toHaveLength(3);
    expect(client.getQueryData(repoKey("nvidia/Qwen3-235B-A22B-NVFP4", snap.sha))).toEqual(snap);
  });

  test("cancelling the query aborts the request in flight (its AbortSignal reaches the fetch)", async () => {
    const hub = fakeHub({ recordings: [loadRecording("nvidia/Qwen3-235B-A22B-NVFP4")], latencyMs: 50 });
    const signals: AbortSignal[] = [];
    const spy: typeof fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return hub.fetch(input, init);
    };
    const client = freshClient();
    const reading = client.fetchQuery(
      repoQueryOptions("nvidia/Qwen3-235B-A22B-NVFP4", null, { hubUrl: HUB, fetch: spy }),
    );
    await new Promise((ok) => setTimeout(ok, 10));
    await client.cancelQueries({ queryKey: ["repo"] });
    await expect(reading).rejects.toThrow();
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });
});
