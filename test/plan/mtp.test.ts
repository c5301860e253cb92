/**
 * Multi-token-prediction weights (issue 15): a checkpoint's mtp.* block is loaded only with speculative
 * decoding on. NVIDIA's Qwen3.5-122B-A10B-NVFP4 (test/fixtures/configs, from its Hub config.json) leaves
 * "mtp*" unquantized, so its one MTP layer is bf16: its 256 experts alone 256 × 3 × 3072 × 1024 × 2 B =
 * 4.50 GiB, the 4.5 GiB the issue names; with its attention, shared expert and eh_proj 4.70 GiB.
 */
import { describe, expect, test } from "vitest";
import { GIB, mtpWeightBytes, shapeFromConfig } from "../../src/plan/index.ts";
import { loadConfig } from "./fixture.ts";
import { qwen35Config as config, qwen35Shape as shape, qwen35VllmOption } from "./mtpFixture.ts";

describe("the MTP block of Qwen3.5-122B-A10B-NVFP4", () => {
  test("is one bf16 layer, as its quantization_config leaves it", () => {
    const ignore = (config["quantization_config"] as { ignore: string[] }).ignore;
    expect(ignore).toContain("mtp*");
    expect(mtpWeightBytes(shape) / GIB).toBeCloseTo(4.7, 1);
    expect(mtpWeightBytes(shape)).toBeGreaterThan(256 * 3 * 3072 * 1024 * 2);
  });

  test("a config without one has none", () => {
    expect(shapeFromConfig(loadConfig("Qwen__Qwen3-32B"), null).mtpParams).toBeUndefined();
    // GLM-5.2's num_nextn_predict_layers: 1, an MLA layer with 256 experts (bf16: 2 B a parameter).
    expect(mtpWeightBytes(shapeFromConfig(loadConfig("zai-org__GLM-5.2"), null)) / GIB).toBeGreaterThan(
      (256 * 3 * 6144 * 2048 * 2) / GIB,
    );
  });

  const one = qwen35VllmOption;

  test("vLLM loads it only with --speculative-config naming MTP, and shows it as its own band", () => {
    const off = one({});
    const on = one({ speculativeMtpTokens: 3 });
    expect(Math.abs((off.cards[0]?.weightsBytes ?? 0) / GIB - 73.22)).toBeLessThan(0.5);
    expect((on.cards[0]?.weightsBytes ?? 0) - (off.cards[0]?.weightsBytes ?? 0)).toBeCloseTo(mtpWeightBytes(shape), -3);
    expect(on.cards[0]?.mtpWeightsBytes).toBeCloseTo(mtpWeightBytes(shape), -3);
    expect(off.cards[0]?.mtpWeightsBytes).toBeUndefined();
    expect(on.commands.join("\n")).toContain(`--speculative-config '{"method":"mtp","num_speculative_tokens":3}'`);
    expect(off.commands.join("\n")).not.toContain("--speculative-config");
  });
});
