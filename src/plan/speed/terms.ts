/**
 * The fitted terms, per engine and card kind (and vendor where it matters),
 * with the rows each was fitted on: fitted.json, written by
 * `npx tsx scripts/speed-accuracy.ts --fit --write` from
 * test/fixtures/speed/measured.jsonl (a copy of the public benchmark set,
 * sources per row). README.md in this folder gives the fit and its errors.
 */

import fitted from "./fitted.json" with { type: "json" };
import type { WireTerms } from "./links.ts";
import type { CardKind, CardVendor, ComputeFormat, SpeedEngine } from "./types.ts";

export interface SpeedTerms extends WireTerms {
  /** Share of datasheet bandwidth the step's weight and KV reads reach. */
  bandwidthEfficiency: number;
  /** Fixed cost of one decode step that bandwidth does not explain (launches, sampling, scheduling), ms. */
  stepFixedMs: number;
  /** Share of dense TFLOPS a prefill reaches. */
  prefillComputeEfficiency: number;
  /** Where a format's kernels reach a different share (llama.cpp's INT8 MMQ vs its FP16 cuBLAS path), that share. */
  prefillEfficiencyByFormat: Partial<Record<ComputeFormat, number>>;
  /**
   * Share of bandwidth the attention kernels reach reading the KV cache
   * (llama.cpp's pre-flash-attention path reads it well below the weights'
   * rate: its tg at 8,192 tokens falls twice as far as the bytes say).
   */
  kvBandwidthEfficiency: number;
  /** Share of dense TFLOPS a prefill's attention (QKᵀ, softmax, AV over the prompt) reaches. */
  attentionComputeEfficiency: number;
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
  /**
   * A data-parallel engine's expert exchange (expertGroup.ts): fixed cost of one dispatch or combine, µs, and the
   * share of the link's line rate its bytes reach. Absent: EXCHANGE_TERMS (fitted apart, on disaggregated decode rows).
   */
  exchangeLatencyUs?: number;
  exchangeLinkShare?: number;
  /** Which rows the terms come from, or which terms they borrow and why. */
  fittedOn: string;
  /** Whether these terms were fitted on this engine and card kind's own rows. */
  fitted: boolean;
}

type TermsTable = Record<SpeedEngine, Record<CardKind, SpeedTerms>>;

/** The entries scripts/speed-accuracy.ts --fit --write fits and fitted.json holds. */
export type FittedKey =
  | "llamacpp/gddr"
  | "llamacpp/hbm"
  | "llamacpp/unified"
  | "vllm/hbm"
  | "vllm/hbm/dense"
  | "sglang/hbm"
  | "sglang/hbm/amd";

/** The numbers of a set of terms, without the words saying where they come from. */
export type SpeedTermValues = Omit<SpeedTerms, "fittedOn" | "fitted">;

/** Round shares a first reading of the kernels would guess: 70% of bandwidth, 30% of dense TFLOPS, 1 ms a step. */
const PRIOR: SpeedTermValues = {
  bandwidthEfficiency: 0.7,
  stepFixedMs: 1,
  prefillComputeEfficiency: 0.3,
  prefillEfficiencyByFormat: {},
  kvBandwidthEfficiency: 0.7,
  attentionComputeEfficiency: 0.3,
  decodeComputeEfficiency: 0.3,
  prefillInterference: 1,
  requestOverheadMs: 0,
  prefillChunkTokens: 512,
  allReduceLatencyUs: 30,
  hopMs: 0.2,
};

/**
 * Where the fit (scripts/speed-accuracy.ts --fit) starts, before it reads a row: fixed round
 * figures, never the fitted.json it replaces, so a refit depends on the rows and these alone and
 * writes the same file every time. A term no row moves keeps its prior (README.md marks it `*`).
 * Set, not fitted: `prefillChunkTokens` (llama-bench's default `-ub` 512; vLLM/SGLang's chunked
 * prefill budget of 8,192 tokens) and llama.cpp's `requestOverheadMs` 0 (llama-bench times the
 * kernels alone) and `allReduceLatencyUs` (no llama.cpp TP row).
 */
export const SPEED_PRIORS: Record<"llamacpp" | "serving", SpeedTermValues> = {
  llamacpp: PRIOR,
  serving: { ...PRIOR, prefillChunkTokens: 8192, allReduceLatencyUs: 10 },
};

interface FittedEntry extends Omit<SpeedTerms, "fitted"> {
  /** The measured.jsonl ids the entry was fitted on. */
  rows: string[];
}

const FITTED = (fitted as { terms: Partial<Record<FittedKey, FittedEntry>> }).terms;

/** A fitted entry; a missing one is a build defect (the file is written by the fit), said in words. */
function fittedTerms(key: FittedKey): SpeedTerms {
  const e = FITTED[key];
  if (e === undefined)
    throw new Error(
      `src/plan/speed/fitted.json has no "${key}" entry: rerun npx tsx scripts/speed-accuracy.ts --fit --write`,
    );
  const { rows: _rows, ...terms } = e;
  return { ...terms, fitted: true };
}

const LLAMACPP_GDDR = fittedTerms("llamacpp/gddr");
const LLAMACPP_HBM = fittedTerms("llamacpp/hbm");
const LLAMACPP_UNIFIED = fittedTerms("llamacpp/unified");
const VLLM_HBM = fittedTerms("vllm/hbm");
/**
 * vLLM on a dense model, fitted apart: the public set's vLLM rows are all gpt-oss-120b, whose MoE layers run
 * routing kernels (top-k, the sort by expert, the grouped GEMMs) a dense layer has none of, so their step does
 * not carry to a dense model's (test/fixtures/speed/serving-other-cards.jsonl: ~20% slow on H100 PCIe before).
 */
const VLLM_HBM_DENSE = fittedTerms("vllm/hbm/dense");
const SGLANG_HBM = fittedTerms("sglang/hbm");
/** SGLang's ROCm build on MI300X/MI355X, fitted apart: it runs a step slower than NVIDIA's at the same bandwidth. */
const SGLANG_HBM_AMD = fittedTerms("sglang/hbm/amd");

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

/**
 * Where an engine runs dense models on terms of their own (vLLM), by card kind. SGLang's are fitted on DeepSeek-R1
 * alone (671 B, 58 MoE layers, MLA), whose step carries to a dense model no better than gpt-oss-120b's did for
 * vLLM (~20% slow): a dense model on SGLang borrows vLLM's dense terms, and says so.
 */
const DENSE_TERMS: Partial<Record<SpeedEngine, Record<CardKind, SpeedTerms>>> = {
  sglang: {
    hbm: borrowed(VLLM_HBM_DENSE, "no SGLang row on a dense model in the set: vLLM's dense terms are used"),
    gddr: borrowed(VLLM_HBM_DENSE, "no SGLang row on a dense model in the set: vLLM's dense HBM terms are used"),
    unified: borrowed(VLLM_HBM_DENSE, "no SGLang row on a dense model in the set: vLLM's dense HBM terms are used"),
    cpu: borrowed(VLLM_HBM_DENSE, "no SGLang row on a dense model in the set: vLLM's dense HBM terms are used"),
  },
  vllm: {
    hbm: VLLM_HBM_DENSE,
    gddr: borrowed(VLLM_HBM_DENSE, "no vLLM row on a GDDR card in the set: its dense HBM terms are used"),
    unified: borrowed(VLLM_HBM_DENSE, "no vLLM row on unified memory in the set: its dense HBM terms are used"),
    cpu: borrowed(VLLM_HBM_DENSE, "no vLLM CPU row in the set: its dense HBM terms are used"),
  },
};

/** The vendors that have terms of their own: the slider asks for every option, so no key is built for the rest. */
const OWN_VENDORS = new Set(Object.keys(VENDOR_TERMS).map((k) => k.split("/")[2]));

/**
 * The terms an option runs on: the vendor's own where fitted (SGLang's ROCm build runs a step slower, dense or not),
 * else a dense model's where the engine has them, else the engine and kind's.
 */
export function speedTerms(engine: SpeedEngine, kind: CardKind, vendor: CardVendor, dense = false): SpeedTerms {
  return (
    (OWN_VENDORS.has(vendor) ? VENDOR_TERMS[`${engine}/${kind}/${vendor}`] : undefined) ??
    (dense ? DENSE_TERMS[engine]?.[kind] : undefined) ??
    SPEED_TERMS[engine][kind]
  );
}
