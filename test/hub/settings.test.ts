import { describe, expect, test } from "vitest";
import { HubError } from "../../src/hub/errors.ts";
import { DEFAULT_HUB_URL, checkToken, hubUrlFromEnv, normalizeHubUrl, tokenStore } from "../../src/hub/settings.ts";
import { memoryStorage } from "./fakeHub.ts";

describe("the Hub's address", () => {
  test("HF_ENDPOINT, as the Hub's own tools read it, else the public Hub", () => {
    expect(hubUrlFromEnv({})).toBe(DEFAULT_HUB_URL);
    expect(hubUrlFromEnv({ HF_ENDPOINT: "https://hf-mirror.com/" })).toBe("https://hf-mirror.com");
    expect(hubUrlFromEnv({ HF_ENDPOINT: "http://127.0.0.1:8080" })).toBe("http://127.0.0.1:8080");
  });

  test("a bad address says what a good one looks like", () => {
    const bad = normalizeHubUrl("ftp://x");
    expect(bad).toBeInstanceOf(HubError);
    expect((bad as HubError).message).toContain(DEFAULT_HUB_URL);
    expect(normalizeHubUrl("not a url")).toBeInstanceOf(HubError);
  });
});

describe("the token", () => {
  test("must look like a read token", () => {
    expect(checkToken(" hf_abcDEF123 ")).toBe("hf_abcDEF123");
    expect(checkToken("abc")).toBeInstanceOf(HubError);
  });

  test("lives in memory unless remembered in this tab, and never in localStorage", () => {
    const session = memoryStorage();
    const local = memoryStorage();
    globalThis.localStorage = local as unknown as Storage;
    try {
      const store = tokenStore(session);
      store.set("hf_abc", false);
      expect(store.get()).toBe("hf_abc");
      expect(session.data.size).toBe(0);
      expect(store.remembered()).toBe(false);
      store.set("hf_abc", true);
      expect(tokenStore(session).get()).toBe("hf_abc"); // a reload of the tab
      store.clear();
      expect(tokenStore(session).get()).toBeUndefined();
      expect(local.data.size).toBe(0);
    } finally {
      Reflect.deleteProperty(globalThis, "localStorage");
    }
  });
});
