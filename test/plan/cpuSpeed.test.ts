/**
 * A CPU's prompt is compute-bound at its own cores' rate (issue 14), not at a card's TFLOPS: the speed model's
 * CPU figure (speed/host.ts CPU_PREFILL_GFLOPS_PER_CORE) against public llama-bench CPU runs (pp512 / tg128),
 * copied with their sources into test/fixtures/speed/cpu-llama-bench.jsonl. The constant was fitted on the rows
 * marked "fit" (three Llama-3.2-3B Q4_K_M runs) and is checked here on the others.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CPU_PREFILL_GFLOPS_PER_CORE, CPU_SPEED_CARD, estimateSpeed } from "../../src/plan/index.ts";
import type { SpeedInput } from "../../src/plan/index.ts";

interface CpuRow {
  id: string;
  model: keyof typeof MODELS;
  size_bytes: number;
  threads: number;
  pp512: number;
  tg128?: number;
  host_mem_gbps?: number;
  use: "fit" | "check";
}

const ROWS: CpuRow[] = readFileSync(
  join(import.meta.dirname, "..", "fixtures", "speed", "cpu-llama-bench.jsonl"),
  "utf8",
)
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as CpuRow);

/**
 * The geometry of each benchmarked model, from its config.json: TinyLlama-1.1B (22 layers, hidden 2048, 32 heads of
 * 64, 4 KV heads; https://huggingface.co/TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T/blob/main/config.json),
 * Llama-3.2-3B (28, 3072, 24 of 128, 8; https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct/blob/main/config.json),
 * Llama-3.1-8B (32, 4096, 32 of 128, 8; https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json); the
 * parameter counts as llama-bench prints them (1.10 B, 3.21 B) and 8.03 B.
 */
const MODELS = {
  "tinyllama-1.1b": { params: 1.1e9, layers: 22, hidden: 2048, heads: 32, headDim: 64, kvHeads: 4 },
  "llama-3.2-3b": { params: 3.21e9, layers: 28, hidden: 3072, heads: 24, headDim: 128, kvHeads: 8 },
  "llama-3.1-8b": { params: 8.03e9, layers: 32, hidden: 4096, heads: 32, headDim: 128, kvHeads: 8 },
} as const;

/** llama-bench on the CPU: one sequence, its own cores (-t), f16 cache; pp512 from an empty cache, tg128 after none. */
function cpuInput(r: CpuRow, inputTokens: number, outputTokens: number): SpeedInput {
  const m = MODELS[r.model];
  return {
    card: CPU_SPEED_CARD,
    model: {
      weightsBytes: r.size_bytes,
      routedExpertBytes: 0,
      routedExperts: 0,
      expertsPerToken: 0,
      activeParams: m.params,
      layers: m.layers,
      hiddenSize: m.hidden,
      kvBytesPerToken: m.layers * m.kvHeads * m.headDim * 2 * 2,
      kvSplitByTensorParallel: true,
      attentionFlopsPerContextToken: 4 * m.layers * m.heads * m.headDim,
      computeFormat: "int8",
    },
    layout: {
      engine: "llamacpp",
      tensorParallel: 1,
      pipelineStages: 1,
      expertParallel: 1,
      hostWeightsBytes: 0,
      hostExpertBytes: 0,
      hostBandwidthGBps: r.host_mem_gbps ?? null,
      cpuOnly: true,
      cpuCores: r.threads,
    },
    links: { intraNodeGBps: null, fabricGBps: null, crossNodeHops: 0, tensorParallelCrossesNodes: false },
    workload: { inputTokens, outputTokens, sequences: 1, sequencesTheKvHolds: null },
  };
}

const prefillOf = (r: CpuRow): number => estimateSpeed(cpuInput(r, 512, 1)).prefillTps ?? NaN;
const decodeOf = (r: CpuRow): number => estimateSpeed(cpuInput(r, 1, 128)).decodeTps ?? NaN;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

describe("a CPU's prompt at its cores' rate, against llama-bench CPU pp512", () => {
  const fit = ROWS.filter((r) => r.use === "fit");
  const check = ROWS.filter((r) => r.use === "check");

  test("the constant is the median of the fitted rows' 2 × parameters × pp512 ÷ threads (56.8, 58.0, 43.5 GFLOPS a core)", () => {
    const perCore = fit.map((r) => (2 * MODELS[r.model].params * r.pp512) / r.threads / 1e9);
    expect(perCore.map((x) => Math.round(x * 10) / 10)).toEqual([56.8, 58, 43.5]);
    expect(Math.abs(CPU_PREFILL_GFLOPS_PER_CORE - median(perCore))).toBeLessThan(0.5);
  });

  test("the fitted rows come back within 25% (the weights' read per ubatch and the step cost add a little)", () => {
    for (const r of fit) {
      expect(Math.abs(Math.log(prefillOf(r) / r.pp512)), r.id).toBeLessThan(Math.log(1.33));
    }
  });

  test.each(check.map((r) => [r.id, r] as const))(
    "%s: within a factor 2.2 (a core's rate differs by its vector units and clock: 36–117 GFLOPS a core here; worst the XPS 13 at one thread, 2.1× under, one core alone at its turbo clock)",
    (_id, r) => {
      const ratio = prefillOf(r) / r.pp512;
      expect(Math.abs(Math.log(ratio))).toBeLessThan(Math.log(2.2));
    },
  );

  test("over the checking rows the median error is under 50% (46% at this constant)", () => {
    const errors = check.map((r) => Math.abs(prefillOf(r) / r.pp512 - 1));
    expect(median(errors)).toBeLessThan(0.5);
  });
});

describe("CPU decode against llama-bench tg128 where the host's memory is known (the borrowed unified terms)", () => {
  test.each(ROWS.filter((r) => r.tg128 !== undefined && r.host_mem_gbps !== undefined).map((r) => [r.id, r] as const))(
    "%s: within 35%",
    (_id, r) => {
      const ratio = decodeOf(r) / (r.tg128 as number);
      expect(Math.abs(Math.log(ratio))).toBeLessThan(Math.log(1.35));
    },
  );
});

describe("the CPU path's basis names the host bandwidth it read at", () => {
  test.each(ROWS.filter((r) => r.host_mem_gbps !== undefined).map((r) => [r.id, r] as const))(
    "%s: its host_mem_gbps in the basis (before: 'host RAM', no figure)",
    (_id, r) => {
      expect(estimateSpeed(cpuInput(r, 512, 128)).basis).toContain(`(cpu, host RAM, ${r.host_mem_gbps} GB/s)`);
    },
  );
});
