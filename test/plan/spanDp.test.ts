/**
 * One vLLM data-parallel engine over several nodes (spanDp.ts): DeepSeek-R1 (FP8, its 163 recorded
 * shards, 641.3 GiB of which 609.1 routed experts) on nodes of 8 × H100 80 GB, as vLLM's
 * docs/serving/data_parallel_deployment.md runs DP over nodes with `--enable-expert-parallel`; the
 * expert layers are one group of DP × TP ranks, so each card keeps 256 ÷ 16 = 16 experts a layer.
 */
import { describe, expect, test } from "vitest";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import {
  DEFAULT_WORKLOAD,
  mtpWeightBytes,
  plan,
  readModel,
  type Cluster,
  type PlanOption,
} from "../../src/plan/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { snapshotOf } from "./fixture.ts";

const GIB = 2 ** 30;

const dgx = (nodes: number, fabric = "ib0"): Cluster => ({
  nodes: Array.from({ length: nodes }, (_, i) => ({
    id: `dgx-${i + 1}`,
    fabric,
    hostMemGib: 2048,
    hostFreeGib: 2048,
    devices: [{ class: "h100-80g", count: 8, free: 8 }],
  })),
});

function planned(repo: string, cluster: Cluster, catalog = false) {
  const s = catalog ? catalogSnapshot(repo) : snapshotOf(repo);
  if (!s) throw new Error(`${repo} is not in the catalog`);
  const { shape, artifacts } = readModel(s);
  return { p: plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, DEFAULT_WORKLOAD), artifacts, shape };
}

const spansDp = (o: PlanOption) => o.placement.nodes > 1 && (o.placement.dataParallel ?? 1) > 1;

describe("DeepSeek-R1 as one DP engine over two nodes of 8 × H100", () => {
  const { p, artifacts, shape } = planned("deepseek-ai__DeepSeek-R1", dgx(2));
  const r1 = artifacts[0];
  const dp16 = p.options.find((o) => spansDp(o) && o.placement.dataParallel === 16) as PlanOption;

  test("DP 16 × TP 1 with expert parallel fits, on both nodes' 16 cards; the pipeline over them stays beside it", () => {
    expect(dp16.engine).toBe("vllm");
    expect(dp16.placement).toMatchObject({ nodes: 2, gpusPerNode: 8, tensorParallel: 1, pipelineParallel: 1 });
    expect(dp16.placement.expertParallel).toBe(true);
    expect(dp16.fits).toBe(true);
    expect(dp16.cards.map((c) => c.cards)).toEqual([16]);
    // vLLM's PP 2 × TP 8 over the same nodes is still offered: DP's speed lacks the fabric's all-to-all, so it prunes no pipeline.
    expect(
      p.options.some((o) => o.engine === "vllm" && o.placement.pipelineParallel === 2 && o.placement.nodes === 2),
    ).toBe(true);
  });

  test("each card holds the non-expert weights whole, less the MTP layer vLLM does not load, and a sixteenth of the experts", () => {
    if (!r1) throw new Error("no artifact");
    // 641.3 − 609.1 GiB, less layer 61's 10.8 GiB of MTP weights (config/mtp.ts), + 609.1 ÷ 16: 59.4 GiB.
    const expected = r1.bytes - r1.expertBytes - mtpWeightBytes(shape) + r1.expertBytes / 16;
    // vLLM's rotary cos/sin cache on each rank adds a few MiB (README: 0.03 GiB for Llama-3.1-8B).
    expect(Math.abs((dp16.cards[0]?.weightsBytes ?? 0) - expected) / GIB).toBeLessThan(0.1);
  });

  test("the ranks' pools add up: 16 × one card's pool at MLA's 70,272 B a token (576 latent × 2 B × 61 layers)", () => {
    const perRank = dp16.kvPoolBytes / 70_272;
    // vLLM counts the pool in 16-token blocks: within a block a rank.
    expect(Math.abs(dp16.kvPoolTokens - 16 * perRank)).toBeLessThan(16 * 16);
    expect(dp16.maxConcurrency).toBeCloseTo(dp16.kvPoolTokens / DEFAULT_WORKLOAD.contextTokens, 6);
  });

  test("every node its own command, and the JSON says the ranks", () => {
    expect(dp16.commands).toHaveLength(2);
    expect(dp16.commands[0]).toMatch(/--data-parallel-size 16 .*--data-parallel-size-local 8 /);
    expect(dp16.commands[1]).toMatch(/--headless --data-parallel-start-rank 8 /);
    const json = optionJson(dp16);
    expect(json.data_parallel).toBe(16);
    expect(json.nodes).toBe(2);
    expect(json.gpus_per_node).toBe(8);
  });

  test("SGLang gets none: its --dp-size groups would span the nodes (no DP attention modelled)", () => {
    expect(p.options.some((o) => o.engine === "sglang" && spansDp(o))).toBe(false);
  });

  test("four nodes hold two such engines at once", () => {
    const four = planned("deepseek-ai__DeepSeek-R1", dgx(4)).p;
    expect(four.options.find((o) => spansDp(o) && o.placement.dataParallel === 16)?.replicas).toBe(2);
  });

  test("nodes on no named fabric get none", () => {
    expect(planned("deepseek-ai__DeepSeek-R1", dgx(2, "")).p.options.some(spansDp)).toBe(false);
  });
});

describe("where one node's engine already holds it, none is listed", () => {
  test.each([
    // 93 GB of bf16 experts: DP 8 × TP 1 on one node spreads them over eight ranks already.
    ["mistralai/Mixtral-8x7B-Instruct-v0.1"],
    // Dense: every rank a whole replica, which `replicas` counts.
    ["Qwen/Qwen2.5-Coder-32B-Instruct"],
  ])("%s on two nodes of 8 × H100", (repo) => {
    expect(planned(repo, dgx(2), true).p.options.some(spansDp)).toBe(false);
  });
});
