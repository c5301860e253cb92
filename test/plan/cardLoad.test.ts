/**
 * The figures the engine makes from a card's load (cardLoad.ts), which the page's bars, the KV
 * figures and the JSON only format: the weights beside the MTP block, what the card uses, what that
 * leaves of the usable share, and how far it goes past it.
 */
import { describe, expect, test } from "vitest";
import { GIB, mtpWeightBytes, plan, type CardLoad, type PlanOption } from "../../src/plan/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { cards, node, originalOf, shapeOf } from "./planning-fixtures.ts";
import { qwen35Shape, qwen35VllmOption } from "./mtpFixture.ts";

function firstCard(o: PlanOption): CardLoad {
  const card = o.cards[0];
  if (!card) throw new Error(`no card in ${o.id}`);
  return card;
}

describe("the weights beside the MTP block: Qwen3.5-122B-A10B-NVFP4 on one RTX PRO 6000 (vLLM)", () => {
  test("with MTP speculative decoding on, the checkpoint's 73.22 GiB the 0.22.1 log loaded without it", () => {
    const card = firstCard(qwen35VllmOption({ speculativeMtpTokens: 3 }));
    // test/plan/mtpFixture.ts: the log's "Model loading took 73.22 GiB" with no speculative decoding; within 0.5 GiB.
    expect(Math.abs(card.weightsBesideMtpBytes / GIB - 73.22)).toBeLessThan(0.5);
    expect(card.mtpWeightsBytes).toBeCloseTo(mtpWeightBytes(qwen35Shape), -3);
    expect(card.weightsBesideMtpBytes + (card.mtpWeightsBytes ?? 0)).toBe(card.weightsBytes);
  });

  test("with it off the block is not loaded: the weights band is all the weights", () => {
    const card = firstCard(qwen35VllmOption({}));
    expect(card.mtpWeightsBytes).toBeUndefined();
    expect(card.weightsBesideMtpBytes).toBe(card.weightsBytes);
  });
});

describe("what is left: Llama-3.1-8B-Instruct on one H100, vLLM 0.19 at --gpu-memory-utilization 0.95, 8,192 tokens", () => {
  const repo = "meta-llama/Llama-3.1-8B-Instruct";
  const option = plan(
    { repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] },
    { nodes: [node("n1", "", [cards("h100-80g", 1)])] },
    {
      contextTokens: 8192,
      sequences: 1,
      kvDtype: "auto",
      settings: { vllmVersion: "0.19", gpuMemoryUtilization: 0.95 },
    },
  ).options.find((o) => o.engine === "vllm" && o.placement.gpusPerNode === 1);
  if (!option) throw new Error("no vLLM option on one H100");
  const card = firstCard(option);

  test("one sequence's cache and what is left make up vLLM's pool, 58.11 GiB in its log", () => {
    // llm-d-incubation/llm-d-planner@d3121e05 accuracy/results/v0.19.0/logs/meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192.log:
    // "Available KV cache memory: 58.11 GiB"; within 0.05 GiB (the calibration holds v0.19 pools to 0.01).
    // One 8,192-token sequence: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 128 KiB a token, 1 GiB.
    expect(card.kvBytes).toBe(GIB);
    expect(Math.abs((card.kvBytes + card.leftBytes) / GIB - 58.11)).toBeLessThan(0.05);
    expect(card.overBytes).toBe(0);
    expect(card.usedBytes + card.leftBytes).toBeCloseTo(card.usableBytes, 0);
  });

  test("the terminal's JSON prints the same figures, additively beside the old ones", () => {
    const json = optionJson(option) as { cards: Record<string, number>[] };
    const printed = json.cards[0];
    expect(printed?.["left_gb"]).toBeCloseTo(card.leftBytes / GIB, 3);
    expect(printed?.["over_gb"]).toBe(0);
    expect(printed?.["mtp_weights_gb"]).toBe(0);
    expect(Object.keys(printed ?? {})).toEqual(
      expect.arrayContaining(["weights_gb", "kv_gb", "engine_gb", "usable_gb", "physical_gb"]),
    );
  });
});

describe("what is over: Llama-3.1-8B-Instruct asked for one 2M-token sequence on one H100 (vLLM)", () => {
  test("the card's parts pass its usable share by the cache's excess, and nothing is left", () => {
    const repo = "meta-llama/Llama-3.1-8B-Instruct";
    const option = plan(
      { repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] },
      { nodes: [node("n1", "", [cards("h100-80g", 1)])] },
      { contextTokens: 2 ** 21, sequences: 1, kvDtype: "auto", settings: {} },
    ).options.find((o) => o.engine === "vllm" && o.placement.gpusPerNode === 1);
    if (!option) throw new Error("no vLLM option on one H100");
    const card = firstCard(option);
    expect(option.fits).toBe(false);
    // 2^21 tokens × 128 KiB = 256 GiB of cache a card cannot hold beside its weights.
    expect(card.kvBytes).toBe(256 * GIB);
    expect(card.leftBytes).toBe(0);
    expect(card.overBytes).toBeCloseTo(card.usedBytes - card.usableBytes, 0);
    expect(card.overBytes / GIB).toBeGreaterThan(256 - 80);
  });
});
