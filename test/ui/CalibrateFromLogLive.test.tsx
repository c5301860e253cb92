// @vitest-environment happy-dom
/**
 * Calibrate from a log, typed into in a DOM (happy-dom): the log goes to the calibration worker's code
 * (across the clone, inlineCalibrationPort), its comparison is drawn when it comes back, the last one stays
 * drawn while a newer paste is read, and of the pastes made meanwhile only the newest is read next.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, test } from "vitest";
import { calibrationClient, inlineCalibrationPort } from "../../src/app/calibrationClient.ts";
import type { LogAsk } from "../../src/app/calibrationWire.ts";
import { CalibrateFromLog } from "../../src/ui/CalibrateFromLog.tsx";
import { option, quote, VLLM_019_LLAMA8B_H100, workload } from "../calibration/llama8bH100.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

/** The form wired to the worker's replies, and every log it asked to be read, in order. */
function renderForm(): string[] {
  const client = calibrationClient(inlineCalibrationPort);
  const asked: string[] = [];
  const compare = (ask: LogAsk) => {
    asked.push(ask.text);
    return client.compareLog(ask);
  };
  act(() =>
    root.render(<CalibrateFromLog option={option} workload={workload} compare={compare} onUse={() => undefined} />),
  );
  return asked;
}

function paste(text: string) {
  const area = host.querySelector("textarea");
  if (!area) throw new Error("no log field");
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
  act(() => {
    setter?.call(area, text);
    area.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/** Waits (acting) until the form's text matches. */
async function until(what: RegExp): Promise<void> {
  for (let i = 0; i < 200 && !what.test(host.textContent ?? ""); i++)
    await act(() => new Promise((done) => setTimeout(done, 5)));
  expect(host.textContent).toMatch(what);
}

test("a pasted vLLM log is drawn beside the plan once read, and an emptied field draws nothing", async () => {
  renderForm();
  paste(quote(VLLM_019_LLAMA8B_H100));
  await until(/Read a vllm log\./);
  expect(host.textContent).toContain("14.99 GiB");
  expect(host.textContent).toContain("Use the measured overhead (2.13 GiB a card) for vllm in the plan");
  paste("   ");
  expect(host.textContent).not.toContain("Read a vllm log.");
});

test("a text no engine printed says so in words", async () => {
  renderForm();
  paste("GET /v1/models 200 OK");
  await until(/No engine recognised\./);
  expect(host.textContent).toContain("No line of this text looks like a vLLM, llama.cpp or SGLang startup log");
});

test("pastes made while one is read: the last comparison stays drawn, and only the newest is read next", async () => {
  const asked = renderForm();
  paste(quote(VLLM_019_LLAMA8B_H100));
  await until(/Read a vllm log\./);
  // Three edits before the worker answers the first: the vLLM comparison stays on screen meanwhile.
  paste("GET /v1/models 200 OK");
  paste("GET /health 200 OK");
  expect(host.textContent).toContain("Read a vllm log.");
  paste("GET /metrics 200 OK");
  await until(/No engine recognised\./);
  expect(asked).toEqual([quote(VLLM_019_LLAMA8B_H100), "GET /v1/models 200 OK", "GET /metrics 200 OK"]);
});
