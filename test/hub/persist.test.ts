import { QueryClient } from "@tanstack/react-query";
import { persistQueryClientRestore, persistQueryClientSave } from "@tanstack/react-query-persist-client";
import { describe, expect, test } from "vitest";
import { catalogSnapshot, EXAMPLE_REPO } from "../../scripts/lib/catalog.ts";
import { keepUnder, PERSIST_KEY, repoKey, snapshotPersistence } from "../../src/hub/persist.ts";
import { restoreClient } from "../../src/hub/restore.ts";
import type { TabStorage } from "../../src/hub/settings.ts";
import type { RepoSnapshot } from "../../src/plan/index.ts";
import { memoryStorage } from "./fakeHub.ts";

const R1 = "deepseek-ai/DeepSeek-R1";

function at(sha: string): RepoSnapshot {
  const base = catalogSnapshot(R1);
  if (!base) throw new Error("catalog lacks DeepSeek-R1");
  return { ...base, sha };
}

function client(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

async function save(queryClient: QueryClient, storage: TabStorage | null, maxChars?: number): Promise<void> {
  const options = snapshotPersistence(queryClient, storage, maxChars);
  await persistQueryClientSave({ queryClient, ...options });
}

async function restore(storage: TabStorage | null): Promise<QueryClient> {
  const queryClient = client();
  await persistQueryClientRestore({ queryClient, ...snapshotPersistence(queryClient, storage) });
  return queryClient;
}

describe("the snapshots kept across visits (TanStack Query's persister)", () => {
  test("a read at a sha comes back in a new page, as it was", async () => {
    const storage = memoryStorage();
    const first = client();
    first.setQueryData(repoKey(R1, "a".repeat(40)), at("a".repeat(40)));
    await save(first, storage);
    const again = await restore(storage);
    expect(again.getQueryData(repoKey(R1, "a".repeat(40)))).toEqual(at("a".repeat(40)));
    expect(again.getQueryData(repoKey(R1, "b".repeat(40)))).toBeUndefined();
  });

  test("only reads at a sha are kept: not a branch's (it moves), not the bundled catalog's, not other lists", async () => {
    const storage = memoryStorage();
    const first = client();
    first.setQueryData(repoKey(R1, null), at("a".repeat(40)));
    const example = catalogSnapshot(EXAMPLE_REPO);
    if (!example) throw new Error("no example");
    first.setQueryData(repoKey(EXAMPLE_REPO, example.sha), example);
    first.setQueryData(["quantized-children", R1], []);
    await save(first, storage);
    const again = await restore(storage);
    expect(again.getQueryCache().getAll()).toHaveLength(0);
  });

  test("stays under its cap, leaving out the least recently used", () => {
    const one = JSON.stringify({
      queryKey: repoKey(R1, "a".repeat(40)),
      queryHash: "a",
      state: { status: "success", dataUpdatedAt: 1, data: at("a".repeat(40)) },
    }).length;
    const query = (c: string, updatedAt: number) => ({
      queryKey: repoKey(R1, c.repeat(40)),
      queryHash: c,
      state: { status: "success", dataUpdatedAt: updatedAt, data: at(c.repeat(40)) },
    });
    const persisted = {
      timestamp: 1,
      buster: "x",
      clientState: { queries: [query("a", 1), query("b", 2), query("c", 3)], mutations: [] },
    } as never;
    // a was read first but used last: b is the least recently used.
    const text = keepUnder(persisted, new Map([["a", 10]]), one * 2 + 200);
    expect(text.length).toBeLessThanOrEqual(one * 2 + 200);
    const kept = restoreClient(text).clientState.queries.map((q) => q.queryHash);
    expect(kept.sort()).toEqual(["a", "c"]);
  });

  test("a read larger than the whole cap is not kept, and the rest still are", async () => {
    const storage = memoryStorage();
    const first = client();
    first.setQueryData(repoKey(R1, "a".repeat(40)), at("a".repeat(40)));
    first.setQueryData(repoKey(R1, "b".repeat(40)), {
      ...at("b".repeat(40)),
      files: Array.from({ length: 3000 }, (_, i) => ({ path: `shard-${i}.safetensors`, sizeBytes: i })),
    });
    await save(first, storage, 60_000);
    expect((storage.data.get(PERSIST_KEY) ?? "").length).toBeLessThanOrEqual(60_000);
    const again = await restore(storage);
    expect(again.getQueryData(repoKey(R1, "a".repeat(40)))).toBeDefined();
    expect(again.getQueryData(repoKey(R1, "b".repeat(40)))).toBeUndefined();
  });

  test.each([
    ["text that is not JSON", "{not json"],
    ["JSON of another shape", '{"queries":[1,2]}'],
  ])("a stored value that is %s opens as an empty cache, not an error", async (_name, text) => {
    const storage = memoryStorage();
    storage.setItem(PERSIST_KEY, text);
    const again = await restore(storage);
    expect(again.getQueryCache().getAll()).toHaveLength(0);
  });

  test("a stored read that is not a snapshot (hand-edited, or from an older page) is dropped, its neighbours kept", async () => {
    const storage = memoryStorage();
    const first = client();
    first.setQueryData(repoKey(R1, "a".repeat(40)), at("a".repeat(40)));
    first.setQueryData(repoKey(R1, "b".repeat(40)), at("b".repeat(40)));
    await save(first, storage);
    const stored = JSON.parse(storage.data.get(PERSIST_KEY) ?? "{}") as {
      clientState: { queries: { state: { data: { files: unknown } } }[] };
    };
    const [firstQuery] = stored.clientState.queries;
    if (!firstQuery) throw new Error("nothing stored");
    firstQuery.state.data.files = "not a list";
    storage.setItem(PERSIST_KEY, JSON.stringify(stored));
    const again = await restore(storage);
    expect(again.getQueryCache().getAll()).toHaveLength(1);
  });

  test("a full browser quota is not an error: the page goes on without keeping", async () => {
    const storage = memoryStorage();
    const full: TabStorage = {
      ...storage,
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
    };
    const first = client();
    first.setQueryData(repoKey(R1, "a".repeat(40)), at("a".repeat(40)));
    await expect(save(first, full)).resolves.toBeUndefined();
  });

  test("the hand-made cache's old index is removed, to give its room back", () => {
    const storage = memoryStorage();
    storage.setItem("modelplan.snapshots.v1", "[]");
    snapshotPersistence(client(), storage);
    expect(storage.data.has("modelplan.snapshots.v1")).toBe(false);
  });
});
