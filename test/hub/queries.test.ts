import { QueryClient } from "@tanstack/react-query";
import { describe, expect, test } from "vitest";
import { repoQueryOptions } from "../../src/app/queries.ts";
import { EXAMPLE_REPO } from "../../src/hub/catalog.ts";
import { snapshotCache } from "../../src/hub/persist.ts";
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
    const options = repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, accessToken: "hf_secret" }, snapshotCache(null));
    expect(options.queryKey).toEqual(["repo", "unsloth/DeepSeek-R1-GGUF", SHA]);
    expect(JSON.stringify(options.queryKey)).not.toContain("hf_secret");
    expect(options.staleTime).toBe(Infinity);
  });

  test("the catalog answers with no request at all", async () => {
    const hub = fakeHub({ recordings: [CODER] });
    const snap = await freshClient().fetchQuery(repoQueryOptions(EXAMPLE_REPO, null, { hubUrl: HUB, fetch: hub.fetch }, snapshotCache(null)));
    expect(snap.repo).toBe(EXAMPLE_REPO);
    expect(hub.requests).toHaveLength(0);
  });

  test("a link pinned to a sha seen before opens with no request, even in a new page", async () => {
    const storage = memoryStorage();
    const first = fakeHub({ recordings: [R1_GGUF] });
    // Read at the sha once (a revision the catalog's copy is not asked for here: the catalog answers only "main").
    const read = await freshClient().fetchQuery(repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, fetch: first.fetch }, snapshotCache(storage)));
    expect(read.sha).toBe(SHA);

    const second = fakeHub({ recordings: [R1_GGUF] });
    const again = await freshClient().fetchQuery(repoQueryOptions("unsloth/DeepSeek-R1-GGUF", SHA, { hubUrl: HUB, fetch: second.fetch }, snapshotCache(storage)));
    expect(again).toEqual(read);
    expect(second.requests).toHaveLength(0);
  });

  test("a repo outside the catalog is read from the Hub and kept by its sha", async () => {
    const storage = memoryStorage();
    const hub = fakeHub({ recordings: [loadRecording("nvidia/Qwen3-235B-A22B-NVFP4")] });
    const snap = await freshClient().fetchQuery(repoQueryOptions("nvidia/Qwen3-235B-A22B-NVFP4", null, { hubUrl: HUB, fetch: hub.fetch }, snapshotCache(storage)));
    expect(hub.requests).toHaveLength(3);
    expect(snapshotCache(storage).get("nvidia/Qwen3-235B-A22B-NVFP4", snap.sha)).toEqual(snap);
  });
});
