/**
 * The fitted terms, per engine and card kind, with the rows each was fitted
 * on. scripts/speed-accuracy.ts --fit recomputes them from
 * test/fixtures/speed/measured.jsonl (a copy of the public benchmark set,
 * sources per row); README.md in this folder gives the fit and its errors.
 */

import type { CardKind, CardVendor, ComputeFormat, SpeedEngine } from "./types.ts";
import type { WireTerms } from "./links.ts";

export interface SpeedTerms extends WireTerms {
  /** Share of datasheet bandwidth the step's weight and KV reads reach. */
  bandwidthEfficiency: number;
  /** Fixed cost of one decode step that bandwidth does not explain (launches, sampling, scheduling), ms. */
  stepFixedMs: number;
  /** Share of dense TFLOPS a prefill reaches. */
  prefillComputeEfficiency: number;
  /** Where a format's kernels reach a different share (llama.cpp's INT8 MMQ vs its FP16 cuBLAS path), that share. */
  prefillEfficiencyByFormat: Partial<Record<ComputeFormat, number>>;
  /** Share of dense TFLOPS a decode step reaches once the batch makes it compute-bound. */
  decodeComputeEfficiency: number;
  /**
   * How much of each other sequence's prefill lands in a running sequence's
   * step (chunked prefill shares steps with decode): TPOT grows by
   * this × sequences × prefill time ÷ output tokens.
   */
  prefillInterference: number;
  /**
   * What a served request pays before its prefill that no kernel explains
   * (HTTP, tokenizing, scheduling, the first token's detokenizing), ms;
   * 0 for llama-bench, which times the kernels alone.
   */
  requestOverheadMs: number;
  /** Tokens one prefill pass takes at most (llama.cpp -ub 512; vLLM/SGLang's chunked-prefill budget). */
  prefillChunkTokens: number;
  /** Which rows the terms come from, or which terms they borrow and why. */
  fittedOn: string;
  /** Whether these terms were fitted on this engine and card kind's own rows. */
  fitted: boolean;
}

type TermsTable = Record<SpeedEngine, Record<CardKind, SpeedTerms>>;

const LLAMACPP_GDDR: SpeedTerms = {
  bandwidthEfficiency: 0.86,
  stepFixedMs: 1.4,
  prefillComputeEfficiency: 0.23,
  prefillEfficiencyByFormat: { int8: 0.22, fp16: 0.49 },
  decodeComputeEfficiency: 0.3,
  prefillInterference: 1,
  requestOverheadMs: 0,
  prefillChunkTokens: 512,
  allReduceLatencyUs: 30,
  hopMs: 0.12,
  fittedOn: "13 llama-bench tg/pp pairs on 10 GDDR cards (XiongjieDai table, Llama-3-8B/70B Q4_K_M and F16); hopMs from RTX 4090 8B Q4_K_M tg 130.6 → 118.1 t/s on 1 → 8 cards",
  fitted: true,
};

const LLAMACPP_HBM: SpeedTerms = {
  ...LLAMACPP_GDDR,
  bandwidthEfficiency: 0.48,
  stepFixedMs: 1.6,
  prefillComputeEfficiency: 0.25,
  prefillEfficiencyByFormat: { int8: 0.12, fp16: 0.32 },
  fittedOn: "4 llama-bench tg/pp pairs on A100 PCIe and H100 PCIe (XiongjieDai table, Llama-3-8B Q4_K_M and F16)",
};

const LLAMACPP_UNIFIED: SpeedTerms = {
  ...LLAMACPP_GDDR,
  bandwidthEfficiency: 0.86,
  stepFixedMs: 5.7,
  prefillComputeEfficiency: 0.65,
  prefillEfficiencyByFormat: { fp16: 0.83 },
  decodeComputeEfficiency: 0.1,
  fittedOn: "7 llama-bench tg/pp pairs on Apple M1 Max, M2 Ultra, M3 Max (XiongjieDai table, Metal)",
};

const VLLM_HBM: SpeedTerms = {
  bandwidthEfficiency: 0.78,
  stepFixedMs: 2.5,
  prefillComputeEfficiency: 0.25,
  prefillEfficiencyByFormat: {},
  decodeComputeEfficiency: 0.3,
  prefillInterference: 0.65,
  requestOverheadMs: 19,
  prefillChunkTokens: 8192,
  allReduceLatencyUs: 10,
  hopMs: 0.2,
  fittedOn: "16 InferenceMAX gpt-oss-120b rows (vLLM 0.13, B200/H100/H200, TP1–8, conc 4/64, ISL 1k/8k; TPOT, per-GPU throughput, TTFT at conc 4), even positions by id per card",
  fitted: true,
};

const SGLANG_HBM: SpeedTerms = {
  ...VLLM_HBM,
  bandwidthEfficiency: 0.56,
  stepFixedMs: 3.2,
  prefillComputeEfficiency: 0.3,
  prefillInterference: 0.25,
  requestOverheadMs: 81,
  fittedOn: "14 InferenceX DeepSeek-R1 FP8/FP4 rows on NVIDIA (SGLang 0.5.x, B200/B300/H200, TP4/8, conc 1–128; TPOT, per-GPU throughput, TTFT at conc ≤ 4), even positions by id per card",
};

/** SGLang's ROCm build on MI300X/MI355X: a third more per step than NVIDIA's at the same bandwidth. */
const SGLANG_HBM_AMD: SpeedTerms = {
  ...VLLM_HBM,
  bandwidthEfficiency: 0.48,
  stepFixedMs: 5.1,
  prefillComputeEfficiency: 0.2,
  prefillInterference: 0,
  requestOverheadMs: 73,
  fittedOn: "7 InferenceX DeepSeek-R1 FP8/FP4 rows on MI300X/MI355X (SGLang 0.5.12 ROCm, TP4/8, conc 4–64; TPOT, per-GPU throughput, TTFT at conc ≤ 4), even positions by id per card",
};

function borrowed(from: SpeedTerms, why: string): SpeedTerms {
  return { ...from, fittedOn: why, fitted: false };
}

export const SPEED_TERMS: TermsTable = {
  llamacpp: {
    hbm: LLAMACPP_HBM,
    gddr: LLAMACPP_GDDR,
    unified: LLAMACPP_UNIFIED,
    cpu: borrowed(LLAMACPP_UNIFIED, "no CPU-only llama-bench row in the set: the unified-memory terms are used"),
  },
  vllm: {
    hbm: VLLM_HBM,
    gddr: borrowed(VLLM_HBM, "no vLLM row on a GDDR card in the set: the HBM terms are used"),
    unified: borrowed(VLLM_HBM, "no vLLM row on unified memory in the set: the HBM terms are used"),
    cpu: borrowed(VLLM_HBM, "no vLLM CPU row in the set: the HBM terms are used"),
  },
  sglang: {
    hbm: SGLANG_HBM,
    gddr: borrowed(SGLANG_HBM, "no SGLang row on a GDDR card in the set: the HBM terms are used"),
    unified: borrowed(SGLANG_HBM, "no SGLang row on unified memory in the set: the HBM terms are used"),
    cpu: borrowed(SGLANG_HBM, "no SGLang CPU row in the set: the HBM terms are used"),
  },
  freetoken: {
    hbm: borrowed(SGLANG_HBM, "no FreeToken speed figure is public: SGLang's terms are used"),
    gddr: borrowed(SGLANG_HBM, "no FreeToken speed figure is public: SGLang's terms are used"),
    unified: borrowed(SGLANG_HBM, "no FreeToken speed figure is public: SGLang's terms are used"),
    cpu: borrowed(SGLANG_HBM, "no FreeToken speed figure is public: SGLang's terms are used"),
  },
};

/**
 * Where one vendor's cards run an engine measurably differently from the
 * kind's terms (SGLang's ROCm build on MI300X/MI355X), its own fit.
 */
const VENDOR_TERMS: Partial<Record<`${SpeedEngine}/${CardKind}/${CardVendor}`, SpeedTerms>> = {
  "sglang/hbm/amd": SGLANG_HBM_AMD,
};

/** The terms an option runs on: the vendor's own where fitted, else the engine and kind's. */
export function speedTerms(engine: SpeedEngine, kind: CardKind, vendor: CardVendor): SpeedTerms {
  return VENDOR_TERMS[`${engine}/${kind}/${vendor}`] ?? SPEED_TERMS[engine][kind];
}
