/**
 * The CPU compute buffer placed as ggml-alloc places it (src/plan/engines/llamacpp/gallocr.ts and the graph
 * builders), held to what llama.cpp v0.4.0 printed for the same files without running the engine: the
 * figures are test/engine's (node-llama-cpp 3.21.1's CPU build, `ENGINE_TABLE=1 npx vitest run test/engine`,
 * FINDINGS.md F2, F5, F6): `compute buffer size` + `output buffer size`, each printed to 0.01 MiB. The
 * files are the suite's sparse GGUFs (real headers, a hole for the data), read as the app reads a Hub file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { GGML, u32, writeSparseGguf } from "../engine/ggufWriter.ts";
import * as M from "../engine/models.ts";
import { planCpu } from "../engine/planOf.ts";

const dir = mkdtempSync(join(tmpdir(), "modelplan-graph-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** [n_ctx per sequence, sequences, n_ubatch, compute + output MiB llama.cpp printed, flash attention (default on)]. */
type Printed = [number, number, number, number, ("on" | "off")?];

const CASES: [string, () => M.ModelSpec, Printed[]][] = [
  [
    "gpt-oss (MoE, sinks, sliding window 1:1): the pinned last layer's row moves with the masks",
    () => M.gptOss20b(2),
    [
      [512, 1, 512, 411.42],
      [2048, 1, 512, 413.17],
      [8192, 1, 512, 436.04],
      [16384, 1, 512, 410.4],
      [8192, 1, 256, 218.28],
      [8192, 2, 512, 436.8],
    ],
  ],
  [
    "DeepSeek-V2-Lite (MLA, 27 layers)",
    () => M.deepseekV2Lite(27),
    [
      [512, 1, 512, 212.39],
      [4096, 1, 512, 240.65],
      [8192, 1, 512, 240.65],
      [8192, 1, 256, 120.52],
      [8192, 1, 512, 330.66, "off"],
      [8192, 1, 256, 165.53, "off"],
    ],
  ],
  [
    "Llama-3.1 (GQA, fused QKV): 2 or 3 rows under the logits",
    () => M.llama31_8b(2),
    [
      [8192, 1, 512, 274.99],
      [4096, 1, 256, 133.74],
      [32768, 1, 2048, 1098.5],
      [4096, 4, 512, 268.46],
    ],
  ],
  [
    "Llama-3.1 with Q, K and V as three matrices",
    () => M.llama31_8b(2, GGML.Q5_0, true),
    [
      [8192, 1, 512, 266.99],
      [32768, 1, 2048, 1066.5],
    ],
  ],
  [
    "Qwen3-Next (gated delta nets, gated attention every 4th layer, MoE + shared expert), 4 layers",
    () => M.qwen3next80b(4),
    [
      [8192, 1, 512, 309.33],
      // Flash attention off: the pinned output norm (t_h_nextn) lands higher as the mask grows, until KQ
      // (n_kv × n_ubatch × n_head f32) outgrows the logits at 16k cells. Printed by test/engine/unified.py's
      // contexts on the suite's file (node-llama-cpp 3.21.1's libraries), 2 × 8k by the suite itself.
      [512, 1, 512, 312.34, "off"],
      [2048, 1, 512, 315.34, "off"],
      [8192, 1, 512, 317.33, "off"],
      [8192, 2, 512, 317.91, "off"],
      [16384, 1, 512, 586.59, "off"],
    ],
  ],
  [
    "Qwen3-Next with the earlier files' one ssm_in (in_proj_qkvz, split and made contiguous by the graph)",
    () => M.qwen3next80b(4, true),
    [
      [8192, 1, 512, 309.33],
      [512, 1, 512, 312.34, "off"],
      [8192, 2, 512, 317.91, "off"],
      [16384, 1, 512, 586.59, "off"],
    ],
  ],
  ["LFM2 (short convolutions), 6 layers", () => M.lfm2_1b(6), [[8192, 1, 512, 148.26]]],
  ["LFM2, 16 layers", () => M.lfm2_1b(16), [[8192, 1, 512, 136.25]]],
];

describe.each(CASES)("llama.cpp's CPU compute buffer: %s", (_, spec, printed) => {
  const s = spec();
  const path = join(dir, `${s.id}.gguf`);
  writeSparseGguf(path, s.metadata, s.tensors);
  test.each(printed)("%i cells × %i, ub %i: %f MiB", async (contextTokens, sequences, ubatch, mib, flashAttn) => {
    const { load } = await planCpu(path, {
      contextTokens,
      sequences,
      kvDtype: "f16",
      ubatch,
      flashAttn: flashAttn ?? "on",
    });
    // Two figures each rounded to 0.01 MiB: at most 0.01 apart.
    expect(Math.abs(load.engineBytes / 2 ** 20 - mib)).toBeLessThanOrEqual(0.011);
  });
});

test("a graph the builders do not have keeps the logits + rows estimate: DeepSeek-V3's expert groups", async () => {
  // deepseek2 with expert_group_count > 1 selects experts by groups first (llama-graph.cpp build_moe_ffn), nodes
  // graphDeepseek2.ts does not build: the plan falls back to n_ubatch × (n_vocab + 3 n_embd) × 4 + the output.
  const s = M.deepseekV2Lite(27);
  const path = join(dir, "grouped.gguf");
  writeSparseGguf(path, { ...s.metadata, "deepseek2.expert_group_count": u32(8) }, s.tensors);
  const { load } = await planCpu(path, {
    contextTokens: 8192,
    sequences: 1,
    kvDtype: "f16",
    ubatch: 512,
    flashAttn: "on",
  });
  expect(load.engineBytes).toBe(512 * (102400 + 3 * 2048) * 4 + 102400 * 4);
});
