/**
 * What the suite runs: each model once (a sparse GGUF of its real header), then contexts in
 * llama.cpp's own terms. Small layer counts test the per-layer formulas; one full-size model per
 * kind checks that nothing else grows with depth.
 */
import type { ContextParams } from "./engine.ts";
import { GGML } from "./ggufWriter.ts";
import * as M from "./models.ts";
import type { ModelSpec } from "./models.ts";

export interface ModelCase {
  spec: () => ModelSpec;
  contexts: (ContextParams & { name: string })[];
}

const F16 = 1 as const,
  Q8_0 = 8 as const,
  Q4_0 = 2 as const;
const ctx = (
  name: string,
  nCtx: number,
  nSeqMax: number,
  nUbatch: number,
  flashAttn: boolean | "auto",
  cacheType: 1 | 8 | 2 = F16,
) => ({ name, nCtx, nSeqMax, nUbatch, flashAttn, cacheType });

export const MODEL_CASES: ModelCase[] = [
  {
    spec: () => M.llama31_8b(2),
    contexts: [
      ctx("8k fa-off", 8192, 1, 512, false),
      ctx("8k fa-on", 8192, 1, 512, true),
      ctx("8k fa-auto", 8192, 1, 512, "auto"),
      ctx("8k q8_0", 8192, 1, 512, true, Q8_0),
      ctx("8k q4_0", 8192, 1, 512, true, Q4_0),
      ctx("4k ub256 fa-on", 4096, 1, 256, true),
      ctx("32k ub2048 fa-on", 32768, 1, 2048, true),
      ctx("4x4k fa-off", 16384, 4, 512, false),
      ctx("4x4k fa-on", 16384, 4, 512, true),
    ],
  },
  { spec: () => M.llama31_8b(32), contexts: [ctx("8k fa-on", 8192, 1, 512, true)] },
  {
    // Q, K, V as three matrices (the Hub's Llama GGUFs): the placed graph predicted 266.50 and 1,066.01 MiB of
    // compute before these were run, 8 and 32 MiB under the fused file's (F2: two rows under the logits, not three).
    spec: () => M.llama31_8b(2, GGML.Q5_0, true),
    contexts: [ctx("8k fa-on", 8192, 1, 512, true), ctx("32k ub2048 fa-on", 32768, 1, 2048, true)],
  },
  { spec: () => M.llama31_8b(2, GGML.Q4_0), contexts: [ctx("8k fa-on", 8192, 1, 512, true)] },
  {
    spec: () => M.gemma2_9b(2),
    contexts: [
      ctx("8k fa-off", 8192, 1, 512, false),
      ctx("8k fa-on", 8192, 1, 512, true),
      ctx("4x8k fa-on", 32768, 4, 512, true),
      ctx("8k q8_0", 8192, 1, 512, true, Q8_0),
    ],
  },
  {
    spec: () => M.gemma3_4b(6),
    contexts: [
      ctx("8k fa-off", 8192, 1, 512, false),
      ctx("32k fa-on", 32768, 1, 512, true),
      ctx("2x16k fa-on", 32768, 2, 1024, true),
    ],
  },
  { spec: () => M.gemma3_4b(34), contexts: [ctx("8k fa-on", 8192, 1, 512, true)] },
  {
    spec: () => M.gptOss20b(2),
    contexts: [
      ctx("8k fa-off", 8192, 1, 512, false),
      ctx("8k fa-on", 8192, 1, 512, true),
      ctx("2x8k fa-on", 16384, 2, 512, true),
      // F5: the same ubatch at short contexts, where the pinned last layer output (t_h_nextn) sits low.
      ctx("512 fa-on", 512, 1, 512, true),
      ctx("2k fa-on", 2048, 1, 512, true),
      // F5 closed by placing the graph (gallocr.ts); these were predicted before they were run: 409.63 MiB of
      // compute at 16k (less than at 8k: the 16 MiB mask leaves no hole the MoE sum fits), 217.51 at ub 256.
      ctx("16k fa-on", 16384, 1, 512, true),
      ctx("8k ub256 fa-on", 8192, 1, 256, true),
    ],
  },
  {
    spec: () => M.qwen3moe30b(2),
    contexts: [ctx("8k fa-off", 8192, 1, 512, false), ctx("8k fa-on", 8192, 1, 512, true)],
  },
  {
    spec: () => M.deepseekV2Lite(27),
    contexts: [
      ctx("8k fa-off", 8192, 1, 512, false),
      ctx("8k fa-on", 8192, 1, 512, true),
      // F6: the same ubatch at short contexts (the 8k gap is where ggml-alloc leaves the last activation).
      ctx("512 fa-on", 512, 1, 512, true),
      ctx("2k fa-on", 2048, 1, 512, true),
      // Predicted by the placed graph before they were run: 240.26 MiB of compute from 4k cells on, 120.13 at ub 256.
      ctx("4k fa-on", 4096, 1, 512, true),
      ctx("8k ub256 fa-on", 8192, 1, 256, true),
      // F1 closed by placing the flash-off MLA graph: 165.14 MiB of compute predicted (KQ + mask + rows: 172).
      ctx("8k ub256 fa-off", 8192, 1, 256, false),
    ],
  },
  {
    spec: () => M.qwen3next80b(4),
    contexts: [ctx("8k fa-on", 8192, 1, 512, true), ctx("2x8k fa-off", 16384, 2, 512, false)],
  },
  // The earlier GGUFs' one ssm_in per delta-net layer (graphQwen3next.ts's legacy split): the same 316.75 MiB of
  // compute at 2 × 8k without flash attention, every tensor at the engine's offset at 512 cells (allocDump.py).
  { spec: () => M.qwen3next80b(4, true), contexts: [ctx("2x8k fa-off", 16384, 2, 512, false)] },
  {
    spec: () => M.lfm2_1b(6),
    contexts: [ctx("8k fa-on", 8192, 1, 512, true), ctx("2x8k fa-off", 16384, 2, 512, false)],
  },
  { spec: () => M.lfm2_1b(16), contexts: [ctx("8k fa-on", 8192, 1, 512, true)] },
];

/**
 * Unified caches (llama-server's `--kv-unified`, and its automatic slots), through llama.cpp's C API
 * (unified.py). `planSequences` is what the plan is asked for: the slots, or for llama-server's
 * automatic 4 slots (no `--parallel`, `-c` 8192) the one sequence the plan's command serves.
 */
export interface UnifiedCase {
  spec: () => ModelSpec;
  contexts: (ContextParams & { name: string; unified: boolean; planSequences: number })[];
}

const unified = (
  name: string,
  nCtx: number,
  nSeqMax: number,
  nUbatch: number,
  flashAttn: boolean | "auto",
  planSequences = nSeqMax,
) => ({ name, nCtx, nSeqMax, nUbatch, flashAttn, cacheType: F16, unified: true, planSequences });

export const UNIFIED_CASES: UnifiedCase[] = [
  {
    spec: () => M.llama31_8b(2),
    contexts: [
      unified("4x4k unified fa-on", 16384, 4, 512, true),
      // Without flash attention KQ spans the whole pool of 16k cells, not a slot's 4k (flashAttn.ts).
      unified("4x4k unified fa-off", 16384, 4, 512, false),
      unified("auto slots 8k", 8192, 4, 512, "auto", 1),
    ],
  },
  {
    spec: () => M.gemma3_4b(6),
    contexts: [unified("2x16k unified fa-on", 32768, 2, 1024, true), unified("auto slots 8k", 8192, 4, 512, "auto", 1)],
  },
  {
    spec: () => M.gptOss20b(2),
    contexts: [
      unified("2x8k unified fa-on", 16384, 2, 512, true),
      unified("2x8k unified fa-off", 16384, 2, 512, false),
      unified("auto slots 8k", 8192, 4, 512, "auto", 1),
    ],
  },
  {
    spec: () => M.qwen3next80b(4),
    contexts: [
      unified("2x8k unified fa-on", 16384, 2, 512, true),
      unified("2x8k unified fa-off", 16384, 2, 512, false),
    ],
  },
];
