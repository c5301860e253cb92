/**
 * Issue 12: a fabric that says its speed moves the figures of an option that
 * spans nodes, in the direction and by the amount the public record gives.
 *
 * Llama-3.1-70B in bf16 (141 GB) on two nodes of one H200 each: vLLM runs it
 * as two pipeline stages, one hop over the fabric. A hop carries one
 * activation per token (tokens × hidden × 2 bytes, speed/links.ts), so:
 * - decode (one token a step, 16 KiB a hop) does not move with the fabric:
 *   vLLM issue #6610 (https://github.com/vllm-project/vllm/issues/6610),
 *   "Multi-node Pipeline Parallel double bandwidth, no change in performance":
 *   a second 400G BlueField-3 per server left throughput where it was;
 * - the prompt's pass (1,024 tokens, 16.8 MB a hop) pays bytes ÷ bandwidth:
 *   at 25 Gbit/s (3.125 GB/s) 5.37 ms, at 400 Gbit/s 0.34 ms, 5.03 ms apart.
 *   No public benchmark in test/fixtures/speed varies the fabric alone, so
 *   this amount is the formula's (a point-to-point send at line rate, as
 *   NCCL's send/recv moves it), checked here through the whole plan.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKLOAD, plan, shapeFromConfig, type Artifact, type ClusterNode } from "../../src/plan/index.ts";

const config = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "..", "fixtures", "speed", "meta-llama__Llama-3.1-70B-Instruct.config.json"),
    "utf8",
  ),
) as Record<string, unknown>;
// 70,553,706,496 parameters, the Hub's safetensors total (as test/fixtures/calibration/models.json records it), 2 bytes each.
const PARAMS = 70_553_706_496;
const shape = shapeFromConfig(config, PARAMS);
const bf16: Artifact = {
  name: "original",
  format: "safetensors",
  files: ["model.safetensors"],
  bytes: 2 * PARAMS,
  projectorBytes: 0,
  quant: "bf16",
  bitsPerWeight: 16,
  expertBytes: 0,
};

function pipelineOption(fabric: string, extra: Partial<ClusterNode> = {}) {
  const nodes = [0, 1].map((i): ClusterNode => ({
    id: `h200-${i}`,
    fabric,
    hostMemGib: 1024,
    hostFreeGib: 1000,
    devices: [{ class: "h200-141g", count: 1, free: 1 }],
    ...extra,
  }));
  const p = plan(
    { repo: "meta-llama/Llama-3.1-70B-Instruct", revision: "", shape, artifacts: [bf16] },
    { nodes },
    {
      ...DEFAULT_WORKLOAD,
      contextTokens: 8192,
      inputTokens: 1024,
    },
  );
  const o = p.options.find((x) => x.engine === "vllm" && x.placement.nodes === 2);
  if (o?.speed === undefined) throw new Error(`no two-node vLLM option: ${JSON.stringify(p.refused).slice(0, 300)}`);
  return o.speed;
}

const HOP_BYTES = 1024 * 8192 * 2;
const hopMs = (gbitPerS: number) => HOP_BYTES / ((gbitPerS / 8) * 1e6);

describe("a fabric's speed and an option across nodes", () => {
  test("decode does not move with the fabric (vLLM #6610: double the bandwidth, no change)", () => {
    const slow = pipelineOption("eth-25g").decodeTps as number;
    const fast = pipelineOption("ib-400g").decodeTps as number;
    expect(Math.abs(fast / slow - 1)).toBeLessThan(0.005);
  });

  test("time to first token drops by the hop's bytes ÷ bandwidth, 25 → 400 Gbit/s: 5.03 ms ± 10%", () => {
    const saved = (pipelineOption("eth-25g").ttftMs as number) - (pipelineOption("ib-400g").ttftMs as number);
    const expected = hopMs(25) - hopMs(400);
    expect(expected).toBeCloseTo(5.03, 2);
    expect(Math.abs(saved / expected - 1)).toBeLessThanOrEqual(0.1);
  });

  test("a node's own fabric_gbps wins over its fabric's name", () => {
    expect(pipelineOption("ib-400g", { fabricGbps: 25 }).ttftMs).toBeCloseTo(
      pipelineOption("eth-25g").ttftMs as number,
      6,
    );
  });

  test("a fabric that says nothing is planned on the stated default and says so; one that says is not", () => {
    expect(pipelineOption("ib0").basis).toContain("fabric speed unknown: 25 GB/s per card assumed");
    expect(pipelineOption("ib0", { fabricGbps: 200 }).basis).not.toContain("fabric speed unknown");
    expect(pipelineOption("roce-200g").basis).not.toContain("fabric speed unknown");
  });

  // Issue 12's speed_basis names "the link": a known fabric went unsaid, so an eth-25g and an ib-400g pipeline read
  // the same. Line rate ÷ 8 a card: 400 → 50 GB/s, 200 → 25, 25 → 3.125 (printed to a tenth).
  test.each([
    ["ib-400g", {}, 50],
    ["roce-200g", {}, 25],
    ["eth-25g", {}, 3.1],
    ["ib0", { fabricGbps: 100 }, 12.5],
  ] as const)("a said fabric (%s %j) is named in the basis at its rate, %s GB/s a card", (fabric, extra, gbps) => {
    expect(pipelineOption(fabric, extra).basis).toContain(`1 pipeline hop over the fabric at ${gbps} GB/s a card`);
  });
});
