/**
 * Reading the 2026 startup logs (issue 15): the real lines of every record in
 * test/fixtures/calibration/newer.jsonl and newer-found.jsonl (each with its source URL)
 * must give back the record's printed figures exactly, and the reading must name the
 * accounting its lines show: 0.21's estimate line, 0.26's V2 runner, 0.27's
 * consumed/peak/CUDAGraph line, 0.29's V2 capture, SGLang 2026's graph lines.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseStartupLog, type StartupLogReading } from "../../src/calibration/logparse.ts";

interface Rec {
  id: string;
  engine: string;
  quote: string[];
  measured: Record<string, unknown>;
}

const dir = new URL("../fixtures/calibration/", import.meta.url);
const load = (name: string): Rec[] =>
  readFileSync(new URL(name, dir), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Rec);
const records = [...load("newer.jsonl"), ...load("newer-found.jsonl")];

/** Where each printed figure of a record is in a reading. */
const FIGURE: Record<string, (r: StartupLogReading) => number | undefined | null> = {
  weights_gib_per_card: (r) => r.weightsGib,
  // "Available KV cache memory", or 0.27's "Current kv cache memory in use is K GiB" where only that was quoted.
  kv_available_gib_per_card: (r) => r.kvGib,
  kv_tokens: (r) => r.kvTokens,
  max_concurrency_x: (r) => r.maxConcurrency,
  non_torch_gib: (r) => r.figures.usageNonTorchGib,
  torch_peak_activation_gib: (r) => r.figures.peakActivationGib,
  peak_activation_incl_graph_estimate_gib: (r) => r.figures.peakActivationGib,
  consumed_weights_plus_non_torch_gib: (r) => r.figures.consumedGib,
  cuda_graph_estimated_gib: (r) => r.figures.cudaGraphEstimateGib,
  cuda_graph_memory_gib: (r) => r.figures.usageCudaGraphGib,
  gpu_total_memory_gib: (r) => r.figures.gpuTotalGib,
  init_free_memory_gib: (r) => r.figures.initFreeGib,
  requested_memory_gib: (r) => r.figures.requestedGib,
  checkpoint_size_gib: (r) => r.figures.checkpointGib,
  weights_mem_usage_GB_label_is_GiB: (r) => r.weightsGib,
  avail_mem_after_load_GB_label_is_GiB: (r) => r.figures.availAfterWeightsGib,
  K_size_GB_label_is_GiB: (r) => r.figures.kSizeGib,
  memory_pool_end_avail_GB_label_is_GiB: (r) => r.figures.availAfterPoolGib,
  memory_pool_end_avail_GB_label_is_GiB_TP1: (r) => r.figures.availAfterPoolGib,
  cuda_graph_mem_usage_GB: (r) => r.figures.graphGib,
  piecewise_cuda_graph_mem_usage_GB: (r) => r.figures.piecewiseGraphGib,
  avail_after_graphs_GB: (r) => r.figures.availAfterGraphsGib,
};

/** Records whose quotes are not the engine's own lines, and why. */
const NOT_LOG_LINES = new Map([
  [
    "vllm0280-8xrtxpro4500-gpt-oss-120b-tp8-u0.95-failed-after-kv",
    "a reporter's markdown summary table of the run, not vLLM's lines",
  ],
  [
    "vllm0291rc1-2xdgxspark-minimax-m2.7-awq-tp2-196608-u0.85",
    "a thread's sentence summing up the fix (\"28.74 GiB KV → 240,816 tokens\"), not vLLM's lines",
  ],
]);

const cases = records.filter((r) => (r.engine === "vllm" || r.engine === "sglang") && !NOT_LOG_LINES.has(r.id));

/** The printed figures of a record that a reading carries. */
function expectedOf(r: Rec): [string, number][] {
  const split = r.measured["memory_pool_end_avail_GB_label_is_GiB_TP0"] !== undefined;
  return Object.entries(r.measured).filter(
    (e): e is [string, number] =>
      typeof e[1] === "number" &&
      FIGURE[e[0]] !== undefined &&
      !(split && e[0] === "memory_pool_end_avail_GB_label_is_GiB_TP1"),
  );
}

// A failed load prints no figure a reading carries (the Qwen3-235B TP2 OOM): its failure is read below.
const figures = cases.flatMap((r) => expectedOf(r).map(([key, value]) => [r.id, key, value, r] as const));
test.each(figures)("%s: %s is read as printed", (_id, key, value, r) => {
  expect(FIGURE[key]?.(parseStartupLog(r.quote.join("\n")))).toBe(value);
});

describe("the release each log's lines show", () => {
  const read = (id: string): StartupLogReading => {
    const r = records.find((x) => x.id === id);
    if (!r) throw new Error(`${id} is not in the fixtures`);
    return parseStartupLog(r.quote.join("\n"));
  };
  test.each([
    [
      "vllm0231-rtxpro6000maxq-gpt-oss-120b-tp1-131072-kvfp8-u0.88",
      "vLLM 0.21 to 0.26 (CUDA-graph estimate inside the budget)",
      1.38,
    ],
    [
      "vllm0221-rtxpro6000maxq-qwen3.5-122b-a10b-nvfp4-tp1-262144-u0.94",
      "vLLM 0.21 to 0.26 (CUDA-graph estimate inside the budget)",
      null,
    ],
    [
      "vllm0260-a40-llama-3.1-8b-instruct-tp1-4096",
      "vLLM 0.26 (V2 model runner: no CUDA-graph estimate inside the budget)",
      1.09,
    ],
    [
      "vllm0271-rtxpro6000-qwen3-235b-a22b-fp8-tp4-32768",
      "vLLM 0.27 or later (consumed/peak/CUDAGraph line; main since 0.23.1rc1.dev1327)",
      2.46,
    ],
    [
      "vllm0231dev1327-rtxpro6000maxq-agents-a1-fp8-tp1-131072-kvfp8-textonly",
      "vLLM 0.27 or later (consumed/peak/CUDAGraph line; main since 0.23.1rc1.dev1327)",
      2.68,
    ],
    [
      "vllm0290-rtx5090-thinkingcap-qwen3.8-27b-nvfp4a4-mtp3-tp1-32768-u0.87",
      "vLLM 0.29 or later (V2 model runner, graphs captured and reserved in profiling) with the consumed/peak/CUDAGraph line",
      0.81,
    ],
    ["sglang-2026-04-b200-qwen3-8b-tp1-default", "SGLang 2026 (piecewise prefill CUDA graph)", null],
  ])("%s: %s, the engine's own memory inside the budget %s GiB", (id, format, overhead) => {
    const r = read(id);
    expect(r.formatRead).toBe(format);
    expect(r.overheadGib).toBe(overhead);
  });

  test("the overhead read closes each log's budget: requested − weights − overhead = the KV it printed", () => {
    for (const id of [
      "vllm0231-rtxpro6000maxq-gpt-oss-120b-tp1-131072-kvfp8-u0.88",
      "vllm0260-a40-llama-3.1-8b-instruct-tp1-4096",
      "vllm0271-rtxpro6000-qwen3-235b-a22b-fp8-tp4-32768",
      "vllm0290-rtx5090-thinkingcap-qwen3.8-27b-nvfp4a4-mtp3-tp1-32768-u0.87",
    ]) {
      const r = read(id);
      const closed = (r.figures.requestedGib ?? NaN) - (r.weightsGib ?? NaN) - (r.overheadGib ?? NaN);
      expect(Math.abs(closed - (r.kvGib ?? NaN)), id).toBeLessThanOrEqual(0.015);
    }
  });

  test("the version as printed, and the free-memory refusal in vLLM's words", () => {
    expect(read("vllm0231-rtxpro6000maxq-gpt-oss-120b-tp1-131072-kvfp8-u0.88").engineVersion).toBe(
      "0.23.1rc1.dev1229+g1bf3b12d5",
    );
    const refused = read("vllm0290-rtx5090-thinkingcap-qwen3.8-27b-nvfp4a4-tp1-131072-u0.95-failed-free-memory");
    expect(refused.failure).toMatch(
      /^ValueError: Free memory on device cuda:0 \(30\.2\/31\.82 GiB\) on startup is less than desired GPU memory utilization/,
    );
    expect(refused.figures).toMatchObject({
      initFreeGib: 30.2,
      gpuTotalGib: 31.82,
      gpuMemoryUtilization: 0.95,
      requestedGib: 30.23,
    });
    expect(read("vllm0271-rtxpro6000-qwen3-235b-a22b-fp8-tp2-32768-failed-weights").failure).toMatch(/out of memory/i);
  });
});
