import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { ModelShape } from "../../src/plan/index.ts";
import {
  MIB,
  MODEL_DIR,
  configNames,
  kvBytesPerToken,
  loadConfig,
  loadExtraJson,
  loadModel,
  modelNames,
  stateBytesPerSeq,
  thrown,
} from "./fixture.ts";

function shapeOfConfig(name: string): ModelShape {
  return shapeFromConfig(loadConfig(name), null, loadExtraJson(name));
}

function shapeOfModel(name: string): ModelShape {
  const config = loadModel(name).config;
  if (config === undefined) throw new Error(`${name} has no recorded config`);
  return shapeFromConfig(config, null);
}

/** DeepSeek-V4 configs (compressed attention): every copy the fixtures hold. */
const DEEPSEEK_V4 = new Set([
  "deepseek-ai__DeepSeek-V4-Flash",
  "deepseek-ai__DeepSeek-V4-Pro",
  "nvidia__DeepSeek-V4-Flash-NVFP4",
  "nvidia__DeepSeek-V4-Pro-NVFP4",
  "sgl-project__DeepSeek-V4-Flash-FP8",
  "sgl-project__DeepSeek-V4-Pro-FP8",
]);

describe("every recorded config.json", () => {
  test.each(configNames())("%s parses into one cache per layer", (name) => {
    const s = shapeOfConfig(name);
    expect(s.layerCaches).toHaveLength(s.layers);
    expect(s.layers).toBeGreaterThan(0);
    expect(s.maxContextTokens).toBeGreaterThan(0);
    if (DEEPSEEK_V4.has(name)) expect(s.layerCaches.every((c) => c.kind === "compressed-mla")).toBe(true);
    else expect(kvBytesPerToken(s.layerCaches, 2, ["full", "sliding", "mla"])).toBeGreaterThan(0);
  });

  test.each(modelNames().filter((n) => loadModel(n).config !== undefined))("models/%s parses", (name) => {
    const s = shapeOfModel(name);
    expect(s.layerCaches).toHaveLength(s.layers);
  });
});

/**
 * shared/notes/architectures.md §1a, columns "KV B/tok (bf16)" (full and MLA
 * layers; sliding layers listed apart) and "per-seq state" (vLLM's layout;
 * the notes give MiB to one decimal, or "≈" to the MiB, or MB for Kimi-K3).
 */
const TABLE_1A: [config: string, kvBf16: number, stateBytes: number | null, stateTolerance: number][] = [
  ["Qwen__Qwen3.5-35B-A3B", 20_480, 61.4 * MIB, 0.05 * MIB],
  ["nvidia__Qwen3.6-35B-A3B-NVFP4", 20_480, 61.4 * MIB, 0.05 * MIB],
  ["Qwen__Qwen3.5-27B", 65_536, 146.8 * MIB, 0.05 * MIB],
  ["nvidia__Qwen3.6-27B-NVFP4", 65_536, 146.8 * MIB, 0.05 * MIB],
  ["Qwen__Qwen3.5-122B-A10B", 24_576, 146.5 * MIB, 0.05 * MIB],
  ["Qwen__Qwen3.5-397B-A17B", 30_720, 183.2 * MIB, 0.05 * MIB],
  ["Qwen__Qwen3-30B-A3B", 98_304, null, 0],
  ["Qwen__Qwen3-235B-A22B", 192_512, null, 0],
  ["Qwen__Qwen3-Coder-480B-A35B-Instruct", 253_952, null, 0],
  ["deepseek-ai__DeepSeek-V3", 70_272, null, 0],
  ["deepseek-ai__DeepSeek-R1", 70_272, null, 0],
  ["moonshotai__Kimi-K2-Instruct", 70_272, null, 0],
  ["moonshotai__Kimi-K2.5", 70_272, null, 0],
  ["nvidia__Kimi-K2.6-NVFP4", 70_272, null, 0],
  ["moonshotai__Kimi-K3", 27_648, 449e6, 1e6],
  ["zai-org__GLM-4.7", 376_832, null, 0],
  ["zai-org__GLM-5", 89_856, null, 0],
  ["zai-org__GLM-5.1", 89_856, null, 0],
  ["zai-org__GLM-5.2", 89_856, null, 0],
  ["openai__gpt-oss-120b", 36_864, null, 0],
  ["openai__gpt-oss-20b", 24_576, null, 0],
  ["google__gemma-4-26B-A4B", 20_480, null, 0],
  ["nvidia__Gemma-4-31B-IT-NVFP4", 81_920, null, 0],
  ["meta-llama__Llama-4-Scout-17B-16E-Instruct", 49_152, null, 0],
  ["meta-llama__Llama-4-Maverick-17B-128E-Instruct", 49_152, null, 0],
  ["MiniMaxAI__MiniMax-M2.5", 253_952, null, 0],
  ["MiniMaxAI__MiniMax-M2.7", 253_952, null, 0],
  ["MiniMaxAI__MiniMax-M3", 122_880, null, 0],
  ["nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 6_144, 47 * MIB, 0.5 * MIB],
  ["nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8", 8_192, 162 * MIB, 0.5 * MIB],
  ["nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16", 12_288, 389 * MIB, 0.5 * MIB],
  ["stepfun-ai__Step-3.7-Flash", 49_152, null, 0],
  ["XiaomiMiMo__MiMo-V2-Flash", 23_040, null, 0],
];

describe("KV bytes per token and per-sequence state agree with the notes' table", () => {
  test.each(TABLE_1A)("%s: %i B/tok", (name, kvBf16, state, tolerance) => {
    const s = shapeOfConfig(name);
    expect(kvBytesPerToken(s.layerCaches, 2)).toBe(kvBf16);
    if (state === null) expect(stateBytesPerSeq(s.layerCaches)).toBe(0);
    else expect(Math.abs(stateBytesPerSeq(s.layerCaches) - state)).toBeLessThanOrEqual(tolerance);
  });

  // The table's sliding figures: "swa 8,192/layer/tok in window" and so on.
  test.each([
    ["google__gemma-4-26B-A4B", 25, 8_192, 1_024],
    ["nvidia__Gemma-4-31B-IT-NVFP4", 50, 16_384, 1_024],
    ["XiaomiMiMo__MiMo-V2-Flash", 39, 5_120, 128],
    ["openai__gpt-oss-20b", 12, 2_048, 128],
    ["stepfun-ai__Step-3.7-Flash", 33, 4_096, 512],
  ] as const)("%s: %i sliding layers of %i B/tok, window %i", (name, layers, perLayer, window) => {
    const sliding = shapeOfConfig(name).layerCaches.filter((c) => c.kind === "sliding");
    expect(sliding).toHaveLength(layers);
    for (const c of sliding) {
      expect(kvBytesPerToken([c], 2, ["sliding"])).toBe(perLayer);
      if (c.kind === "sliding") expect(c.windowTokens).toBe(window);
    }
  });

  test("Llama-4 would cost 196,608 B/tok if every layer held the full context (the notes' figure)", () => {
    const s = shapeOfConfig("meta-llama__Llama-4-Scout-17B-16E-Instruct");
    expect(kvBytesPerToken(s.layerCaches, 2, ["full", "sliding"])).toBe(196_608);
  });
});

describe("DSA indexer keys", () => {
  // SGLang's DeepSeek-V3.2-Exp log (calibration sglang-dp8attn-b200-deepseek-v3.2-exp-*): 48,072 B/tok with the
  // indexer, 40,020 without; the PR text gives the indexer 8,052 B/tok = 61 layers × 132.
  test("DeepSeek-V3.2: 132 B a token on each of 61 layers", () => {
    const caches = shapeOfConfig("deepseek-ai__DeepSeek-V3.2").layerCaches;
    const indexer = caches.reduce((sum, c) => sum + (c.kind === "mla" ? (c.indexerBytesPerToken ?? 0) : 0), 0);
    expect(indexer).toBe(8_052);
    // With fp8_ds_mla's 656 B latent per layer, the total SGLang printed.
    expect(Math.abs(61 * 656 + indexer - 48_072)).toBeLessThanOrEqual(4);
  });

  test("GLM-5.2's shared indexer layers keep no keys of their own: 21 of 78 do", () => {
    const caches = shapeOfConfig("zai-org__GLM-5.2").layerCaches;
    expect(caches.filter((c) => c.kind === "mla" && c.indexerBytesPerToken === 132)).toHaveLength(21);
  });

  test("DeepSeek-V3 has no indexer", () => {
    expect(
      shapeOfConfig("deepseek-ai__DeepSeek-V3").layerCaches.some(
        (c) => c.kind === "mla" && c.indexerBytesPerToken !== undefined,
      ),
    ).toBe(false);
  });
});

describe("the seed's measured KV bytes per token (shared/seeds/size_test.go.txt)", () => {
  // Llama-3.3-70B's config is not among the fixtures; Qwen2.5-72B has the same
  // KV geometry (80 layers, 8 KV heads of 128), which is what the figure measures.
  test.each([
    ["Qwen__Qwen2.5-Coder-3B-Instruct", 36 * 1024],
    ["Qwen__Qwen2.5-14B-Instruct", 192 * 1024],
    ["LDCC__Qwen2.5-72B-Instruct-ko-AWQ", 320 * 1024],
  ])("%s: %i B/tok", (name, bytes) => {
    expect(kvBytesPerToken(shapeOfModel(name).layerCaches, 2)).toBe(bytes);
  });
});

interface MeasuredRecord {
  id: string;
  fixture: string;
  tp: number;
  kv_dtype: string;
  derived: Record<string, number>;
}

const measured = (
  JSON.parse(readFileSync(join(MODEL_DIR, "kv-per-token-measured.json"), "utf8")) as { records: MeasuredRecord[] }
).records;

describe("KV bytes per token that engines printed (shared/calibration excerpt)", () => {
  // vLLM 0.19 logs the pool in GiB (two decimals) and its size in tokens, so
  // the per-token figure carries the GiB rounding: ±0.1 %. Its token count
  // charges every attention layer, sliding ones included (gpt-oss-20b:
  // 24 × 2,048). Tensor parallel below the KV heads divides it exactly.
  test.each(measured.filter((r) => r.id.startsWith("vllm")))("$id", (r) => {
    const whole = (r.derived["kv_bytes_per_token_per_card_from_log"] ?? 0) * r.tp;
    const s = configNames().includes(r.fixture) ? shapeOfConfig(r.fixture) : shapeOfModel(r.fixture);
    const ours = kvBytesPerToken(s.layerCaches, 2, ["full", "sliding"]);
    expect(Math.abs(ours - whole) / whole).toBeLessThan(0.001);
  });

  test("ik_llama.cpp's Qwen3-235B f16 cache: 6,016 MiB at 32,768 tokens", () => {
    expect(kvBytesPerToken(shapeOfConfig("Qwen__Qwen3-235B-A22B").layerCaches, 2) * 32_768).toBe(6_016 * MIB);
  });

  test("ik_llama.cpp's DeepSeek-V3 latent cache in q8_0 (34 B per 32): 37,332 B/tok", () => {
    const s = shapeOfModel("deepseek-ai__DeepSeek-V3");
    expect((kvBytesPerToken(s.layerCaches, 1) * 34) / 32).toBe(37_332);
  });
});

describe("heads and head size", () => {
  // fixtures/models/README "Quirks": head_dim must not be derived when present.
  test.each([
    ["Qwen__Qwen3-30B-A3B", 128],
    ["Qwen__Qwen3-32B", 128],
    ["google__gemma-2-9b-it", 256],
    ["openai__gpt-oss-20b", 64],
    ["Qwen__Qwen2.5-14B-Instruct", 128],
    ["meta-llama__Llama-3.1-8B-Instruct", 128],
    ["microsoft__phi-4", 128],
    ["mistralai__Mixtral-8x7B-Instruct-v0.1", 128],
  ])("%s has head_dim %i", (name, headDim) => {
    expect(shapeOfModel(name).headDim).toBe(headDim);
  });

  test("a null head_dim is absent: hidden ÷ heads", () => {
    const config = { ...loadModel("meta-llama__Llama-3.1-8B-Instruct").config, head_dim: null };
    expect(shapeFromConfig(config, null).headDim).toBe(4096 / 32);
  });

  test.each([
    ["zai-org__GLM-5", 64],
    ["zai-org__GLM-5.2", 192],
    ["deepseek-ai__DeepSeek-R1", 128],
  ])("MLA ignores %s's head_dim (%i) and KV heads: one latent of 512 + 64", (name) => {
    const s = shapeOfConfig(name);
    expect(s.kvHeads).toBe(0);
    expect(new Set(s.layerCaches.map((c) => (c.kind === "mla" ? c.latentDim : -1)))).toEqual(new Set([576]));
  });

  test.each([
    ["n_head_kv", 4],
    ["num_kv_heads", 4],
    ["multi_query_group_num", 4],
    ["num_attention_groups", 4],
    ["", 32], // no KV-head field at all: multi-head attention, KV heads = attention heads
  ])("KV heads spelled %j are read", (field, heads) => {
    const config: Record<string, unknown> = { ...loadConfig("Qwen__Qwen3-8B") };
    delete config["num_key_value_heads"];
    if (field !== "") config[field] = heads;
    expect(shapeFromConfig(config, null).kvHeads).toBe(heads);
  });

  test("Nemotron-NAS sizes each layer from block_configs: some layers hold no attention", () => {
    const s = shapeOfConfig("nvidia__Llama-3_3-Nemotron-Super-49B-v1");
    const none = s.layerCaches.filter((c) => c.kind === "none").length;
    expect(none).toBeGreaterThan(0);
    expect(s.kvHeads).toBe(8);
  });
});

describe("mixture of experts under every field name", () => {
  test.each([
    ["Qwen__Qwen3-30B-A3B", 128, 8, 0, 0, 48],
    ["deepseek-ai__DeepSeek-R1", 256, 8, 1, 3, 58],
    ["openai__gpt-oss-20b", 32, 4, 0, 0, 24],
    ["moonshotai__Kimi-K3", 896, 16, 2, 1, 92],
    ["google__gemma-4-26B-A4B", 128, 8, 0, 0, 30],
    ["nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 128, 6, 1, 1, 23],
    ["meta-llama__Llama-4-Maverick-17B-128E-Instruct", 128, 1, 0, 1, 24],
    ["meta-llama__Llama-4-Scout-17B-16E-Instruct", 16, 1, 0, 0, 48],
    ["zai-org__GLM-5.2", 256, 8, 1, 3, 75],
    ["XiaomiMiMo__MiMo-V2-Flash", 256, 8, 0, 1, 47],
    ["Qwen__Qwen3.5-35B-A3B", 256, 8, 1, 0, 40],
    ["MiniMaxAI__MiniMax-M2.5", 256, 8, 0, 0, 62],
  ])(
    "%s: %i experts, %i a token, %i shared, %i dense first, %i MoE layers",
    (name, routed, topK, shared, dense, moeLayers) => {
      const moe = shapeOfConfig(name).moe;
      expect(moe).toMatchObject({
        routedExperts: routed,
        expertsPerToken: topK,
        sharedExperts: shared,
        denseFirstLayers: dense,
        moeLayers,
      });
    },
  );

  test("Mixtral's num_local_experts", () => {
    expect(shapeOfModel("mistralai__Mixtral-8x7B-Instruct-v0.1").moe).toMatchObject({
      routedExperts: 8,
      expertsPerToken: 2,
    });
  });

  test.each([
    ["moe_num_experts", "moe_topk"],
    ["n_routed_experts", "num_experts_per_token"],
    ["num_local_experts", "top_k_experts"],
  ])("%s / %s name the same experts", (expertField, topKField) => {
    const config: Record<string, unknown> = { ...loadConfig("Qwen__Qwen3-30B-A3B") };
    delete config["num_experts"];
    delete config["num_experts_per_tok"];
    config[expertField] = 128;
    config[topKField] = 8;
    expect(shapeFromConfig(config, null).moe).toMatchObject({ routedExperts: 128, expertsPerToken: 8 });
  });

  test("Gemma-4-31B's null experts mean dense", () => {
    expect(shapeOfConfig("nvidia__Gemma-4-31B-IT-NVFP4").moe).toBeNull();
  });

  test("experts without a top-k is refused, naming the field", () => {
    const config: Record<string, unknown> = { ...loadConfig("Qwen__Qwen3-30B-A3B") };
    delete config["num_experts_per_tok"];
    expect(thrown(() => shapeFromConfig(config, null)).field).toBe("num_experts_per_tok");
  });

  test("DeepSeek-R1's routed experts are ~654 B of its 671 B parameters (model card: 671B total)", () => {
    const params = shapeOfConfig("deepseek-ai__DeepSeek-R1").moe?.routedExpertParams ?? 0;
    expect(params / 671e9).toBeGreaterThan(0.95);
    expect(params).toBeLessThan(671e9);
  });
});

describe("which layer is which", () => {
  test("Qwen2.5's sliding_window with use_sliding_window false is ignored", () => {
    const s = shapeOfModel("Qwen__Qwen2.5-7B-Instruct");
    expect(s.layerCaches.every((c) => c.kind === "full")).toBe(true);
  });

  test("gemma-2 alternates with no list: even layers slide over 4,096 tokens", () => {
    const s = shapeOfModel("google__gemma-2-9b-it");
    expect(s.layerCaches.map((c) => c.kind).slice(0, 4)).toEqual(["sliding", "full", "sliding", "full"]);
    expect(s.layerCaches.filter((c) => c.kind === "sliding")).toHaveLength(21);
  });

  test("gemma-3's _sliding_window_pattern 6: five slide, the sixth is full", () => {
    const config = {
      model_type: "gemma3_text",
      num_hidden_layers: 12,
      hidden_size: 2560,
      num_attention_heads: 8,
      num_key_value_heads: 4,
      head_dim: 256,
      sliding_window: 1024,
      _sliding_window_pattern: 6,
      max_position_embeddings: 131072,
    };
    expect(
      shapeFromConfig(config, null)
        .layerCaches.map((c) => c.kind[0])
        .join(""),
    ).toBe("sssssfsssssf");
  });

  test("Gemma-3-27B's sparse text_config takes Gemma3TextConfig's defaults: ik_llama.cpp's 507,904 B/tok with every layer full", () => {
    // Only non-default keys, as transformers 4.50 saved Gemma-3 (fixtures/models/google__gemma-3-27b-it.json);
    // the geometry (62 layers, 16 KV heads of 128) is the calibration record's.
    const config = {
      model_type: "gemma3",
      architectures: ["Gemma3ForConditionalGeneration"],
      torch_dtype: "bfloat16",
      text_config: {
        model_type: "gemma3_text",
        hidden_size: 5376,
        num_hidden_layers: 62,
        num_attention_heads: 32,
        num_key_value_heads: 16,
        head_dim: 128,
        sliding_window: 1024,
      },
      vision_config: { model_type: "siglip_vision_model" },
    };
    const s = shapeFromConfig(config, null);
    expect(kvBytesPerToken(s.layerCaches, 2, ["full", "sliding"])).toBe(507_904);
    expect(s.layerCaches.filter((c) => c.kind === "full")).toHaveLength(10);
    expect(s).toMatchObject({ maxContextTokens: 131_072, vocabSize: 262_208, hasVision: true, tiedEmbeddings: true });
  });

  test("Gemma-4's full layers use the global geometry (2 × 512), sliding layers 8 × 256", () => {
    const s = shapeOfConfig("google__gemma-4-26B-A4B");
    expect(s.layerCaches[5]).toEqual({ kind: "full", kvHeads: 2, headDimK: 512, headDimV: 512 });
    expect(s.layerCaches[0]).toEqual({ kind: "sliding", kvHeads: 8, headDimK: 256, headDimV: 256, windowTokens: 1024 });
  });

  test("Gemma-4 with its geometry moved into per_layer_config is refused by name, not sized with the sliding heads", () => {
    const config = loadConfig("google__gemma-4-26B-A4B");
    const text: Record<string, unknown> = {
      ...(config["text_config"] as Record<string, unknown>),
      per_layer_config: {},
    };
    delete text["num_global_key_value_heads"];
    delete text["global_head_dim"];
    expect(thrown(() => shapeFromConfig({ ...config, text_config: text }, null)).field).toBe("per_layer_config");
  });

  test("MiMo-V2: K 192 ≠ V 128, sliding layers with their own 8 KV heads", () => {
    const s = shapeOfConfig("XiaomiMiMo__MiMo-V2-Flash");
    expect(s.layerCaches[0]).toEqual({ kind: "full", kvHeads: 4, headDimK: 192, headDimV: 128 });
    expect(s.layerCaches[1]).toEqual({ kind: "sliding", kvHeads: 8, headDimK: 192, headDimV: 128, windowTokens: 128 });
  });

  test("Llama-4: 8,192-token chunks on RoPE layers, every fourth layer global (the copy lacks no_rope_layers: transformers' interval 4)", () => {
    const s = shapeOfConfig("meta-llama__Llama-4-Scout-17B-16E-Instruct");
    expect(
      s.layerCaches
        .map((c) => c.kind[0])
        .slice(0, 8)
        .join(""),
    ).toBe("sssfsssf");
  });

  test("Llama-4's own no_rope_layers list wins over the default interval", () => {
    const config = loadConfig("meta-llama__Llama-4-Scout-17B-16E-Instruct");
    const text = {
      ...(config["text_config"] as Record<string, unknown>),
      no_rope_layers: Array.from({ length: 48 }, (_, i) => (i % 2 === 0 ? 1 : 0)),
    };
    const s = shapeFromConfig({ ...config, text_config: text }, null);
    expect(s.layerCaches.filter((c) => c.kind === "full")).toHaveLength(24);
  });

  test("Kimi-K3's 1-based lists: layer 4 (index 3) is MLA, layers 1–3 are KDA", () => {
    const s = shapeOfConfig("moonshotai__Kimi-K3");
    expect(s.layerCaches.slice(0, 4).map((c) => c.kind)).toEqual(["linear", "linear", "linear", "mla"]);
  });

  test("Nemotron-3-Ultra has no num_hidden_layers: its 108-entry layers_block_type is the count", () => {
    expect(shapeOfConfig("nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16").layers).toBe(108);
  });

  test("Qwen3-Next without layer_types: full_attention_interval 4", () => {
    const config = { ...(loadConfig("Qwen__Qwen3.5-35B-A3B")["text_config"] as Record<string, unknown>) };
    delete config["layer_types"];
    const s = shapeFromConfig(config, null);
    expect(
      s.layerCaches
        .map((c) => c.kind[0])
        .slice(0, 8)
        .join(""),
    ).toBe("lllflllf");
  });

  test.each([
    [{ layer_types: ["full_attention"] }, "layer_types"],
    [{ layer_types: Array.from({ length: 36 }, () => "mystery_attention") }, "layer_types"],
    [{ num_hidden_layers: "36" }, "num_hidden_layers"],
    [{ hidden_size: 0 }, "hidden_size"],
    [{ max_position_embeddings: null }, "max_position_embeddings"],
    [{ model_type: "deepseek_v3" }, "kv_lora_rank"],
  ])("an unreadable layout is a ModelError naming the field: %j", (patch, field) => {
    const e = thrown(() => shapeFromConfig({ ...loadConfig("Qwen__Qwen3-8B"), ...patch }, null));
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  test.each([
    [{ attn_type_list: Array.from({ length: 36 }, (_, i) => (i % 8 === 7 ? 1 : 0)) }, "attn_type_list"], // MiniMax-Text-01 lightning attention
    [{ attn_layer_period: 8, attn_layer_offset: 4 }, "attn_layer_period"], // Jamba
    [{ mamba_d_ssm: 1024 }, "mamba_d_ssm"], // Falcon-H1's parallel Mamba
  ])("a recurrent layout it cannot place is refused, not sized as attention: %j", (patch, field) => {
    expect(thrown(() => shapeFromConfig({ ...loadConfig("Qwen__Qwen3-8B"), ...patch }, null)).field).toBe(field);
  });

  test("a config that is not a model's is refused in words", () => {
    const e = thrown(() => shapeFromConfig({ architectures: ["BertForMaskedLM"] }, null));
    expect(e.field).toBe("model_type");
  });
});

describe("picture models, dtype, context and quantization", () => {
  test("Qwen3-VL is sized from text_config and reads pictures", () => {
    const s = shapeOfConfig("Qwen__Qwen3-VL-8B-Instruct");
    expect(s).toMatchObject({ layers: 36, kvHeads: 8, hasVision: true, architecture: "qwen3_vl_text" });
  });

  test("Qwen2.5-VL keeps text dims at the root and nests only vision_config", () => {
    expect(shapeOfModel("Qwen__Qwen2.5-VL-7B-Instruct")).toMatchObject({ layers: 28, kvHeads: 4, hasVision: true });
  });

  test("a text-only model does not read pictures", () => {
    expect(shapeOfConfig("Qwen__Qwen3-8B").hasVision).toBe(false);
  });

  test.each([
    ["Qwen__Qwen3-30B-A3B-FP8", "fp8"],
    ["openai__gpt-oss-20b", "mxfp4"],
    ["moonshotai__Kimi-K2.5", "compressed-tensors"], // in text_config
    ["nvidia__Gemma-4-26B-A4B-NVFP4", "modelopt"], // at the root of a picture model
    ["nvidia__DeepSeek-V3.1-NVFP4", "modelopt"], // only in hf_quant_config.json
    ["Qwen__Qwen3-30B-A3B", ""],
  ])("%s: quantization %s", (name, method) => {
    expect(shapeOfConfig(name).quantMethod).toBe(method);
  });

  test("an MLX community quantization (bits and group_size, no quant_method) is named mlx, not taken for bf16", () => {
    const config = {
      ...loadConfig("Qwen__Qwen3-8B"),
      quantization: { group_size: 64, bits: 4 },
      quantization_config: { group_size: 64, bits: 4 },
    };
    expect(shapeFromConfig(config, null).quantMethod).toBe("mlx");
  });

  test("without hf_quant_config.json the older NVFP4 repo says nothing of its quantization", () => {
    expect(shapeFromConfig(loadConfig("nvidia__DeepSeek-V3.1-NVFP4"), null).quantMethod).toBe("");
  });

  test.each([
    ["nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16", "bfloat16"], // 2026 spelling: dtype
    ["deepseek-ai__DeepSeek-R1", "bfloat16"], // torch_dtype
  ])("%s dtype %s", (name, dtype) => {
    expect(shapeOfConfig(name).dtype).toBe(dtype);
  });

  test("the max context is the smallest of the max-length keys, as vLLM takes it", () => {
    const config = { ...loadConfig("Qwen__Qwen3-8B"), max_position_embeddings: 40960, seq_length: 32768 };
    expect(shapeFromConfig(config, null).maxContextTokens).toBe(32768);
  });

  test.each([
    ["Qwen__Qwen2.5-Coder-3B-Instruct", true], // tie_word_embeddings true
    ["meta-llama__Llama-3.1-8B-Instruct", false], // false
    ["google__gemma-2-9b-it", true], // absent: Gemma2Config ties by default
  ])("%s ties its embeddings: %s", (name, tied) => {
    expect(shapeOfModel(name).tiedEmbeddings).toBe(tied);
  });

  test("Qwen3's model-card yarn (factor 4 on 32,768) stretches the context to 131,072, as vLLM derives it", () => {
    const config = {
      ...loadConfig("Qwen__Qwen3-8B"),
      rope_scaling: { rope_type: "yarn", factor: 4.0, original_max_position_embeddings: 32768 },
    };
    expect(shapeFromConfig(config, null).maxContextTokens).toBe(131_072);
  });

  test.each([
    ["deepseek-ai__DeepSeek-R1", 163_840], // yarn 40 × 4,096: max_position_embeddings already says so
    ["openai__gpt-oss-20b", 131_072], // yarn 32 × 4,096
    ["meta-llama__Llama-4-Scout-17B-16E-Instruct", 10_485_760], // llama3 rope: not stretched again
  ])("%s: %i tokens", (name, tokens) => {
    expect(shapeOfConfig(name).maxContextTokens).toBe(tokens);
  });

  test("the Hub's parameter count is carried", () => {
    expect(shapeFromConfig(loadConfig("Qwen__Qwen3-8B"), 8_190_735_360).paramsTotal).toBe(8_190_735_360);
  });
});

/** Layers by compress ratio (1 = window only) and which carry the indexer. */
function ratioCounts(s: ModelShape): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of s.layerCaches) {
    if (c.kind !== "compressed-mla") throw new Error(`layer kind ${c.kind} in a DeepSeek-V4 shape`);
    const key = `r${c.compressRatio}${c.indexerHeadDim > 0 ? "+indexer" : ""}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

describe("DeepSeek-V4 compressed attention (notes §1a rows, pitfall 4)", () => {
  // notes §1a: Flash 43 layers = 2×r0, 21×r4, 20×r128; Pro 61 = 30×r4, 31×r128. Ratio 0 is a window-only layer
  // (vLLM: max(1, compress_ratios[i])); the 44th / 62nd entry is the MTP layer's and is dropped.
  test.each([
    ["deepseek-ai__DeepSeek-V4-Flash", 43, { r1: 2, "r4+indexer": 21, r128: 20 }],
    ["nvidia__DeepSeek-V4-Flash-NVFP4", 43, { r1: 2, "r4+indexer": 21, r128: 20 }],
    ["sgl-project__DeepSeek-V4-Flash-FP8", 43, { r1: 2, "r4+indexer": 21, r128: 20 }],
    ["deepseek-ai__DeepSeek-V4-Pro", 61, { "r4+indexer": 30, r128: 31 }],
    ["nvidia__DeepSeek-V4-Pro-NVFP4", 61, { "r4+indexer": 30, r128: 31 }],
    ["sgl-project__DeepSeek-V4-Pro-FP8", 61, { "r4+indexer": 30, r128: 31 }],
  ] as const)("%s: %i layers by ratio", (name, layers, counts) => {
    const s = shapeOfConfig(name);
    expect(s.layers).toBe(layers);
    expect(ratioCounts(s)).toEqual(counts);
    const first = s.layerCaches[0];
    expect(first?.kind === "compressed-mla" && [first.windowTokens, first.headDim, first.ropeDim]).toEqual([
      128, 512, 64,
    ]);
  });

  test("the sgl-project FP8 copy says model_type deepseek_ref and reads the same", () => {
    const ref = shapeOfConfig("sgl-project__DeepSeek-V4-Flash-FP8");
    expect(ref.architecture).toBe("deepseek_ref");
    expect(ref.layerCaches).toEqual(shapeOfConfig("deepseek-ai__DeepSeek-V4-Flash").layerCaches);
  });

  test("the transformers schema (compress_rates + layer_types) gives the same caches as compress_ratios", () => {
    const cfg = loadConfig("deepseek-ai__DeepSeek-V4-Flash");
    const ratios = cfg["compress_ratios"] as number[];
    const typeOf = (r: number): string =>
      r === 0 ? "sliding_attention" : r === 4 ? "compressed_sparse_attention" : "heavily_compressed_attention";
    const hf: Record<string, unknown> = {
      ...cfg,
      compress_rates: { compressed_sparse_attention: 4, heavily_compressed_attention: 128 },
      layer_types: ratios.slice(0, 43).map(typeOf),
    };
    delete hf["compress_ratios"];
    expect(shapeFromConfig(hf, null).layerCaches).toEqual(shapeOfConfig("deepseek-ai__DeepSeek-V4-Flash").layerCaches);
  });

  test("a compress_ratios list shorter than the layers, or with an unknown ratio, is a ModelError naming it", () => {
    const cfg = loadConfig("deepseek-ai__DeepSeek-V4-Flash");
    const ratios = cfg["compress_ratios"] as number[];
    expect(thrown(() => shapeFromConfig({ ...cfg, compress_ratios: ratios.slice(0, 40) }, null)).field).toBe(
      "compress_ratios",
    );
    expect(
      thrown(() => shapeFromConfig({ ...cfg, compress_ratios: ratios.map((r) => (r === 128 ? 64 : r)) }, null)).message,
    ).toMatch(/knows 0 \(window only\), 4 and 128/);
    const hf: Record<string, unknown> = {
      ...cfg,
      compress_rates: { compressed_sparse_attention: 4 },
      layer_types: ratios.slice(0, 43).map((r) => (r === 128 ? "heavily_compressed_attention" : "sliding_attention")),
    };
    delete hf["compress_ratios"];
    expect(thrown(() => shapeFromConfig(hf, null)).field).toBe("compress_rates");
  });
});
