// @vitest-environment happy-dom
/**
 * Calibrate from a log, typed into in a DOM (happy-dom): the log goes to the calibration worker's code
 * (across the clone, inlineCalibrationPort), its comparison is drawn when it comes back, the last one stays
 * drawn while a newer paste is read, and of the pastes made meanwhile only the newest is read next. Bad input
 * (an empty file, one too large, a paste past the form's limit) is said in words, and the last comparison stays.
 */
import { act } from "react";
import { expect, test } from "vitest";
import { calibrationClient, inlineCalibrationPort } from "../../src/app/calibrationClient.ts";
import type { LogAsk } from "../../src/app/calibrationWire.ts";
import { CalibrateFromLog } from "../../src/ui/CalibrateFromLog.tsx";
import { option, quote, VLLM_019_LLAMA8B_H100, workload } from "../calibration/llama8bH100.ts";
import { liveRoot } from "./liveRoot.ts";

const dom = liveRoot();

/** The form wired to the worker's replies, and every log it asked to be read, in order. */
function renderForm(): string[] {
  const client = calibrationClient(inlineCalibrationPort);
  const asked: string[] = [];
  const compare = (ask: LogAsk) => {
    asked.push(ask.text);
    return client.compareLog(ask);
  };
  act(() =>
    dom.root.render(<CalibrateFromLog option={option} workload={workload} compare={compare} onUse={() => undefined} />),
  );
  return asked;
}

function paste(text: string) {
  const area = dom.host.querySelector("textarea");
  if (!area) throw new Error("no log field");
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
  act(() => {
    setter?.call(area, text);
    area.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Waits (acting) until the form's text matches: the first ask loads the calibration code (the engine with it). */
async function until(what: RegExp): Promise<void> {
  const start = Date.now();
  while (!what.test(dom.host.textContent ?? "") && Date.now() - start < 20_000)
    await act(() => new Promise((done) => setTimeout(done, 5)));
  expect(dom.host.textContent).toMatch(what);
}

test("a pasted vLLM log is drawn beside the plan once read, and an emptied field draws nothing", async () => {
  renderForm();
  paste(quote(VLLM_019_LLAMA8B_H100));
  await until(/Read a vllm log\./);
  expect(dom.host.textContent).toContain("14.99 GiB");
  expect(dom.host.textContent).toContain("Use the measured overhead (2.13 GiB a card) for vllm in the plan");
  paste("   ");
  expect(dom.host.textContent).not.toContain("Read a vllm log.");
});

test("a text no engine printed says so in words", async () => {
  renderForm();
  paste("GET /v1/models 200 OK");
  await until(/No engine recognised\./);
  expect(dom.host.textContent).toContain("No line of this text looks like a vLLM, llama.cpp or SGLang startup log");
});

test("pastes made while one is read: the last comparison stays drawn, and only the newest is read next", async () => {
  const asked = renderForm();
  paste(quote(VLLM_019_LLAMA8B_H100));
  await until(/Read a vllm log\./);
  // Three edits before the worker answers the first: the vLLM comparison stays on screen meanwhile.
  paste("GET /v1/models 200 OK");
  paste("GET /health 200 OK");
  expect(dom.host.textContent).toContain("Read a vllm log.");
  paste("GET /metrics 200 OK");
  await until(/No engine recognised\./);
  expect(asked).toEqual([quote(VLLM_019_LLAMA8B_H100), "GET /v1/models 200 OK", "GET /metrics 200 OK"]);
});

/** Opens `file` in the form's file field, as a pick does. */
async function openFile(file: File) {
  const input = dom.host.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error("no file field");
  Object.defineProperty(input, "files", { value: [file], configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event("change", { bubbles: true }));
    await new Promise((done) => setTimeout(done, 0));
  });
}

test("an empty file, or one too large to be a startup, is refused in words and the last comparison stays", async () => {
  renderForm();
  await openFile(new File([quote(VLLM_019_LLAMA8B_H100)], "vllm.log", { type: "text/plain" }));
  await until(/Read a vllm log\./);
  await openFile(new File(["\n\n"], "empty.log", { type: "text/plain" }));
  await until(/empty\.log is empty: open the log the engine printed while it started/);
  expect(dom.host.textContent).toContain("14.99 GiB");
  // A day of request logs: 50 MB and one byte, over the form's 50 MB.
  await openFile(new File([new Uint8Array(50_000_001)], "day.log", { type: "text/plain" }));
  await until(/day\.log is 50\.0 MB: pick the engine's startup log, which is far smaller/);
  expect(dom.host.textContent).toContain("14.99 GiB");
});

test("a paste past 2,000,000 characters is read to there, and said so: the startup lines come first", async () => {
  renderForm();
  // The startup, then request lines as a server goes on printing them, to a little past the form's 2,000,000.
  const request = 'INFO:     127.0.0.1:51234 - "POST /v1/completions HTTP/1.1" 200 OK\n';
  paste(`${quote(VLLM_019_LLAMA8B_H100)}\n${request.repeat(Math.ceil(2_000_000 / request.length))}`);
  await until(/Read a vllm log\./);
  expect(dom.host.textContent).toContain("Only the first 2,000,000 characters are read");
  expect(dom.host.textContent).toContain("14.99 GiB");
});
