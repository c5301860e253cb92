import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { Placement } from "../../src/plan/index.ts";
import {
  artifactLabel,
  formatGib,
  formatParams,
  formatTps,
  modelSummary,
  placementLabel,
} from "../../src/ui/format.ts";

const qwen3_32b = JSON.parse(
  readFileSync(new URL("../fixtures/ui/Qwen__Qwen3-32B.config.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

describe("the model's one-line summary", () => {
  test("Qwen3-32B reads as its model card says it (32.8B params, 64 layers, 8 KV heads, 40,960 ctx, bf16)", () => {
    // 32.8B: "Number of Parameters: 32.8B" on the Qwen/Qwen3-32B model card.
    const shape = shapeFromConfig(qwen3_32b, 32.8e9);
    expect(modelSummary(shape)).toBe("32.8B params · 64 layers · 8 KV heads · 40,960 ctx · bf16");
  });

  test("without a parameter count the summary leaves it out rather than guessing", () => {
    expect(modelSummary(shapeFromConfig(qwen3_32b, null))).toBe("64 layers · 8 KV heads · 40,960 ctx · bf16");
  });

  test("what a token is cached in: DeepSeek-V3's latent and DeepSeek-V4's compressed cache, not their configs' KV-head counts", () => {
    const config = (name: string) =>
      JSON.parse(readFileSync(new URL(`../fixtures/configs/${name}.config.json`, import.meta.url), "utf8")) as Record<
        string,
        unknown
      >;
    // V3's config says 128 KV heads and V4-Flash's 1: neither is what they cache (notes §4, item 3 and 4).
    expect(modelSummary(shapeFromConfig(config("deepseek-ai__DeepSeek-V3"), null))).toContain("· MLA cache ·");
    const v4 = modelSummary(shapeFromConfig(config("deepseek-ai__DeepSeek-V4-Flash"), null));
    expect(v4).toContain("· compressed MLA cache ·");
    expect(v4).not.toMatch(/KV heads/);
  });

  test("a count of 0 (a GGUF header with no tensor list) is left out too, never shown as '0 params'", () => {
    expect(modelSummary({ ...shapeFromConfig(qwen3_32b, null), paramsTotal: 0 })).toBe(
      "64 layers · 8 KV heads · 40,960 ctx · bf16",
    );
  });
});

describe("speed figures", () => {
  test("a rate under 1 tok/s keeps two significant digits (0.02 read '0.0 tok/s', a figure of nothing)", () => {
    expect(formatTps(0.0213)).toBe("0.021 tok/s");
    expect(formatTps(0.5)).toBe("0.50 tok/s");
    expect(formatTps(36.84)).toBe("36.8 tok/s");
    expect(formatTps(2591.2)).toBe("2,591 tok/s");
    expect(formatTps(null)).toBe("not estimated");
  });
});

describe("units", () => {
  test.each([
    // An "80GB" H100 reports 81,559 MiB (nvidia-smi, shared/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt): 79.6 GiB, not 80.
    [81559 * 2 ** 20, "79.6 GiB"],
    [0, "0.0 GiB"],
    [2 ** 30 * 1.25, "1.3 GiB"],
  ])("formatGib(%d) = %s", (bytes, text) => {
    expect(formatGib(bytes)).toBe(text);
  });

  test.each([
    [32.8e9, "32.8B"],
    [671e9, "671.0B"],
    [1.04e12, "1.04T"],
    [560e6, "560M"],
  ])("formatParams(%d) = %s", (params, text) => {
    expect(formatParams(params)).toBe(text);
  });
});

describe("where an option runs, in the issue's words", () => {
  const base: Placement = {
    cpu: false,
    gpuClass: "h100-80g",
    fabric: "ib0",
    gpusPerNode: 2,
    nodes: 1,
    tensorParallel: 2,
    pipelineParallel: 1,
    expertParallel: false,
    cpuMoeLayers: 0,
    gpuLayers: -1,
  };
  test.each([
    ["one node", base, "2 × h100-80g"],
    [
      "two nodes on a fabric",
      { ...base, gpusPerNode: 8, nodes: 2, tensorParallel: 8, pipelineParallel: 2 },
      "2 nodes × 8 h100-80g on ib0",
    ],
    ["a node's CPU", { ...base, cpu: true, gpuClass: "", gpusPerNode: 0 }, "CPU"],
  ])("%s", (_name, placement, text) => {
    expect(placementLabel(placement)).toBe(text);
  });
});

describe("artifact names", () => {
  test("a split GGUF's folder and file of the same name are said once (unsloth/DeepSeek-R1-GGUF's layout)", () => {
    expect(artifactLabel("DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S")).toBe("DeepSeek-R1-UD-IQ1_S");
    expect(artifactLabel("Q4_K_M/DeepSeek-R1-Q4_K_M")).toBe("Q4_K_M/DeepSeek-R1-Q4_K_M");
    expect(artifactLabel("original")).toBe("original");
  });
});
