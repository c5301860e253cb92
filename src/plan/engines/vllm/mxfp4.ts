/**
 * gpt-oss's MXFP4 experts on vLLM: the Hopper layout's padding and kept scales, and what its warm-up
 * and graphs need beyond the dense model's.
 */
import { cardOf } from "../../cards.ts";
import type { Part } from "../../layout.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import { GIB } from "../../units.ts";

/**
 * MXFP4 mixture-of-experts checkpoints (gpt-oss) in vLLM 0.19 on Hopper need
 * more outside the budget than context, graphs and sampler explain: both
 * gpt-oss-20b runs at util 0.95 (TP1 with 1.61 GiB left after its context and
 * graphs, TP2 with 0.42) died in the warm-up, and the same model at 0.90 (and
 * the older 0.9 run at TP1) started. 2.5 GiB above the floor is the least
 * that refuses both failures and none of the runs that started. Empirical,
 * from those logs only.
 */
export const VLLM_MXFP4_WARMUP_BYTES = 2.5 * GIB;

/**
 * From 0.21 only vLLM's own graph estimate is reserved inside the budget, so
 * what the real pool exceeds it by lands outside, beside the warm-up above
 * (whose 2.5 GiB was fitted over a floor that held 0.5 GiB of graphs). For
 * gpt-oss-20b the 0.19 logs, which print both, show 1.84 GiB real against 1.30
 * estimated at TP1 and 1.55 against 1.09 at TP2: we take the lesser excess, 0.46.
 */
export const VLLM_MXFP4_GRAPH_EXCESS_BYTES = 0.46 * GIB;

/** Rounds `n` up to a multiple of `m`. */
function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

/**
 * Bytes one routed expert of an MXFP4 checkpoint (gpt-oss) holds on one card,
 * once vLLM 0.19 has loaded it on Hopper (sm90), beyond the checkpoint's share
 * of its blocks and scales (0.5 + 1/32 byte a weight). On sm90 the oracle
 * picks the TRITON backend (both 0.19 logs: "Using 'TRITON' Mxfp4 MoE
 * backend"; TRTLLM wants sm100, CK ROCm), and:
 * - create_weights rounds the intermediate per card up to 64
 *   (mxfp4_round_up_hidden_size_and_intermediate_size: gpt-oss-20b at TP2,
 *   1440 → 1472); hidden stays;
 * - _swizzle_mxfp4 lays the packed weights out in triton_kernels'
 *   HopperMXValueLayout, both matrix dims padded to 64 bytes, and the scales
 *   in HopperMXScaleLayout, rows padded to 2 × num_warps(8) × 2 × 8 = 256 and
 *   columns to 2;
 * - the TRITON branch of process_weights_after_loading deletes the old
 *   weights but keeps the old scale parameters (the swizzled copies live in
 *   the PrecisionConfig), and replaces the biases with fp32 ones.
 * Sources: vllm-project/vllm fused_moe/oracle/mxfp4.py
 * (convert_to_mxfp4_moe_kernel_format, TRITON branch) and
 * quantization/mxfp4.py (`if self.mxfp4_backend not in TRITON_BACKENDS`),
 * quantization/utils/mxfp4_utils.py (_swizzle_mxfp4); triton-lang/triton
 * python/triton_kernels/.../layout_details/hopper_value.py (974c4f9) and
 * hopper_scale.py (57af0d6), the triton_kernels vLLM vendors (its logs load
 * vllm/third_party/triton_kernels; the exact tag 0.19 pins was not checked).
 * Calibration (vLLM 0.19.0, H100, llm-d-planner logs): gpt-oss-20b 13.64 GiB
 * at TP1, 7.01 at TP2, against 12.83 and 6.42 for the checkpoint's bytes;
 * this gives 13.62 and 6.97.
 */
export function vllmMxfp4HopperExpertGrowthBytes(hiddenSize: number, intermediatePerCard: number): number {
  const mxBlock = 32;
  const h = hiddenSize;
  // The checkpoint's share: gate, up and down, half a byte a weight and a one-byte scale per 32.
  const checkpoint = 3 * intermediatePerCard * h * (0.5 + 1 / mxBlock);
  const i = roundUp(intermediatePerCard, 64);
  // w13 is stored [hidden/2 bytes, 2·intermediate], w2 [intermediate/2 bytes, hidden].
  const weights = roundUp(h / 2, 64) * roundUp(2 * i, 64) + roundUp(i / 2, 64) * roundUp(h, 64);
  const keptScales = 2 * i * Math.ceil(h / mxBlock) + h * Math.ceil(i / mxBlock);
  const swizzledScales =
    roundUp(2 * i, 256) * roundUp(Math.ceil(h / mxBlock), 2) + roundUp(h, 256) * roundUp(Math.ceil(i / mxBlock), 2);
  // The checkpoint's bf16 biases are counted with the layer's other bytes; fp32 doubles them.
  const fp32BiasGrowth = (2 * i + h) * 2;
  return Math.max(0, weights + keptScales + swizzledScales + fp32BiasGrowth - checkpoint);
}

// ---------------------------------------------------------------------------
// SGLang: pool = free after weights − total × (1 − mem_fraction_static)
/**
 * What vLLM's Hopper layout of MXFP4 experts adds to the checkpoint's bytes
 * (vllmMxfp4HopperExpertGrowthBytes: padding, scales kept twice, fp32 biases); 0
 * for any other checkpoint or card. Only sm90 is modelled: sm100 picks
 * FlashInfer's TRTLLM backend, with another padding, and no log calibrates it.
 */
export function vllmMxfp4HopperGrowthBytes(part: Part, shape: ModelShape): number {
  const experts = part.routedExperts;
  if (shape.quantMethod !== "mxfp4" || !experts || cardOf(part.gpuClass)?.computeCapability !== 9) return 0;
  return (
    experts.moeLayers *
    experts.experts *
    vllmMxfp4HopperExpertGrowthBytes(shape.hiddenSize, experts.intermediatePerCard)
  );
}

/**
 * What vLLM's Marlin MXFP4 MoE layout adds to one routed expert on a card, beyond the checkpoint's share:
 * Mxfp4MoEMethod.create_weights pads for the Marlin kernel ("requires that for each linear n % 256 == 0
 * and k % 128 == 0"): the intermediate per card up to a multiple of 128 and hidden up to 256, for the
 * packed weights (half a byte each) and their E8M0 scales (a byte per 32); the repack keeps both sizes and
 * the bf16 biases grow with the padding (vllm quantization/mxfp4.py, MARLIN branch). gpt-oss-120b
 * (hidden 2880 → 3072, intermediate 2880 → 2944 at TP1, 720 → 768 at TP4): +5.13 GiB at TP1, +1.96 a card
 * at TP4, where the logs show 66.17 GiB on one RTX PRO 6000 (0.23.1, moe_backend marlin) against the
 * 60.77 the checkpoint holds (issue 15: "5.4 GiB under"), and 17.22 a card on four A100s (0.10.1.1,
 * Marlin) against 15.19. Not explained: 9.98 GiB a card on eight RTX PRO 4500s (0.28.0, a reporter's
 * table), 1.4 GiB above this.
 */
export function vllmMxfp4MarlinExpertGrowthBytes(hiddenSize: number, intermediatePerCard: number): number {
  const perWeight = 0.5 + 1 / 32;
  const checkpoint = 3 * intermediatePerCard * hiddenSize * perWeight;
  const i = roundUp(intermediatePerCard, 128);
  const h = roundUp(hiddenSize, 256);
  const biases = (2 * i + h - (2 * intermediatePerCard + hiddenSize)) * 2;
  return Math.max(0, 3 * i * h * perWeight - checkpoint + biases);
}

/**
 * The Marlin layout's growth on a card: Ampere and Ada (compute capability 8.x, no FP4 units: Marlin is
 * their MXFP4 path) and Blackwell workstation parts (12.x; the RTX PRO 6000 log runs Marlin). 0 elsewhere:
 * Hopper has its own (vllmMxfp4HopperGrowthBytes), sm100 picks FlashInfer's TRTLLM kernels, unmodelled.
 */
export function vllmMxfp4MarlinGrowthBytes(part: Part, shape: ModelShape): number {
  const experts = part.routedExperts;
  if (shape.quantMethod !== "mxfp4" || !experts) return 0;
  const cc = cardOf(part.gpuClass)?.computeCapability ?? 0;
  if (!((cc >= 8 && cc < 9) || (cc >= 12 && cc < 13))) return 0;
  return (
    experts.moeLayers *
    experts.experts *
    vllmMxfp4MarlinExpertGrowthBytes(shape.hiddenSize, experts.intermediatePerCard)
  );
}
