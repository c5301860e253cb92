/**
 * A pasted log beside the plan (issue 7, "Calibrate from a log"), on a real
 * case: Llama-3.1-8B-Instruct on one H100 at --gpu-memory-utilization 0.95,
 * max-model-len 8192, whose vLLM 0.19 startup lines are in
 * test/fixtures/logs/calibration-quotes.json (llm-d-planner PR #205 logs).
 */
import { describe, expect, test } from "vitest";
import { calibrationNotes, planOverheadGib, predictedVsMeasured } from "../../src/calibration/calibrate.ts";
import { parseStartupLog } from "../../src/calibration/logparse.ts";
import { option, quote as log, workload } from "../calibration/llama8bH100.ts";

describe("predicted beside measured", () => {
  const reading = parseStartupLog(log("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192"));
  const rows = predictedVsMeasured(option, reading);
  const byFigure = Object.fromEntries(rows.map((r) => [r.figure, r]));

  test("the measured column is what vLLM printed", () => {
    expect(byFigure["Weights per card"]?.measured).toBe(14.99);
    expect(byFigure["KV cache per card"]?.measured).toBe(58.11);
    expect(byFigure["Engine overhead per card"]?.measured).toBeCloseTo(17.12 - 14.99, 6);
    expect(byFigure["KV tokens"]?.measured).toBe(476016);
    expect(byFigure["Concurrency at this context"]?.measured).toBe(58.11);
  });

  test("the plan agrees within issue 7's tolerances: weights 2%, the KV pool 5%", () => {
    expect(Math.abs(byFigure["Weights per card"]?.errorPct ?? Infinity)).toBeLessThanOrEqual(2);
    expect(Math.abs(byFigure["KV cache per card"]?.errorPct ?? Infinity)).toBeLessThanOrEqual(5);
  });

  test("a log of the same engine and context raises no note", () => {
    expect(calibrationNotes(option, workload, reading)).toEqual([]);
  });

  test("another context, another engine, a failure: each is said", () => {
    const notes = calibrationNotes(
      option,
      { ...workload, contextTokens: 32768 },
      parseStartupLog(log("vllm-v0-3090-llama-3.1-8b-29k-failed")),
    );
    expect(notes.join("\n")).toMatch(/context of 29,000 tokens; the plan is for 32,768/);
    expect(notes.join("\n")).toMatch(/The engine failed: .*23648/);
    expect(
      calibrationNotes(option, workload, parseStartupLog(log("ikllama-a6000-gemma-3-27b-qat-q4km-c32768")))[0],
    ).toMatch(/llamacpp's; the selected option runs on vllm/);
    expect(calibrationNotes(option, workload, parseStartupLog("hello"))[0]).toMatch(
      /paste the lines the engine printed/,
    );
  });
});

describe("a log that names its vLLM release", () => {
  // A real first line of a vLLM 0.13.0 server's log (find_string id 67592774702), as the API server prints it.
  const VERSION_LINE = "(APIServer pid=1) INFO 12-25 04:48:38 [api_server.py:1351] vLLM API server version 0.13.0";

  test("the release is read from the API server's line and from the engine's", () => {
    expect(
      parseStartupLog(`${VERSION_LINE}\n${log("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192")}`).engineVersion,
    ).toBe("0.13.0");
    expect(
      parseStartupLog(
        "INFO 12-14 15:35:48 [core.py:93] Initializing a V1 LLM engine (v0.19.0) with config: model='x'\nAvailable KV cache memory: 1.00 GiB",
      ).engineVersion,
    ).toBe("0.19.0");
    // The calibration quotes keep only the figure lines: no release is read, and no release note is made.
    expect(parseStartupLog(log("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192")).engineVersion).toBeNull();
  });

  test("a plan for another release's profile says the two differ by design, and how to compare like with like", () => {
    const reading = {
      ...parseStartupLog(log("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192")),
      engineVersion: "0.19.0",
    };
    // No release named: the plan is for the newest release (0.29 and later).
    expect(calibrationNotes(option, workload, reading).join("\n")).toMatch(
      /This log is vLLM 0\.19\.0 \(0\.17 to 0\.20\); the plan is for no release named.*set "vLLM release" to 0\.19\.0/,
    );
    expect(
      calibrationNotes(option, { ...workload, settings: { ...workload.settings, vllmVersion: "0.15" } }, reading).join(
        "\n",
      ),
    ).toMatch(/the plan is for vLLM 0\.15 \(0\.11\.1 to 0\.16\)/);
    // The same profile: nothing to say.
    expect(
      calibrationNotes(option, { ...workload, settings: { ...workload.settings, vllmVersion: "0.18" } }, reading),
    ).toEqual([]);
  });
});

describe("the overhead the plan takes from a log", () => {
  test("vLLM's is what it printed inside the budget", () => {
    expect(planOverheadGib(parseStartupLog(log("vllm0190-h100-codellama-7b-hf-tp1pp1-8192")))).toBeCloseTo(
      13.57 - 12.56,
      6,
    );
  });

  test("llama.cpp's adds back the CUDA context its log does not print", () => {
    const gib = planOverheadGib(parseStartupLog(log("ikllama-a6000-gemma-3-27b-qat-q4km-c32768")));
    // 522.62 MiB of compute buffer, plus the 0.51 GiB CUDA context vLLM 0.19 measured on an H100.
    expect(gib).toBeCloseTo(522.62 / 1024 + 0.51, 3);
  });

  test("SGLang's and TensorRT-LLM's logs do not print one", () => {
    expect(planOverheadGib(parseStartupLog(log("sglang-dp8attn-b200-deepseek-v3.2-exp-main")))).toBeNull();
    expect(planOverheadGib(parseStartupLog(log("trtllm-a100-7b-smoothquant-kvfull")))).toBeNull();
  });
});
