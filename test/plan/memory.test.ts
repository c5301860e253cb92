/**
 * The engines' overheads against what their logs printed
 * (test/fixtures/calibration/measured.jsonl), figure by figure.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  GIB,
  VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK,
  VLLM_PROFILES,
  cudaTotalBytes,
  llamacppComputeBytes,
  vllmActivationBytes,
  vllmMxfp4HopperExpertGrowthBytes,
  vllmNonTorchBytes,
  vllmOutsideBudgetBytes,
  vllmOutsideFloorBytes,
} from "../../src/plan/index.ts";
import { cardMemoryBytes } from "../../src/plan/index.ts";
import { resolveSettings, vllmProfileFor } from "../../src/plan/index.ts";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { CalibrationModel, CalibrationRecord } from "../../src/calibration/accuracy.ts";
import { shapeOf } from "./planning-fixtures.ts";

const dir = new URL("../fixtures/calibration/", import.meta.url);
const records = readFileSync(new URL("measured.jsonl", dir), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as CalibrationRecord);
const models = (
  JSON.parse(readFileSync(new URL("models.json", dir), "utf8")) as { models: Record<string, CalibrationModel> }
).models;
const v019 = records.filter((r) => r.engine_version === "0.19.0");
const h100 = cardMemoryBytes("h100-80g") ?? 0;

test("an H100's CUDA total is what vLLM printed: 79.19 GiB of nvidia-smi's 81,559 MiB", () => {
  expect(cudaTotalBytes(h100) / GIB).toBeCloseTo(79.19, 2);
});

describe("vLLM 0.19's activation peak (torch peak increase of the profile run)", () => {
  // MoE and picture models carry buffers this model does not count (fused-MoE workspaces, the
  // encoder's profile): held to 35%, the rest to 10%.
  test.each(v019.map((r) => [r.id, r] as const))("%s", (_id, r) => {
    const m = models[r.model] as CalibrationModel;
    const shape = shapeFromConfig(m.config, m.params ?? null);
    const s = resolveSettings("vllm", h100, {}, r.tp, 1, "h100-80g");
    const pp = r.pp ?? 1;
    const predicted = vllmActivationBytes(shape, s, /float32/.test(r.dtype) ? 4 : 2, pp === 1, pp) / GIB;
    const measured = r.measured["torch_peak_activation_gib"] as number;
    const tolerance = shape.moe || shape.hasVision ? 0.35 : 0.1;
    expect(Math.abs(predicted / measured - 1)).toBeLessThanOrEqual(tolerance);
  });
});

test("non-torch memory: 0.25 GiB at TP1, 2.1 at TP ≥ 2, 0.07 on a pipeline stage, within each run's printed figure ± 0.22", () => {
  for (const r of v019) {
    const measured = r.measured["non_torch_increase_gib"] as number;
    expect(Math.abs(vllmNonTorchBytes(r.tp, r.pp ?? 1) / GIB - measured)).toBeLessThanOrEqual(0.22);
  }
});

test("outside the budget: the floor is under every run's context + graph pool, the typical figure near their mean", () => {
  const outside = v019.map((r) => ({
    r,
    sum: (r.measured["init_non_torch_memory_gib"] as number) + (r.measured["cuda_graph_pool_actual_gib"] as number),
  }));
  for (const { r, sum } of outside) {
    const moe = /mixtral|kimi|gpt-oss|moe/i.test(r.model);
    expect(vllmOutsideFloorBytes(r.tp, r.pp ?? 1, false, moe) / GIB).toBeLessThanOrEqual(sum + 0.01);
  }
  const mean = outside.reduce((s, x) => s + x.sum, 0) / outside.length;
  const typical =
    v019.reduce((s, r) => {
      const m = models[r.model] as CalibrationModel;
      const layers = shapeFromConfig(m.config, m.params ?? null).layers / (r.pp ?? 1);
      return s + vllmOutsideBudgetBytes(r.tp, r.pp ?? 1, false, /mixtral|kimi|gpt-oss|moe/i.test(r.model), layers);
    }, 0) /
    v019.length /
    GIB;
  expect(Math.abs(typical - mean)).toBeLessThan(0.15);
});

describe("the CUDA-graph pool of a mixture of experts (vLLM 0.19's cuda_graph_pool_actual_gib)", () => {
  // The MoE term is EMPIRICAL (fitted on these figures; no source term found): what is held here is
  // that it brings every MoE figure closer to its log and leaves every dense one where it was.
  const runs = v019.filter((r) => typeof r.measured["cuda_graph_pool_actual_gib"] === "number");
  const pool = (r: CalibrationRecord, withMoe: boolean): number => {
    const m = models[r.model] as CalibrationModel;
    const shape = shapeFromConfig(m.config, m.params ?? null);
    const pp = r.pp ?? 1;
    const moe = shape.moe;
    const layers = shape.layers / pp;
    const moeLayers = moe ? (moe.moeLayers ?? shape.layers - moe.denseFirstLayers) / pp : 0;
    const picks = withMoe && moe ? moeLayers * moe.routedExperts * moe.expertsPerToken : 0;
    // The pool alone: the budget's outside less its CUDA context (the same for both).
    return (
      (vllmOutsideBudgetBytes(r.tp, pp, false, moe !== null, layers, picks) -
        vllmOutsideBudgetBytes(r.tp, pp, true, moe !== null)) /
      GIB
    );
  };

  test("the sweep logged six MoE pools (Mixtral TP2, Kimi-VL TP1/TP2, gpt-oss-20b TP1/TP2, Qwen1.5-MoE) and dense ones", () => {
    const moe = runs.filter((r) => /mixtral|kimi|gpt-oss|moe/i.test(r.model));
    expect(new Set(moe.map((r) => `${r.model} ${r.tp}`)).size).toBe(6);
    expect(runs.length - moe.length).toBeGreaterThan(20);
  });

  test.each(runs.map((r) => [r.id, r] as const))(
    "%s: the MoE term moves the pool toward the log, never away",
    (_id, r) => {
      const measured = r.measured["cuda_graph_pool_actual_gib"] as number;
      const before = Math.abs(pool(r, false) - measured);
      const after = Math.abs(pool(r, true) - measured);
      if (/mixtral|kimi|gpt-oss|moe/i.test(r.model)) expect(after).toBeLessThan(before);
      else expect(after).toBe(before);
    },
  );

  test("the term lies among what each fused-MoE log holds above the dense line per unit (gpt-oss's MXFP4 path holds more)", () => {
    const perUnit = (r: CalibrationRecord): number => {
      const m = models[r.model] as CalibrationModel;
      const shape = shapeFromConfig(m.config, m.params ?? null);
      const moe = shape.moe;
      const units = moe
        ? (moe.moeLayers ?? shape.layers - moe.denseFirstLayers) * moe.routedExperts * moe.expertsPerToken
        : 0;
      return ((r.measured["cuda_graph_pool_actual_gib"] as number) - pool(r, false)) / units;
    };
    const fused = runs.filter((r) => /mixtral|kimi|moe-a2/i.test(r.model)).map(perUnit);
    expect(fused).toHaveLength(4);
    for (const u of fused) expect(Number.isFinite(u) && u > 0).toBe(true);
    const unit = VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK / GIB;
    expect(unit).toBeGreaterThan(Math.min(...fused));
    expect(unit).toBeLessThan(Math.max(...fused));
    for (const r of runs.filter((x) => /gpt-oss/.test(x.model))) expect(perUnit(r)).toBeGreaterThan(2 * unit);
  });
});

describe("older vLLM releases: each profile against the logs of its range", () => {
  // Runs that printed their activation peak and non-torch memory outside the 0.17+ range:
  // Qwen3-14B on 0.15.0, and llm-d-benchmark's three "pre-v0.17" runs (no version printed).
  const older = records.filter(
    (r) =>
      r.engine === "vllm" &&
      (r.engine_version === "0.15.0" || (r.engine_version === null && /pre-v0\.17/.test(r.notes ?? ""))),
  );

  test("the four runs are in the file", () => {
    expect(older).toHaveLength(4);
  });

  test.each(older.map((r) => [r.id, r] as const))(
    "%s: the sorting sampler's peak within 2%, non-torch within 0.02 GiB",
    (_id, r) => {
      const m = models[r.model] as CalibrationModel;
      const shape = shapeFromConfig(m.config, m.params ?? null);
      const s = resolveSettings("vllm", h100, { vllmVersion: r.engine_version ?? "0.16" }, r.tp, 1, "h100-80g");
      expect(s.vllmProfile.id).toBe("0.11.1");
      const activation = vllmActivationBytes(shape, s, 2, true) / GIB;
      expect(Math.abs(activation / (r.measured["torch_peak_activation_gib"] as number) - 1)).toBeLessThanOrEqual(0.02);
      const nonTorch = (r.measured["non_torch_increase_gib"] ?? r.measured["non_torch_gib"]) as number;
      expect(Math.abs(vllmNonTorchBytes(r.tp, 1, s.vllmProfile) / GIB - nonTorch)).toBeLessThanOrEqual(0.02);
      // 0.17's Triton sampler would have said less than half of it.
      const v019 = resolveSettings("vllm", h100, {}, r.tp, 1, "h100-80g");
      expect(vllmActivationBytes(shape, v019, 2, true) / GIB).toBeLessThan(
        0.5 * (r.measured["torch_peak_activation_gib"] as number),
      );
    },
  );

  describe("vLLM 0.10.1.1 on A100 (Qwen2-7B, 256 sequences, util 0.25 and 0.5)", () => {
    const a100 = records.filter((r) => r.engine_version === "0.10.1.1");
    const pool = (id: string) => a100.find((r) => r.id === id)?.measured["kv_available_gib_per_card"] as number;

    test("the pool grows by a quarter of CUDA's A100 80GB total from util 0.25 to 0.5, at TP1 and TP2", () => {
      const total = cudaTotalBytes(cardMemoryBytes("a100-80g") ?? 0, "a100-80g") / GIB;
      // Each pool is printed to 0.01 GiB: the difference is good to 0.01, the total to 0.04.
      expect(
        Math.abs((pool("vllm01011-a100-qwen2-7b-tp1-u0.5") - pool("vllm01011-a100-qwen2-7b-tp1-u0.25")) / 0.25 - total),
      ).toBeLessThanOrEqual(0.04);
      expect(
        Math.abs((pool("vllm01011-a100-qwen2-7b-tp2-u0.5") - pool("vllm01011-a100-qwen2-7b-tp2-u0.25")) / 0.25 - total),
      ).toBeLessThanOrEqual(0.04);
    });

    test.each(a100.map((r) => [r.id, r] as const))(
      "%s: util × total − logged weights − the 0.10 profile's activation and non-torch is the logged pool within 0.03 GiB",
      (_id, r) => {
        const cls = /40GB/.test(r.gpu) ? "a100-40g" : "a100-80g";
        const m = models[r.model] as CalibrationModel;
        const shape = shapeFromConfig(m.config, m.params ?? null);
        const s = resolveSettings("vllm", cardMemoryBytes(cls) ?? 0, { vllmVersion: "0.10.1.1" }, r.tp, 1, cls);
        const acrossNodes = /different nodes/.test(r.notes ?? "");
        const inside = vllmActivationBytes(shape, s, 2, true) + vllmNonTorchBytes(r.tp, 1, s.vllmProfile, acrossNodes);
        const predicted =
          ((r.gpu_mem_util as number) * cudaTotalBytes(cardMemoryBytes(cls) ?? 0, cls) - inside) / GIB -
          (r.measured["weights_gib_per_card"] as number);
        expect(Math.abs(predicted - (r.measured["kv_available_gib_per_card"] as number))).toBeLessThanOrEqual(0.03);
      },
    );
  });

  test("every profile names its releases and sources", () => {
    for (const p of VLLM_PROFILES) {
      expect(p.source.length).toBeGreaterThan(40);
      expect(vllmProfileFor(p.representative)).toBe(p);
    }
  });
});

describe("llama.cpp's compute buffer on the card with the output layer", () => {
  test.each([
    ["google/gemma-3-27b-it", 512, 522.62, "ik_llama.cpp discussion #334"],
    ["Qwen/Qwen3-235B-A22B", 512, 312.75, "calibration README"],
    ["Qwen/Qwen3-235B-A22B", 2048, 1264.01, "ik_llama.cpp, ikllama-5090-qwen3-235b case"],
  ])("%s at -ub %i: %f MiB (%s), within 5%", (repo, ubatch, mib) => {
    expect(Math.abs(llamacppComputeBytes(shapeOf(repo), ubatch, true) / 2 ** 20 / mib - 1)).toBeLessThanOrEqual(0.05);
  });
});

describe("vLLM 0.19's MXFP4 experts on Hopper weigh more than the checkpoint (gpt-oss-20b: 13.64 GiB loaded from 12.82)", () => {
  // The three HF shards (test/fixtures/models/openai__gpt-oss-20b.json): 13,761,316,904 bytes.
  const checkpointBytes = 13_761_316_904;
  const config = JSON.parse(
    readFileSync(new URL("../fixtures/configs/openai__gpt-oss-20b.config.json", import.meta.url), "utf8"),
  ) as {
    hidden_size: number;
    intermediate_size: number;
    num_local_experts: number;
    num_hidden_layers: number;
    max_position_embeddings: number;
    head_dim: number;
  };
  const runs = v019.filter((r) => r.model === "openai/gpt-oss-20b");

  test("both tensor-parallel widths were logged", () => {
    expect(new Set(runs.map((r) => r.tp))).toEqual(new Set([1, 2]));
  });

  test.each(runs.map((r) => [r.id, r] as const))(
    "%s: the growth is what the log shows above the checkpoint's share",
    (_id, r) => {
      const growthPerExpert = vllmMxfp4HopperExpertGrowthBytes(config.hidden_size, config.intermediate_size / r.tp);
      const growthGib = (config.num_hidden_layers * config.num_local_experts * growthPerExpert) / GIB;
      // The log also holds every rank's rotary cos/sin cache: max positions × head dim in bf16.
      const ropeBytes = config.max_position_embeddings * config.head_dim * 2;
      const loggedGib = (r.measured.weights_gib_per_card ?? 0) - (checkpointBytes / r.tp + ropeBytes) / GIB;
      // Without it the model said 12.83 and 6.42 GiB: 0.81 and 0.59 short. The log rounds to 0.01 GiB.
      expect(loggedGib).toBeGreaterThan(0.5);
      expect(Math.abs(growthGib - loggedGib)).toBeLessThan(0.05);
    },
  );
});

describe("vLLM 0.19 loads Gemma-3 above its checkpoint by its rotary caches (4B: 8.58 GiB from 8.01)", () => {
  // A linear ×8 global rope (max positions × 8 rows) and the sliding layers' own, in bf16.
  const runs = v019.filter((r) => /gemma-3-(4b|12b|27b)/.test(r.model));

  test("the three sizes were logged", () => {
    expect(runs).toHaveLength(3);
  });

  test.each(runs.map((r) => [r.id, r] as const))(
    "%s: checkpoint + the rope caches' rows is what the log shows",
    (_id, r) => {
      const m = models[r.model];
      if (!m?.params) throw new Error(`${r.model}: no parameter count in models.json`);
      const shape = shapeFromConfig(m.config, m.params);
      const ropeBytes = (shape.ropeCacheRows ?? shape.maxContextTokens) * shape.headDim * 2;
      const predictedGib = (m.params * 2 + ropeBytes) / GIB;
      const logged = r.measured.weights_gib_per_card ?? 0;
      // One 131,072-row cache left the 4B 0.51 GiB short; the log rounds to 0.01 GiB.
      expect(Math.abs(predictedGib / logged - 1)).toBeLessThan(0.003);
    },
  );
});
