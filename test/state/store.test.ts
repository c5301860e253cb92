import { describe, expect, test } from "vitest";
import { createStore } from "../../src/state/store.ts";

describe("createStore", () => {
  test("a subscriber hears each change once, and stops hearing after it unsubscribes", () => {
    const store = createStore({ context: 4096 });
    const heard: number[] = [];
    const unsubscribe = store.subscribe(() => heard.push(store.getState().context));
    store.setState({ context: 8192 });
    store.setState((previous) => ({ context: previous.context * 2 }));
    unsubscribe();
    store.setState({ context: 512 });
    expect(heard).toEqual([8192, 16384]);
    expect(store.getState().context).toBe(512);
  });

  test("setting the same state object tells no one (no re-render, no link rewrite)", () => {
    const state = { context: 4096 };
    const store = createStore(state);
    let calls = 0;
    store.subscribe(() => calls++);
    store.setState(state);
    store.setState((previous) => previous);
    expect(calls).toBe(0);
  });

  test("a listener that unsubscribes another during a change does not break the loop", () => {
    const store = createStore(0);
    const heard: string[] = [];
    let offB = () => {};
    store.subscribe(() => {
      heard.push("a");
      offB();
    });
    offB = store.subscribe(() => heard.push("b"));
    store.setState(1);
    store.setState(2);
    expect(heard).toEqual(["a", "b", "a"]);
  });
});
