/**
 * SGLang's DP attention for Qwen3.5/3.6-MoE (qwen3_5_moe_text, src/plan/engines/serving/dpAttentionFamilies.ts), each
 * card set against SGLang's own arithmetic worked by hand from its files, read at sgl-project/sglang:
 * models/qwen3_5.py @ 005fa711 (`Qwen3_5AttentionDecoderLayer` qkv_proj / o_proj at attn_tp_size, KV heads replicated
 * past 2; `Qwen3_5GatedDeltaNet` in_proj_qkvz, in_proj_ba, conv1d, A_log, dt_bias and out_proj at attn_tp_size, its
 * gated norm whole; the embedding `enable_tp=not is_dp_attention_enabled()`), configs/qwen3_next.py @ 041bacd3
 * (`mamba2_cache_params`: the state sharded by attn_tp_size) and configs/mamba_utils.py @ 02e208de
 * (`Mamba2StateShape.create`: conv (conv_dim ÷ tp, kernel − 1), temporal (num_v_heads ÷ tp, dv, dk)). No SGLang
 * startup log with DP attention on Qwen3.5 was found, so the figures are the files' arithmetic.
 *
 * The configs are the recorded ones (test/fixtures/configs, each with its `_source`). Their checkpoints' files are
 * not recorded: each is given one file of 2 B a parameter of its text model (counted below from the config, the
 * MTP layer included; the vision tower left out), so the splits, not the total, are what is checked.
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_WORKLOAD,
  GIB,
  mtpWeightBytes,
  plan,
  readModel,
  type Cluster,
  type RepoSnapshot,
} from "../../src/plan/index.ts";
import { atDp, dpa, nodesOf8 } from "./dpAttentionFixture.ts";
import { loadConfig } from "./fixture.ts";

/** The text model of a Qwen3.5-MoE config, by SGLang's modules: every full and gated-delta layer, experts, the rest. */
interface Qwen35 {
  name: string;
  hidden: number;
  layers: number;
  heads: number;
  experts: number;
  width: number;
  nv: number;
}
// Shared by every Qwen3.5/3.6-MoE config: head_dim 256 with attn_output_gate (q doubled), 2 KV heads, one full layer
// in four, 16 gated-delta key heads of 128, value heads of 128, conv kernel 4, one shared expert of the routed width,
// vocabulary 248,320, untied.
const HEAD = 256;
const KV = 2;
const NK = 16;
const DK = 128;
const VOCAB = 248_320;

function pieces(m: Qwen35) {
  const h = m.hidden;
  const full = m.layers / 4;
  const linear = m.layers - full;
  const keyDim = NK * DK;
  const valueDim = m.nv * DK;
  // in_proj_qkvz, in_proj_ba, conv1d (conv_dim × 4), A_log + dt_bias, out_proj; the gated norm (128) apart, whole.
  const mixerSplit =
    h * (2 * keyDim + 2 * valueDim) + h * 2 * m.nv + (2 * keyDim + valueDim) * 4 + 2 * m.nv + valueDim * h;
  const q = h * m.heads * HEAD * 2 + m.heads * HEAD * h; // qkv_proj's gated q and o_proj
  const kvHead = h * 2 * HEAD; // one KV head's k and v
  const experts = m.layers * m.experts * 3 * h * m.width;
  const shared = m.layers * 3 * h * m.width;
  const router = m.layers * h * m.experts; // ReplicatedLinear, never split (models/qwen2_moe.py @ d1a8de4b)
  const norms = m.layers * (2 * h + h) + full * 2 * HEAD + linear * DK + h; // two layernorms, the shared-expert gate
  const embed = VOCAB * h;
  return { full, linear, mixerSplit, q, kvHead, experts, shared, router, norms, embed };
}

function snapshot(m: Qwen35): { s: RepoSnapshot; params: ReturnType<typeof pieces> } {
  const config = loadConfig(m.name);
  const p = pieces(m);
  const layersParams = p.full * (p.q + KV * p.kvHead) + p.linear * (p.mixerSplit + DK);
  const text = layersParams + p.experts + p.shared + p.router + p.norms + 2 * p.embed;
  const mtp = readModel({ repo: m.name, sha: "", config, files: [], paramsTotal: null, ggufHeaders: {} }).shape
    .mtpParams;
  const bytes = 2 * (text + (mtp ?? 0));
  const s = {
    repo: m.name,
    sha: "",
    config,
    files: [{ path: "model.safetensors", sizeBytes: bytes }],
    paramsTotal: null,
    ggufHeaders: {},
  };
  return { s, params: p };
}

function planned(m: Qwen35, cluster: Cluster) {
  const { s, params } = snapshot(m);
  const { shape, artifacts } = readModel(s);
  const a = artifacts[0];
  if (!a) throw new Error(`no artifact for ${m.name}`);
  const p = plan({ repo: s.repo, revision: "", shape, artifacts }, cluster, { ...DEFAULT_WORKLOAD, sequences: 64 });
  return { p, shape, a, params };
}

const QWEN35_35B: Qwen35 = {
  name: "Qwen__Qwen3.5-35B-A3B",
  hidden: 2048,
  layers: 40,
  heads: 16,
  experts: 256,
  width: 512,
  nv: 32,
};
const QWEN35_397B: Qwen35 = {
  name: "Qwen__Qwen3.5-397B-A17B",
  hidden: 4096,
  layers: 60,
  heads: 32,
  experts: 512,
  width: 1024,
  nv: 64,
};

/**
 * What SGLang puts on a card of a `ranks`-card group at `--dp-size dp`, in bytes: each full layer's gated q and o a
 * 1/attnTp share and max(1, 2 ÷ attnTp) whole KV heads, each gated-delta mixer a 1/attnTp share and its norm whole,
 * the embedding whole, the routed experts E ÷ ranks, the router whole (ReplicatedLinear), the shared experts whole
 * under DeepEP, the rest (lm_head, shared experts without DeepEP, norms) a 1/ranks share; the MTP layer not loaded;
 * the rotary cache the plan counts on every rank (262,144 positions × 256 × 2 B).
 */
function sglangCard(m: Qwen35, fileBytes: number, mtpBytes: number, ranks: number, dp: number, deepep: boolean) {
  const P = pieces(m);
  const attnTp = ranks / dp;
  const attention =
    P.full * (P.q / attnTp + Math.max(1, KV / attnTp) * P.kvHead) + P.linear * (P.mixerSplit / attnTp + DK);
  const attentionAll = P.full * (P.q + KV * P.kvHead) + P.linear * (P.mixerSplit + DK);
  const shared = deepep ? P.shared : 0;
  const rest = (fileBytes - mtpBytes) / 2 - P.experts - 2 * P.embed - attentionAll - P.router - shared;
  return 2 * (attention + P.embed + P.router + shared + (P.embed + P.experts + rest) / ranks) + 262_144 * 256 * 2;
}

describe("Qwen3.5-35B-A3B (qwen3_5_moe_text) on one node of 8 × H100: --tp 8 --dp D --enable-dp-attention", () => {
  const { p, shape, a, params } = planned(QWEN35_35B, nodesOf8("h100-80g", 1));

  test("the routed experts are 40 layers × 256 × gate, up and down of 2,048 × 512", () => {
    expect(a.expertBytes).toBe(2 * params.experts);
  });

  test.each([8, 4, 2])("--dp-size %i: SGLang's card, the router whole on it", (dp) => {
    const o = atDp(p.options, dp);
    expect(o?.commands[0]).toContain(`--tp-size 8 --dp-size ${dp} --enable-dp-attention --ep-size 8 `);
    const sglang = sglangCard(QWEN35_35B, a.bytes, mtpWeightBytes(shape), 8, dp, false);
    // Shared an eighth like the rest, the router (40 × 2,048 × 256 × 2 B) would leave the card 0.034 GiB short; the
    // gated norms (30 × 128 × 2 B a card) are under 0.0001.
    expect(Math.abs((o?.cards[0]?.weightsBytes ?? NaN) - sglang) / GIB).toBeLessThan(0.0001);
  });

  // sgl-project/sglang#23463: "Qwen3.5 produces incorrect results when attention DP is enabled and NCCL NVLS kernels
  // are used"; SGLang leaves NVLS off unless --enable-nccl-nvls.
  test("its card warns off NVLS under DP attention; TP 8's does not", () => {
    const tp8 = p.options.find((o) => o.engine === "sglang" && !dpa(o) && o.placement.tensorParallel === 8);
    expect(atDp(p.options, 8)?.notes?.join(" ")).toMatch(
      /--enable-nccl-nvls off.*sglang#23463|sglang#23463.*--enable-nccl-nvls off/,
    );
    expect(atDp(p.options, 8)?.commands[0]).not.toContain("nvls");
    expect(tp8?.notes?.join(" ") ?? "").not.toContain("#23463");
  });

  test("before the gated-delta mixers were counted, a dp 8 card held 30 × 6.5 M parameters too few", () => {
    // The full layers' q/k/v/o (27.3 M) counted for every layer where three in four hold a 33.7 M mixer: 0.36 GiB.
    expect(shape.attentionParamsPerLayer).toBe(27_262_976);
    expect(shape.linearAttentionParamsPerLayer).toBe(33_718_464);
  });

  // Per rank, by SGLang's arithmetic: a full layer's K and V of max(1, 2 ÷ attnTp) heads of 256 at 2 B over 10 full
  // layers; a request's state 30 × (conv (8,192 ÷ attnTp) × 3 × 2 B + temporal (32 ÷ attnTp) × 128 × 128 × 4 B); the
  // rank's pool split 1 : 0.9 between KV and states (handle_max_mamba_cache, --mamba-full-memory-ratio 0.9).
  test.each([
    [8, 20_480, 64_389_120],
    [4, 10_240, 32_194_560],
    [2, 10_240, 16_097_280],
  ])("--dp-size %i: %i B a token and %i B a request's state in each rank's pool", (dp, perToken, state) => {
    const o = atDp(p.options, dp);
    if (!o) throw new Error(`no dp ${dp} option`);
    const kvBytes = o.kvPoolBytes / 1.9;
    const tokensPerRank = o.kvPoolTokens / dp;
    expect(Math.abs(tokensPerRank * perToken - kvBytes)).toBeLessThan(perToken);
    // Running requests are capped at the states ÷ 3 (init_memory: max_mamba_cache_size // ratio, radix cache on).
    const states = Math.floor((o.kvPoolBytes - kvBytes) / state);
    expect(o.maxConcurrency).toBeCloseTo(dp * Math.min(tokensPerRank / 8192, Math.floor(states / 3)), 6);
  });
});

describe("Qwen3.5-397B-A17B", () => {
  test("8 × B200, --dp-size 8: every layer's attention and mixer and the embedding whole, 64 of 512 experts", () => {
    const { p, shape, a } = planned(QWEN35_397B, nodesOf8("b200-180g", 1));
    const o = atDp(p.options, 8);
    const sglang = sglangCard(QWEN35_397B, a.bytes, mtpWeightBytes(shape), 8, 8, false);
    expect(Math.abs((o?.cards[0]?.weightsBytes ?? NaN) - sglang) / GIB).toBeLessThan(0.0001);
  });

  test("two nodes of 8 × H100 through DeepEP: the shared experts whole on every card", () => {
    const { p, shape, a } = planned(QWEN35_397B, nodesOf8("h100-80g", 2));
    const listed = p.options.filter(dpa);
    expect(listed.length).toBeGreaterThan(0);
    for (const o of listed) {
      const dp = o.placement.dataParallel ?? 0;
      expect(o.commands[0]).toMatch(
        new RegExp(`--tp-size 16 --dp-size ${dp} --enable-dp-attention --ep-size 16 --moe-a2a-backend deepep `),
      );
      const sglang = sglangCard(QWEN35_397B, a.bytes, mtpWeightBytes(shape), 16, dp, true);
      expect(Math.abs((o.cards[0]?.weightsBytes ?? NaN) - sglang) / GIB).toBeLessThan(0.0001);
    }
  });
});
