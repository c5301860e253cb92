/**
 * Calibrate from a log, rendered: the vLLM 0.19 startup lines of
 * Llama-3.1-8B-Instruct on an H100 (test/fixtures/logs/calibration-quotes.json)
 * beside the plan's option for the same run.
 */
import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { plan } from "../../src/plan/index.ts";
import { parseStartupLog } from "../../src/calibration/logparse.ts";
import { readModel } from "../../src/plan/index.ts";
import { CalibrateFromLog, CalibrationReport } from "../../src/ui/CalibrateFromLog.tsx";
import { snapshotOf } from "../plan/fixture.ts";

const RECORDS = (
  JSON.parse(readFileSync(new URL("../fixtures/logs/calibration-quotes.json", import.meta.url), "utf8")) as {
    records: { id: string; quote: string[] }[];
  }
).records;

function quote(id: string): string {
  const r = RECORDS.find((x) => x.id === id);
  if (!r) throw new Error(`no record ${id}`);
  return r.quote.join("\n");
}

const snapshot = snapshotOf("meta-llama__Llama-3.1-8B-Instruct");
const { shape, artifacts } = readModel(snapshot);
const workload = {
  contextTokens: 8192,
  sequences: 1,
  kvDtype: "auto" as const,
  settings: { gpuMemoryUtilization: 0.95 },
};
const p = plan(
  { repo: snapshot.repo, revision: snapshot.sha, shape, artifacts },
  {
    nodes: [
      {
        id: "h1",
        fabric: "",
        hostMemGib: 1024,
        hostFreeGib: 1000,
        devices: [{ class: "h100-80g", count: 1, free: 1 }],
      },
    ],
  },
  workload,
);
const found = p.options.find(
  (o) => o.engine === "vllm" && o.artifact === "original" && o.placement.tensorParallel === 1,
);
if (!found) throw new Error("no vLLM TP1 option for Llama-3.1-8B on an H100");
const option = found;

test("the form starts with a labelled place to paste the log", () => {
  const html = renderToStaticMarkup(<CalibrateFromLog option={option} workload={workload} onUse={() => undefined} />);
  expect(html).toMatch(/<label[^>]*>Startup log<\/label>/);
  expect(html).toContain("<textarea");
});

test("a vLLM log: measured beside predicted, and the offer to use its overhead", () => {
  const reading = parseStartupLog(quote("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192"));
  const html = renderToStaticMarkup(
    <CalibrationReport option={option} workload={workload} reading={reading} onUse={() => undefined} />,
  );
  expect(html).toContain("Read a vllm log.");
  expect(html).toMatch(
    /<th scope="row">Weights per card<\/th><td class="num">[\d.]+ GiB<\/td><td class="num">14\.99 GiB<\/td>/,
  );
  expect(html).toContain("476,016");
  expect(html).toContain("Use the measured overhead (2.13 GiB a card) for vllm in the plan");
});

test("once used, the overhead is said to be in the plan rather than offered again", () => {
  const reading = parseStartupLog(quote("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192"));
  const using = { ...workload, settings: { ...workload.settings, measuredOverheadGib: { vllm: 2.13 } } };
  const html = renderToStaticMarkup(
    <CalibrationReport option={option} workload={using} reading={reading} onUse={() => undefined} />,
  );
  expect(html).toContain("The plan uses this measured overhead (2.13 GiB a card) for vllm.");
  expect(html).not.toContain("<button");
});

test("an SGLang log prints no overhead, so none is offered", () => {
  const reading = parseStartupLog(quote("sglang-dp8attn-b200-deepseek-v3.2-exp-main"));
  const html = renderToStaticMarkup(
    <CalibrationReport option={option} workload={workload} reading={reading} onUse={() => undefined} />,
  );
  expect(html).not.toContain("Use the measured overhead");
  expect(html).toContain("Not in the log:");
});

test("the status line says how the log's lines were read: which release's format (formatRead)", () => {
  const old = parseStartupLog(quote("vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192"));
  const oldHtml = renderToStaticMarkup(
    <CalibrationReport option={option} workload={workload} reading={old} onUse={() => undefined} />,
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
      option={option}
      workload={workload}
      reading={parseStartupLog(newer.quote.join("\n"))}
      onUse={() => undefined}
    />,
  );
  expect(html).toContain("Its lines were read as vLLM 0.27 or later (consumed/peak/CUDAGraph line");
});
