import { describe, expect, test } from "vitest";
import { MAX_KEPT_ARRAY, headerFromParse } from "../../src/hub/gguf.ts";
import { ggufHeaderPaths } from "../../src/hub/ggufFiles.ts";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";

describe("headerFromParse", () => {
  // The keys and sizes of a Qwen2.5 GGUF header (vocab 152,064: shared/fixtures/models/Qwen__Qwen2.5-7B-Instruct-GGUF.json).
  const vocab = 152_064;
  const parse = {
    metadata: {
      version: 3 as const,
      tensor_count: 339n,
      kv_count: 26n,
      "general.architecture": "qwen2",
      "qwen2.block_count": 28,
      "qwen2.context_length": 131072,
      "llama.attention.head_count_kv": [8, 8, 8, 8],
      "tokenizer.ggml.tokens": Array.from({ length: vocab }, (_, i) => `t${i}`),
      "tokenizer.ggml.token_type": Array.from({ length: vocab }, () => 1),
      "tokenizer.ggml.scores": Array.from({ length: vocab }, () => 0),
      "general.bad_float": Number.NaN,
    },
    tensorInfos: [{ name: "token_embd.weight", n_dims: 2, shape: [3584n, 152064n], dtype: 8, offset: 0n }],
    tensorDataOffset: 5_997_568n,
  };

  test("keeps numbers as numbers and per-layer arrays whole", () => {
    const h = headerFromParse(parse as unknown as Parameters<typeof headerFromParse>[0]);
    expect(h.metadata["tensor_count"]).toBe(339);
    expect(h.metadata["qwen2.block_count"]).toBe(28);
    expect(h.metadata["llama.attention.head_count_kv"]).toEqual([8, 8, 8, 8]);
    expect(h.tensors).toEqual([{ name: "token_embd.weight", shape: [3584, 152064], type: 8 }]);
    expect(h.tensorDataOffsetBytes).toBe(5_997_568);
  });

  test("keeps only the length of the vocabulary and of per-token arrays, so the snapshot stays small", () => {
    const h = headerFromParse(parse as unknown as Parameters<typeof headerFromParse>[0]);
    expect(h.metadata["tokenizer.ggml.tokens.count"]).toBe(vocab);
    expect(h.metadata["tokenizer.ggml.token_type.count"]).toBe(vocab);
    expect(h.metadata["tokenizer.ggml.scores.count"]).toBe(vocab);
    expect(h.metadata["tokenizer.ggml.tokens"]).toBeUndefined();
    expect(h.metadata["general.bad_float"]).toBeUndefined();
    expect(vocab).toBeGreaterThan(MAX_KEPT_ARRAY);
    expect(JSON.stringify(h).length).toBeLessThan(2_000);
  });
});

describe("ggufHeaderPaths", () => {
  test("reads the first part of each split set and no projector", () => {
    expect(
      ggufHeaderPaths([
        "Qwen2.5-VL-7B-Instruct-Q4_K_M.gguf",
        "mmproj-Qwen2.5-VL-7B-Instruct-f16.gguf",
        "Q8_0/model-Q8_0-00001-of-00002.gguf",
        "Q8_0/model-Q8_0-00002-of-00002.gguf",
        "README.md",
      ]),
    ).toEqual(["Qwen2.5-VL-7B-Instruct-Q4_K_M.gguf", "Q8_0/model-Q8_0-00001-of-00002.gguf"]);
  });

  test("skips a split set with a part missing: it cannot load", () => {
    expect(ggufHeaderPaths(["x-00001-of-00003.gguf", "x-00003-of-00003.gguf"])).toEqual([]);
  });

  test("on unsloth's DeepSeek-R1 file list: one per quantization folder, 13", () => {
    const paths = catalogSnapshot("unsloth/DeepSeek-R1-GGUF")?.files.map((f) => f.path) ?? [];
    expect(ggufHeaderPaths(paths)).toHaveLength(13);
  });
});
