/**
 * What the page shows of the engines comes with the plan (issue 19): each option whose commands are made carries
 * its engine's own default share of its card and by how much it misses, and the plan the engines' defaults on the
 * cluster's largest card. The page's thread runs no engine code to show them.
 */
import { expect, test } from "vitest";
import { plan, readModel, shortfallOf, withWorkload, type Cluster, type Workload } from "../../src/plan/index.ts";
import { LLAMA70_Q4KM, RTX4090_AND_3090 } from "./splitFixture.ts";
import { snapshotOf } from "./fixture.ts";

const snapshot = snapshotOf("meta-llama__Llama-3.1-8B-Instruct");
const input = { repo: snapshot.repo, revision: snapshot.sha, ...readModel(snapshot) };
/** One node of 4 B200 (the 2026 SGLang logs' card: test/fixtures/calibration/newer*.jsonl). */
const B200_NODE: Cluster = {
  nodes: [
    { id: "n", fabric: "", hostMemGib: 2048, hostFreeGib: 2000, devices: [{ class: "b200-180g", count: 4, free: 4 }] },
  ],
};
const base: Workload = { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {} };

test("an option's greyed share is its engine's own default on its card, whatever share the user gave", () => {
  // The user's shares move what is planned, never the default the form greys in beside them.
  const p = plan(input, B200_NODE, { ...base, settings: { gpuMemoryUtilization: 0.5, memFractionStatic: 0.6 } });
  const vllm = p.options.find((o) => o.engine === "vllm");
  // vLLM 0.21+ CacheConfig.gpu_memory_utilization = 0.92 (vllm/config/cache.py, PR #38284).
  expect(vllm?.shareDefault).toEqual({ setting: "gpuMemoryUtilization", value: 0.92 });
  // SGLang 2026 on a B200: mem_fraction_static 0.854 at TP1 and 0.852 at TP4, as its two logs imply (settings.test.ts).
  const sglang = (tp: number) =>
    p.options.find((o) => o.engine === "sglang" && o.placement.tensorParallel === tp)?.shareDefault;
  expect(sglang(1)).toEqual({ setting: "memFractionStatic", value: 0.854 });
  expect(sglang(4)).toEqual({ setting: "memFractionStatic", value: 0.852 });
  // llama.cpp takes no share of the card (Llama-3.3-70B's Q4_K_M GGUF split over a 4090 and a 3090).
  const llamacpp = plan(LLAMA70_Q4KM, RTX4090_AND_3090, base).options.filter((o) => o.engine === "llamacpp");
  expect(llamacpp.length).toBeGreaterThan(0);
  expect(llamacpp.every((o) => o.shareDefault === undefined && o.shortfall !== undefined)).toBe(true);
  // By how much each misses is the engine's own shortfall, made with the commands.
  expect(p.options.every((o) => o.shortfall !== undefined && o.shortfall.words === shortfallOf(o).words)).toBe(true);
});

test("the plan's defaults are for the cluster's largest card and the settings' release, and follow a release named on the slider's path", () => {
  const p = plan(input, B200_NODE, base);
  expect(p.settingDefaults.cardMemoryBytes).toBeGreaterThan(170 * 2 ** 30);
  // vLLM --kv-cache-dtype takes fp8 (vllm/config/cache.py CacheDType), llama.cpp -ctk the ggml types.
  expect(p.settingDefaults.engines.vllm.kvDtypes).toEqual(["auto", "fp8"]);
  expect(p.settingDefaults.engines.llamacpp.kvDtypes).toEqual(["auto", "f16", "q8_0", "q4_0"]);
  expect(p.settingDefaults.vllmRelease.chosen).toBe("");
  expect(p.settingDefaults.vllmRelease.assumption).toBe("vLLM 0.29 and later assumed (no release named)");
  // A slider move keeps the same object (the worker sends it once); a release named makes its own.
  expect(withWorkload(p, { ...base, contextTokens: 4096 }).settingDefaults).toBe(p.settingDefaults);
  const older = withWorkload(p, { ...base, settings: { vllmVersion: "0.15.0" } }).settingDefaults;
  expect(older.vllmRelease.chosen).toBe("0.16");
  expect(older.vllmRelease.assumption).toBe("vLLM 0.15, planned as 0.11.1 to 0.16");
  // vLLM through 0.20: CacheConfig.gpu_memory_utilization = 0.9.
  expect(older.engines.vllm.defaults["gpuMemoryUtilization"]?.value).toBe(0.9);
});

test("mid-slide, only the options whose commands are made carry the form's facts", () => {
  const p = plan(input, B200_NODE, base);
  const opened = p.options[0]?.id ?? "";
  const moved = withWorkload(p, { ...base, contextTokens: 16_384 }, { commandsFor: [opened] });
  expect(moved.options.filter((o) => o.shortfall !== undefined).map((o) => o.id)).toEqual([opened]);
});
