import { describe, expect, test } from "vitest";
import { cardLoad, type CardLoad, type CardLoadParts, type PlanOption } from "../../src/plan/index.ts";
import { barDomainGib, bestOfEach, cardBarRow, filterOptions, groupOptions, optionBadges } from "../../src/ui/rows.ts";

const GIB = 2 ** 30;
/** An H100 as nvidia-smi reports it: 81,559 MiB (shared/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt). */
const H100_BYTES = 81559 * 2 ** 20;

function card(partial: Partial<CardLoadParts>): CardLoad {
  return cardLoad({
    gpuClass: "h100-80g",
    cards: 2,
    role: "",
    weightsBytes: 0,
    kvBytes: 0,
    engineBytes: 0,
    usableBytes: 0.9 * H100_BYTES,
    physicalBytes: H100_BYTES,
    ...partial,
  });
}

function option(partial: Partial<PlanOption>): PlanOption {
  return {
    id: "x",
    artifact: "original",
    format: "safetensors",
    engine: "vllm",
    placement: {
      cpu: false,
      gpuClass: "h100-80g",
      fabric: "",
      gpusPerNode: 2,
      nodes: 1,
      tensorParallel: 2,
      pipelineParallel: 1,
      expertParallel: false,
      cpuMoeLayers: 0,
      gpuLayers: -1,
    },
    bitsPerWeight: 16,
    cards: [],
    needBytes: 0,
    haveBytes: 0,
    hosts: 1,
    freeNow: true,
    fits: true,
    maxContextTokens: 131072,
    kvPoolBytes: 0,
    kvPoolTokens: 0,
    maxConcurrency: 1,
    moreCardsNeeded: 0,
    commands: [],
    ...partial,
  };
}

describe("a card's bar", () => {
  test("the free rest is what the usable share leaves, and nothing is over", () => {
    const row = cardBarRow(card({ weightsBytes: 65.7 * GIB, kvBytes: 2.5 * GIB, engineBytes: 3 * GIB }));
    expect(row.label).toBe("2 × h100-80g");
    expect(row.freeGib).toBeCloseTo(0.9 * 79.647 - 71.2, 2);
    expect(row.overGib).toBe(0);
    expect(row.physicalGib).toBeCloseTo(79.647, 3);
  });

  test("a card over its usable share shows by how much, with no free rest, and the chart widens to show it", () => {
    const row = cardBarRow(
      card({ cards: 1, role: "stage 2", weightsBytes: 75 * GIB, kvBytes: 10 * GIB, engineBytes: 3 * GIB }),
    );
    expect(row.label).toBe("1 × h100-80g · stage 2");
    expect(row.freeGib).toBe(0);
    expect(row.overGib).toBeCloseTo(88 - 0.9 * 79.647, 2);
    expect(barDomainGib([row])).toBeCloseTo(88, 6);
  });
});

describe("badges", () => {
  test.each([
    ["fits and free", option({}), ["fits", "free now"]],
    ["fits on busy cards: busy is not unfit", option({ freeNow: false }), ["fits", "busy now"]],
    ["does not fit at this context", option({ fits: false, freeNow: false }), ["does not fit"]],
    [
      "short of cards",
      option({ fits: false, freeNow: false, moreCardsNeeded: 2 }),
      ["does not fit", "needs 2 more cards"],
    ],
    ["one card short", option({ fits: false, moreCardsNeeded: 1 }), ["does not fit", "needs 1 more card"]],
  ])("%s", (_name, o, texts) => {
    expect(optionBadges(o).map((b) => b.text)).toEqual(texts);
  });
});

describe("filters and groups keep the engine's rank order", () => {
  const ranked = [
    option({ id: "a", artifact: "original", engine: "vllm" }),
    option({ id: "b", artifact: "Q4_K_M", engine: "llamacpp", freeNow: false }),
    option({ id: "c", artifact: "original", engine: "sglang", fits: false }),
    option({ id: "d", artifact: "Q4_K_M", engine: "llamacpp" }),
  ];
  test.each([
    [{ artifact: "", engine: "" as const, fit: "all" as const }, ["a", "b", "c", "d"]],
    [{ artifact: "Q4_K_M", engine: "" as const, fit: "all" as const }, ["b", "d"]],
    [{ artifact: "", engine: "llamacpp" as const, fit: "free" as const }, ["d"]],
    [{ artifact: "original", engine: "" as const, fit: "fits" as const }, ["a"]],
  ])("%o", (f, ids) => {
    expect(filterOptions(ranked, { ...f, groupBy: "none" }).map((o) => o.id)).toEqual(ids);
  });

  test("groups come in the order of their best option", () => {
    const groups = groupOptions(ranked, "engine");
    expect(groups.map((g) => [g.title, g.options.map((o) => o.id)])).toEqual([
      ["vLLM", ["a"]],
      ["llama.cpp", ["b", "d"]],
      ["SGLang", ["c"]],
    ]);
  });
});

describe("the best layout of each artifact × engine first", () => {
  const ranked = [
    option({ id: "a", artifact: "q4", engine: "vllm" }),
    option({ id: "b", artifact: "q4", engine: "vllm" }),
    option({ id: "c", artifact: "q4", engine: "sglang" }),
    option({ id: "d", artifact: "bf16", engine: "vllm" }),
    option({ id: "e", artifact: "q4", engine: "sglang" }),
  ];
  test("keeps the first of each in rank order and counts the rest", () => {
    const { best, others } = bestOfEach(ranked, "");
    expect(best.map((o) => o.id)).toEqual(["a", "c", "d"]);
    expect(others).toBe(2);
  });
  test("an opened option stays in view, in its place", () => {
    expect(bestOfEach(ranked, "e").best.map((o) => o.id)).toEqual(["a", "c", "d", "e"]);
  });
});
