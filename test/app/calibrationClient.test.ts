/**
 * The calibration worker's transport, run across the same structured clone a worker posts through
 * (inlineCalibrationPort: the worker's own replier, a task later): the page draws what the calibration
 * code makes, over the real bundled cases and a real vLLM startup log.
 */
import { afterEach, expect, test, vi } from "vitest";
import { calibrationClient, inlineCalibrationPort, type CalibrationPort } from "../../src/app/calibrationClient.ts";
import type { Answer } from "../../src/app/calibrationWire.ts";
import { accuracyTables } from "../../src/calibration/accuracyView.ts";
import { speedAccuracyTables } from "../../src/calibration/speedAccuracy.ts";
import { option, quote, VLLM_019_LLAMA8B_H100, workload } from "../calibration/llama8bH100.ts";

afterEach(() => vi.restoreAllMocks());

function value<T>(answer: Answer<T>): T {
  if (!answer.ok) throw new Error(`no answer: ${answer.message}`);
  return answer.value;
}

test("the Accuracy view's tables come across the worker's messages as the calibration code makes them, asked once", async () => {
  const client = calibrationClient(inlineCalibrationPort);
  const first = client.accuracy();
  // One promise for the view's every render: React's `use` suspends on a new one.
  expect(client.accuracy()).toBe(first);
  const tables = value(await first);
  expect(tables).toEqual(accuracyTables());
  // The README's figures: 57 startups of 0.19 and older, none that failed predicted to fit, none that ran refused.
  expect(tables.overview.cases).toBe(57);
  expect(tables.overview.falseFits).toEqual([]);
  expect(tables.overview.falseRefusals).toEqual([]);
  expect(tables.releases[0]?.release).toBe("vLLM 0.29");
});

test("the speed tab's rows come across as the calibration code makes them: llama.cpp decode within the README's 5.1% held out", async () => {
  const tables = value(await calibrationClient(inlineCalibrationPort).speed());
  expect(tables).toEqual(speedAccuracyTables());
  const decode = tables.groups.find((g) => g.engine === "llamacpp" && g.figure === "decode");
  expect(decode?.checking.medianPct).toBeLessThanOrEqual(5.1);
});

test("a pasted vLLM log is read in the worker and set beside the option: what vLLM printed, and its overhead to use", async () => {
  const client = calibrationClient(inlineCalibrationPort);
  const comparison = value(await client.compareLog({ text: quote(VLLM_019_LLAMA8B_H100), option, workload }));
  expect(comparison.engine).toBe("vllm");
  // "Model loading took 14.99 GiB memory"; "GPU KV cache size: 476,016 tokens".
  expect(comparison.rows.find((r) => r.figure === "Weights per card")?.measured).toBe(14.99);
  expect(comparison.rows.find((r) => r.figure === "KV tokens")?.measured).toBe(476_016);
  expect(comparison.overhead).toEqual({ engine: "vllm", gib: 2.13 });
});

test("a text with no engine's line says so, in words, and offers nothing to use", async () => {
  const client = calibrationClient(inlineCalibrationPort);
  const comparison = value(
    await client.compareLog({ text: "GET /v1/models 200 OK\nGET /health 200 OK", option, workload }),
  );
  expect(comparison.engine).toBeNull();
  expect(comparison.notes).toEqual([
    "No line of this text looks like a vLLM, llama.cpp or SGLang startup log: paste the lines the engine printed while it loaded.",
  ]);
  expect(comparison.overhead).toBeNull();
});

test("a worker that fails to start: what was asked is answered on the page's thread instead, and said", async () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const broken = (): CalibrationPort => {
    let fail: (why: string) => void = () => undefined;
    return {
      post: () => setTimeout(() => fail("a CSP without worker-src"), 0),
      listen: (on) => {
        fail = on.fail;
      },
    };
  };
  const client = calibrationClient(broken);
  const asked = client.compareLog({ text: quote(VLLM_019_LLAMA8B_H100), option, workload });
  expect(value(await asked).overhead).toEqual({ engine: "vllm", gib: 2.13 });
  expect(warn).toHaveBeenCalledWith(expect.stringContaining("a CSP without worker-src"));
  expect(value(await client.accuracy()).overview.cases).toBe(57);
});

test("the worker starts on the first ask, not when the page makes its client", () => {
  const open = vi.fn(inlineCalibrationPort);
  const client = calibrationClient(open);
  expect(open).not.toHaveBeenCalled();
  void client.speed();
  void client.accuracy();
  expect(open).toHaveBeenCalledTimes(1);
});
