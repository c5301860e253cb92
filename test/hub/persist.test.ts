import { describe, expect, test } from "vitest";
import { catalogSnapshot } from "../../src/hub/catalog.ts";
import { snapshotCache } from "../../src/hub/persist.ts";
import type { TabStorage } from "../../src/hub/settings.ts";
import { memoryStorage } from "./fakeHub.ts";
import type { RepoSnapshot } from "../../src/plan/index.ts";

function at(sha: string): RepoSnapshot {
  const base = catalogSnapshot("deepseek-ai/DeepSeek-R1");
  if (!base) throw new Error("catalog lacks DeepSeek-R1");
  return { ...base, sha };
}

describe("the snapshot cache", () => {
  test("gives back a snapshot by repo and sha", () => {
    const cache = snapshotCache(memoryStorage());
    cache.put(at("a".repeat(40)));
    expect(cache.get("deepseek-ai/DeepSeek-R1", "a".repeat(40))).toEqual(at("a".repeat(40)));
    expect(cache.get("deepseek-ai/DeepSeek-R1", "b".repeat(40))).toBeUndefined();
  });

  test("stays under its cap, evicting the least recently used", () => {
    const storage = memoryStorage();
    const one = JSON.stringify(at("a".repeat(40))).length;
    const cache = snapshotCache(storage, one * 2 + 10);
    cache.put(at("a".repeat(40)));
    cache.put(at("b".repeat(40)));
    cache.get("deepseek-ai/DeepSeek-R1", "a".repeat(40)); // a is now the most recent
    cache.put(at("c".repeat(40)));
    expect(cache.get("deepseek-ai/DeepSeek-R1", "b".repeat(40))).toBeUndefined();
    expect(cache.get("deepseek-ai/DeepSeek-R1", "a".repeat(40))).toBeDefined();
    expect(cache.get("deepseek-ai/DeepSeek-R1", "c".repeat(40))).toBeDefined();
    const stored = [...storage.data.entries()].filter(([k]) => k.startsWith("modelplan.snapshot.v1:"));
    expect(stored.reduce((s, [, v]) => s + v.length, 0)).toBeLessThanOrEqual(one * 2 + 10);
  });

  test("asked on every render, it parses and touches storage once", () => {
    const storage = memoryStorage();
    snapshotCache(storage).put(at("a".repeat(40)));
    let writes = 0;
    let reads = 0;
    const counting: TabStorage = {
      getItem: (k) => (reads++, storage.getItem(k)),
      setItem: (k, v) => (writes++, storage.setItem(k, v)),
      removeItem: (k) => storage.removeItem(k),
    };
    const cache = snapshotCache(counting);
    const first = cache.get("deepseek-ai/DeepSeek-R1", "a".repeat(40));
    for (let i = 0; i < 100; i++) expect(cache.get("deepseek-ai/DeepSeek-R1", "a".repeat(40))).toBe(first);
    expect(writes).toBe(0);
    expect(reads).toBe(1);
  });

  test("a corrupt entry is dropped, not thrown", () => {
    const storage = memoryStorage();
    storage.setItem(`modelplan.snapshot.v1:deepseek-ai/deepseek-r1@${"a".repeat(40)}`, "{not json");
    expect(snapshotCache(storage).get("deepseek-ai/DeepSeek-R1", "a".repeat(40))).toBeUndefined();
  });

  test("a full browser quota is not an error", () => {
    const storage = memoryStorage();
    const full: TabStorage = { ...storage, setItem: () => { throw new DOMException("full", "QuotaExceededError"); } };
    expect(() => snapshotCache(full).put(at("a".repeat(40)))).not.toThrow();
  });
});
