import { describe, expect, test } from "vitest";
import { ggmlTypeBytes, shapeFromGguf } from "../../src/plan/index.ts";
import { ggufQuantOf, nominalBitsOf } from "../../src/plan/index.ts";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { GgufHeader, GgufValue } from "../../src/plan/index.ts";
import { kvBytesPerToken, loadConfig, recordedHeader, stateBytesPerSeq, thrown } from "./fixture.ts";

const header = recordedHeader;

describe("ggml block sizes", () => {
  // llama.cpp tools/quantize "Allowed quantization types": the bits a weight
  // of each pure type, as printed (two decimals).
  test.each([
    ["IQ2_XXS", 16, 2.06],
    ["IQ2_XS", 17, 2.31],
    ["IQ3_XXS", 18, 3.06],
    ["IQ1_S", 19, 1.56],
    ["IQ4_NL", 20, 4.5],
    ["IQ3_S", 21, 3.44],
    ["IQ4_XS", 23, 4.25],
    ["IQ1_M", 29, 1.75],
    ["TQ1_0", 34, 1.69],
    ["TQ2_0", 35, 2.06],
  ])("%s (ggml type %i): %f bits a weight", (_name, type, bpw) => {
    const elements = 256 * 1024;
    expect(Math.abs((ggmlTypeBytes(type, elements) * 8) / elements - bpw)).toBeLessThan(0.005);
  });

  test("a partial block still takes a whole block", () => {
    expect(ggmlTypeBytes(8, 33)).toBe(2 * 34);
  });

  test("an unknown tensor type is refused in words", () => {
    expect(thrown(() => ggmlTypeBytes(99, 32)).field).toBe("tensors.type");
  });
});

describe("general.file_type", () => {
  // llama.cpp tools/quantize "Allowed quantization types": "<id> or <name>".
  test.each([
    [2, "Q4_0"],
    [3, "Q4_1"],
    [8, "Q5_0"],
    [9, "Q5_1"],
    [10, "Q2_K"],
    [11, "Q3_K_S"],
    [12, "Q3_K_M"],
    [13, "Q3_K_L"],
    [14, "Q4_K_S"],
    [15, "Q4_K_M"],
    [19, "IQ2_XXS"],
    [20, "IQ2_XS"],
    [21, "Q2_K_S"],
    [22, "IQ3_XS"],
    [23, "IQ3_XXS"],
    [24, "IQ1_S"],
    [25, "IQ4_NL"],
    [26, "IQ3_S"],
    [27, "IQ3_M"],
    [28, "IQ2_S"],
    [29, "IQ2_M"],
    [30, "IQ4_XS"],
    [31, "IQ1_M"],
    [36, "TQ1_0"],
    [37, "TQ2_0"],
    [38, "MXFP4_MOE"],
  ])("file type %i is %s, whatever the name says", (id, name) => {
    expect(ggufQuantOf("model.gguf", { metadata: { "general.file_type": id }, tensorDataOffsetBytes: 0 })).toBe(name);
  });
});

describe("nominal bits, for when the parameter count is unknown", () => {
  // shared/seeds/options.go.txt quantBits, measured against the seed cluster's GGUFs.
  test.each([
    ["Q8_0", 8.5],
    ["q4_k_m", 4.8],
    ["IQ1_S", 1.6],
    ["BF16", 16],
    ["Q4_K_L", 4.8], // bartowski's variant: Q4_K_M with Q8_0 embeddings, costed as its base
    ["UNHEARD_OF", 0],
  ])("%s: %f", (quant, bits) => {
    expect(nominalBitsOf(quant)).toBe(bits);
  });

  test("the seed's own check: a 14.77 B model at Q8_0's 8.5 and Q4_K_M's 4.8 bits lands within 0.35 GiB of llama.cpp's 14.62 and 8.37 GiB", () => {
    const gib = (bits: number) => (14.77e9 * bits) / 8 / 2 ** 30;
    expect(Math.abs(gib(nominalBitsOf("Q8_0")) - 14.62)).toBeLessThan(0.35);
    expect(Math.abs(gib(nominalBitsOf("Q4_K_M")) - 8.37)).toBeLessThan(0.35);
  });
});

describe("shapes from recorded GGUF headers", () => {
  test("Mixtral: 131,072 B/tok at f16, what vLLM measured for the same model (65,540 a card at TP 2)", () => {
    const s = shapeFromGguf(header("mixtral-8x7b-instruct-v0.1.Q5_K_M.gguf"));
    expect(kvBytesPerToken(s.layerCaches, 2)).toBe(131_072);
    expect(Math.abs(131_072 - 65_540 * 2) / 131_072).toBeLessThan(0.001);
    expect(s.moe).toMatchObject({ routedExperts: 8, expertsPerToken: 2 });
    expect(s).toMatchObject({ architecture: "llama", layers: 32, kvHeads: 8, headDim: 128, maxContextTokens: 32768 });
  });

  test("Llama-3.1-70B: the seed's 320 KiB a token", () => {
    expect(kvBytesPerToken(shapeFromGguf(header("Llama-3.1-70B (ollama)")).layerCaches, 2)).toBe(320 * 1024);
  });

  test("DeepSeek-R1: a K-only latent of 512 + 64 (ik_llama.cpp printed 37,332 B/tok in q8_0)", () => {
    const s = shapeFromGguf(header("DeepSeek-R1 (deepseek2)"));
    expect(s.layerCaches.every((c) => c.kind === "mla" && c.latentDim === 576)).toBe(true);
    expect((kvBytesPerToken(s.layerCaches, 1) * 34) / 32).toBe(37_332);
    expect(s.kvHeads).toBe(0);
    expect(s.moe).toMatchObject({
      routedExperts: 256,
      expertsPerToken: 8,
      sharedExperts: 1,
      denseFirstLayers: 3,
      expertIntermediateSize: 2048,
    });
    expect(s).toMatchObject({ maxContextTokens: 163_840, vocabSize: 129_280 });
  });

  test("a file's nextn (MTP) blocks keep no cache: llama.cpp sized GLM-5.2's 78 decoder layers of its 79 blocks", () => {
    const all = shapeFromGguf(header("DeepSeek-R1 (deepseek2)"));
    const withNextn = shapeFromGguf(header("DeepSeek-R1 (deepseek2)", { "deepseek2.nextn_predict_layers": 1 }));
    expect(withNextn.layerCaches.at(-1)).toEqual({ kind: "none" });
    expect(kvBytesPerToken(withNextn.layerCaches, 2)).toBe((kvBytesPerToken(all.layerCaches, 2) * 60) / 61);
  });

  test("an MLA file with recurrent layers (Kimi-Linear style) is refused by its key, not sized without their state", () => {
    const kv = Array.from({ length: 61 }, (_, i) => (i % 4 === 3 ? 128 : 0));
    const h = header("DeepSeek-R1 (deepseek2)", {
      "deepseek2.attention.head_count_kv": kv,
      "deepseek2.ssm.conv_kernel": 4,
    });
    expect(thrown(() => shapeFromGguf(h)).field).toBe("deepseek2.ssm.conv_kernel");
  });

  test("DeepSeek-R1 from its GGUF and from its config.json agree on the cache", () => {
    const fromGguf = shapeFromGguf(header("DeepSeek-R1 (deepseek2)"));
    const fromConfig = shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-R1"), null);
    expect(kvBytesPerToken(fromGguf.layerCaches, 2)).toBe(kvBytesPerToken(fromConfig.layerCaches, 2));
    expect(fromGguf.moe?.routedExpertParams).toBe(fromConfig.moe?.routedExpertParams);
  });

  test("Qwen3.6-27B: llama.cpp's F32 recurrent state, 156,893,184 B a sequence as it printed", () => {
    const s = shapeFromGguf(header("Qwen3.6-27B (qwen35)"));
    expect(stateBytesPerSeq(s.layerCaches)).toBe(156_893_184);
    expect(s.layerCaches.filter((c) => c.kind === "linear")).toHaveLength(48);
    // The attention layers cost what the notes' table gives for the config.
    expect(kvBytesPerToken(s.layerCaches, 2)).toBe(65_536);
  });

  test("Qwen3.6-27B without full_attention_interval: llama.cpp's default of 4 for qwen35", () => {
    const h = header("Qwen3.6-27B (qwen35)");
    delete h.metadata["qwen35.full_attention_interval"];
    expect(stateBytesPerSeq(shapeFromGguf(h).layerCaches)).toBe(156_893_184);
  });

  test("Qwen3-Next: 12 attention layers of 2 × 256 and 36 gated-delta layers", () => {
    const s = shapeFromGguf(header("Qwen3-Next-80B-A3B (qwen3next)"));
    expect(kvBytesPerToken(s.layerCaches, 2)).toBe(24_576);
    expect(s.layerCaches.filter((c) => c.kind === "linear")).toHaveLength(36);
    expect(s.moe).toMatchObject({ routedExperts: 512, expertsPerToken: 10 });
  });

  test("Nemotron-H style per-layer arrays: no KV and no FFN is recurrent, no KV with an FFN is an MoE block", () => {
    const kv = [0, 0, 2, 0];
    const ff = [0, 1856, 0, 1856];
    const s = shapeFromGguf({
      metadata: {
        "general.architecture": "nemotron_h_moe",
        "nemotron_h_moe.block_count": 4,
        "nemotron_h_moe.embedding_length": 2688,
        "nemotron_h_moe.context_length": 262144,
        "nemotron_h_moe.attention.head_count": 32,
        "nemotron_h_moe.attention.head_count_kv": kv,
        "nemotron_h_moe.attention.key_length": 128,
        "nemotron_h_moe.feed_forward_length": ff,
        "nemotron_h_moe.ssm.conv_kernel": 4,
        "nemotron_h_moe.ssm.inner_size": 4096,
        "nemotron_h_moe.ssm.state_size": 128,
        "nemotron_h_moe.ssm.group_count": 8,
      },
      tensorDataOffsetBytes: 0,
    });
    expect(s.layerCaches.map((c) => c.kind)).toEqual(["linear", "none", "full", "none"]);
  });
});

describe("sliding windows in GGUF", () => {
  /** gpt-oss-20b's config.json written as convert_hf_to_gguf.py writes its keys, no pattern key (older files). */
  function gptOssHeader(extra: Record<string, GgufValue> = {}): GgufHeader {
    return {
      metadata: {
        "general.architecture": "gpt-oss",
        "gpt-oss.block_count": 24,
        "gpt-oss.embedding_length": 2880,
        "gpt-oss.context_length": 131072,
        "gpt-oss.attention.head_count": 64,
        "gpt-oss.attention.head_count_kv": 8,
        "gpt-oss.attention.key_length": 64,
        "gpt-oss.attention.value_length": 64,
        "gpt-oss.attention.sliding_window": 128,
        "gpt-oss.expert_count": 32,
        "gpt-oss.expert_used_count": 4,
        ...extra,
      },
      tensorDataOffsetBytes: 0,
    };
  }

  test("llama.cpp's gpt-oss pattern (period 2) slides the same layers as the config's layer_types", () => {
    const fromGguf = shapeFromGguf(gptOssHeader()).layerCaches.map((c) => c.kind);
    const fromConfig = shapeFromConfig(loadConfig("openai__gpt-oss-20b"), null).layerCaches.map((c) => c.kind);
    expect(fromGguf).toEqual(fromConfig);
  });

  test("Llama-4 files carry no window: llama.cpp's 8,192-token chunks, every fourth layer global, as the config says", () => {
    const text = loadConfig("meta-llama__Llama-4-Maverick-17B-128E-Instruct")["text_config"] as Record<string, number>;
    const fromGguf = shapeFromGguf({
      metadata: {
        "general.architecture": "llama4",
        "llama4.block_count": text["num_hidden_layers"] ?? 0,
        "llama4.embedding_length": text["hidden_size"] ?? 0,
        "llama4.context_length": text["max_position_embeddings"] ?? 0,
        "llama4.attention.head_count": text["num_attention_heads"] ?? 0,
        "llama4.attention.head_count_kv": text["num_key_value_heads"] ?? 0,
        "llama4.attention.key_length": text["head_dim"] ?? 0,
        "llama4.expert_count": 128,
        "llama4.expert_used_count": 1,
        "llama4.expert_feed_forward_length": text["intermediate_size"] ?? 0,
        "llama4.interleave_moe_layer_step": text["interleave_moe_layer_step"] ?? 0,
      },
      tensorDataOffsetBytes: 0,
    });
    const fromConfig = shapeFromConfig(loadConfig("meta-llama__Llama-4-Maverick-17B-128E-Instruct"), null);
    expect(fromGguf.layerCaches).toEqual(fromConfig.layerCaches);
    expect(fromGguf.moe?.moeLayers).toBe(fromConfig.moe?.moeLayers);
    expect(fromGguf.moe?.routedExpertParams).toBe(fromConfig.moe?.routedExpertParams);
  });

  test("a per-layer bool pattern is read as given", () => {
    const pattern = Array.from({ length: 24 }, (_, i) => i < 12);
    const s = shapeFromGguf(gptOssHeader({ "gpt-oss.attention.sliding_window_pattern": pattern }));
    expect(s.layerCaches.filter((c) => c.kind === "sliding")).toHaveLength(12);
    expect(s.layerCaches[0]?.kind).toBe("sliding");
  });

  test("a window with no pattern for an architecture llama.cpp has no default for is refused, naming the key", () => {
    const h = gptOssHeader();
    const m: Record<string, GgufValue> = {};
    for (const [k, v] of Object.entries(h.metadata)) m[k.replace("gpt-oss", "newarch")] = v;
    m["general.architecture"] = "newarch";
    const e = thrown(() => shapeFromGguf({ metadata: m, tensorDataOffsetBytes: 0 }));
    expect(e.field).toBe("newarch.attention.sliding_window_pattern");
  });
});

describe("tensor index", () => {
  const tensors = [
    { name: "token_embd.weight", shape: [2880, 201088], type: 8 },
    { name: "blk.0.attn_q.weight", shape: [2880, 4096], type: 8 },
    { name: "blk.0.ffn_gate_exps.weight", shape: [2880, 2880, 32], type: 39 },
    { name: "blk.0.ffn_up_exps.weight", shape: [2880, 2880, 32], type: 39 },
    { name: "blk.0.ffn_down_exps.weight", shape: [2880, 2880, 32], type: 39 },
    { name: "blk.0.ffn_gate_inp.weight", shape: [2880, 32], type: 0 },
  ];
  const base = {
    "general.architecture": "gpt-oss",
    "gpt-oss.block_count": 1,
    "gpt-oss.embedding_length": 2880,
    "gpt-oss.context_length": 131072,
    "gpt-oss.attention.head_count": 64,
    "gpt-oss.attention.head_count_kv": 8,
    "gpt-oss.expert_count": 32,
    "gpt-oss.expert_used_count": 4,
  };
  const elements = tensors.reduce((sum, t) => sum + t.shape.reduce((a, b) => a * b, 1), 0);

  test("a whole-model file counts its own parameters and its experts from the ffn_*_exps tensors", () => {
    const s = shapeFromGguf({ metadata: base, tensors, tensorDataOffsetBytes: 0 }, 999);
    expect(s.paramsTotal).toBe(elements);
    expect(s.moe?.routedExpertParams).toBe(3 * 2880 * 2880 * 32);
    // No output.weight: llama.cpp reuses token_embd as the output layer.
    expect(s.tiedEmbeddings).toBe(true);
    const untied = [...tensors, { name: "output.weight", shape: [2880, 201088], type: 8 }];
    expect(shapeFromGguf({ metadata: base, tensors: untied, tensorDataOffsetBytes: 0 }).tiedEmbeddings).toBe(false);
  });

  test("the first part of a split set holds only its own tensors: the caller's count stands", () => {
    const s = shapeFromGguf(
      { metadata: { ...base, "split.count": 3 }, tensors, tensorDataOffsetBytes: 0 },
      20_914_757_184,
    );
    expect(s.paramsTotal).toBe(20_914_757_184);
  });

  test("a header with no architecture is refused in words", () => {
    expect(thrown(() => shapeFromGguf({ metadata: {}, tensorDataOffsetBytes: 0 })).field).toBe("general.architecture");
  });

  test("a header with no block count names the key", () => {
    const m: Record<string, GgufValue> = { ...base };
    delete m["gpt-oss.block_count"];
    expect(thrown(() => shapeFromGguf({ metadata: m, tensorDataOffsetBytes: 0 })).field).toBe("gpt-oss.block_count");
  });
});
