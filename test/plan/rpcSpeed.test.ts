/**
 * What llama.cpp's RPC costs a token (issue 14: "every token crosses the network once per host
 * boundary"), against the one public measurement of a current llama.cpp over RPC: two DGX Sparks
 * (GB10) joined by their cable, a 27B Q4_K_M (Qwen3.6-27B's shape: 64 layers, hidden 5120),
 * `-ngl 99`, ctx 8192, decode 12.42 tok/s over RPC against 12.83 on one Spark
 * (https://github.com/defilantech/LLMKube/issues/1423, comment of 2026-08-12; TCP measured 17.8 Gb/s).
 * speed/rpc.ts's crossing cost was fitted on this pair, so the check is that the path from a plan's
 * layout to the speed carries it, not an independent accuracy figure.
 */
import { describe, expect, test } from "vitest";
import { estimateSpeed, speedCardOf, type SpeedInput } from "../../src/plan/index.ts";

/** Qwen3.6-27B Q4_K_M: 16.5 GB of weights, 27B dense parameters, 16 of its 64 layers with 4 KV heads of 256 (the rest linear). */
const MODEL: SpeedInput["model"] = {
  weightsBytes: 16.5e9,
  routedExpertBytes: 0,
  routedExperts: 0,
  expertsPerToken: 0,
  activeParams: 26.9e9,
  layers: 64,
  hiddenSize: 5120,
  kvBytesPerToken: 16 * 4 * 256 * 2 * 2,
  kvSplitByTensorParallel: true,
  attentionFlopsPerContextToken: 4 * 16 * 24 * 256,
  computeFormat: "int8",
};

function spark(hosts: number): SpeedInput {
  return {
    card: speedCardOf("gb10-128g"),
    model: MODEL,
    layout: {
      engine: "llamacpp",
      tensorParallel: 1,
      pipelineStages: hosts,
      expertParallel: 1,
      hostWeightsBytes: 0,
      hostExpertBytes: 0,
      hostBandwidthGBps: null,
      cpuOnly: false,
    },
    links: {
      intraNodeGBps: null,
      // 17.8 Gb/s of TCP, as measured on the cable.
      fabricGBps: 17.8 / 8,
      crossNodeHops: 0,
      tensorParallelCrossesNodes: false,
      ...(hosts > 1 ? { rpcCrossings: 2 * (hosts - 1) } : {}),
    },
    workload: { inputTokens: 1, outputTokens: 128, sequences: 1, sequencesTheKvHolds: null },
  };
}

describe("llama.cpp over RPC, two GB10 hosts", () => {
  const one = estimateSpeed(spark(1));
  const two = estimateSpeed(spark(2));

  test("a token pays two crossings of about 1.3 ms: 2.57 ms measured (1000/12.42 − 1000/12.83)", () => {
    const addedMs = 1000 / (two.decodeTps ?? NaN) - 1000 / (one.decodeTps ?? NaN);
    // The two-stage split adds one local hop besides the crossings (speed/links.ts hopMs).
    expect(addedMs).toBeGreaterThan(2.57 * 0.9);
    expect(addedMs).toBeLessThan(2.57 * 1.25);
  });

  test("the decode ratio is the measured 12.42 / 12.83 = 0.968, within 2%", () => {
    const ratio = (two.decodeTps ?? NaN) / (one.decodeTps ?? NaN);
    expect(Math.abs(ratio / (12.42 / 12.83) - 1)).toBeLessThan(0.02);
  });

  test("an unknown fabric is said in the basis", () => {
    const unknown = spark(2);
    unknown.links.fabricGBps = null;
    expect(estimateSpeed(unknown).basis).toContain("fabric speed unknown");
  });
});
