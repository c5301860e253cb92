import { QueryClient } from "@tanstack/react-query";
import { persistQueryClientRestore, persistQueryClientSave } from "@tanstack/react-query-persist-client";
import { describe, expect, test } from "vitest";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import { hubFallbackReason, isBundled, keptReadReason, repoQueryOptions } from "../../src/app/queries.ts";
import { EXAMPLE_ENTRY } from "../../src/hub/catalog.ts";
import { EXAMPLE_REPO } from "../../src/hub/catalogIndex.ts";
import type { RepoSnapshot } from "../../src/plan/index.ts";
import { repoKey, snapshotPersistence } from "../../src/hub/persist.ts";
import { fakeHub, loadRecording, memoryStorage } from "./fakeHub.ts";

const HUB = "https://hub.test";
const R1_GGUF = loadRecording("unsloth/DeepSeek-R1-GGUF");
const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
const SHA = "c1cd3da7ff0130842ea01b16f714c13181dd429e";

function freshClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** A new page's client with what `storage` kept restored into it. */
async function freshClientWith(storage: ReturnType<typeof memoryStorage>): Promise<QueryClient> {
  const client = freshClient();
  await persistQueryClientRestore({ queryClient: client, ...snapshotPersistence(client, storage) });
  return client;
}

describe("repoQueryOptions", () => {
  test("is keyed by repo and revision, never by the token", () => {
    const options = repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, accessToken: "hf_secret" });
    expect(options.queryKey).toEqual(["repo", "unsloth/DeepSeek-R1-GGUF", SHA]);
    expect(JSON.stringify(options.queryKey)).not.toContain("hf_secret");
    expect(options.staleTime).toBe(Infinity);
  });

  test("pinned to the catalog's commit, the catalog answers with no request at all (the example plan, offline first)", async () => {
    const hub = fakeHub({ recordings: [CODER] });
    const snap = await freshClient().fetchQuery(
      repoQueryOptions(EXAMPLE_REPO, CODER.info.sha, { hubUrl: HUB, fetch: hub.fetch }),
    );
    expect(snap).toBe(EXAMPLE_ENTRY.snapshot);
    expect(isBundled(snap)).toBe(true);
    expect(hub.requests).toHaveLength(0);
  });

  test("a catalog repo on its branch: the Hub is asked, and its newer data wins over the bundled copy (issue 17)", async () => {
    // The recorded answer with main moved on a commit: the Hub's data differs from the catalog's in its sha.
    const moved = { ...CODER, info: { ...CODER.info, sha: "1".repeat(40) } };
    const hub = fakeHub({ recordings: [moved] });
    const client = freshClient();
    const snap = await client.fetchQuery(repoQueryOptions(EXAMPLE_REPO, null, { hubUrl: HUB, fetch: hub.fetch }));
    expect(hub.requests.map((r) => new URL(r.url).pathname)[0]).toBe(`/api/models/${EXAMPLE_REPO}/revision/main`);
    expect(snap.sha).toBe("1".repeat(40));
    expect(isBundled(snap)).toBe(false);
    expect(hubFallbackReason(snap)).toBeUndefined();
  });

  test.each([
    ["unreachable", "Qwen/Qwen2.5-Coder-32B-Instruct", { fault: "offline" as const }, "the Hub did not answer"],
    [
      "a 502 from a proxy",
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      { fault: "bad-gateway" as const },
      "the Hub did not answer",
    ],
    ["gated, no token", "meta-llama/Llama-3.1-8B-Instruct", {}, "the Hub asks for a token for this gated repo"],
  ])("the Hub %s: the bundled copy is planned, and says why", async (_name, repo, faults, reason) => {
    const hub = fakeHub({ recordings: [CODER, loadRecording("meta-llama/Llama-3.1-8B-Instruct")], ...faults });
    const client = freshClient();
    const snap = await client.fetchQuery(repoQueryOptions(repo, null, { hubUrl: HUB, fetch: hub.fetch }));
    expect(hub.requests.length).toBeGreaterThan(0);
    const bundled = catalogSnapshot(repo);
    expect(snap).toEqual(bundled);
    expect(hubFallbackReason(snap)).toBe(reason);
    expect(isBundled(snap)).toBe(true);
    // The plan pins to the copy's sha next (when the catalog knows it): that key answers with the same copy, still saying why.
    if (bundled?.sha) {
      const pinned = client.getQueryData<RepoSnapshot>(repoKey(repo, bundled.sha));
      expect(pinned && hubFallbackReason(pinned)).toBe(reason);
    }
  });

  test("an explicit @main asks the Hub even after the default branch was read (they share no cache entry)", async () => {
    const hub = fakeHub({ recordings: [CODER] });
    const client = freshClient();
    const access = { hubUrl: HUB, fetch: hub.fetch };
    await client.fetchQuery(repoQueryOptions(EXAMPLE_REPO, null, access));
    const before = hub.requests.length;
    const read = await client.fetchQuery(repoQueryOptions(EXAMPLE_REPO, "main", access));
    expect(hub.requests.map((r) => new URL(r.url).pathname)[before]).toBe(`/api/models/${EXAMPLE_REPO}/revision/main`);
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

  test("a GGUF read that fails after its first header keeps nothing across visits: the sha it pinned to is read again", async () => {
    // Issue 19: the first header's snapshot answers the sha at once (the plan moves to it); a later header's 500
    // fails the read. That early snapshot plans every other quant by its file name alone, so a new page must not
    // take it as the read at that sha (pinned, it would never be read again).
    const qwen = loadRecording("bartowski/Qwen2.5-14B-Instruct-GGUF");
    const hub = fakeHub({ recordings: [qwen] });
    const failing: typeof fetch = (input, init) =>
      String(input).endsWith("-Q8_0.gguf")
        ? Promise.resolve(new Response("", { status: 500 }))
        : hub.fetch(input, init);
    const storage = memoryStorage();
    const page1 = freshClient();
    const persistence1 = snapshotPersistence(page1, storage);
    const repo = "bartowski/Qwen2.5-14B-Instruct-GGUF";
    await expect(page1.fetchQuery(repoQueryOptions(repo, null, { hubUrl: HUB, fetch: failing }))).rejects.toThrow(
      /status 500/,
    );
    // The early snapshot the page planned from: some headers in (each refines it as it arrives), not all 10.
    const early = page1.getQueryData<RepoSnapshot>(repoKey(repo, qwen.info.sha));
    const earlyHeaders = Object.keys(early?.ggufHeaders ?? {}).length;
    expect(earlyHeaders).toBeGreaterThanOrEqual(1);
    expect(earlyHeaders).toBeLessThan(10);
    await persistQueryClientSave({ queryClient: page1, ...persistence1 });

    const second = fakeHub({ recordings: [qwen] });
    const page2 = freshClient();
    await persistQueryClientRestore({ queryClient: page2, ...snapshotPersistence(page2, storage) });
    const again = await page2.fetchQuery(repoQueryOptions(repo, qwen.info.sha, { hubUrl: HUB, fetch: second.fetch }));
    expect(second.requests.length).toBeGreaterThan(0);
    expect(Object.keys(again.ggufHeaders)).toHaveLength(10);
  });

  test("with the Hub unreachable, a repo read in an earlier visit is planned from that read, and says why (network first, then the query cache)", async () => {
    const repo = "togethercomputer/RedPajama-INCITE-7B-Base";
    const recording = loadRecording(repo);
    const storage = memoryStorage();
    const page1 = freshClient();
    const persistence1 = snapshotPersistence(page1, storage);
    const read = await page1.fetchQuery(
      repoQueryOptions(repo, null, { hubUrl: HUB, fetch: fakeHub({ recordings: [recording] }).fetch }),
    );
    await persistQueryClientSave({ queryClient: page1, ...persistence1 });

    const offline = fakeHub({ recordings: [recording], fault: "offline" });
    const page2 = freshClient();
    await persistQueryClientRestore({ queryClient: page2, ...snapshotPersistence(page2, storage) });
    const again = await page2.fetchQuery(repoQueryOptions(repo, null, { hubUrl: HUB, fetch: offline.fetch }));
    expect(offline.requests.length).toBeGreaterThan(0);
    expect(again).toEqual(read);
    expect(keptReadReason(again)).toBe("the Hub did not answer");
    expect(isBundled(again)).toBe(false);
    // The plan pins to the read's sha next: that key, restored from the earlier visit, answers with the copy too.
    const pinned = page2.getQueryData<RepoSnapshot>(repoKey(repo, read.sha));
    expect(pinned && keptReadReason(pinned)).toBe("the Hub did not answer");
    // Nor for another commit, or a revision named: that read is not theirs.
    const other = "2".repeat(40);
    await expect(
      page2.fetchQuery(repoQueryOptions(repo, other, { hubUrl: HUB, fetch: offline.fetch })),
    ).rejects.toThrow(/cannot reach the Hub/);
    await expect(page2.fetchQuery(repoQueryOptions(repo, "v2", { hubUrl: HUB, fetch: offline.fetch }))).rejects.toThrow(
      /cannot reach the Hub/,
    );
    // A Hub that answers the repo is gone is not overruled by the copy.
    const gone = fakeHub({ recordings: [] });
    await expect(
      freshClientWith(storage).then((page3) =>
        page3.fetchQuery(repoQueryOptions(repo, null, { hubUrl: HUB, fetch: gone.fetch })),
      ),
    ).rejects.toThrow();
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
