/**
 * Each engine's defaults, and that every setting a serve command sets moves
 * the plan the way the engine moves its memory (issue 8).
 */
import { describe, expect, test } from "vitest";
import { DEFAULT_WORKLOAD, engineDefaults, kvDtypeAllowed, resolveSettings, vllmProfileFor, vllmReleaseChoiceOf, vllmReleaseChoices } from "../../src/plan/settings.ts";
import { plan } from "../../src/plan/options.ts";
import { withWorkload } from "../../src/plan/context.ts";
import { cardMemoryBytes } from "../../src/plan/cards.ts";
import type { Engine, EngineSettings, PlanOption } from "../../src/plan/types.ts";
import { GIB, cards, node, originalOf, shapeOf } from "./planning-fixtures.ts";

const h100 = cardMemoryBytes("h100-80g") ?? 0;
const l40s = cardMemoryBytes("l40s-48g") ?? 0;

describe("defaults, each with its source", () => {
  test.each(["vllm", "sglang", "llamacpp", "freetoken"] as Engine[])("%s: every default names where it came from", (engine) => {
    const d = engineDefaults(engine, h100);
    expect(Object.keys(d).length).toBeGreaterThan(1);
    for (const v of Object.values(d)) {
      expect(v.flag).not.toBe("");
      expect(v.source.length).toBeGreaterThan(20);
    }
  });

  test("vLLM: utilization 0.9 of the total; 1024 sequences and 8192 batched tokens on an H100, 256 and 2048 on smaller cards and on A100s", () => {
    expect(resolveSettings("vllm", h100, {}).gpuMemoryUtilization).toBe(0.9);
    expect(resolveSettings("vllm", h100, {}, 1, 1, "h100-80g")).toMatchObject({ maxNumSeqs: 1024, maxNumBatchedTokens: 8192 });
    expect(resolveSettings("vllm", l40s, {}, 1, 1, "l40s-48g")).toMatchObject({ maxNumSeqs: 256, maxNumBatchedTokens: 2048 });
    expect(resolveSettings("vllm", cardMemoryBytes("a100-80g") ?? 0, {}, 1, 1, "a100-80g")).toMatchObject({ maxNumSeqs: 256, maxNumBatchedTokens: 2048 });
  });

  test("SGLang keeps at least 10 GiB outside its fraction on cards above 60 GB", () => {
    const f = resolveSettings("sglang", h100, {}).memFractionStatic;
    expect((1 - f) * h100).toBeGreaterThanOrEqual(10 * GIB);
    expect(f).toBeGreaterThan(0.7);
  });

  test("llama.cpp: f16 cache, -ub 512, -b 2048, a slot per sequence", () => {
    expect(engineDefaults("llamacpp", h100)).toMatchObject({ cacheTypeK: { value: "f16" }, ubatch: { value: 512 }, batch: { value: 2048 } });
    expect(resolveSettings("llamacpp", h100, {}, 1, 4).parallel).toBe(4);
  });

  test("the KV dtypes each engine takes", () => {
    expect(kvDtypeAllowed("vllm", "fp8")).toBe(true);
    expect(kvDtypeAllowed("vllm", "q8_0")).toBe(false);
    expect(kvDtypeAllowed("llamacpp", "q4_0")).toBe(true);
    expect(kvDtypeAllowed("llamacpp", "fp8")).toBe(false);
    expect(kvDtypeAllowed("freetoken", "fp8")).toBe(false);
  });
});

describe("settings move the plan as they move the engine (Llama-3.1-8B on one H100)", () => {
  const repo = "meta-llama/Llama-3.1-8B-Instruct";
  const p = plan({ repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] }, { nodes: [node("n", "", [cards("h100-80g", 1)])] }, DEFAULT_WORKLOAD);
  const vllm = (settings: EngineSettings, kvDtype: "auto" | "fp8" = "auto"): PlanOption => {
    const o = withWorkload(p, { ...DEFAULT_WORKLOAD, kvDtype, settings }).options.find((x) => x.engine === "vllm");
    if (!o) throw new Error("no vLLM option");
    return o;
  };

  test("--gpu-memory-utilization 0.95: the pool the 0.19 log printed, 58.11 GiB and 476,016 tokens", () => {
    const o = vllm({ gpuMemoryUtilization: 0.95 });
    expect(o.kvPoolBytes / GIB).toBeCloseTo(58.11, 1);
    expect(Math.abs(o.kvPoolTokens - 476016) / 476016).toBeLessThan(0.005);
  });

  test("--kv-cache-dtype fp8 doubles the tokens (952,032 in the log)", () => {
    const o = vllm({ gpuMemoryUtilization: 0.95 }, "fp8");
    expect(Math.abs(o.kvPoolTokens - 952032) / 952032).toBeLessThan(0.005);
  });

  test("--dtype float32 doubles the weights (29.98 GiB in the log) and the cache's element", () => {
    const o = vllm({ gpuMemoryUtilization: 0.95, dtype: "float32" });
    expect((o.cards[0]?.weightsBytes ?? 0) / GIB).toBeCloseTo(29.98, 1);
    expect(Math.abs(o.kvPoolTokens - 175296) / 175296).toBeLessThan(0.01);
  });

  test("--quantization fp8 halves the linear layers, not the embedding (8.49 GiB in the log)", () => {
    expect((vllm({ gpuMemoryUtilization: 0.95, quantization: "fp8" }).cards[0]?.weightsBytes ?? 0) / GIB).toBeCloseTo(8.49, 1);
  });

  test("--max-num-seqs 64 shrinks the sampler's activation peak, so the pool grows", () => {
    expect(vllm({ maxNumSeqs: 64 }).kvPoolBytes).toBeGreaterThan(vllm({}).kvPoolBytes + 0.5 * GIB);
  });

  test("a measured overhead from a pasted log replaces the modelled one", () => {
    const o = vllm({ measuredOverheadGib: { vllm: 5 } });
    expect(o.cards[0]?.engineBytes).toBe(5 * GIB);
  });
});

describe("the vLLM release a plan is for", () => {
  // The ranges follow vLLM's history: FlashInfer's sampler was on by default in V1 until PR #26859
  // (merged 2025-10-15, after 0.11.0 of 2025-10-02); the Triton top-k/top-p kernel (PR #33538)
  // replaced the sort in 0.17, where the Qwen3-14B sweep's activation peak fell from 5.64 to 2.23 GiB.
  test.each([
    ["0.19.0", "0.17"], ["v0.19", "0.17"], ["0.17.0rc1", "0.17"], ["0.18.1+cu128", "0.17"], ["1.0", "0.17"],
    ["0.16", "0.11.1"], ["0.15.0", "0.11.1"], ["0.11.1", "0.11.1"], ["0.12.0.post1", "0.11.1"],
    ["0.11.0", "0.10"], ["0.11", "0.10"], ["0.10.1.1", "0.10"], [" 0.10 ", "0.10"],
  ])("%s plans with the %s profile", (version, id) => {
    const p = vllmProfileFor(version);
    expect("error" in p ? p.error : p.id).toBe(id);
  });

  test.each([
    ["0.9.2", /older than the V1 engine/], ["0.6.3", /0\.10 and later/], ["latest", /not a vLLM release/], ["0.15.x", /not a vLLM release/],
    ["", /not a vLLM release/], ["0.1234.0", /not a vLLM release/], ["0.15.0.0.1", /not a vLLM release/],
  ])("%j is refused in words: %s", (version, message) => {
    const p = vllmProfileFor(version);
    expect("error" in p ? p.error : "a profile").toMatch(message);
  });

  test("absent, or a release the engine cannot read, plans as the calibrated 0.17+", () => {
    expect(resolveSettings("vllm", h100, {}).vllmProfile.id).toBe("0.17");
    expect(resolveSettings("vllm", h100, { vllmVersion: "soon" }).vllmProfile.id).toBe("0.17");
    expect(engineDefaults("vllm", h100)["vllmVersion"]?.value).toBe("0.19");
  });

  test("the page's select offers each range once and shows a typed release under its range", () => {
    const choices = vllmReleaseChoices();
    expect(choices.map((c) => c.value)).toEqual(["0.19", "0.16", "0.10"]);
    expect(new Set(choices.map((c) => c.label)).size).toBe(3);
    expect(vllmReleaseChoiceOf("0.15.0")).toBe("0.16");
    expect(vllmReleaseChoiceOf("0.10.1.1")).toBe("0.10");
    expect(vllmReleaseChoiceOf(undefined)).toBe("");
    expect(vllmReleaseChoiceOf("nonsense")).toBe("");
  });

  test("Qwen3-14B on one H100 at util 0.95: 0.15's pool and 0.18's, as their logs printed them (41.94 and 45.23 GiB)", () => {
    const repo = "Qwen/Qwen3-14B";
    const p = plan({ repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] }, { nodes: [node("n", "", [cards("h100-80g", 1)])] }, DEFAULT_WORKLOAD);
    const pool = (settings: EngineSettings) => withWorkload(p, { ...DEFAULT_WORKLOAD, settings }).options.find((o) => o.engine === "vllm")?.kvPoolBytes ?? 0;
    expect(Math.abs(pool({ gpuMemoryUtilization: 0.95, vllmVersion: "0.15.0" }) / GIB - 41.94)).toBeLessThan(0.42);
    expect(Math.abs(pool({ gpuMemoryUtilization: 0.95 }) / GIB - 45.23)).toBeLessThan(0.45);
  });
});

test("moving the KV dtype to one an engine does not take makes its options unfit, not silently 16-bit", () => {
  const repo = "meta-llama/Llama-3.1-8B-Instruct";
  const p = plan({ repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] }, { nodes: [node("n", "", [cards("h100-80g", 1)])] }, DEFAULT_WORKLOAD);
  const moved = withWorkload(p, { ...DEFAULT_WORKLOAD, kvDtype: "q8_0" });
  expect(moved.options.find((o) => o.engine === "vllm")?.fits).toBe(false);
  expect(withWorkload(p, { ...DEFAULT_WORKLOAD, kvDtype: "fp8" }).options.find((o) => o.engine === "vllm")?.fits).toBe(true);
});
