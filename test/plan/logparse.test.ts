/**
 * Reading startup logs (issue 7, "Calibrate from a log"), tested on the real
 * lines engines printed: every record of shared/calibration/measured.jsonl,
 * copied with its source to test/fixtures/logs/calibration-quotes.json. Each
 * figure the record's quote lines print must come back equal to the record's
 * `measured` value (the engines print 2–4 decimals; the tolerance is the
 * last printed digit, 1e-6 relative, i.e. none).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseStartupLog, type StartupLogReading } from "../../src/calibration/logparse.ts";

interface CalibrationQuote {
  id: string;
  source_url: string;
  engine: string;
  quote: string[];
  measured: Record<string, number>;
  not_engine_output?: string;
}

const RECORDS = (
  JSON.parse(readFileSync(new URL("../fixtures/logs/calibration-quotes.json", import.meta.url), "utf8")) as {
    records: CalibrationQuote[];
  }
).records;

/**
 * Where each figure of a calibration record is found in a reading. The
 * record's key names the unit the engine printed (shared/calibration/README.md).
 */
const FIGURE: Record<string, (r: StartupLogReading) => number | undefined> = {
  weights_gib_per_card: (r) => r.figures.weightsGib,
  weights_GB_label_is_GiB: (r) => r.figures.weightsGib,
  weights_GB_label_is_GiB_per_card: (r) => r.figures.weightsGib,
  kv_available_gib_per_card: (r) => r.figures.kvAvailableGib,
  kv_tokens: (r) => r.figures.kvTokens,
  num_gpu_blocks: (r) => r.figures.numGpuBlocks,
  max_concurrency_x: (r) => r.figures.maxConcurrency,
  torch_peak_activation_gib: (r) => r.figures.torchPeakIncreaseGib,
  non_torch_increase_gib: (r) => r.figures.nonTorchIncreaseGib,
  total_non_kv_gib: (r) => r.figures.totalNonKvGib,
  gpu_total_memory_gib: (r) => r.figures.gpuTotalGib,
  init_free_memory_gib: (r) => r.figures.initFreeGib,
  init_non_torch_memory_gib: (r) => r.figures.initNonTorchGib,
  cuda_graph_gib: (r) => r.figures.cudaGraphGib,
  total_gpu_memory_gib: (r) => r.figures.gpuTotalGib,
  initial_memory_usage_gib: (r) => r.figures.initialMemoryUsageGib,
  peak_torch_memory_gib: (r) => r.figures.peakTorchGib,
  memory_usage_post_profile_gib: (r) => r.figures.memoryUsagePostProfileGib,
  non_torch_memory_gib: (r) => r.figures.nonTorchGib,
  kv_cache_size_gib: (r) => r.figures.kvCacheSizeGib,
  num_cpu_blocks: (r) => r.figures.numCpuBlocks,
  kv_tokens_in_error: (r) => r.figures.kvTokensInError,
  budget_gib: (r) => r.figures.budgetGib,
  activation_peak_gib: (r) => r.figures.activationPeakGib,
  kv_reserved_gib: (r) => r.figures.kvReservedGib,
  KV_size_GB_label_is_GiB: (r) => r.figures.kvSizeGib,
  avail_mem_after_pool_GB: (r) => r.figures.availAfterPoolGib,
  CUDA0_model_buffer_MiB: (r) => r.devices["CUDA0"]?.model,
  CUDA0_KV_buffer_MiB: (r) => r.devices["CUDA0"]?.kv,
  CUDA0_compute_buffer_MiB: (r) => r.devices["CUDA0"]?.compute,
  KV_self_size_MiB: (r) => r.figures.kvSelfMib,
  K_MiB: (r) => r.figures.kSelfMib,
  V_MiB: (r) => r.figures.vSelfMib,
  kv_alloc_bytes: (r) => r.figures.kvAllocBytes,
  gpu_MiB_after_context_creation: (r) => r.figures.gpuMibAfterContext,
};

/** The record's engine, as the parser names it. */
function engineOf(record: CalibrationQuote): string {
  if (record.engine.startsWith("vllm")) return "vllm";
  if (record.engine.startsWith("sglang")) return "sglang";
  if (record.engine.startsWith("tensorrt")) return "tensorrt-llm";
  return "llamacpp";
}

const ENGINE_LOGS = RECORDS.filter((r) => r.not_engine_output === undefined);
const NOT_LOGS = RECORDS.filter((r) => r.not_engine_output !== undefined);

describe("every calibration record's quote lines", () => {
  test("the fixture holds every record of the calibration set", () => {
    expect(RECORDS).toHaveLength(57);
    expect(ENGINE_LOGS.every((r) => Object.keys(r.measured).length > 0)).toBe(true);
  });

  test.each(ENGINE_LOGS.map((r) => [r.id, r] as const))(
    "%s: each printed figure equals the measured one",
    (_id, record) => {
      const reading = parseStartupLog(record.quote.join("\n"));
      expect(reading.engine).toBe(engineOf(record));
      for (const [key, value] of Object.entries(record.measured)) {
        const read = FIGURE[key];
        expect(read, `no reader for ${key}`).toBeDefined();
        const got = read?.(reading);
        expect(got, `${key} (${record.source_url})`).toBeDefined();
        expect(got as number, key).toBeCloseTo(value, 6);
      }
    },
  );

  test.each(NOT_LOGS.map((r) => [r.id, r] as const))(
    "%s is not a startup log, and the reading says what it could not read",
    (_id, record) => {
      const reading = parseStartupLog(record.quote.join("\n"));
      expect(reading.weightsGib).toBeNull();
      expect(reading.kvGib).toBeNull();
      expect(reading.unread).toEqual(expect.arrayContaining(["weights", "KV cache"]));
    },
  );
});

function quoteOf(id: string): string {
  const record = RECORDS.find((r) => r.id === id);
  if (!record) throw new Error(`no calibration record ${id}`);
  return record.quote.join("\n");
}

describe("the measured weights, KV and overhead per card", () => {
  test("vLLM 0.19: the overhead inside the budget is the non-KV memory less the weights", () => {
    // codellama-7b on an H100: 13.57 non-KV − 12.56 weights = 0.77 activation + 0.25 non-torch.
    const r = parseStartupLog(quoteOf("vllm0190-h100-codellama-7b-hf-tp1pp1-8192"));
    expect(r.weightsGib).toBe(12.56);
    expect(r.kvGib).toBe(61.66);
    expect(r.overheadGib).toBeCloseTo(1.01, 6);
    expect(r.kvTokens).toBe(126256);
    expect(r.maxConcurrency).toBe(15.41);
    expect(r.contextTokens).toBe(8192);
    expect(r.failure).toBeNull();
    expect(r.unread).toEqual([]);
  });

  // vLLM 0.21+ at INFO level, as printed (a public startup log, find_string id 56681168668: an NVFP4 model with
  // MTP at --gpu-memory-utilization 0.85). Since 0.21.0 the CUDA-graph estimate is taken out of the KV budget.
  const VLLM_021_INFO = [
    "(EngineCore pid=284) INFO 05-30 07:44:00 [gpu_model_runner.py:5132] Model loading took 21.42 GiB memory and 175.218386 seconds",
    "(EngineCore pid=284) INFO 05-30 07:46:01 [gpu_model_runner.py:6279] Profiling CUDA graph memory: PIECEWISE=9 (largest=64), FULL=5 (largest=32)",
    "(EngineCore pid=284) INFO 05-30 07:46:21 [gpu_model_runner.py:6365] Estimated CUDA graph memory: 0.61 GiB total",
    "(EngineCore pid=284) INFO 05-30 07:46:21 [gpu_worker.py:466] Available KV cache memory: 71.15 GiB",
    "(EngineCore pid=284) INFO 05-30 07:46:21 [gpu_worker.py:481] CUDA graph memory profiling is enabled (default since v0.21.0). The current --gpu-memory-utilization=0.8500 is equivalent to --gpu-memory-utilization=0.8449 without CUDA graph memory profiling. To maintain the same effective KV cache size as before, increase --gpu-memory-utilization to 0.8551. To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.",
    "(EngineCore pid=284) INFO 05-30 07:46:21 [kv_cache_utils.py:1733] GPU KV cache size: 3,131,683 tokens",
    "(EngineCore pid=284) INFO 05-30 07:46:21 [kv_cache_utils.py:1734] Maximum concurrency for 200,000 tokens per request: 15.66x",
  ].join("\n");

  test("vLLM 0.21+ at INFO level: the graph estimate and the utilization are read; the overhead is not printed, and it says so", () => {
    const r = parseStartupLog(VLLM_021_INFO);
    expect(r.engine).toBe("vllm");
    expect([r.weightsGib, r.kvGib, r.kvTokens, r.maxConcurrency, r.contextTokens]).toEqual([
      21.42, 71.15, 3131683, 15.66, 200000,
    ]);
    expect(r.figures.cudaGraphEstimateGib).toBe(0.61);
    expect(r.figures.gpuMemoryUtilization).toBe(0.85);
    expect(r.figures.utilizationWithoutGraphEstimate).toBe(0.8449);
    expect(r.overheadGib).toBeNull();
    expect(r.unread).toContain("engine overhead");
  });

  test("vLLM 0.21+ with its DEBUG breakdown: the overhead inside the budget includes the graph estimate it reserved", () => {
    // 0.21 logs the same MemoryProfilingResult line at DEBUG as 0.19 did; this joins codellama's 0.19 lines (0.19 ran
    // with the estimate off) to the 0.21 lines above, to check the sum: 1.01 GiB of activation and non-torch + 0.61.
    const r = parseStartupLog(
      `${quoteOf("vllm0190-h100-codellama-7b-hf-tp1pp1-8192")}\n${VLLM_021_INFO.split("\n").slice(2, 5).join("\n")}`,
    );
    expect(r.overheadGib).toBeCloseTo(1.62, 6);
    // Without the line that says the estimate was applied (0.19, or 0.21 with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0), it is not added.
    const off = parseStartupLog(
      `${quoteOf("vllm0190-h100-codellama-7b-hf-tp1pp1-8192")}\n${VLLM_021_INFO.split("\n")[2] ?? ""}`,
    );
    expect(off.overheadGib).toBeCloseTo(1.01, 6);
  });

  test("vLLM V0: weights inside the torch peak, the KV from the profiling line", () => {
    // 17.06 peak − 14.9888 weights + 0.35 non-torch = 2.42 GiB, which with the
    // 3.81 GiB of KV fills 0.90 × 23.58 GiB to the hundredth.
    const r = parseStartupLog(quoteOf("vllm-v0-3090-llama-3.1-8b-20k"));
    expect(r.weightsGib).toBe(14.9888);
    expect(r.kvGib).toBe(3.81);
    expect(r.overheadGib).toBeCloseTo(2.4212, 4);
    expect(r.contextTokens).toBe(20000);
    expect((r.weightsGib ?? 0) + (r.kvGib ?? 0) + (r.overheadGib ?? 0)).toBeCloseTo(0.9 * 23.58, 1);
  });

  test("vLLM V0.7: a negative KV reserve is read as printed", () => {
    const r = parseStartupLog(quoteOf("vllm-v0-rtx4060laptop-qwen2.5-7b-4bit-failed"));
    expect(r.kvGib).toBe(-1.05);
    expect(r.overheadGib).toBeCloseTo(1.45, 6);
  });

  test("llama.cpp: the card's model, KV and compute buffers, in GiB", () => {
    const r = parseStartupLog(quoteOf("ikllama-a6000-gemma-3-27b-qat-q4km-c32768"));
    expect(r.engine).toBe("llamacpp");
    expect(r.weightsGib).toBeCloseTo(15773.97 / 1024, 4);
    expect(r.kvGib).toBeCloseTo(15872 / 1024, 4);
    expect(r.overheadGib).toBeCloseTo(522.62 / 1024, 4);
  });

  test("SGLang: the KV pool and its tokens; the overhead is not printed, and it says so", () => {
    const r = parseStartupLog(quoteOf("sglang-dp8attn-b200-deepseek-v3.2-exp-main"));
    expect(r.kvGib).toBe(54.52);
    expect(r.kvTokens).toBe(1462784);
    expect(r.unread).toEqual(expect.arrayContaining(["weights", "engine overhead"]));
  });
});

describe("failures, in the engine's words", () => {
  test.each([
    [
      "vllm-v0-3090-llama-3.1-8b-29k-failed",
      /larger than the maximum number of tokens that can be stored in KV cache \(23648\)/,
    ],
    ["vllm-v0-2x4090-r1-distill-qwen-14b-tp2-failed", /max seq len \(131072\)/],
    ["vllm-h100-llama-3.3-70b-fp8-tp1-16000-failed", /No available memory for the cache blocks/],
  ])("%s", (id, words) => {
    const r = parseStartupLog(quoteOf(id));
    expect(r.failure).toMatch(words);
  });

  test("a log that started has no failure", () => {
    expect(parseStartupLog(quoteOf("vllm0190-h100-gemma-3-27b-it-tp1pp1-8192")).failure).toBeNull();
  });
});

describe("what people really paste", () => {
  test("lines with vLLM's log prefix, as its own docs print them", () => {
    // vllm-project/vllm docs/serving/distributed_serving.md (the example startup lines).
    const r = parseStartupLog(
      "INFO 07-23 13:56:04 [kv_cache_utils.py:775] GPU KV cache size: 643,232 tokens\n" +
        "INFO 07-23 13:56:04 [kv_cache_utils.py:779] Maximum concurrency for 40,960 tokens per request: 15.70x",
    );
    expect(r.engine).toBe("vllm");
    expect(r.kvTokens).toBe(643232);
    expect(r.maxConcurrency).toBe(15.7);
    expect(r.contextTokens).toBe(40960);
  });

  test("terminal colours and Windows line ends do not hide a figure", () => {
    const r = parseStartupLog(
      "\u001b[1;36m(VllmWorker TP0 pid=4242)\u001b[0m INFO Model loading took 7.51 GiB memory and 10.56 seconds\r\n",
    );
    expect(r.weightsGib).toBe(7.51);
  });

  test.each([[""], ["hello"], ['{"not": "a log"}'], ["Model loading took NaN GiB"], ["\u0000\u0001"]])(
    "%j: no engine, nothing read, no throw",
    (text) => {
      const r = parseStartupLog(text);
      expect(r.engine === null || r.weightsGib === null).toBe(true);
      expect(r.unread).toContain("weights");
    },
  );

  test("10,000 random texts and mutated real lines: never a throw, always a reading", () => {
    const pieces = RECORDS.flatMap((r) => r.quote);
    const line = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(...pieces),
      fc.constantFrom(...pieces).chain((l) => fc.nat(l.length).map((cut) => l.slice(0, cut))),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const r = parseStartupLog(lines.join("\n"));
        return Array.isArray(r.unread) && (r.weightsGib === null || Number.isFinite(r.weightsGib));
      }),
      { numRuns: 10_000 },
    );
  });

  test("whatever the text, it never throws", () => {
    const pieces = RECORDS.flatMap((r) => r.quote);
    for (let i = 0; i < 2000; i += 1) {
      const a = pieces[(i * 7919) % pieces.length] ?? "";
      const cut = (i * 104729) % Math.max(1, a.length);
      const text = a.slice(0, cut) + String.fromCharCode(i % 128) + a.slice(cut + 1);
      expect(() => parseStartupLog(text)).not.toThrow();
    }
  });
});

interface MainlineLog {
  id: string;
  source_url: string;
  lines: string[];
}
const MAINLINE = (
  JSON.parse(readFileSync(new URL("../fixtures/logs/llamacpp-mainline.json", import.meta.url), "utf8")) as {
    logs: MainlineLog[];
  }
).logs;

function mainline(id: string): StartupLogReading {
  const log = MAINLINE.find((l) => l.id === id);
  if (!log) throw new Error(`no llama.cpp log ${id}`);
  return parseStartupLog(log.lines.join("\n"));
}

describe("mainline llama.cpp logs (ggml-org/llama.cpp threads)", () => {
  test("two cards: each card's buffers, and the worst card's in the summary", () => {
    const r = mainline("llamacpp-pr8035-2gpu");
    expect(r.engine).toBe("llamacpp");
    expect(r.devices["CUDA0"]).toEqual({ model: 12633.25, kv: 1472, compute: 1108.5, recurrentState: 0, output: 0 });
    expect(r.devices["CUDA1"]).toMatchObject({ model: 8652, kv: 1024 });
    expect(r.devices["CPU"]?.model).toBe(22994.45);
    // The per-device KV buffers add up to the "KV self size" llama.cpp prints: 64 + 1472 + 1024 = 2560 MiB.
    const kvBuffers = Object.values(r.devices).reduce((sum, d) => sum + d.kv, 0);
    expect(kvBuffers).toBe(r.figures.kvSelfMib);
    expect(r.weightsGib).toBeCloseTo(12633.25 / 1024, 4);
    expect(r.kvGib).toBeCloseTo(1472 / 1024, 4);
    expect(r.overheadGib).toBeCloseTo(1108.5 / 1024, 4);
    expect(r.contextTokens).toBe(8192);
    expect(r.figures.nUbatch).toBe(512);
  });

  test("a sliding-window model's two caches add up, and equal the card's KV buffer", () => {
    const r = mainline("llamacpp-issue27680-dsv4-iswa");
    expect(r.figures.kvSelfMib).toBe(182.75);
    expect(r.devices["CUDA0"]?.kv).toBe(182.75);
    expect(r.devices["CUDA_Host"]?.output).toBe(0.49);
    expect(r.kvGib).toBeCloseTo(182.75 / 1024, 5);
  });
});

describe("vLLM V1's own fit check, when it refuses to start", () => {
  const failures = (
    JSON.parse(readFileSync(new URL("../fixtures/logs/vllm-failures.json", import.meta.url), "utf8")) as {
      logs: MainlineLog[];
    }
  ).logs;
  test("tpu-inference#223: the KV one sequence needs, what was there, and vLLM's own longest fitting context", () => {
    const log = failures.find((l) => l.id === "vllm-v1-kv-check-tpu-inference-pr223");
    expect(log).toBeDefined();
    const r = parseStartupLog(log?.lines.join("\n") ?? "");
    expect(r.engine).toBe("vllm");
    expect(r.figures.maxSeqLenInError).toBe(131072);
    expect(r.figures.kvNeededGibInError).toBe(16);
    expect(r.kvGib).toBe(0.71);
    expect(r.figures.maxModelLenEstimate).toBe(5632);
    expect(r.contextTokens).toBe(131072);
    expect(r.failure).toMatch(/^ValueError: To serve at least one request/);
  });
});

describe("SGLang's K and V sized apart", () => {
  const logs = (
    JSON.parse(readFileSync(new URL("../fixtures/logs/sglang-kv.json", import.meta.url), "utf8")) as {
      logs: MainlineLog[];
    }
  ).logs;
  const read = (id: string): StartupLogReading =>
    parseStartupLog(logs.find((l) => l.id === id)?.lines.join("\n") ?? "");

  test("vllm#21348: K + V is the pool, 16.46 GiB for 367,404 tokens (48,105 B a token, the calibration README's check)", () => {
    const r = read("sglang-qwen3-235b-fp8-tp4");
    expect(r.engine).toBe("sglang");
    expect(r.kvGib).toBeCloseTo(16.46, 6);
    expect(r.kvTokens).toBe(367404);
    expect(Math.round(((r.kvGib ?? 0) * 2 ** 30) / (r.kvTokens ?? 1))).toBe(48105);
  });

  test("sglang#18039: a K larger than V (head 192 against 128) is still added, not mistaken for one another", () => {
    const r = read("sglang-mimo-v2-flash-tp4-swa");
    expect(r.figures.kSizeGib).toBe(8.38);
    expect(r.figures.vSizeGib).toBe(5.59);
    expect(r.kvGib).toBeCloseTo(13.97, 6);
  });

  test("a single 'KV size' is not read as V", () => {
    const r = parseStartupLog(quoteOf("sglang-dp8attn-b200-deepseek-v3.2-exp-main"));
    expect(r.figures.vSizeGib).toBeUndefined();
  });
});
