/**
 * The parameter count made from config.json when the repository gives none (src/plan/config/params.ts), against
 * counts the world recorded: the Hub's safetensors totals and index total_sizes ÷ 2 of bf16 checkpoints
 * (test/fixtures/calibration/models.json and test/fixtures/models, each entry naming its source), the BF16 GGUF of
 * DeepSeek-R1 (llama.cpp's convert leaves the MTP layer out: block_count 61), and OpenAI's model card for
 * gpt-oss-20b. Each is counted from the config alone, through readModel, with no count and no weights given.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readModel, type RepoSnapshot } from "../../src/plan/index.ts";
import { loadConfig, loadModel } from "./fixture.ts";

/** A config-derived count must land within this of the recorded one (the brief's aim: ≤ 0.5 %). */
const TOLERANCE = 0.005;

const CALIBRATION = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "calibration", "models.json"), "utf8"),
) as { models: Record<string, { config: Record<string, unknown>; params?: number; bytes?: number }> };

function calibration(name: string): { config: Record<string, unknown>; params?: number; bytes?: number } {
  const m = CALIBRATION.models[name];
  if (m === undefined) throw new Error(`${name} is not in calibration/models.json`);
  return m;
}

/** The shape readModel makes from a config alone: no Hub count, no weight files. */
function shapeOfConfig(config: Record<string, unknown>) {
  const snapshot: RepoSnapshot = { repo: "t/t", sha: "", config, files: [], paramsTotal: null, ggufHeaders: {} };
  return readModel(snapshot).shape;
}

interface Reference {
  model: string;
  config: Record<string, unknown>;
  /** The recorded count of the main model, parameters. */
  recorded: number;
  source: string;
}

const bf16Bytes = (name: string) => (calibration(name).bytes ?? NaN) / 2;

const REFERENCES: Reference[] = [
  ...(
    [
      ["Qwen/Qwen2.5-7B-Instruct", "index total_size ÷ 2"],
      ["Qwen/Qwen2.5-72B-Instruct", "Hub safetensors total"],
      ["Qwen/Qwen3-14B", "Hub safetensors total"],
      ["deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "Hub safetensors total"],
      ["meta-llama/Llama-3.3-70B-Instruct", "Hub safetensors total"],
      ["google/gemma-2-27b-it", "public table of Hub totals (tied embeddings)"],
      ["ibm-granite/granite-3.1-8b-instruct", "public planner table (tied embeddings)"],
      ["Qwen/Qwen1.5-MoE-A2.7B", "model card 14.3B (rounded ±0.4%)"],
      ["Qwen/Qwen3-235B-A22B", "Hub safetensors total"],
    ] as const
  ).map(([model, source]) => ({
    model,
    config: calibration(model).config,
    recorded: calibration(model).params ?? NaN,
    source,
  })),
  {
    model: "meta-llama/Llama-3.1-8B-Instruct",
    config: calibration("meta-llama/Llama-3.1-8B-Instruct").config,
    recorded: bf16Bytes("meta-llama/Llama-3.1-8B-Instruct"),
    source: "index total_size ÷ 2",
  },
  {
    model: "mistralai/Mixtral-8x7B-Instruct-v0.1",
    config: calibration("mistralai/Mixtral-8x7B-Instruct-v0.1").config,
    recorded: bf16Bytes("mistralai/Mixtral-8x7B-Instruct-v0.1"),
    source: "index total_size ÷ 2",
  },
  ...(["microsoft__phi-4", "Qwen__Qwen2.5-Coder-32B-Instruct"] as const).map((name) => {
    const m = loadModel(name) as unknown as { id: string; config: Record<string, unknown>; params: number };
    return { model: m.id, config: m.config, recorded: m.params, source: "index total_size ÷ 2" };
  }),
  {
    model: "deepseek-ai/DeepSeek-R1",
    config: loadConfig("deepseek-ai__DeepSeek-R1"),
    // unsloth/DeepSeek-R1-GGUF's DeepSeek-R1-BF16 set, 30 files (test/fixtures/models/unsloth__DeepSeek-R1-GGUF.json).
    recorded: 1_342_273_048_096 / 2,
    source: "BF16 GGUF bytes ÷ 2 (no MTP layer)",
  },
  {
    model: "openai/gpt-oss-20b",
    config: (loadModel("openai__gpt-oss-20b") as unknown as { config: Record<string, unknown> }).config,
    // OpenAI's model card: 20.9 B total, 3.61 B active (https://en.immers.cloud/ai/model/gpt-oss-20b quotes it).
    recorded: 20.9e9,
    source: "model card 20.9B (rounded ±0.25%)",
  },
];

function errorOf(ref: Reference): { counted: number | null; error: number } {
  const counted = shapeOfConfig(ref.config).paramsTotal;
  return { counted, error: counted === null ? NaN : counted / ref.recorded - 1 };
}

describe("a parameter count from config.json agrees with the recorded count", () => {
  test(`every model within ${TOLERANCE * 100}% (the table is printed)`, () => {
    const rows = REFERENCES.map((ref) => ({ ...ref, ...errorOf(ref) }));
    console.log(
      rows
        .map(
          (r) =>
            `${r.model.padEnd(42)} ${String(r.counted).padStart(13)} vs ${String(Math.round(r.recorded)).padStart(13)}` +
            ` ${(r.error * 100).toFixed(4).padStart(8)}%  ${r.source}`,
        )
        .join("\n"),
    );
    for (const r of rows) expect(Math.abs(r.error), r.model).toBeLessThanOrEqual(TOLERANCE);
  });

  test("the count says where it came from, and leaves DeepSeek's MTP layer out (11.7 B, 1.7 % more)", () => {
    const shape = shapeOfConfig(loadConfig("deepseek-ai__DeepSeek-R1"));
    expect(shape.paramsSource).toBe("config");
    expect(shape.mtpParams).toBeGreaterThan(11e9);
    // With the MTP layer counted in, the BF16 GGUF (no MTP layer) would be missed by far more than the tolerance.
    expect(((shape.paramsTotal ?? 0) + (shape.mtpParams ?? 0)) / (1_342_273_048_096 / 2) - 1).toBeGreaterThan(0.015);
  });

  test("the check can fail: gemma-2-27b with its tied embeddings counted twice misses by 4.3 %", () => {
    const config = { ...calibration("google/gemma-2-27b-it").config, tie_word_embeddings: false };
    const counted = shapeOfConfig(config).paramsTotal ?? 0;
    expect(counted / (calibration("google/gemma-2-27b-it").params ?? NaN) - 1).toBeGreaterThan(0.04);
  });
});

/**
 * Kimi-K2-Instruct against ik_llama.cpp's load of its BF16-converted GGUF (ikawrakow/ik_llama.cpp PR #612, ubergarm,
 * 2025-07-15): "model params = 1.027 T", "repeating layers = 344.166 GiB (2.885 BPW, 1024.571 B parameters)". That
 * GGUF keeps `attn_kv_b` [512, 16384] beside its split `attn_k_b` [128, 32768] and `attn_v_b` [512, 8192] (the PR's
 * tensor list), so it counts each layer's kv_b twice: kv_lora_rank × heads × (qk_nope + v_head) = 8,388,608 more a
 * layer than the checkpoint. "Repeating" leaves out token_embd and output ([7168, 163840] each).
 */
describe("Kimi-K2-Instruct (1.03 T), whose Hub entry was not recorded", () => {
  test("its layers, with the GGUF's duplicated kv_b added, are the 1,024.571 B its load printed (to the last digit)", () => {
    const config = loadConfig("moonshotai__Kimi-K2-Instruct");
    const counted = shapeOfConfig(config).paramsTotal ?? NaN;
    const embeddings = 2 * 163_840 * 7168 + 7168; // token_embd, output (untied) and the final norm
    const duplicatedKvB = 61 * 512 * 64 * (128 + 128);
    // Printed to three decimals of a billion: within half of the last digit.
    expect(Math.abs(counted - embeddings + duplicatedKvB - 1024.571e9)).toBeLessThanOrEqual(0.0005e9);
    expect(((counted + duplicatedKvB) / 1e12).toFixed(3)).toBe("1.027");
  });
});

describe("where the config cannot be counted, the count stays null", () => {
  test.each([
    ["google/gemma-3-27b-it", "a vision tower the text config does not size"],
    ["mistralai/Mistral-Small-3.1-24B-Instruct-2503", "a Pixtral vision tower"],
    ["microsoft/phi-2", "a family (phi: LayerNorm biases, ungated MLP) not counted tensor by tensor"],
  ])("%s: %s", (name) => {
    const shape = shapeOfConfig(calibration(name).config);
    expect(shape.paramsTotal).toBeNull();
    expect(shape.paramsSource).toBeUndefined();
  });

  test("a Hub count is kept as it is, not replaced by the config's", () => {
    const config = calibration("Qwen/Qwen3-14B").config;
    const snapshot: RepoSnapshot = { repo: "t/t", sha: "", config, files: [], paramsTotal: 123, ggufHeaders: {} };
    const { shape } = readModel(snapshot);
    expect([shape.paramsTotal, shape.paramsSource]).toEqual([123, undefined]);
  });
});
