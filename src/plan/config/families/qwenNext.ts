/**
 * Qwen3-Next and Qwen3.5+: the gated-delta (linear attention) state, and full attention every
 * `full_attention_interval` layers.
 */
import type { ConfigFamily } from "./family.ts";
import { type Json, optionalInt, positiveInts } from "../fields.ts";
import type { Geometry } from "../geometry.ts";
import { dtypeBytes } from "../../dtype.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Gated DeltaNet state (Qwen3-Next, Qwen3.5–3.8), vLLM's layout
 * (`MambaStateShapeCalculator.gated_delta_net_state_shape`): conv state
 * `conv_dim × (kernel − 1)` in the model dtype, with conv_dim = dk·nk·2 + dv·nv,
 * plus the recurrent state nv × dv × dk in `mamba_ssm_dtype` (float32 in
 * Qwen3.5 configs; the model dtype when the config names none).
 */
export function gatedDeltaState(g: Geometry): number {
  const t = g.text;
  const f = positiveInts(
    t,
    [
      "linear_num_key_heads",
      "linear_num_value_heads",
      "linear_key_head_dim",
      "linear_value_head_dim",
      "linear_conv_kernel_dim",
    ],
    "it sizes the gated-delta (linear attention) state",
  );
  const ssm = typeof t["mamba_ssm_dtype"] === "string" ? dtypeBytes(t["mamba_ssm_dtype"]) : g.dtypeBytes;
  const nv = f.linear_num_value_heads;
  const dk = f.linear_key_head_dim;
  const dv = f.linear_value_head_dim;
  const convDim = dk * f.linear_num_key_heads * 2 + dv * nv;
  return convDim * (f.linear_conv_kernel_dim - 1) * g.dtypeBytes + nv * dv * dk * ssm;
}

/**
 * Parameters of one gated-delta (linear attention) layer's mixer, as SGLang's `Qwen3_5GatedDeltaNet` builds them
 * (models/qwen3_5.py @ 005fa711): in_proj_qkvz hidden → 2·dk·nk + 2·dv·nv, in_proj_ba hidden → 2·nv, the depthwise
 * conv1d conv_dim × kernel, A_log and dt_bias nv each, the gated norm dv, out_proj dv·nv → hidden. Undefined when the
 * config has no gated-delta geometry (then there is no such layer to size).
 */
export function gatedDeltaParams(t: Json, hidden: number): number | undefined {
  const nk = optionalInt(t, "linear_num_key_heads");
  const nv = optionalInt(t, "linear_num_value_heads");
  const dk = optionalInt(t, "linear_key_head_dim");
  const dv = optionalInt(t, "linear_value_head_dim");
  const kernel = optionalInt(t, "linear_conv_kernel_dim");
  if (!nk || !nv || !dk || !dv || !kernel) return undefined;
  const keyDim = dk * nk;
  const valueDim = dv * nv;
  const convDim = 2 * keyDim + valueDim;
  return hidden * (2 * keyDim + 2 * valueDim) + hidden * 2 * nv + convDim * kernel + 2 * nv + dv + valueDim * hidden;
}

/** Qwen3-Next without layer_types: layer i is full when (i + 1) % interval == 0 (llama.cpp qwen35.cpp, transformers). */
export const QWEN_NEXT: ConfigFamily = {
  name: "Qwen3-Next (full_attention_interval)",
  detects: (g) => (optionalInt(g.text, "full_attention_interval") ?? 0) > 0,
  layerCaches(g) {
    const interval = optionalInt(g.text, "full_attention_interval") ?? 1;
    return Array.from({ length: g.layers }, (_, i): LayerCache =>
      (i + 1) % interval === 0 ? g.full : { kind: "linear", stateBytesPerSeq: gatedDeltaState(g) },
    );
  },
};
