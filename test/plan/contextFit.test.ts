/**
 * A context past the model's own limit (issue 17, defect 5): said once, with the limit, where the files
 * set it, and the YaRN stretch with each engine's flags; planned at the limit unless YaRN is asked for,
 * and then planned with the stretch, whose flags the commands carry. Before, `--context 200000` on
 * Qwen3-8B printed "does not fit (0 more cards)" beside `--max-model-len 200000`.
 */
import { describe, expect, test } from "vitest";
import { contextFit, DEFAULT_WORKLOAD, plan, readModel, shapeFromConfig, shapeFromGguf } from "../../src/plan/index.ts";
import type { Cluster } from "../../src/plan/index.ts";
import { loadConfig, loadModel, recordedHeader, snapshotOf } from "./fixture.ts";

// Qwen/Qwen3-8B's config.json (test/fixtures/configs, from huggingface.co/Qwen/Qwen3-8B): max_position_embeddings
// 40,960, rope_scaling null. Its model card: 32,768 native, YaRN {"factor": 4.0, "original_max_position_embeddings": 32768}.
const QWEN3_8B = shapeFromConfig(loadConfig("Qwen__Qwen3-8B"), null);
const H100: Cluster = {
  nodes: [
    {
      id: "n1",
      fabric: "ib0",
      hostMemGib: 2048,
      hostFreeGib: 2048,
      devices: [{ class: "h100-80g", count: 8, free: 8 }],
    },
  ],
};

describe("a context past the model's limit", () => {
  test("Qwen3-8B at 200,000 tokens, YaRN not asked: planned at 40,960, with the limit's source and each engine's flags", () => {
    const fit = contextFit(QWEN3_8B, 200_000, undefined);
    expect(fit.contextTokens).toBe(40_960);
    expect(fit.extended).toBe(false);
    expect(fit.yarn).toEqual({ factor: 6.11, originalTokens: 32_768 });
    expect(fit.message).toContain(
      "A context of 200,000 tokens is past the model's limit of 40,960 (config.json's max_position_embeddings): planned at 40,960.",
    );
    const rope = `'{"rope_scaling":{"rope_type":"yarn","factor":6.11,"original_max_position_embeddings":32768}}'`;
    expect(fit.message).toContain(`vLLM: --hf-overrides ${rope} --max-model-len 200000`);
    expect(fit.message).toContain(`SGLang: --json-model-override-args ${rope} --context-length 200000`);
    expect(fit.message).toContain(
      "llama.cpp: --rope-scaling yarn --rope-scale 6.11 --yarn-orig-ctx 32768 --ctx-size 200000",
    );
  });

  test("Qwen's own example, 131,072 tokens: factor 4 over 32,768, as the model card gives it", () => {
    expect(contextFit(QWEN3_8B, 131_072, undefined).yarn).toEqual({ factor: 4, originalTokens: 32_768 });
  });

  test("within the limit nothing is said and nothing changes", () => {
    const fit = contextFit(QWEN3_8B, 40_960, "yarn");
    expect(fit).toEqual({ shape: QWEN3_8B, contextTokens: 40_960, message: null, yarn: null, extended: false });
  });

  test("YaRN asked: the plan holds 200,000 tokens on one H100, and the vLLM and SGLang commands carry the stretch", () => {
    const fit = contextFit(QWEN3_8B, 200_000, "yarn");
    expect(fit.extended).toBe(true);
    // vLLM derives int(32,768 × 6.11) = 200,212 positions (vllm/config/model.py, yarn: original × factor).
    expect(fit.shape.maxContextTokens).toBe(200_212);
    const weights = { path: "model.safetensors", sizeBytes: 16_381_470_720 }; // a stand-in size: 8.19 B × 2 bytes
    const snap = { repo: "Qwen/Qwen3-8B", sha: "", config: loadConfig("Qwen__Qwen3-8B"), files: [weights] };
    const { artifacts } = readModel({ ...snap, paramsTotal: null, ggufHeaders: {} });
    const p = plan({ repo: "Qwen/Qwen3-8B", revision: "", shape: fit.shape, artifacts }, H100, {
      ...DEFAULT_WORKLOAD,
      contextTokens: fit.contextTokens,
    });
    const v = p.options.find((o) => o.engine === "vllm" && o.placement.tensorParallel === 1);
    expect(v?.fits).toBe(true);
    expect(v?.notes).toBeUndefined();
    expect(v?.commands[0]).toContain(
      `--max-model-len 200000 --hf-overrides '{"rope_scaling":{"rope_type":"yarn","factor":6.11,"original_max_position_embeddings":32768}}'`,
    );
    const s = p.options.find((o) => o.engine === "sglang");
    expect(s?.commands[0]).toContain("--context-length 200000 --json-model-override-args");
    expect(p.refused.some((r) => /longer than the model's own/.test(r.reason))).toBe(false);
  });

  test.each([
    [
      "Llama-3.1-8B, whose config already sets rope_scaling llama3",
      () => shapeFromConfig(loadModel("meta-llama__Llama-3.1-8B-Instruct").config ?? {}, null),
      262_144,
      "config.json's max_position_embeddings with its rope_scaling (llama3)",
      "its files already set rope scaling (llama3)",
    ],
    [
      "DeepSeek-R1, already stretched by yarn ×40",
      () => shapeFromConfig(snapshotOf("deepseek-ai__DeepSeek-R1").config ?? {}, null),
      300_000,
      "with its rope_scaling (yarn)",
      "its files already set rope scaling (yarn)",
    ],
    [
      "a Mixtral GGUF (llama architecture), no YaRN its makers publish",
      () => shapeFromGguf(recordedHeader("mixtral-8x7b-instruct-v0.1.Q5_K_M.gguf")),
      100_000,
      "the GGUF's llama.context_length",
      "its makers publish no YaRN extension for llama",
    ],
  ])("%s: YaRN asked, planned at its limit and says why not", (_name, shapeOf, asked, source, why) => {
    const shape = shapeOf();
    const fit = contextFit(shape, asked, "yarn");
    expect(fit.contextTokens).toBe(shape.maxContextTokens);
    expect(fit.extended).toBe(false);
    expect(fit.message).toContain(source);
    expect(fit.message).toContain(`YaRN was asked for, but ${why}`);
  });
});
