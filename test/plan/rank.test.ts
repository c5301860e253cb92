/**
 * The seed's ranking (shared/seeds/options.go.txt `Rank`), principle by
 * principle, on options that differ in one thing each.
 */
import { describe, expect, test } from "vitest";
import {
  CPU_QUALITY_CAP_BITS,
  QUALITY_CAP_BITS,
  compareOptions,
  quality,
  rank,
  rankInOrder,
} from "../../src/plan/index.ts";
import type { PlanOption } from "../../src/plan/index.ts";

function option(
  id: string,
  over: { cpu?: boolean; gpus?: number; nodes?: number; bits?: number; free?: boolean; room?: number; fits?: boolean },
): PlanOption {
  const gpus = over.gpus ?? 1;
  return {
    id,
    artifact: id,
    format: "gguf",
    engine: "llamacpp",
    placement: {
      cpu: over.cpu ?? false,
      gpuClass: over.cpu ? "" : "h100-80g",
      fabric: "",
      gpusPerNode: over.cpu ? 0 : gpus,
      nodes: over.nodes ?? 1,
      tensorParallel: 1,
      pipelineParallel: 1,
      expertParallel: false,
      cpuMoeLayers: 0,
      gpuLayers: -1,
    },
    bitsPerWeight: over.bits ?? 4.8,
    cards: [],
    needBytes: 10,
    haveBytes: 10 + (over.room ?? 0),
    hosts: 1,
    freeNow: over.free ?? true,
    fits: over.fits ?? true,
    maxContextTokens: 8192,
    kvPoolBytes: 0,
    kvPoolTokens: 0,
    maxConcurrency: 1,
    moreCardsNeeded: 0,
    commands: [],
  };
}

const ids = (xs: PlanOption[]): string[] => rank(xs).map((o) => o.id);

describe("rank", () => {
  test("a GPU before the CPU, however free the CPU is", () => {
    expect(ids([option("cpu", { cpu: true, free: true }), option("gpu", { free: false })])).toEqual(["gpu", "cpu"]);
  });
  test("the fewest cards, then the fewest nodes", () => {
    expect(ids([option("eight", { gpus: 8 }), option("two", { gpus: 2 })])).toEqual(["two", "eight"]);
    expect(ids([option("2x4", { gpus: 4, nodes: 2 }), option("1x8", { gpus: 8, nodes: 1 })])).toEqual(["1x8", "2x4"]);
  });
  test("better precision up to about 8 bits: Q8_0 over Q4, but bf16 not over Q8_0", () => {
    expect(ids([option("q4", { bits: 4.8 }), option("q8", { bits: 8.5 })])).toEqual(["q8", "q4"]);
    expect(ids([option("bf16", { bits: 16 }), option("q8", { bits: 8.5 })])).toEqual(["q8", "bf16"]);
  });
  test("on the CPU the cap is lower: Q5 over Q8_0", () => {
    expect(ids([option("q8", { cpu: true, bits: 8.5 }), option("q5", { cpu: true, bits: 5.7 })])).toEqual(["q5", "q8"]);
    expect(quality(8.5, true)).toBeLessThan(quality(5.7, true));
    expect(CPU_QUALITY_CAP_BITS).toBeLessThan(QUALITY_CAP_BITS);
  });
  test("busy is not unfit: free now only breaks a tie, then the most room", () => {
    expect(ids([option("busy-q8", { bits: 8.5, free: false }), option("free-q4", { bits: 4.8, free: true })])).toEqual([
      "busy-q8",
      "free-q4",
    ]);
    expect(ids([option("busy", { free: false }), option("free", { free: true })])).toEqual(["free", "busy"]);
    expect(ids([option("tight", { room: 1 }), option("roomy", { room: 5 })])).toEqual(["roomy", "tight"]);
  });
  test("an option that no longer fits its context goes after every one that does", () => {
    expect(ids([option("one-card-too-long", { fits: false }), option("two-cards", { gpus: 2 })])).toEqual([
      "two-cards",
      "one-card-too-long",
    ]);
  });
  test("is a total order that does not move the input", () => {
    const xs = [option("a", { gpus: 2 }), option("b", {}), option("c", { cpu: true })];
    const before = xs.map((o) => o.id);
    rank(xs);
    expect(xs.map((o) => o.id)).toEqual(before);
    for (const a of xs) expect(compareOptions(a, a)).toBe(0);
  });
});

describe("ranking from the last order (the slider's sort)", () => {
  test("equal options keep their place in the plan's first order, whatever order they come in", () => {
    // Three options alike in every key, given in the reverse of their first order, with one better option last.
    const alike = [option("c", {}), option("b", {}), option("a", {})];
    const better = option("d", { gpus: 1, bits: 8 });
    const { options, ties } = rankInOrder([...alike, better], "fewest-cards", [2, 1, 0, 3]);
    expect(options.map((o) => o.id)).toEqual(["d", "a", "b", "c"]);
    expect(ties).toEqual([3, 0, 1, 2]);
    // Given in their first order (no ties passed), the same.
    expect(
      rankInOrder([option("a", {}), option("b", {}), option("c", {}), better], "fewest-cards", null).options.map(
        (o) => o.id,
      ),
    ).toEqual(["d", "a", "b", "c"]);
  });
});
