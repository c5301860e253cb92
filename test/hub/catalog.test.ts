import { describe, expect, test } from "vitest";
import { EXAMPLE_REPO, catalogEntries, catalogSnapshot, catalogSource } from "../../scripts/lib/catalog.ts";
import { readModel } from "../../src/plan/index.ts";

describe("the bundled catalog", () => {
  test.each(catalogEntries())("$repo reads into a shape and artifacts with no network", ({ repo }) => {
    const snap = catalogSnapshot(repo);
    expect(snap).toBeDefined();
    if (!snap) return;
    const { shape, artifacts } = readModel(snap);
    expect(shape.layers).toBeGreaterThan(0);
    expect(artifacts.length).toBeGreaterThan(0);
    expect(catalogSource(repo)?.length).toBeGreaterThan(1);
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });

  test("the example plan's model is Qwen2.5-Coder-32B-Instruct as published at b472059", () => {
    const snap = catalogSnapshot(EXAMPLE_REPO);
    expect(snap?.sha).toBe("b47205940b83b5b484577359f71ee7b88472df67");
    const { shape, artifacts } = readModel(
      snap ?? { repo: "", sha: "", config: null, files: [], paramsTotal: null, ggufHeaders: {} },
    );
    // config.json at b472059: 64 layers, 40 heads, 8 KV heads, 32,768 positions, bf16.
    expect(shape).toMatchObject({ layers: 64, attentionHeads: 40, kvHeads: 8, headDim: 128, maxContextTokens: 32768 });
    // The sum of its 14 shards' LFS sizes (shared/fixtures/models notes).
    expect(artifacts.find((a) => a.format === "safetensors")?.bytes).toBe(65_527_841_688);
  });

  test("DeepSeek-R1's 163 shards weigh what their LFS pointers say", () => {
    const files =
      catalogSnapshot("deepseek-ai/DeepSeek-R1")?.files.filter((f) => f.path.endsWith(".safetensors")) ?? [];
    expect(files).toHaveLength(163);
    expect(files.reduce((s, f) => s + f.sizeBytes, 0)).toBe(688_586_727_753);
  });

  test("unsloth's DeepSeek-R1 GGUF offers its 13 quantizations, the IQ1_S set at 140,231,438,464 bytes", () => {
    const snap = catalogSnapshot("unsloth/DeepSeek-R1-GGUF");
    const { artifacts } = readModel(
      snap ?? { repo: "", sha: "", config: null, files: [], paramsTotal: null, ggufHeaders: {} },
    );
    const gguf = artifacts.filter((a) => a.format === "gguf");
    expect(gguf).toHaveLength(13);
    expect(gguf.find((a) => a.files[0]?.includes("UD-IQ1_S"))?.bytes).toBe(140_231_438_464);
  });

  test("lookup ignores case, as the Hub does, and unknown repos are undefined", () => {
    expect(catalogSnapshot("qwen/qwen2.5-coder-32b-instruct")?.repo).toBe(EXAMPLE_REPO);
    expect(catalogSnapshot("nobody/nothing")).toBeUndefined();
  });
});
