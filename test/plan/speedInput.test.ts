/**
 * optionSpeed: a plan option of the real engine, through the adapter, to the
 * speed model. The measured figure is llama.cpp's own CUDA scoreboard
 * (discussion #15013, transcribed; row lcpp-15013-rtx-4090-faon of
 * test/fixtures/speed/measured.jsonl): RTX 4090, Llama-2-7B Q4_0 (3.82 GB),
 * tg128 188.96 t/s, pp512 14,770.63 t/s.
 */
import { describe, expect, test } from "vitest";
import { plan, DEFAULT_WORKLOAD } from "../../src/plan/index.ts";
import { llama2Q4, llama2Shape } from "./llama2q4.ts";
import { optionSpeed, speedModelOf, computeFormatOf, type SpeedContext } from "../../src/plan/index.ts";
import type { Cluster } from "../../src/plan/index.ts";

const shape = llama2Shape;
const q4 = llama2Q4;
const cluster: Cluster = {
  nodes: [
    { id: "desk", fabric: "", hostMemGib: 64, hostFreeGib: 48, devices: [{ class: "rtx4090-24g", count: 1, free: 1 }] },
  ],
};
const tg128: SpeedContext = {
  inputTokens: 1,
  outputTokens: 128,
  sequences: 1,
  kvElementBytes: 2,
  fabricGBps: null,
  hostBandwidthGBps: null,
};

function theOption() {
  const p = plan({ repo: "meta-llama/Llama-2-7b-hf", revision: "", shape, artifacts: [q4] }, cluster, DEFAULT_WORKLOAD);
  const o = p.options.find((x) => x.engine === "llamacpp" && !x.placement.cpu);
  if (o === undefined) throw new Error(`no llama.cpp option on the RTX 4090: ${JSON.stringify(p.refused)}`);
  return o;
}

describe("optionSpeed on a real plan option", () => {
  test("RTX 4090, Llama-2-7B Q4_0: decode within 15% of the scoreboard's 188.96 t/s (tg128)", () => {
    const e = optionSpeed(theOption(), shape, q4, tg128);
    expect(e.decodeTps).not.toBeNull();
    expect(Math.abs((e.decodeTps as number) / 188.96 - 1)).toBeLessThanOrEqual(0.15);
    expect(e.basis).toContain("llamacpp on rtx4090-24g (gddr, 1008 GB/s, figures not read on the vendor's own page)");
  });

  test("the same option's pp512 within 60% of the scoreboard's 14,770.63 t/s (its group's p90 band)", () => {
    const e = optionSpeed(theOption(), shape, q4, { ...tg128, inputTokens: 512, outputTokens: 1 });
    expect(Math.abs((e.prefillTps as number) / 14770.63 - 1)).toBeLessThanOrEqual(0.6);
  });

  test("a precomputed model gives the same figures (the per-artifact cache the plan may keep)", () => {
    const o = theOption();
    expect(optionSpeed(o, shape, q4, tg128, speedModelOf(shape, q4, 2))).toEqual(optionSpeed(o, shape, q4, tg128));
  });

  test("a model without a parameter count is not guessed: null, in words", () => {
    const e = optionSpeed(theOption(), { ...shape, paramsTotal: null }, q4, tg128);
    expect(e.decodeTps).toBeNull();
    expect(e.basis).toContain("the parameter count is unknown");
  });

  test.each([
    [{ format: "gguf", quant: "Q4_K_M" }, "int8"],
    [{ format: "gguf", quant: "F16" }, "fp16"],
    [{ format: "gguf", quant: "MXFP4" }, "int8"],
    [{ format: "safetensors", quant: "fp8" }, "fp8"],
    [{ format: "safetensors", quant: "nvfp4" }, "fp4"],
    [{ format: "safetensors", quant: "bf16" }, "bf16"],
  ] as const)("%o runs on %s", (a, format) => {
    expect(computeFormatOf(a)).toBe(format);
  });
});
