/**
 * The command form's "by how much" (issue 6): when an option stops fitting,
 * the form says what the worst card lacks, from the planner's own need and
 * have, rounded up so that following the advice is enough.
 */
import { describe, expect, test } from "vitest";
import { shortfallOf } from "../../src/plan/index.ts";
import { plan, withWorkload } from "../../src/plan/index.ts";
import { readModel } from "../../src/plan/index.ts";
import type { Placement } from "../../src/plan/index.ts";
import { GIB, snapshotOf } from "./fixture.ts";

const GPU: Placement = {
  cpu: false,
  gpuClass: "h100-80g",
  fabric: "",
  gpusPerNode: 1,
  nodes: 1,
  tensorParallel: 1,
  pipelineParallel: 1,
  expertParallel: false,
  cpuMoeLayers: 0,
  gpuLayers: -1,
};

describe("shortfallOf", () => {
  test("a card 3.14 GiB short is told 3.2, never 3.1", () => {
    const s = shortfallOf({
      fits: false,
      needBytes: 83.14 * GIB,
      haveBytes: 80 * GIB,
      moreCardsNeeded: 0,
      placement: GPU,
      engine: "vllm",
    });
    expect(s.moreGib).toBe(3.2);
    expect(s.words).toBe("needs 3.2 GiB more a card");
  });

  test("on the CPU the host's RAM is short, and missing cards are said too", () => {
    const cpu = { ...GPU, cpu: true, gpuClass: "" };
    expect(
      shortfallOf({
        fits: false,
        needBytes: 600 * GIB,
        haveBytes: 435 * GIB,
        moreCardsNeeded: 0,
        placement: cpu,
        engine: "llamacpp",
      }).words,
    ).toBe("needs 165.0 GiB more RAM");
    expect(
      shortfallOf({
        fits: false,
        needBytes: 10 * GIB,
        haveBytes: 70 * GIB,
        moreCardsNeeded: 2,
        placement: GPU,
        engine: "vllm",
      }).words,
    ).toBe("needs 2 more cards than the cluster has");
  });

  test("vLLM short outside its budget says which setting to lower", () => {
    const s = shortfallOf({
      fits: false,
      needBytes: 70 * GIB,
      haveBytes: 75 * GIB,
      moreCardsNeeded: 0,
      placement: GPU,
      engine: "vllm",
    });
    expect(s.moreGib).toBe(0);
    expect(s.words).toMatch(/lower --gpu-memory-utilization/);
  });

  test("a fitting option needs nothing", () => {
    expect(
      shortfallOf({
        fits: true,
        needBytes: 10 * GIB,
        haveBytes: 70 * GIB,
        moreCardsNeeded: 0,
        placement: GPU,
        engine: "sglang",
      }),
    ).toEqual({ fits: true, moreGib: 0, moreCards: 0, words: "fits" });
  });
});

describe("the form's re-check on a real plan", () => {
  test("Llama-3.1-8B on one RTX 4090: 8k fits, 128k does not, and the shortfall is what the card lacks", () => {
    const snapshot = snapshotOf("meta-llama__Llama-3.1-8B-Instruct");
    const { shape, artifacts } = readModel(snapshot);
    const cluster = {
      nodes: [
        {
          id: "ws",
          fabric: "",
          hostMemGib: 64,
          hostFreeGib: 60,
          devices: [{ class: "rtx4090-24g", count: 1, free: 1 }],
        },
      ],
    };
    const short = plan({ repo: snapshot.repo, revision: snapshot.sha, shape, artifacts }, cluster, {
      contextTokens: 8192,
      sequences: 1,
      kvDtype: "auto",
      settings: {},
    });
    const chosen = short.options.find((o) => o.engine === "vllm" && o.artifact === "original");
    expect(chosen?.fits).toBe(true);
    const long = withWorkload(short, { ...short.workload, contextTokens: 131072 });
    const again = long.options.find((o) => o.id === chosen?.id);
    expect(again).toBeDefined();
    if (!again) return;
    // 131,072 tokens of Llama-3.1-8B's KV alone are 16 GiB (32 layers × 8 KV heads × 128 × 2 × 2 B);
    // with 15 GiB of weights that cannot fit a 24 GiB card.
    expect(again.fits).toBe(false);
    const s = shortfallOf(again);
    expect(s.moreGib).toBeGreaterThan(0);
    expect(s.moreGib * GIB).toBeGreaterThanOrEqual(again.needBytes - again.haveBytes);
    expect(s.words).toMatch(/^needs \d+\.\d GiB more a card$/);
  });
});
