/**
 * Multi-token-prediction weights (issue 15): a checkpoint's mtp.* block is loaded only with speculative
 * decoding on. NVIDIA's Qwen3.5-122B-A10B-NVFP4 (test/fixtures/configs, from its Hub config.json) leaves
 * "mtp*" unquantized, so its one MTP layer is bf16: its 256 experts alone 256 × 3 × 3072 × 1024 × 2 B =
 * 4.50 GiB, the 4.5 GiB the issue names; with its attention, shared expert and eh_proj 4.70 GiB.
 */
import { describe, expect, test } from "vitest";
import { GIB, mtpWeightBytes, shapeFromConfig } from "../../src/plan/index.ts";
import { loadConfig, loadExtraJson } from "./fixture.ts";
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

/**
 * Nemotron-H's MTP block is decoder layers of its own kinds (vLLM's `nemotron_h_mtp.py` @ 01ca277:
 * `NemotronHMTPAttentionDecoderLayer` and `NemotronHMTPMoEDecoderLayer`, subclasses of the decoder's, the
 * experts "non-gated MoE": `up_proj` and `down_proj`, no gate), one eh_proj a step. Its MoE layer is therefore
 * counted as the decoder's: squared-ReLU experts of two matrices in the latent (moe_latent_size 2,048 for Ultra),
 * not three at the hidden width, which made Ultra's block 64.8 B parameters and took ~121 GiB of bf16 off the
 * weights vLLM loads.
 */
describe("the MTP block of Nemotron-3", () => {
  const ultra = shapeFromConfig(loadConfig("nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16"), null);
  test("Ultra: one attention layer and one latent MoE layer with two-matrix experts", () => {
    const h = 8192;
    // By hand from the config: 64 × 128 query heads, 2 KV heads; 512 experts of 2 × 2048 × 5120; a shared
    // expert of 2 × 8192 × 10240; the router; the latent's two projections; eh_proj 2h → h; four norms.
    const attention = h * (64 * 128 + 2 * 2 * 128) + 64 * 128 * h;
    const moe = 512 * 2 * 2048 * 5120 + 2 * h * 10240 + h * 512 + 2 * h * 2048;
    expect(ultra.mtpParams).toBe(attention + moe + 2 * h * h + 4 * h);
    expect((ultra.mtpParams ?? 0) / 1e9).toBeCloseTo(11.2, 1);
    // The decoder's MoE layers are counted the same way (config/moe.ts): one MTP MoE layer's experts are one of theirs.
    const moeLayers = ultra.moe?.moeLayers ?? 1;
    expect((ultra.moe?.routedExpertParams ?? 0) / moeLayers).toBe(512 * 2 * 2048 * 5120);
  });

  test("Lightning: no latent, two-matrix experts at the hidden width", () => {
    const lightning = shapeFromConfig(loadConfig("nvidia__NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4"), null);
    const h = 2688;
    const attention = h * (32 * 128 + 2 * 2 * 128) + 32 * 128 * h;
    const moe = 128 * 2 * h * 1856 + 2 * h * 3712 + h * 128;
    expect(lightning.mtpParams).toBe(attention + moe + 2 * h * h + 4 * h);
  });
});

/**
 * MiniMaxAI's MiniMax-M3 config declares MTP (num_nextn_predict_layers 1, num_mtp_modules 7), but NVIDIA's NVFP4
 * build of it (a vendored copy of its hf_quant_config.json, test/fixtures/configs, from ai-dynamo/aiconfigurator)
 * names decoder layers 0–59 and no MTP module, quantized or excluded, where NVIDIA's Qwen3.5 builds keep theirs
 * ("mtp*" excluded): read as a checkpoint without MTP weights, so nothing is taken off the file's bytes for it.
 * That the original checkpoint has none is an inference from its NVFP4 build, not a file listing.
 */
describe("MiniMax-M3", () => {
  test("its checkpoint carries no MTP layer, so none is counted", () => {
    const quant = loadExtraJson("nvidia__MiniMax-M3-NVFP4")?.["hf_quant_config.json"] as {
      quantization: { quantized_layers: Record<string, unknown>; exclude_modules: string[] };
    };
    const names = [...Object.keys(quant.quantization.quantized_layers), ...quant.quantization.exclude_modules];
    const layers = names.flatMap((n) => [...n.matchAll(/layers\.(\d+)\./g)].map((m) => Number(m[1])));
    expect(Math.max(...layers)).toBe(59);
    expect(names.filter((n) => /mtp|nextn/.test(n))).toEqual([]);
    const config = loadConfig("MiniMaxAI__MiniMax-M3");
    expect(JSON.stringify(config)).toContain('"num_nextn_predict_layers":1');
    expect(shapeFromConfig(config, null).mtpParams).toBeUndefined();
  });
});
