import { describe, expect, test } from "vitest";
import { createAppStore, dismissLinkNotices, setHubUrl, setWorkload, type AppState } from "../../src/state/appStore.ts";
import { encodeLink } from "../../src/state/link.ts";
import { openPastedLink } from "../../src/state/pastedLink.ts";
import type { Choices } from "../../src/state/choices.ts";
import { HUB_URL_KEY } from "../../src/state/store.ts";
import type { TabStorage } from "../../src/hub/settings.ts";
import { memoryStorage } from "../hub/fakeHub.ts";

const CHOICES: Choices = {
  repo: "Qwen/Qwen3-8B",
  revision: "",
  cluster: {
    nodes: [
      { id: "n1", fabric: "", hostMemGib: 512, hostFreeGib: 500, devices: [{ class: "h100-80g", count: 8, free: 8 }] },
    ],
  },
  workload: { contextTokens: 4096, sequences: 1, kvDtype: "auto", settings: {} },
  filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
  selectedOptionId: "",
  commandIndex: 0,
};

function initial(): AppState {
  return { choices: CHOICES, linkNotices: [], hubUrl: "https://huggingface.co" };
}

describe("the page's store (zustand)", () => {
  test("a subscriber hears each change once, and stops hearing after it unsubscribes", () => {
    const store = createAppStore(initial());
    const heard: number[] = [];
    const unsubscribe = store.subscribe(() => heard.push(store.getState().choices.workload.contextTokens));
    setWorkload(store, { contextTokens: 8192 });
    setWorkload(store, { contextTokens: 16384 });
    unsubscribe();
    setWorkload(store, { contextTokens: 512 });
    expect(heard).toEqual([8192, 16384]);
    expect(store.getState().choices.workload.contextTokens).toBe(512);
  });

  test("an action that changes nothing tells no one (no re-render, no link rewrite)", () => {
    const store = createAppStore(initial());
    let calls = 0;
    store.subscribe(() => calls++);
    dismissLinkNotices(store);
    setHubUrl(store, "https://huggingface.co");
    expect(calls).toBe(0);
  });
});

describe("the one persisted setting: the Hub's address", () => {
  test("an address saved by an older page (a bare string) opens as the store's", () => {
    const storage = memoryStorage();
    storage.setItem(HUB_URL_KEY, "https://hf-mirror.example.org/");
    expect(createAppStore(initial(), storage).getState().hubUrl).toBe("https://hf-mirror.example.org");
  });

  test("a new address is kept as a bare string; the default is removed, not stored", () => {
    const storage = memoryStorage();
    const store = createAppStore(initial(), storage);
    setHubUrl(store, "https://hf-mirror.example.org");
    expect(storage.data.get(HUB_URL_KEY)).toBe("https://hf-mirror.example.org");
    setWorkload(store, { sequences: 2 });
    expect(storage.data.get(HUB_URL_KEY)).toBe("https://hf-mirror.example.org");
    setHubUrl(store, "https://huggingface.co");
    expect(storage.data.has(HUB_URL_KEY)).toBe(false);
  });

  test("a saved value that is no address is ignored, and the choices are never stored", () => {
    const storage = memoryStorage();
    storage.setItem(HUB_URL_KEY, "ftp://nowhere");
    const store = createAppStore(initial(), storage);
    expect(store.getState().hubUrl).toBe("https://huggingface.co");
    setWorkload(store, { sequences: 3 });
    expect([...storage.data.values()].join("")).not.toContain("Qwen");
  });

  test("a storage that refuses writes does not break the store", () => {
    const refusing: TabStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException("full", "QuotaExceededError");
      },
      removeItem: () => undefined,
    };
    const store = createAppStore(initial(), refusing);
    expect(() => setHubUrl(store, "https://hf-mirror.example.org")).not.toThrow();
    expect(store.getState().hubUrl).toBe("https://hf-mirror.example.org");
  });
});

describe("a link pasted into the address bar over a plan", () => {
  const EXAMPLE: Choices = { ...CHOICES, repo: "Qwen/Qwen2.5-Coder-32B-Instruct" };

  test("a readable link replaces the plan", () => {
    const store = createAppStore(initial());
    const other: Choices = {
      ...CHOICES,
      repo: "deepseek-ai/DeepSeek-R1",
      workload: { ...CHOICES.workload, contextTokens: 65536 },
    };
    openPastedLink(store, `#${encodeLink(other)}`, EXAMPLE);
    expect(store.getState().choices).toEqual(other);
    expect(store.getState().linkNotices).toEqual([]);
  });

  test.each([
    ["one character changed", (l: string) => l.slice(0, 30) + (l[30] === "A" ? "B" : "A") + l.slice(31)],
    ["cut short", (l: string) => l.slice(0, 40)],
    ["another format", () => "v9.AAAA"],
  ])("a link %s leaves the last good plan on screen, and says so", (_name, damage) => {
    const store = createAppStore(initial());
    setWorkload(store, { contextTokens: 12345 });
    const good = store.getState().choices;
    openPastedLink(store, `#${damage(encodeLink({ ...CHOICES, repo: "deepseek-ai/DeepSeek-R1" }))}`, EXAMPLE);
    expect(store.getState().choices).toBe(good);
    expect(store.getState().linkNotices).toHaveLength(1);
    expect(store.getState().linkNotices[0]).toMatch(/^The link could not be read, so the plan on screen stays: /);
  });
});
