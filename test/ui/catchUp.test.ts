/**
 * The option list's catch-up after a slider rest (issue 19): items follow the list's newest values a few
 * per idle slice, those on screen first, rather than all in one render.
 */
import { describe, expect, test } from "vitest";
import { catchUp, type IdleScheduler } from "../../src/ui/catchUp.ts";

/** Idle slices run by hand, each with the time left it is given. */
function manualIdle(): IdleScheduler & { run(timeLeftMs: number): boolean } {
  const queue: ((timeLeftMs: () => number) => void)[] = [];
  return {
    request: (work) => void queue.push(work),
    run(timeLeftMs) {
      const work = queue.shift();
      work?.(() => timeLeftMs);
      return work !== undefined;
    },
  };
}

interface Item {
  id: string;
  v: number;
}

describe("catchUp", () => {
  test("draws nothing until an idle slice, then the items on screen first, each in its own draw", () => {
    const idle = manualIdle();
    const draws: string[][] = [];
    const heard: string[] = [];
    const list = catchUp<Item>((notify) => {
      draws.push([]);
      notify();
    }, idle);
    for (const id of ["a", "b", "c"]) list.subscribe(id, () => (heard.push(id), draws.at(-1)?.push(id)));
    const items = [
      { id: "a", v: 1 },
      { id: "b", v: 1 },
      { id: "c", v: 1 },
    ];
    list.follow(
      items,
      (i) => i.id,
      (id) => (id === "c" ? 0 : 1),
    );
    expect(list.get("a")).toBeUndefined();
    expect(heard).toEqual([]);
    expect(idle.run(50)).toBe(true);
    expect(heard).toEqual(["c", "a", "b"]);
    expect(draws).toEqual([["c"], ["a"], ["b"]]);
    expect(list.get("b")).toBe(items[1]);
  });

  test("a slice with no time left still draws one item, and the rest wait for the next slice", () => {
    const idle = manualIdle();
    const heard: string[] = [];
    const list = catchUp<Item>((notify) => notify(), idle);
    for (const id of ["a", "b"]) list.subscribe(id, () => heard.push(id));
    list.follow(
      [
        { id: "a", v: 1 },
        { id: "b", v: 1 },
      ],
      (i) => i.id,
      () => 0,
    );
    idle.run(0);
    expect(heard).toEqual(["a"]);
    idle.run(0);
    expect(heard).toEqual(["a", "b"]);
    expect(idle.run(0)).toBe(false);
  });

  test("a newer list replaces what still waits, and an item already at its value is not drawn again", () => {
    const idle = manualIdle();
    const heard: string[] = [];
    const list = catchUp<Item>((notify) => notify(), idle);
    for (const id of ["a", "b"]) list.subscribe(id, () => heard.push(id));
    const a1 = { id: "a", v: 1 };
    list.follow(
      [a1, { id: "b", v: 1 }],
      (i) => i.id,
      () => 0,
    );
    idle.run(0);
    expect(heard).toEqual(["a"]);
    const b2 = { id: "b", v: 2 };
    list.follow(
      [a1, b2],
      (i) => i.id,
      () => 0,
    );
    while (idle.run(0));
    expect(heard).toEqual(["a", "b"]);
    expect(list.get("b")).toBe(b2);
  });

  test("an unsubscribed item still catches up (its value is there when it draws again) and is not told", () => {
    const idle = manualIdle();
    const heard: string[] = [];
    const list = catchUp<Item>((notify) => notify(), idle);
    const stop = list.subscribe("a", () => heard.push("a"));
    stop();
    const a = { id: "a", v: 1 };
    list.follow(
      [a],
      (i) => i.id,
      () => 0,
    );
    while (idle.run(50));
    expect(heard).toEqual([]);
    expect(list.get("a")).toBe(a);
  });
});
