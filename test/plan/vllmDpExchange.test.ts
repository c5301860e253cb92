/**
 * vLLM DP × TP's expert exchange (src/plan/speed/expertGroup.ts) as vLLM's default `--all2all-backend`,
 * allgather_reducescatter (vllm-project/vllm vllm/config/parallel.py @ 00193b82), moves it:
 * device_communicators/all2all.py @ 00143004 `AgRsAll2AllManager` all-gathers a step's hidden states over the DP
 * group (`get_dp_group()`: the dp cards of one TP index) and reduce-scatters them back, or under sequence-parallel
 * MoE (`use_sequence_parallel_moe`: that backend, expert parallel, TP > 1 and DP > 1) over the EP group of dp × tp
 * cards after each TP card took a 1/tp chunk of its rank's tokens (`sequence_parallel_chunk`). A plan that counted
 * every DP × TP card's whole batch on each card said a DP 2 × TP 4 card moves 7 × 64 tokens each way a layer.
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_WORKLOAD,
  expertExchangeMs,
  plan,
  readModel,
  speedInputOf,
  type PlanOption,
  type RepoSnapshot,
  type SpeedContext,
} from "../../src/plan/index.ts";
import { nodesOf8 } from "./dpAttentionFixture.ts";
import { loadConfig } from "./fixture.ts";

// Qwen3-30B-A3B's recorded config: hidden 2,048, 48 MoE layers of 128 experts, 8 a token. Its files are not
// recorded: one of 2 B a parameter of the Hub's 30.5 B stands in (the exchange does not depend on it).
const s: RepoSnapshot = {
  repo: "Qwen/Qwen3-30B-A3B",
  sha: "",
  config: loadConfig("Qwen__Qwen3-30B-A3B"),
  files: [{ path: "model.safetensors", sizeBytes: 61e9 }],
  paramsTotal: 30.5e9,
  ggufHeaders: {},
};
const { shape, artifacts } = readModel(s);
const p = plan({ repo: s.repo, revision: "", shape, artifacts }, nodesOf8("h100-80g", 1), {
  ...DEFAULT_WORKLOAD,
  sequences: 128,
});
const ctx: SpeedContext = {
  inputTokens: 1024,
  outputTokens: 256,
  sequences: 128,
  kvElementBytes: 2,
  fabricGBps: null,
  hostBandwidthGBps: null,
};
// The bytes at the link's full rate with no fixed cost, so the time is bytes ÷ 450 GB/s (H100's NVLink a direction).
const links = { intraNodeGBps: 450, fabricGBps: 50, crossNodeHops: 0, tensorParallelCrossesNodes: false };
const bare = { exchangeLatencyUs: 0, exchangeLinkShare: 1 };

function exchangeMsOf(o: PlanOption | undefined, tokens: number): number {
  const a = artifacts.find((x) => x.name === o?.artifact);
  if (!o || !a) throw new Error("no such vLLM option");
  const input = speedInputOf(o, shape, a, ctx);
  if (typeof input === "string" || !input.layout.expertGroup) throw new Error(`no expert group: ${String(input)}`);
  return expertExchangeMs(input.layout.expertGroup, input.model, tokens, links, bare).ms;
}

const vllmAt = (dp: number, tp: number, ep: boolean) =>
  p.options.find(
    (o) =>
      o.engine === "vllm" &&
      o.placement.dataParallel === dp &&
      o.placement.tensorParallel === tp &&
      o.placement.expertParallel === ep,
  );

// One MoE layer's all-gather plus reduce-scatter of `tokens` tokens from each of `peers` other cards, bf16, in ms.
const layerMs = (peers: number, tokens: number) => (2 * peers * tokens * 2 * 2048) / (450 * 1e6);

describe("vLLM DP × TP on 8 × H100: what a card gathers and scatters each MoE layer, 64 tokens a rank", () => {
  test("DP 8 × TP 1 with EP: the 7 other ranks' 64 tokens (the DP group is every card)", () => {
    expect(exchangeMsOf(vllmAt(8, 1, true), 64)).toBeCloseTo(48 * layerMs(7, 64), 9);
  });

  test("DP 2 × TP 4 with EP (sequence-parallel MoE): the 7 other cards' 16-token chunks", () => {
    expect(exchangeMsOf(vllmAt(2, 4, true), 64)).toBeCloseTo(48 * layerMs(7, 16), 9);
  });

  test("DP 2 × TP 4 without EP: the other DP rank's 64 tokens only", () => {
    expect(exchangeMsOf(vllmAt(2, 4, false), 64)).toBeCloseTo(48 * layerMs(1, 64), 9);
  });
});
