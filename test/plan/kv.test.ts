/**
 * KV bytes per token and pool accounting against figures engines and the
 * seed's measurements gave (shared/seeds/size_test.go.txt; calibration
 * README), on real configs.
 */
import { describe, expect, test } from "vitest";
import {
  kvBytesPerToken,
  kvGeometry,
  kvHeadsPerCard,
  geometryBytesPerToken,
  llamacppCacheBytes,
  sglangCapacity,
  sglangStateSlotsPerRequest,
  vllmBlockTokens,
  vllmCapacity,
  vllmSequenceBytes,
  VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT,
  vllmCachedGeometry,
  freetokenDsv4Args,
  freetokenDsv4CachePerPage,
  freetokenDsv4KvUnitBytes,
  freetokenDsv4Reserve,
} from "../../src/plan/index.ts";
import { shapeFromConfig } from "../../src/plan/index.ts";
import { loadConfig } from "./fixture.ts";
import { shapeOf } from "./planning-fixtures.ts";

describe("KV bytes per token of the seed's measured models (bf16 cache)", () => {
  test.each([
    // 8,192 tokens across four llama.cpp slots and six gigabytes at 32k made sense of these (seed).
    ["Qwen/Qwen2.5-Coder-3B-Instruct", 36 * 1024],
    ["Qwen/Qwen2.5-14B-Instruct", 192 * 1024],
    ["meta-llama/Llama-3.3-70B-Instruct", 320 * 1024],
  ])("%s: %i bytes, KV heads not attention heads", (repo, bytes) => {
    expect(kvBytesPerToken(shapeOf(repo).layerCaches, 2)).toBe(bytes);
  });
});

describe("tensor parallel and the KV heads", () => {
  test("Qwen2.5-7B's 4 heads split exactly at TP 1, 2 and 4: 57,344 / 28,672 / 14,336 B (vLLM 0.19 logs)", () => {
    const layers = shapeOf("Qwen/Qwen2.5-7B-Instruct").layerCaches;
    expect([1, 2, 4].map((tp) => geometryBytesPerToken(kvGeometry(layers, tp), 2))).toEqual([57344, 28672, 14336]);
  });

  test("past Qwen3-235B's 4 KV heads a card keeps one head: TP8 costs what TP4 does", () => {
    const layers = shapeOf("Qwen/Qwen3-235B-A22B").layerCaches;
    expect([1, 2, 4, 8].map((tp) => geometryBytesPerToken(kvGeometry(layers, tp), 2))).toEqual([
      192512, 96256, 48128, 48128,
    ]);
    expect(kvHeadsPerCard(4, 8)).toBe(1);
  });

  test("an MLA latent (DeepSeek-R1: 61 × 576 × 2 = 70,272 B) is whole on every card", () => {
    const layers = shapeOf("deepseek-ai/DeepSeek-R1").layerCaches;
    expect(geometryBytesPerToken(kvGeometry(layers, 1), 2)).toBe(70272);
    expect(geometryBytesPerToken(kvGeometry(layers, 8), 2)).toBe(70272);
  });

  test("linear-attention states are per sequence, divide by TP, and do not grow with context (Qwen3.5-35B-A3B: 61.4 MiB)", () => {
    const layers = shapeOf("Qwen/Qwen3.5-35B-A3B").layerCaches;
    const g = kvGeometry(layers, 1);
    expect(g.linearStateBytesPerSeq / 2 ** 20).toBeCloseTo(61.4, 1);
    expect(kvGeometry(layers, 2).linearStateBytesPerSeq).toBe(g.linearStateBytesPerSeq / 2);
    const at = (c: number): number => vllmSequenceBytes(g, 2, c, 8192);
    // More context adds attention only: 10 full layers × 2 heads × 512 × 2 B a token, by 1,056-token blocks.
    expect(at(2 * 8 * 1056) - at(8 * 1056)).toBe(8 * 1056 * 10 * 2 * 512 * 2);
  });
});

describe("llama.cpp's cache", () => {
  const qwen235 = kvGeometry(shapeOf("Qwen/Qwen3-235B-A22B").layerCaches, 1);

  test("q8_0 is exactly 34/64 of f16: 102,272 against 192,512 B a token (ik_llama.cpp log)", () => {
    expect(llamacppCacheBytes(qwen235, 34 / 32, 32768, 1, 512) / 32768).toBe(102272);
    expect(llamacppCacheBytes(qwen235, 2, 32768, 1, 512) / 2 ** 20).toBe(6016);
  });

  test("cells are n_ctx = context × slots, padded to 256", () => {
    expect(llamacppCacheBytes(qwen235, 2, 1000, 1, 512)).toBe(1024 * 192512);
    expect(llamacppCacheBytes(qwen235, 2, 4096, 4, 512)).toBe(16384 * 192512);
  });

  test("gpt-oss's 128-token sliding layers keep window × slots + ubatch cells, not the context", () => {
    const g = kvGeometry(shapeOf("openai/gpt-oss-20b").layerCaches, 1);
    const perLayerToken = 8 * 64 * 2 * 2;
    expect(llamacppCacheBytes(g, 2, 32768, 1, 512)).toBe(12 * perLayerToken * 32768 + 12 * perLayerToken * 768);
  });
});

describe("vLLM 0.19's pool accounting", () => {
  const gemma = kvGeometry(shapeOf("google/gemma-3-27b-it").layerCaches, 1);

  test("a sliding layer holds min(window − 1 + batched tokens, context): nothing saved at 8k, most saved at 32k", () => {
    const full = (c: number): number => c * geometryBytesPerToken(gemma, 2);
    expect(vllmSequenceBytes(gemma, 2, 8192, 8192)).toBe(full(8192) + 52 * 16 * 16 * 128 * 2 * 2);
    expect(vllmSequenceBytes(gemma, 2, 32768, 8192)).toBeLessThan(full(32768) * 0.45);
  });

  test("Gemma-3-27B's 10 full + 52 sliding layers make 7 groups of 10: the log's 36,560 tokens from 19.53 GiB", () => {
    const cap = vllmCapacity(gemma, 2, 19.53 * 2 ** 30, 8192, 8192);
    // Within the log's rounding of 19.53 GiB (±0.005 GiB ≈ ±9 tokens of 573 KB) and one block.
    expect(Math.abs(cap.tokens - 36560)).toBeLessThanOrEqual(32);
    expect(cap.concurrency).toBeCloseTo(4.46, 2);
  });

  test("an empty pool holds nothing", () => {
    expect(vllmCapacity(gemma, 2, 0, 8192, 8192)).toEqual({ tokens: 0, concurrency: 0 });
  });
});

test("SGLang's cell: tokens are the pool ÷ bytes per token (Qwen3-235B TP4: 16.46 GiB over 367,404 tokens in its log)", () => {
  const g = kvGeometry(shapeOf("Qwen/Qwen3-235B-A22B").layerCaches, 4);
  const cap = sglangCapacity(g, 2, 16.46 * 2 ** 30, 8192);
  expect(Math.abs(cap.tokens - 367404) / 367404).toBeLessThan(0.001);
});

/**
 * SGLang caps a hybrid linear model's running requests at its state slots ÷ 3 (model_runner_kv_cache_mixin.py
 * @ 001ccef0 `init_memory`: `min(max_num_reqs, max_mamba_cache_size // ratio)`, MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO
 * = 3 with the radix cache on), 1 where it turns the radix cache off for Mamba2 models (Nemotron-H).
 */
describe("SGLang's hybrid linear models: running requests by state slots", () => {
  const g = kvGeometry(shapeOf("Qwen/Qwen3.5-35B-A3B").layerCaches, 1);
  const pool = 40 * 2 ** 30;
  const states = Math.floor((pool * 0.9) / 1.9 / g.linearStateBytesPerSeq);

  test("Qwen3.5-35B-A3B on one card: the states ÷ 3, not the states", () => {
    expect(states).toBeGreaterThan(300);
    // A short context so the tokens do not bind: the states do.
    expect(sglangCapacity(g, 2, pool, 256, sglangStateSlotsPerRequest("qwen3_5_moe_text")).concurrency).toBe(
      Math.floor(states / 3),
    );
  });

  test("Nemotron-H, radix cache off: one slot a request", () => {
    expect(sglangStateSlotsPerRequest("nemotron_h")).toBe(1);
    expect(sglangCapacity(g, 2, pool, 256, 1).concurrency).toBe(states);
  });
});

describe("vLLM's hybrid attention + state models (Qwen3.5-35B-A3B: 10 full layers, 30 gated-delta)", () => {
  const g = kvGeometry(shapeOf("Qwen/Qwen3.5-35B-A3B").layerCaches, 1);

  test("the attention block grows until a page holds a layer's 2.05 MiB state: 1,056 tokens (notes §2.5)", () => {
    expect(vllmBlockTokens(g, 2)).toBe(1056);
  });

  test("a sequence pays its attention by those blocks and one padded page per state layer", () => {
    const page = 1056 * 2 * 512 * 2;
    expect(vllmSequenceBytes(g, 2, 8192, 8192)).toBe(Math.ceil(8192 / 1056) * page * 10 + page * 30);
  });

  test("the pool is cut into those pages: 10 + 30 layers make 4 groups of 10, each request 8 + 3 blocks at 8k", () => {
    const page = 1056 * 2 * 512 * 2;
    const pool = 40 * 2 ** 30;
    const blocks = Math.floor(pool / page / 10);
    expect(vllmCapacity(g, 2, pool, 8192, 8192)).toEqual({
      tokens: Math.floor(blocks / 4) * 1056,
      concurrency: blocks / (8 + 3),
    });
  });
});

describe("Llama-4's chunked local attention on vLLM", () => {
  const layers = shapeFromConfig(loadConfig("meta-llama__Llama-4-Maverick-17B-128E-Instruct"), null).layerCaches;
  const g = kvGeometry(layers, 1);
  const context = 131_072;
  const batched = 8192;

  test("with the hybrid KV cache manager on (vLLM ≥ 0.16's default) a 128k sequence costs its 12 global layers whole and its 36 chunk layers chunk + batch", () => {
    // notes §1 table: 49,152 B/token on the 12 global layers (8 KV heads × 128 × 2 × 2 B × 12);
    // ChunkedLocalAttentionSpec: cdiv(min(8,192 + 8,192, context), 16) blocks of 16 tokens on the others.
    const chunk = 36 * 8 * 128 * 2 * 2 * 16_384;
    expect(vllmSequenceBytes(vllmCachedGeometry(g, VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT), 2, context, batched)).toBe(
      49_152 * context + chunk,
    );
    expect(VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT).toBe(true);
  });

  test("with VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0 (vLLM 0.10.1–0.12's default) every layer holds the whole context: 196,608 B/token, four times the global layers'", () => {
    expect(vllmSequenceBytes(vllmCachedGeometry(g, false), 2, context, batched)).toBe(196_608 * context);
    // A pool of 100 GiB then holds 2.9 times fewer 128k sequences than with the manager on.
    const pool = 100 * 2 ** 30;
    const on = vllmCapacity(vllmCachedGeometry(g, true), 2, pool, context, batched).concurrency;
    const off = vllmCapacity(vllmCachedGeometry(g, false), 2, pool, context, batched).concurrency;
    expect(off).toBeCloseTo(pool / (196_608 * context), 3);
    expect(on).toBeCloseTo(pool / (49_152 * context + 36 * 8 * 128 * 2 * 2 * 16_384), 3);
  });

  test("llama.cpp keeps its chunk cache whatever vLLM does: 36 layers of pad256(8,192 + 512) = 8,704 cells, 12 of the whole 128k", () => {
    // llama-kv-cache-iswa.cpp: SWA/chunked layers hold pad256(min(n_ctx, n_swa × slots + n_ubatch)) cells.
    expect(llamacppCacheBytes(g, 2, context, 1, 512)).toBe(12 * 4096 * context + 36 * 4096 * 8704);
  });

  test("a model without chunked layers is not touched: Gemma-3's sliding windows keep their window", () => {
    const gemma = kvGeometry(shapeOf("google/gemma-3-27b-it").layerCaches, 1);
    expect(vllmCachedGeometry(gemma, false)).toBe(gemma);
  });
});

/**
 * DeepSeek-V4 on vLLM, from the real configs. The expected figures are worked
 * here by hand from vLLM's source, not from kv.ts: a compressed block covers
 * 256 tokens (DeepseekSparseSWABackend.get_preferred_block_size), a ratio-r
 * layer stores 256 / r slots of 584 B ("448B NoPE + 128B RoPE + 8B fp8 scale"),
 * the indexer 256 / 4 keys of 132 B ("128 fp8 + 4 fp32 scale"), and every page
 * is rounded up to 576 B (FlashMLA's `alignment=576`): 64 × 584 = 37,376 → 65 ×
 * 576 = 37,440; 2 × 584 = 1,168 → 1,728; 64 × 132 = 8,448 → 8,640.
 */
describe("DeepSeek-V4's compressed attention on vLLM", () => {
  const flash = shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-V4-Flash"), null).layerCaches;
  const pro = shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-V4-Pro"), null).layerCaches;

  test("per token of context: Flash 3,206.25 B + 708.75 B of indexer keys, Pro 4,596.75 + 1,012.5 (notes: ≈3.2 KB and ≈4.5 KB + indexer)", () => {
    // Flash: 21 ratio-4 and 20 ratio-128 layers; the notes' 146 and 4.6 B/tok are the pages before the 576-B alignment.
    expect(kvBytesPerToken(flash, 2)).toBe((21 * 37_440 + 20 * 1_728) / 256 + (21 * 8_640) / 256);
    expect(kvBytesPerToken(flash, 2)).toBe(3_206.25 + 708.75);
    // Pro: 30 ratio-4, 31 ratio-128. Unaligned (584/4, 584/128) it is 4,521 B, the notes' ≈4.5 KB; aligned 4,596.75.
    expect(kvBytesPerToken(pro, 2)).toBe((30 * 37_440 + 31 * 1_728) / 256 + (30 * 8_640) / 256);
    expect(kvBytesPerToken(pro, 2)).toBe(4_596.75 + 1_012.5);
  });

  test("the element size does not move it: vLLM keeps its fp8_ds_mla layout whatever the dtype", () => {
    expect(kvBytesPerToken(flash, 1)).toBe(kvBytesPerToken(flash, 2));
  });

  test("one sequence at 32k with 8,192 batched tokens: 3,482 shared blocks of 22 × 47,808 B on Flash, 31 × 47,808 B on Pro", () => {
    // Blocks a request is admitted with: the compressed group cdiv(32,768, 256) = 128; the 43 (61) window layers in two
    // groups of ≤ 22 (31) layers, each cdiv(127 + 8,192, 64) + 1 = 131; the ratio-4 compressor states (blocks of 4,
    // window 8) cdiv(7 + 8,192, 4) + 1 = 2,051; the ratio-128 states (blocks of 8, window 128) cdiv(127 + 8,192, 8) + 1 = 1,041.
    const blocks = 128 + 2 * 131 + 2_051 + 1_041;
    // A block holds the largest group's tuples of each compressed page size (37,440 + 8,640 + 1,728 = 47,808 B):
    // Flash's tuple counts 21 (compressed), 43 (windows), 21, 20 (states) round to 22; Pro's 31, 61, 30, 31 to 31.
    expect(vllmSequenceBytes(kvGeometry(flash, 8), 1, 32_768, 8_192)).toBe(blocks * 22 * 47_808);
    expect(vllmSequenceBytes(kvGeometry(pro, 8), 1, 32_768, 8_192)).toBe(blocks * 31 * 47_808);
    expect(vllmBlockTokens(kvGeometry(flash, 8), 1)).toBe(256);
  });

  test("the whole cache is on every card: tensor parallel does not divide it", () => {
    expect(vllmSequenceBytes(kvGeometry(flash, 1), 1, 32_768, 8_192)).toBe(
      vllmSequenceBytes(kvGeometry(flash, 8), 1, 32_768, 8_192),
    );
  });

  test("a pool is cut into shared blocks, and concurrency is blocks over a request's blocks", () => {
    const pool = 40 * 2 ** 30;
    const blocks = Math.floor(pool / (22 * 47_808));
    const cap = vllmCapacity(kvGeometry(flash, 8), 1, pool, 32_768, 8_192);
    expect(cap.concurrency).toBeCloseTo(blocks / 3_482, 10);
    expect(cap.tokens).toBe(Math.floor((blocks / 3_482) * 32_768));
  });

  test("the raw window a sequence keeps is what the notes give: 43 × 128 × 584 B ≈ 3.2 MB, 61 × 128 × 584 ≈ 4.6 MB", () => {
    // vLLM reserves far more for it: window − 1 + batched tokens a layer, and the compressor states beside it.
    expect(43 * 128 * 584).toBe(3_214_336);
    expect(61 * 128 * 584).toBe(4_559_872);
    const window = (layers: typeof flash) =>
      kvGeometry(layers, 1).compressed.reduce((n, c) => n + c.layers * c.windowTokens * 584, 0);
    expect(window(flash)).toBe(3_214_336);
    expect(window(pro)).toBe(4_559_872);
  });
});

/**
 * FreeToken's DeepSeek-V4 cost model (kvcache/dsv4_cost_model.py @ 3c132c95)
 * on V4-Flash's real config. FreeToken's own tests of that file assert only
 * parity between its functions, no byte figure for V4, so the independent
 * figures are those of a FreeToken deployment script for DeepSeek-V4-Flash-0731
 * in the search index (a user's `ft serve` launcher, "justified against THIS
 * platform from FreeToken's source"): "DSV4 KV is ~34.99 KiB/token, NOT the
 * 6.72 KiB of dsv4_kv_unit_bytes (the SWA window tier at
 * swa_full_tokens_ratio 0.2 is ~78% of the bill)".
 */
describe("DeepSeek-V4-Flash priced by FreeToken's own cost model", () => {
  const args = freetokenDsv4Args(
    kvGeometry(shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-V4-Flash"), null).layerCaches, 1),
  );
  if (typeof args === "string") throw new Error(args);
  const KIB = 1024;

  test("its 43 layers (the MTP entry of compress_ratios dropped) on 128-token pages", () => {
    expect(args.layers).toHaveLength(43);
    expect(args.pageTokens).toBe(128);
  });

  test("dsv4_kv_unit_bytes is the deployment's 6.72 KiB a token (compressed entries, indexer keys, the full→window map)", () => {
    expect(Math.floor((freetokenDsv4KvUnitBytes(args) / KIB) * 100) / 100).toBe(6.72);
  });

  test("the planner's price at swa_full_tokens_ratio 0.2 is the deployment's 34.99 KiB a token, the window tier about 78% of it", () => {
    const perToken = (freetokenDsv4CachePerPage(args, 0.2) + 128 * 8) / 128;
    expect(Math.round((perToken / KIB) * 100) / 100).toBe(34.99);
    expect(1 - freetokenDsv4KvUnitBytes(args) / perToken).toBeCloseTo(0.8, 1);
  });

  test("whatever --kv-reserve-tokens asks, the 2 GiB slack the planner adds holds at least 2 GiB of pages", () => {
    const small = freetokenDsv4Reserve(args, 8192, 32_768, 1);
    expect(small.tokens).toBeGreaterThan(8192);
    expect(small.bytes).toBeGreaterThan(2 * 2 ** 30);
    // A larger reserve than the slack's pages is honoured to the page.
    const large = freetokenDsv4Reserve(args, 262_144, 262_144, 1);
    expect(large.tokens).toBe(262_144);
  });
});
