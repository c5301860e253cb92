import { describe, expect, test } from "vitest";
import { createAppStore, setHubUrl, setWorkload, type AppState } from "../../src/state/appStore.ts";
import type { Choices } from "../../src/state/choices.ts";
import { decodeLink } from "../../src/state/link.ts";
import {
  currentLink,
  LINK_IDLE_TIMEOUT_MS,
  LINK_WRITE_DELAY_MS,
  startLinkWriter,
  type LinkWindow,
} from "../../src/state/linkWriter.ts";

const CHOICES: Choices = {
  repo: "Qwen/Qwen2.5-Coder-32B-Instruct",
  revision: "",
  cluster: {
    nodes: [
      {
        id: "dgx-1",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 2048,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      },
    ],
  },
  workload: { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {} },
  filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
  selectedOptionId: "",
  commandIndex: 0,
};

/** A window whose clock the test moves by hand. */
function fakeWindow() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const writes: string[] = [];
  const win: LinkWindow = {
    location: { hash: "" },
    history: {
      replaceState(_data, _unused, url) {
        writes.push(url);
        win.location.hash = url;
      },
    },
    setTimeout(run, ms) {
      timers.set(nextId, { at: now + ms, run });
      return nextId++;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
  };
  function advance(ms: number) {
    now += ms;
    for (const [id, t] of [...timers]) {
      if (t.at <= now) {
        timers.delete(id);
        t.run();
      }
    }
  }
  return { win, writes, advance };
}

function store(): ReturnType<typeof createAppStore> {
  const state: AppState = { choices: CHOICES, linkNotices: [], hubUrl: "https://huggingface.co" };
  return createAppStore(state);
}

describe("the link writer", () => {
  test("a slider drag of 30 moves writes the address bar once, with the last context", () => {
    const s = store();
    const { win, writes, advance } = fakeWindow();
    startLinkWriter(s, (st) => st.choices, win);
    for (let i = 1; i <= 30; i++) {
      setWorkload(s, { contextTokens: 8192 + i * 256 });
      advance(16);
    }
    expect(writes).toHaveLength(0);
    advance(LINK_WRITE_DELAY_MS);
    expect(writes).toHaveLength(1);
    expect(decodeLink(writes[0] ?? "", CHOICES).choices.workload.contextTokens).toBe(8192 + 30 * 256);
  });

  test("where the browser has idle callbacks, the write waits for idle after the debounce, with the last choices", () => {
    const s = store();
    const { win, writes, advance } = fakeWindow();
    const idle = new Map<number, { run: () => void; timeout: number }>();
    let nextIdle = 1;
    win.requestIdleCallback = (run, options) => {
      idle.set(nextIdle, { run, timeout: options.timeout });
      return nextIdle++;
    };
    win.cancelIdleCallback = (id) => idle.delete(id);
    startLinkWriter(s, (st) => st.choices, win);
    setWorkload(s, { contextTokens: 16384 });
    advance(LINK_WRITE_DELAY_MS);
    // Debounced, then asked for idle time: nothing written while the page is busy.
    expect(writes).toEqual([]);
    expect([...idle.values()].map((i) => i.timeout)).toEqual([LINK_IDLE_TIMEOUT_MS]);
    // A change while the idle write waits drops it: the next one carries the newer choice.
    setWorkload(s, { contextTokens: 32768 });
    expect(idle.size).toBe(0);
    advance(LINK_WRITE_DELAY_MS);
    const [only] = [...idle.values()];
    only?.run();
    expect(writes).toHaveLength(1);
    expect(decodeLink(writes[0] ?? "", CHOICES).choices.workload.contextTokens).toBe(32768);
  });

  test("a change outside the plan (the Hub's address) does not touch the link", () => {
    const s = store();
    const { win, writes, advance } = fakeWindow();
    startLinkWriter(s, (st) => st.choices, win);
    setHubUrl(s, "https://hf-mirror.example.org");
    advance(LINK_WRITE_DELAY_MS * 2);
    expect(writes).toEqual([]);
  });

  test("stopping drops a pending write", () => {
    const s = store();
    const { win, writes, advance } = fakeWindow();
    const stop = startLinkWriter(s, (st) => st.choices, win);
    setWorkload(s, { sequences: 4 });
    stop();
    advance(LINK_WRITE_DELAY_MS * 2);
    expect(writes).toEqual([]);
  });

  test("the copied link keeps the page's path (any subpath) and replaces an old fragment", () => {
    const link = currentLink("https://tools.example.org/modelplan/index.html#v1.old", CHOICES);
    expect(link.startsWith("https://tools.example.org/modelplan/index.html#v2.")).toBe(true);
    expect(decodeLink(new URL(link).hash, { ...CHOICES, repo: "x/y" }).choices).toEqual(CHOICES);
  });
});
