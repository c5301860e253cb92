/**
 * SGLang's DP attention at dp < tp (src/plan/engines/serving/dpAttention.ts): `--tp T --dp D --enable-dp-attention`,
 * each of the D ranks an attention-TP group of T ÷ D cards (sgl-project/sglang PR #4390 "Support TP != DP":
 * "--tp 8 --dp 2" for latency, "--tp 16 --dp 2 for 16 x H100" for DeepSeek's 671B). No SGLang startup log at
 * dp < tp with its pool was found (searched the issues and code corpora for "enable-dp-attention" with "dp-size
 * 2", "KV Cache is allocated", "max_total_num_tokens"; PR #23933's --tp 16 --dp-size 2 line is DeepSeek-V4-Pro,
 * which the plan does not run under DP attention), so what each card holds is checked against SGLang's own
 * arithmetic: `layers/dp_attention.py` `compute_dp_attention_world_info` (attn_tp_size = tp_size // dp_size),
 * `models/deepseek_v2.py` `DeepseekV2AttentionMLA` (fused_qkv_a_proj_with_mqa `ReplicatedLinear`, q_b_proj /
 * kv_b_proj / o_proj `tp_size=attn_tp_size`), `model_runner_kv_cache_mixin.py` @ 001ccef0 `get_cell_size_per_token`
 * (MLA's latent whole on every rank; GQA `get_num_kv_heads(get_attention_tp_size())`), and server_args.py
 * `_handle_gpu_memory_settings` (reserve `cuda_graph_max_bs × dp_size × 4.5` MiB past a graph batch of 300).
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
  type Workload,
} from "../../src/plan/index.ts";
import { deploy } from "../../src/deploy/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { documents, lwsErrors } from "../deploy/fixtures.ts";
import { atDp, dpa, nodesOf8, R1_ATTENTION_PARAMS, R1_EMBED_BYTES, R1_ROUTER_BYTES } from "./dpAttentionFixture.ts";
import { loadConfig, snapshotOf } from "./fixture.ts";

// The Hub's parameter count for DeepSeek-R1 ("685B params", huggingface.co/deepseek-ai/DeepSeek-R1), which the
// recorded snapshot lacks (readModel counts 671.0 B from its config.json instead): pinned here so these speeds are
// the Hub's count's. Without any count no speed is estimated, and pruning compares memory alone (last describes).
const R1_PARAMS = 685e9;

function r1(
  cluster: Cluster,
  w: Partial<Workload> = {},
  params: number | null = R1_PARAMS,
  config?: Record<string, unknown>,
) {
  const recorded = snapshotOf("deepseek-ai__DeepSeek-R1");
  const s = config ? { ...recorded, config } : recorded;
  const { shape, artifacts } = readModel(s);
  const model = { repo: s.repo, revision: s.sha, shape: { ...shape, paramsTotal: params }, artifacts };
  return { p: plan(model, cluster, { ...DEFAULT_WORKLOAD, ...w }), shape, r1: artifacts[0] };
}

// Qwen3-235B-A22B: its config and its index's total_size, 470,187,269,120 B (test/fixtures/calibration/models.json).
const QWEN_SNAPSHOT: RepoSnapshot = {
  repo: "Qwen/Qwen3-235B-A22B",
  sha: "",
  config: loadConfig("Qwen__Qwen3-235B-A22B"),
  files: [{ path: "model.safetensors", sizeBytes: 470_187_269_120 }],
  paramsTotal: 235_093_634_560,
  ggufHeaders: {},
};

function qwen(cluster: Cluster) {
  const { shape, artifacts } = readModel(QWEN_SNAPSHOT);
  const model = { repo: QWEN_SNAPSHOT.repo, revision: "", shape, artifacts };
  return { p: plan(model, cluster, { ...DEFAULT_WORKLOAD, sequences: 64 }), a: artifacts[0] };
}

const ATTENTION_PARAMS = R1_ATTENTION_PARAMS;
// fused_qkv_a_proj_with_mqa: hidden → q_lora_rank + kv_lora_rank + qk_rope_head_dim, whole on every rank.
const REPLICATED_PARAMS = 7168 * (1536 + 512 + 64);
const EMBED_BYTES = R1_EMBED_BYTES;
const ROUTER_BYTES = R1_ROUTER_BYTES;

describe("DeepSeek-R1 on one node of 8 × H200: --tp 8 at --dp 8, 4 and 2", () => {
  const { p, shape, r1: art } = r1(nodesOf8("h200-141g", 1), { sequences: 64 });
  const d2 = atDp(p.options, 2);
  const d8 = atDp(p.options, 8);
  const tp8 = p.options.find(
    (x) => x.engine === "sglang" && !dpa(x) && x.placement.tensorParallel === 8 && x.placement.expertParallel,
  ) as PlanOption;

  test("every --dp-size that divides 8 is kept where none of its cards' layouts beats it: dp 2 decodes faster, dp 8 holds more", () => {
    expect(p.options.filter(dpa).map((o) => o.placement.dataParallel)).toEqual([2, 4, 8]);
    expect(d2.placement).toMatchObject({ nodes: 1, gpusPerNode: 8, tensorParallel: 4, dataParallel: 2 });
    expect(d2.cards.map((c) => c.cards)).toEqual([8]);
    expect(d2.speed?.decodeTps ?? 0).toBeGreaterThan(d8.speed?.decodeTps ?? Infinity);
    expect(d8.kvPoolTokens).toBeGreaterThan(d2.kvPoolTokens);
  });

  test("at attention TP 4 a card holds the 15.1 M replicated down-projection parameters a layer whole and a quarter of the other 172 M", () => {
    if (!art) throw new Error("no artifact");
    expect(shape.attentionReplicatedParamsPerLayer).toBe(REPLICATED_PARAMS);
    const attention = 61 * (REPLICATED_PARAMS + (ATTENTION_PARAMS - REPLICATED_PARAMS) / 4);
    const rest = art.bytes - art.expertBytes - 2 * EMBED_BYTES - 61 * ATTENTION_PARAMS - ROUTER_BYTES;
    // The router whole, as at dp = tp: the group's 8 ranks all route their own tokens.
    const expected =
      attention + EMBED_BYTES + ROUTER_BYTES + art.expertBytes / 8 + (rest + EMBED_BYTES - mtpWeightBytes(shape)) / 8;
    // The rotary cos/sin cache: 163,840 positions × 64 × 2 B = 0.02 GiB.
    expect(Math.abs((d2.cards[0]?.weightsBytes ?? 0) - expected - 163_840 * 64 * 2) / GIB).toBeLessThan(0.01);
    expect(d8.cards[0]?.weightsBytes ?? 0).toBeGreaterThan((d2.cards[0]?.weightsBytes ?? 0) + 6 * GIB);
  });

  test("two pools of whole latents (70,272 B a token on each of a rank's 4 cards): the rank's tokens, not the card's × 4", () => {
    const perRank = d2.kvPoolTokens / 2;
    expect(Math.abs(perRank * 70_272 - d2.kvPoolBytes)).toBeLessThan(70_272);
    expect(d2.kvPoolTokens / tp8.kvPoolTokens).toBeGreaterThan(1.4);
  });

  test("SGLang's fraction at tp 8 with the reserve at dp 2: (143,771 − 19,792) ÷ 143,771 MiB = 0.862", () => {
    // 512 + 8,192 × 1.5 + 512 × 2 + 8/8 × 1,024 + 42 piecewise sizes × 8 + 512 × 2 × (3 + 1.5) MiB.
    expect(d2.commands[0]).toMatch(
      / --tp-size 8 --dp-size 2 --enable-dp-attention --ep-size 8 --context-length 8192 --mem-fraction-static 0\.862 --max-running-requests 64$/,
    );
    // The command form greys the same default (at dp = tp too: 0.766, not TP 1's rule).
    expect(d2.shareDefault).toEqual({ setting: "memFractionStatic", value: 0.862 });
    expect(d8.shareDefault).toEqual({ setting: "memFractionStatic", value: 0.766 });
  });

  test("--max-running-requests is divided by dp_size: 3 sequences ask for 4 (two a rank)", () => {
    const three = atDp(r1(nodesOf8("h200-141g", 1), { sequences: 3 }).p.options, 2);
    expect(three.commands[0]).toMatch(/--max-running-requests 4$/);
  });

  test("the JSON carries the split beside dp_attention", () => {
    const json = optionJson(d2);
    expect(json.dp_attention).toBe(true);
    expect(json.data_parallel).toBe(2);
    expect(json.tensor_parallel).toBe(4);
    expect(json.dp_attention_split).toEqual({ tp_size: 8, dp_size: 2, attention_tp_size: 4 });
    expect(optionJson(d8).dp_attention_split).toEqual({ tp_size: 8, dp_size: 8, attention_tp_size: 1 });
    expect(optionJson(tp8).dp_attention_split).toBeNull();
  });
});

describe("DeepSeek-R1 over two nodes of 8 × H100 at SGLang's own fraction: --tp 16 --dp 2, as PR #4390 runs it", () => {
  const { p } = r1(nodesOf8("h100-80g", 2), { sequences: 64 });
  const d2 = atDp(p.options, 2);

  test("dp 16 cannot start and says so; dp 2, its graph reserve (cuda_graph_max_bs × dp_size × 4.5 MiB) an eighth of dp 16's, runs at 0.745", () => {
    const why = p.refused.find((r) => r.engine === "sglang" && r.where.includes("DP attention 16"));
    expect(why?.reason).toMatch(/needs [\d.]+ GiB a card; an h100-80g offers 39\.6/);
    expect(d2.fits).toBe(true);
    expect(d2.placement).toMatchObject({ nodes: 2, gpusPerNode: 8, tensorParallel: 8, dataParallel: 2 });
    // 512 + 12,288 + 1,024 + 16/8 × 1,024 + 336 + 512 × 2 × 4.5 = 20,816 MiB reserved.
    expect(d2.commands).toHaveLength(2);
    for (const [rank, c] of d2.commands.entries()) {
      expect(c).toMatch(
        /--tp-size 16 --dp-size 2 --enable-dp-attention --ep-size 16 --moe-a2a-backend deepep --context-length 8192 --mem-fraction-static 0\.745 /,
      );
      expect(c).toMatch(new RegExp(`--nnodes 2 --node-rank ${rank} --dist-init-addr <head-node-ip>:25000$`));
    }
  });

  test("Kubernetes: one LeaderWorkerSet of 2 with the --dp-size 2 flags, as at dp 16", () => {
    const docs = documents(deploy("kubernetes", { option: d2, plan: p }).text) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed YAML
    const lws = docs.find((d) => d.kind === "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    expect(lws?.spec.leaderWorkerTemplate.size).toBe(2);
    const args = lws?.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].args as string[];
    expect(args[args.indexOf("--dp-size") + 1]).toBe("2");
    expect(args[args.indexOf("--tp-size") + 1]).toBe("16");
  });

  test("its speed is its 2 ranks': attention TP 8 inside each node, the experts' exchange through DeepEP across", () => {
    expect(d2.speed?.decodeTps ?? 0).toBeGreaterThan(0);
    expect(d2.speed?.basis).toMatch(/; 2 data-parallel ranks, each with its share of the sequences/);
  });
});

describe("Qwen3-235B-A22B (GQA, 4 KV heads) under DP attention", () => {
  const ATTN = 4096 * (64 * 128 + 2 * 4 * 128) + 64 * 128 * 4096; // q, k, v, o of one layer
  const EMBED = 151_936 * 4096 * 2;
  // The router, `ReplicatedLinear(hidden_size, num_experts, quant_config=None)` (models/qwen3_moe.py @ e3d8e9ae),
  // whole on every card: 94 MoE layers × 4,096 × 128 experts × 2 B = 0.092 GiB.
  const ROUTER = 94 * 4096 * 128 * 2;

  test("8 × H200 at --dp 2: a card holds a quarter of each layer's q/k/v/o and one KV head, each rank its own pool", () => {
    const { p, a } = qwen(nodesOf8("h200-141g", 1));
    if (!a) throw new Error("no artifact");
    const d2 = atDp(p.options, 2);
    const tp8 = p.options.find((x) => x.engine === "sglang" && !dpa(x) && x.placement.tensorParallel === 8);
    const rest = a.bytes - a.expertBytes - 2 * EMBED - 94 * ATTN * 2 - ROUTER;
    const expected = (94 * ATTN * 2) / 4 + EMBED + EMBED / 8 + ROUTER + a.expertBytes / 8 + rest / 8;
    // The rotary cache: 40,960 positions × 128 × 2 B = 0.01 GiB.
    expect(Math.abs((d2.cards[0]?.weightsBytes ?? 0) - expected - 40_960 * 128 * 2) / GIB).toBeLessThan(0.005);
    // 94 layers × K and V × 1 head × 128 × 2 B = 48,128 B a token on a card.
    expect(Math.abs((d2.kvPoolTokens / 2) * 48_128 - d2.kvPoolBytes)).toBeLessThan(48_128);
    // TP 8 replicates the 4 heads to one a card for the same tokens; two ranks hold twice the distinct tokens.
    expect(d2.kvPoolTokens / (tp8?.kvPoolTokens ?? Infinity)).toBeGreaterThan(1.6);
  });

  test("2 × 8 H100 at --dp 2: attention TP 8 exceeds the 4 KV heads, so each card keeps one head's k/v projections whole", () => {
    const { p, a } = qwen(nodesOf8("h100-80g", 2));
    if (!a) throw new Error("no artifact");
    const d2 = atDp(p.options, 2);
    expect(d2.placement).toMatchObject({ nodes: 2, tensorParallel: 8, dataParallel: 2 });
    // q and o an eighth; k and v one head of 128 each (QKVParallelLinear replicates a head to 2 ranks).
    const attention = (4096 * 64 * 128 * 2) / 8 + 2 * 4096 * 128;
    const rest = a.bytes - a.expertBytes - 2 * EMBED - 94 * ATTN * 2 - ROUTER;
    const expected = 94 * attention * 2 + EMBED + EMBED / 16 + ROUTER + a.expertBytes / 16 + rest / 16;
    expect(Math.abs((d2.cards[0]?.weightsBytes ?? 0) - expected - 40_960 * 128 * 2) / GIB).toBeLessThan(0.005);
  });
});

/** R1 as its recorded snapshot reads, with its own config or another: no parameter count pinned. */
function r1AsRead(config?: Record<string, unknown>) {
  const recorded = snapshotOf("deepseek-ai__DeepSeek-R1");
  const { shape, artifacts } = readModel(config ? { ...recorded, config } : recorded);
  const model = { repo: recorded.repo, revision: recorded.sha, shape, artifacts };
  return { p: plan(model, nodesOf8("h200-141g", 1), { ...DEFAULT_WORKLOAD, sequences: 64 }), shape };
}

describe("without a speed (a config whose parameters cannot be counted) dp < tp is pruned on memory alone", () => {
  test("R1's config trimmed of intermediate_size (the dense layers' width): no count, no speed, only dp 8", () => {
    const { intermediate_size: dropped, ...trimmed } = loadConfig("deepseek-ai__DeepSeek-R1");
    expect(dropped).toBe(18432);
    const { p, shape } = r1AsRead(trimmed);
    expect(shape.paramsTotal).toBeNull();
    // dp 2 and 4 hold fewer tokens than dp 8 on the same 8 cards at the same context.
    expect(p.options.filter(dpa).map((o) => [o.placement.dataParallel, o.speed?.decodeTps ?? null])).toEqual([
      [8, null],
    ]);
  });
});

describe("R1 as recorded: its parameter count from config.json gives every DP-attention split a speed", () => {
  test("dp 2, 4 and 8 are listed, each with a decode speed whose basis names the config's count", () => {
    const { p, shape } = r1AsRead();
    expect(shape.paramsSource).toBe("config");
    const splits = p.options.filter(dpa);
    expect(splits.map((o) => o.placement.dataParallel ?? 1).sort((a, b) => a - b)).toEqual([2, 4, 8]);
    for (const o of splits) {
      expect(o.speed?.decodeTps).toBeGreaterThan(0);
      expect(o.speed?.basis).toContain("parameter count from config.json");
    }
  });
});

describe("DeepSeek-V3.2 (DSA) on 8 × H200: SGLang sets dp_size = tp_size for it, so dp = tp alone is planned", () => {
  test("server_args `if is_deepseek_nsa(hf_config)`: `enable_dp_attention = True; dp_size = tp_size` off NPU", () => {
    // V3.2's config on R1's recorded files, as the dp = tp test does (V3.2's own files are not recorded).
    const { p } = r1(nodesOf8("h200-141g", 1), { sequences: 64 }, R1_PARAMS, loadConfig("deepseek-ai__DeepSeek-V3.2"));
    expect(p.options.filter(dpa).map((o) => o.placement.dataParallel)).toEqual([8]);
  });
});
