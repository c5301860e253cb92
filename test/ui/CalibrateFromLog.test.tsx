/**
 * Calibrate from a log, rendered: the vLLM 0.19 startup lines of
 * Llama-3.1-8B-Instruct on an H100 (test/fixtures/logs/calibration-quotes.json)
 * beside the plan's option for the same run.
 */
import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { compareLog } from "../../src/calibration/calibrate.ts";
import { CalibrateFromLog, CalibrationReport } from "../../src/ui/CalibrateFromLog.tsx";
import { option, quote, VLLM_019_LLAMA8B_H100, workload } from "../calibration/llama8bH100.ts";

test("the form starts with a labelled place to paste the log", () => {
  const html = renderToStaticMarkup(
    <CalibrateFromLog
      option={option}
      workload={workload}
      compare={(ask) => Promise.resolve({ ok: true, value: compareLog(ask.text, ask.option, ask.workload) })}
      onUse={() => undefined}
    />,
  );
  expect(html).toMatch(/<label[^>]*>Startup log<\/label>/);
  expect(html).toContain("<textarea");
});

test("a vLLM log: measured beside predicted, and the offer to use its overhead", () => {
  const comparison = compareLog(quote(VLLM_019_LLAMA8B_H100), option, workload);
  const html = renderToStaticMarkup(
    <CalibrationReport comparison={comparison} workload={workload} onUse={() => undefined} />,
  );
  expect(html).toContain("Read a vllm log.");
  expect(html).toMatch(
    /<th scope="row">Weights per card<\/th><td class="num">[\d.]+ GiB<\/td><td class="num">14\.99 GiB<\/td>/,
  );
  expect(html).toContain("476,016");
  expect(html).toContain("Use the measured overhead (2.13 GiB a card) for vllm in the plan");
});

test("once used, the overhead is said to be in the plan rather than offered again", () => {
  const using = { ...workload, settings: { ...workload.settings, measuredOverheadGib: { vllm: 2.13 } } };
  const comparison = compareLog(quote(VLLM_019_LLAMA8B_H100), option, using);
  const html = renderToStaticMarkup(
    <CalibrationReport comparison={comparison} workload={using} onUse={() => undefined} />,
  );
  expect(html).toContain("The plan uses this measured overhead (2.13 GiB a card) for vllm.");
  expect(html).not.toContain("<button");
});

test("an SGLang log prints no overhead, so none is offered", () => {
  const comparison = compareLog(quote("sglang-dp8attn-b200-deepseek-v3.2-exp-main"), option, workload);
  const html = renderToStaticMarkup(
    <CalibrationReport comparison={comparison} workload={workload} onUse={() => undefined} />,
  );
  expect(html).not.toContain("Use the measured overhead");
  expect(html).toContain("Not in the log:");
});

test("the status line says how the log's lines were read: which release's format (formatRead)", () => {
  const old = compareLog(quote(VLLM_019_LLAMA8B_H100), option, workload);
  const oldHtml = renderToStaticMarkup(
    <CalibrationReport comparison={old} workload={workload} onUse={() => undefined} />,
  );
  expect(oldHtml).toContain(
    "Read a vllm log. Its lines were read as vLLM 0.19 to 0.20 (Total non KV cache memory line).",
  );
  // The 0.27.1 Qwen3-235B-FP8 startup of test/fixtures/calibration/newer.jsonl (its source URL is in the record).
  const newer = readFileSync(new URL("../fixtures/calibration/newer.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { id: string; quote: string[] })
    .find((r) => r.id === "vllm0271-rtxpro6000-qwen3-235b-a22b-fp8-tp4-32768");
  if (!newer) throw new Error("no 0.27.1 record");
  const html = renderToStaticMarkup(
    <CalibrationReport
      comparison={compareLog(newer.quote.join("\n"), option, workload)}
      workload={workload}
      onUse={() => undefined}
    />,
  );
  expect(html).toContain("Its lines were read as vLLM 0.27 or later (consumed/peak/CUDAGraph line");
});
