/**
 * SGLang's DP attention beyond DeepSeek and Qwen-MoE (src/plan/engines/serving/dpAttentionFamilies.ts): GLM-4.5/4.6/4.7
 * (glm4_moe), GLM-5 (glm_moe_dsa) and Llama-4 (llama4_text), each as its SGLang model file shards it, read at
 * sgl-project/sglang: models/glm4_moe.py @ 005ffc65 (`Glm4MoeAttention` qkv/o at attn_tp_size, the embedding
 * `use_attn_tp_group=is_dp_attention_enabled()`, `Glm4MoeMLP` shared experts `tp_size=1` under DeepEP),
 * models/llama4.py @ 871da34d (`Llama4Attention` at get_attention_tp_size(), the embedding `enable_tp=not
 * is_dp_attention_enabled()`, `Llama4MoE` through `FusedMoE` without a DeepEP path). No SGLang startup log with DP
 * attention on these families was found (shared calibration, issues and code corpora), so what each card holds is
 * SGLang's arithmetic worked by hand from those files and the configs, and set against the plan.
 *
 * The configs are the recorded ones (test/fixtures/configs, each with its `_source`). Their checkpoints' files are
 * not recorded: each is given one file of 2 B a parameter (BF16) counted by hand from its config (the text model:
 * GLM-4.7 356.8 B with its MTP layer, the Hub's "355B" for GLM-4.5; Llama-4 Scout 107.8 B and Maverick 400.7 B,
 * the Hub's 109 B and 402 B less the vision tower). The splits below hold for any total.
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_WORKLOAD,
  GIB,
  mtpWeightBytes,
  plan,
  readModel,
  type Cluster,
  type PlanOption,
  type RepoSnapshot,
} from "../../src/plan/index.ts";
import { atDp, dpa, nodesOf8 } from "./dpAttentionFixture.ts";
import { configNames, loadConfig, snapshotOf } from "./fixture.ts";

function snapshot(name: string, bytes: number): RepoSnapshot {
  const config = loadConfig(name);
  return {
    repo: name,
    sha: "",
    config,
    files: [{ path: "model.safetensors", sizeBytes: bytes }],
    paramsTotal: null,
    ggufHeaders: {},
  };
}

function planned(s: RepoSnapshot, cluster: Cluster) {
  const { shape, artifacts } = readModel(s);
  const a = artifacts[0];
  if (!a) throw new Error(`no artifact for ${s.repo}`);
  const p = plan({ repo: s.repo, revision: "", shape, artifacts }, cluster, { ...DEFAULT_WORKLOAD, sequences: 64 });
  return { p, shape, a };
}

const weightsGib = (o: PlanOption | undefined) => (o?.cards[0]?.weightsBytes ?? NaN) / GIB;

// GLM-4.7's config: hidden 5,120, 96 heads and 8 KV heads of 128, 92 layers (3 dense, 89 MoE), 160 routed experts
// of 1,536 and one shared, vocabulary 151,552.
const GLM_BYTES = 2 * 356_785_898_816;
const GLM_ATTENTION = 92 * 2 * (5120 * (96 * 128 + 2 * 8 * 128) + 96 * 128 * 5120); // q, k, v, o of every layer
const GLM_EMBED = 151_552 * 5120 * 2;
const GLM_EXPERTS = 89 * 160 * 3 * 5120 * 1536 * 2;
const GLM_SHARED = 89 * 3 * 5120 * 1536 * 2; // one shared expert of 1,536 a MoE layer
// The rotary cos/sin cache the plan counts on every rank: max_position_embeddings × head_dim × 2 B.
const GLM_ROTARY = 202_752 * 128 * 2;
// The router of each MoE layer, 160 × 5,120: bf16 in the checkpoint (inside the layers' bytes), but fp32 and whole on
// every card. SGLang's `Glm4MoeGate` holds its weight in fp32 since PR #35883 (sgl-project/sglang
// test/registered/unit/models/test_glm_moe_gate_fp32.py @ 754f8ff9: `gate.weight.dtype == torch.float32` under a bf16
// default), replicated, never split by attention TP or the group: 89 × 160 × 5,120 × 4 B = 0.27 GiB a card.
const GLM_ROUTER_FILE = 89 * 160 * 5120 * 2;
const GLM_ROUTER_CARD = 89 * 160 * 5120 * 4;

describe("GLM-4.7 (glm4_moe, GQA) on one node of 8 × B200: --tp 8 --dp 8 --enable-dp-attention", () => {
  const { p, shape, a } = planned(snapshot("zai-org__GLM-4.7", GLM_BYTES), nodesOf8("b200-180g", 1));
  const d8 = atDp(p.options, 8);

  test("the routed experts are 89 layers × 160 × gate, up and down of 5,120 × 1,536", () => {
    expect(a.expertBytes).toBe(GLM_EXPERTS);
  });

  test("a card holds every layer's q/k/v/o, the embedding and the fp32 router whole, 20 of the 160 experts, an eighth of the rest", () => {
    const rest = a.bytes - GLM_EXPERTS - 2 * GLM_EMBED - GLM_ATTENTION - GLM_ROUTER_FILE;
    // The MTP layer (in `rest`) is not loaded without speculative decoding: its eighth is not on the card.
    const expected =
      GLM_ATTENTION + GLM_EMBED + GLM_ROUTER_CARD + (GLM_EMBED + GLM_EXPERTS + rest - mtpWeightBytes(shape)) / 8;
    expect(Math.abs(weightsGib(d8) - (expected + GLM_ROTARY) / GIB)).toBeLessThan(0.01);
  });

  test("each rank its own pool of all 8 KV heads: 92 layers × K and V × 8 × 128 × 2 B = 376,832 B a token", () => {
    if (!d8) throw new Error("no dp 8 option");
    expect(Math.abs((d8.kvPoolTokens / 8) * 376_832 - d8.kvPoolBytes)).toBeLessThan(376_832);
  });

  test("SGLang's fraction: (183,359 − 46,160) ÷ 183,359 MiB = 0.748", () => {
    // 512 + 16,384 × 1.5 + 512 × 2 + 8/8 × 1,024 + 74 piecewise sizes (GQA: up to 16,384) × 8 + 512 × 8 × 4.5 MiB.
    expect(d8?.commands[0]).toMatch(
      / --tp-size 8 --dp-size 8 --enable-dp-attention --ep-size 8 --context-length 8192 --mem-fraction-static 0\.748 --max-running-requests 64$/,
    );
  });
});

describe("GLM-4.7 over two nodes of 8 × H100: --tp 16 --dp 2 through DeepEP", () => {
  const { p, shape, a } = planned(snapshot("zai-org__GLM-4.7", GLM_BYTES), nodesOf8("h100-80g", 2));
  const d2 = atDp(p.options, 2);

  test("dp 16 cannot start at SGLang's fraction and says so; dp 2 runs, a command a node", () => {
    const why = p.refused.find((r) => r.engine === "sglang" && r.where.includes("DP attention 16"));
    expect(why?.reason).toMatch(/needs [\d.]+ GiB a card; an h100-80g offers 39\.6/);
    expect(d2?.placement).toMatchObject({ nodes: 2, gpusPerNode: 8, tensorParallel: 8, dataParallel: 2 });
    expect(d2?.commands).toHaveLength(2);
    for (const [rank, c] of (d2?.commands ?? []).entries()) {
      expect(c).toMatch(/--tp-size 16 --dp-size 2 --enable-dp-attention --ep-size 16 --moe-a2a-backend deepep /);
      expect(c).toMatch(new RegExp(`--nnodes 2 --node-rank ${rank} --dist-init-addr <head-node-ip>:25000$`));
    }
  });

  test("at attention TP 8: an eighth of q/k/v/o and of the embedding (use_attn_tp_group), the shared experts and the router whole", () => {
    const rest = a.bytes - GLM_EXPERTS - 2 * GLM_EMBED - GLM_ATTENTION - GLM_SHARED - GLM_ROUTER_FILE;
    // 8 KV heads over 8 cards: one each, none replicated. The lm_head and the rest over all 16.
    const expected =
      GLM_ATTENTION / 8 +
      GLM_EMBED / 8 +
      GLM_SHARED +
      GLM_ROUTER_CARD +
      (GLM_EMBED + GLM_EXPERTS + rest - mtpWeightBytes(shape)) / 16;
    expect(Math.abs(weightsGib(d2) - (expected + GLM_ROTARY) / GIB)).toBeLessThan(0.01);
    // One KV head a card: 92 layers × K and V × 128 × 2 B = 47,104 B a token, two pools.
    if (!d2) throw new Error("no dp 2 option");
    expect(Math.abs((d2.kvPoolTokens / 2) * 47_104 - d2.kvPoolBytes)).toBeLessThan(47_104);
  });
});

// Llama-4's text config: hidden 5,120, 40 heads and 8 KV heads of 128, 48 layers, vocabulary 202,048.
const L4_ATTENTION = 48 * 2 * (5120 * (40 * 128 + 2 * 8 * 128) + 40 * 128 * 5120);
const L4_EMBED = 202_048 * 5120 * 2;
const SCOUT = { name: "meta-llama__Llama-4-Scout-17B-16E-Instruct", bytes: 2 * 107_769_861_120 };
const MAVERICK = { name: "meta-llama__Llama-4-Maverick-17B-128E-Instruct", bytes: 2 * 400_711_848_960 };

/**
 * A Llama-4 card at `--dp dp` on 8 × H200 beside SGLang's arithmetic: q/k/v/o over the attention TP 8 ÷ dp, the
 * embedding and the router whole (`Llama4MoE.router = ReplicatedLinear(hidden_size, num_local_experts)`, bf16: its
 * `router` bytes), `experts` (the routed bytes) and the rest (dense MLP, shared expert, lm_head) over all 8, and the
 * rotary cache the plan counts at `positions` × 128 × 2 B.
 */
function llama4Card(
  model: { name: string; bytes: number },
  dp: number,
  experts: number,
  router: number,
  positions: number,
) {
  const { p, a } = planned(snapshot(model.name, model.bytes), nodesOf8("h200-141g", 1));
  const o = atDp(p.options, dp);
  const rest = a.bytes - experts - 2 * L4_EMBED - L4_ATTENTION - router;
  const expected = L4_ATTENTION / (8 / dp) + L4_EMBED + router + (L4_EMBED + experts + rest) / 8 + positions * 128 * 2;
  return { a, o, offByGib: Math.abs(weightsGib(o) - expected / GIB) };
}

describe("Llama-4 (llama4_text) on one node of 8 × H200", () => {
  test("Scout at --dp 8: attention and embedding whole, 2 of its 16 experts (every layer MoE), an eighth of the rest", () => {
    const experts = 48 * 16 * 3 * 5120 * 8192 * 2;
    // The router 48 × 16 × 5,120 × 2 B; the rotary cache at Scout's 10,485,760 positions is 2.5 GiB.
    const { a, o, offByGib } = llama4Card(SCOUT, 8, experts, 48 * 16 * 5120 * 2, 10_485_760);
    expect(a.expertBytes).toBe(experts);
    expect(o?.commands[0]).toMatch(/ --tp-size 8 --dp-size 8 --enable-dp-attention --ep-size 8 /);
    expect(offByGib).toBeLessThan(0.01);
  });

  test("Maverick at --dp 2: a quarter of q/k/v/o, the embedding still whole (enable_tp=not is_dp_attention_enabled())", () => {
    // 24 MoE layers (interleave_moe_layer_step 2) of 128 experts; the 24 dense layers' MLP and the shared experts in
    // the rest. GLM's rule (a quarter of the embedding at attention TP 4) would put 1.45 GiB less on the card.
    // The router 24 × 128 × 5,120 × 2 B = 0.029 GiB, whole: an eighth of it would leave the card 0.026 GiB short.
    const experts = 24 * 128 * 3 * 5120 * 8192 * 2;
    const { a, o, offByGib } = llama4Card(MAVERICK, 2, experts, 24 * 128 * 5120 * 2, 1_048_576);
    expect(a.expertBytes).toBe(experts);
    expect(o?.commands[0]).toMatch(/ --tp-size 8 --dp-size 2 --enable-dp-attention --ep-size 8 /);
    expect(offByGib).toBeLessThan(0.01);
  });

  test("Maverick (801 GB) over two nodes of 8 × H100: no DP attention, for Llama4MoE has no DeepEP path", () => {
    const { p } = planned(snapshot(MAVERICK.name, MAVERICK.bytes), nodesOf8("h100-80g", 2));
    expect(p.options.filter(dpa)).toEqual([]);
    // GLM-4.7 (714 GB), whose MoE block has forward_deepep, is listed on the same two nodes (above).
  });
});

describe("gpt-oss-20b (gpt_oss, its recorded files: 13.76 GB) on one node of 8 × H100: --tp 8 --dp 8", () => {
  // hidden 2,880, 64 heads and 8 KV heads of 64, 24 layers (all MoE, 32 experts), vocabulary 201,088.
  const s = snapshotOf("openai__gpt-oss-20b");
  const { p, a } = planned(s, nodesOf8("h100-80g", 1));
  const d8 = atDp(p.options, 8);
  const attention = 24 * 2 * (2880 * (64 * 64 + 2 * 8 * 64) + 64 * 64 * 2880); // q, k, v, o in bf16
  const embed = 201_088 * 2880 * 2;
  // `GptOssSparseMoeBlock.router = ReplicatedLinear(hidden_size, num_local_experts, bias=True, params_dtype=
  // config.torch_dtype)` (models/gpt_oss.py @ e9149048): 24 × 32 × (2,880 + 1) × 2 B whole on every card. The plan
  // counts the weight whole and leaves the bias (1.5 KiB) in the layer's eighth.
  const router = 24 * 32 * (2880 + 1) * 2;

  test("a card holds q/k/v/o, the embedding and the router whole, 4 of the 32 (MXFP4) experts, an eighth of the rest", () => {
    const rest = a.bytes - a.expertBytes - 2 * embed - attention - router;
    // The rotary cache at 131,072 positions × 64 × 2 B; no dense layers, no shared experts.
    const expected = attention + embed + router + (embed + a.expertBytes + rest) / 8 + 131_072 * 64 * 2;
    expect(Math.abs(weightsGib(d8) - expected / GIB)).toBeLessThan(0.01);
    expect(d8?.commands[0]).toMatch(/ --tp-size 8 --dp-size 8 --enable-dp-attention --ep-size 8 /);
    expect(d8?.commands[0]).not.toContain("--moe-a2a-backend");
  });

  test("each rank its own pool of the 8 KV heads (half the layers a 128-token window)", () => {
    if (!d8) throw new Error("no dp 8 option");
    const tp8 = p.options.find((o) => o.engine === "sglang" && !dpa(o) && o.placement.tensorParallel === 8);
    // TP 8 holds one KV head a card in one pool; DP attention 8 heads a card in each of 8 pools.
    expect(d8.kvPoolTokens).toBeGreaterThan(0);
    expect(d8.kvPoolTokens).toBeLessThan(tp8?.kvPoolTokens ?? 0);
  });

  // sgl-project/sglang#37187 (GSM8K 0/128 at TP = DP = EP without an a2a backend), fixed by PR #37199 (2026-08-31).
  test("its card says which SGLang builds return wrong answers under this command; TP 8's does not", () => {
    const tp8 = p.options.find((o) => o.engine === "sglang" && !dpa(o) && o.placement.tensorParallel === 8);
    expect(d8?.notes?.join(" ")).toMatch(/before PR #37199 \(2026-08-31\).*sglang#37187/);
    expect(tp8?.notes?.join(" ") ?? "").not.toContain("#37199");
  });
});

describe("GLM-5 (glm_moe_dsa): DeepseekV2ForCausalLM's DSA path, so dp = tp alone", () => {
  test("8 × B200: only --dp 8, though its parameter count gives every split a speed", () => {
    // GLM-5-FP8's files are not recorded: 1 B a parameter of the Hub's 744 B stands in; the --dp-size list is the check.
    const { p, shape } = planned(snapshot("zai-org__GLM-5-FP8", 744e9), nodesOf8("b200-180g", 1));
    expect(shape.layerCaches.some((l) => l.kind === "mla" && (l.indexerBytesPerToken ?? 0) > 0)).toBe(true);
    expect(p.options.filter(dpa).map((o) => o.placement.dataParallel)).toEqual([8]);
  });
});

describe("DP attention is offered only for the families whose SGLang model file honours it", () => {
  // Every recorded MoE config whose experts split over 8 cards, as a small checkpoint on 8 × B200 (so every layout fits).
  const HONOURED = [
    "deepseek_v3",
    "deepseek_v32",
    "glm4_moe",
    "glm_moe_dsa",
    "gpt_oss",
    "kimi_k2",
    "llama4_text",
    "qwen3_5_moe_text",
    "qwen3_moe",
  ];
  const offered = new Set<string>();
  const notOffered = new Set<string>();
  for (const name of configNames()) {
    let model;
    try {
      model = readModel(snapshot(name, 1e10));
    } catch {
      continue; // a config the planner refuses outright is no evidence either way
    }
    const { shape, artifacts } = model;
    if (!shape.moe || shape.moe.routedExperts % 8 !== 0) continue;
    const p = plan({ repo: name, revision: "", shape, artifacts }, nodesOf8("b200-180g", 1), DEFAULT_WORKLOAD);
    (p.options.some(dpa) ? offered : notOffered).add(shape.architecture);
  }

  test("the recorded configs of those families get it, and no other family does", () => {
    expect([...offered].sort()).toEqual(HONOURED);
  });

  test("MiniMax-M2, Qwen3-VL-MoE, Step-3.7 and DeepSeek-V4 are still not offered (files not read through)", () => {
    for (const arch of ["minimax_m2", "qwen3_vl_moe_text", "step3p7", "deepseek_v4"]) {
      expect(notOffered.has(arch)).toBe(true);
    }
  });
});
