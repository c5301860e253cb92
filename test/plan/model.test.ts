import { describe, expect, test } from "vitest";
import { readModel } from "../../src/plan/index.ts";
import type { RepoSnapshot } from "../../src/plan/index.ts";
import { kvBytesPerToken, loadConfig, recordedHeader, snapshotOf, thrown } from "./fixture.ts";

describe("readModel", () => {
  test("a safetensors repo: shape from config.json, its original weights as the artifact", () => {
    const { shape, artifacts } = readModel(snapshotOf("deepseek-ai__DeepSeek-R1"));
    expect(kvBytesPerToken(shape.layerCaches, 2)).toBe(70_272);
    expect(artifacts.map((a) => [a.name, a.bytes])).toEqual([["original", 688_586_727_753]]);
  });

  test("a GGUF repo that ships a config.json (unsloth) is shaped by the config; its GGUFs are the artifacts", () => {
    const { shape, artifacts } = readModel(snapshotOf("unsloth__DeepSeek-R1-GGUF"));
    expect(shape.architecture).toBe("deepseek_v3");
    expect(artifacts).toHaveLength(13);
    expect(artifacts.every((a) => a.format === "gguf")).toBe(true);
  });

  test("without the Hub's count, unsloth's BF16 set gives the parameters: 671 B (the model card), and every quant its real bits", () => {
    const { shape, artifacts } = readModel(snapshotOf("unsloth__DeepSeek-R1-GGUF"));
    expect(Math.abs((shape.paramsTotal ?? 0) / 1e9 - 671)).toBeLessThan(0.5);
    const iq1s = artifacts.find((a) => a.name.endsWith("UD-IQ1_S"));
    // gguf-parser printed 1.67 bpw for this set.
    expect(Math.abs((iq1s?.bitsPerWeight ?? 0) - 1.67)).toBeLessThan(0.005);
    // Every quant keeps some bytes that are not routed experts (embeddings, attention, shared experts).
    for (const a of artifacts) expect(a.expertBytes).toBeLessThan(a.bytes);
  });

  test("a bf16 checkpoint without the Hub's count is counted from its bytes (Mixtral: the index's 46.70 B)", () => {
    const snapshot = { ...snapshotOf("mistralai__Mixtral-8x7B-Instruct-v0.1"), paramsTotal: null };
    const { shape, artifacts } = readModel(snapshot);
    expect(Math.abs((shape.paramsTotal ?? 0) - 46_702_792_704) / 46_702_792_704).toBeLessThan(1e-5);
    expect(Math.abs((artifacts[0]?.bitsPerWeight ?? 0) - 16)).toBeLessThan(0.001);
  });

  test("a GGUF-only repo is shaped by its first GGUF's header", () => {
    const snapshot: RepoSnapshot = {
      repo: "TheBloke/Mixtral-8x7B-Instruct-v0.1-GGUF",
      sha: "",
      config: null,
      // Sizes as TheBloke's README lists them (32.23 GB, 26.44 GB), rounded: only their ratio to the experts is checked.
      files: [
        { path: "mixtral-8x7b-instruct-v0.1.Q5_K_M.gguf", sizeBytes: 32_229_280_000 },
        { path: "mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf", sizeBytes: 26_441_533_000 },
      ],
      paramsTotal: null,
      ggufHeaders: {
        "mixtral-8x7b-instruct-v0.1.Q5_K_M.gguf": recordedHeader("mixtral-8x7b-instruct-v0.1.Q5_K_M.gguf"),
      },
    };
    const { shape, artifacts } = readModel(snapshot);
    expect(shape).toMatchObject({ architecture: "llama", layers: 32, hasVision: false });
    expect(shape.moe).toMatchObject({ routedExperts: 8, expertsPerToken: 2 });
    expect(artifacts.map((a) => a.quant).sort()).toEqual(["Q4_K_M", "Q5_K_M"]);
    // Mixtral's experts are most of any of its files.
    for (const a of artifacts) expect(a.expertBytes / a.bytes).toBeGreaterThan(0.9);
  });

  test("a GGUF repo with an mmproj reads pictures, and the projector's header is not the model's", () => {
    const snapshot: RepoSnapshot = {
      repo: "x/y-GGUF",
      sha: "",
      config: null,
      files: [
        { path: "mmproj-F16.gguf", sizeBytes: 800_000_000 },
        { path: "model-Q4_K_M.gguf", sizeBytes: 5_000_000_000 },
      ],
      paramsTotal: null,
      ggufHeaders: {
        "mmproj-F16.gguf": { metadata: { "general.architecture": "clip" }, tensorDataOffsetBytes: 0 },
        "model-Q4_K_M.gguf": recordedHeader("Llama-3.1-70B (ollama)"),
      },
    };
    const { shape, artifacts } = readModel(snapshot);
    expect(shape.hasVision).toBe(true);
    expect(shape.architecture).toBe("llama");
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]?.projectorBytes).toBe(800_000_000);
  });

  test("no config.json and no GGUF header is a ModelError that says what to do", () => {
    const e = thrown(() => readModel(snapshotOf("bartowski__Qwen2.5-14B-Instruct-GGUF")));
    expect(e.field).toBe("config.json");
    expect(e.message).toMatch(/bartowski\/Qwen2.5-14B-Instruct-GGUF/);
    expect(e.message).toMatch(/paste the model's config.json/);
  });

  test("a config Modelplan refuses reaches the caller as the same named ModelError", () => {
    // A DeepSeek-V4 config whose compress_ratios list is cut short: which layer is compressed how is unknown.
    const config = loadConfig("deepseek-ai__DeepSeek-V4-Flash");
    config["compress_ratios"] = (config["compress_ratios"] as number[]).slice(0, 10);
    const snapshot: RepoSnapshot = {
      repo: "deepseek-ai/DeepSeek-V4-Flash",
      sha: "",
      config,
      files: [],
      paramsTotal: null,
      ggufHeaders: {},
    };
    expect(thrown(() => readModel(snapshot)).field).toBe("compress_ratios");
  });

  test("hf_quant_config.json passed as extra JSON reaches the shape", () => {
    const snapshot: RepoSnapshot = {
      repo: "nvidia/DeepSeek-V3.1-NVFP4",
      sha: "",
      config: loadConfig("nvidia__DeepSeek-V3.1-NVFP4"),
      files: [{ path: "model-00001-of-00001.safetensors", sizeBytes: 1 }],
      paramsTotal: null,
      ggufHeaders: {},
      extraJson: { "hf_quant_config.json": { quantization: { quant_algo: "NVFP4" } } },
    };
    const { shape, artifacts } = readModel(snapshot);
    expect(shape.quantMethod).toBe("modelopt");
    expect(artifacts[0]?.quant).toBe("nvfp4");
  });
});
