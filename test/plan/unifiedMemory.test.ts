/**
 * Unified-memory machines (issue 14): the GPU's share of the one pool, as the machines report it,
 * which engines run there, and the Mac Studio preset planned on llama.cpp.
 */
import { describe, expect, test } from "vitest";
import {
  appleGpuWorkingSetBytes,
  artifactsOf,
  cardMemoryBytes,
  cudaTotalBytes,
  DEFAULT_WORKLOAD,
  engineRunsOn,
  plan,
} from "../../src/plan/index.ts";
import type { Artifact } from "../../src/plan/index.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { snapshotOf } from "./fixture.ts";
import { GIB, shapeOf } from "./planning-fixtures.ts";

const MIB = 2 ** 20;

describe("macOS's default GPU working set: 2/3 of RAM up to 36 GiB, 3/4 above", () => {
  // recommendedMaxWorkingSetSize as llama.cpp printed it (in MiB, its print of the time), to the 0.01 it prints.
  test.each([
    [16, 10922.67, "github.com/abetlen/llama-cpp-python/issues/687"],
    [32, 21845.34, "github.com/ollama/ollama/issues/434"],
    [96, 73728.0, "github.com/ggml-org/llama.cpp/issues/3213"],
  ])("%i GiB → %f MiB (%s)", (ramGib, printedMib) => {
    expect(Math.abs(appleGpuWorkingSetBytes(ramGib * GIB) / MIB - printedMib)).toBeLessThan(0.01);
  });

  test("the M3 Ultra 512 GB in the catalog offers 384 GiB to Metal", () => {
    expect(cardMemoryBytes("apple-m3-ultra-512g")).toBe(384 * GIB);
  });
});

describe("GB10 and Strix Halo report what their GPU may use", () => {
  test("GB10: CUDA's 121.69 GiB of its 128, with nothing more held back for vLLM's total", () => {
    expect(cardMemoryBytes("gb10-128g")).toBeCloseTo(121.69 * GIB, -3);
    expect(cudaTotalBytes(cardMemoryBytes("gb10-128g") ?? 0, "gb10-128g")).toBeCloseTo(121.69 * GIB, -3);
  });

  test("Strix Halo 128 GB: the stock kernel's GTT, 63968 MiB (ds4#475); a raised ttm.pages_limit is given as mem_gib", () => {
    expect(cardMemoryBytes("strixhalo-128g")).toBe(63968 * MIB);
    expect(cardMemoryBytes("strixhalo-128g", 96)).toBe(96 * GIB);
  });
});

describe("which engine runs where", () => {
  test.each([
    ["apple-m3-ultra-512g", "llamacpp", true],
    ["apple-m3-ultra-512g", "vllm", false],
    ["apple-m3-ultra-512g", "sglang", false],
    ["gb10-128g", "vllm", true],
    ["gb10-128g", "llamacpp", true],
    ["strixhalo-128g", "vllm", false],
    ["h100-80g", "sglang", true],
  ] as const)("%s runs %s: %s", (cls, engine, runs) => {
    expect(engineRunsOn(cls, engine)).toBe(runs);
  });
});

describe("the Mac Studio M3 Ultra 512 GB preset", () => {
  test("runs DeepSeek-R1 UD-IQ1_S (131 GiB) on llama.cpp, all layers on Metal's 384 GiB", () => {
    const mac = PRESETS.find((p) => p.id === "mac-studio-m3-ultra-512g");
    const shape = shapeOf("deepseek-ai/DeepSeek-R1");
    const iq1s = artifactsOf(snapshotOf("unsloth__DeepSeek-R1-GGUF"), shape).find(
      (a) => a.name === "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S",
    ) as Artifact;
    const p = plan(
      { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape, artifacts: [iq1s] },
      mac?.cluster ?? { nodes: [] },
      DEFAULT_WORKLOAD,
    );
    const o = p.options.find((x) => x.engine === "llamacpp" && !x.placement.cpu);
    expect(o?.fits).toBe(true);
    expect(o?.placement).toMatchObject({ gpuClass: "apple-m3-ultra-512g", gpusPerNode: 1, gpuLayers: -1 });
    expect(o?.cards[0]?.usableBytes).toBe(383 * GIB);
  });
});
