/**
 * Nemotron-H: Mamba2, MoE, attention and MLP blocks by `hybrid_override_pattern` or
 * `layers_block_type`; only attention holds KV.
 */
import type { ConfigFamily } from "./family.ts";
import { ModelError, positiveInts, stringList } from "../fields.ts";
import { type Geometry, requireLength } from "../geometry.ts";
import { dtypeBytes } from "../../dtype.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Mamba2 state (Nemotron-H), vLLM's layout (`mamba2_state_shape`): conv
 * `(heads·head_dim + 2·n_groups·state) × (kernel − 1)` in the model dtype,
 * plus heads × head_dim × state in `mamba_ssm_cache_dtype` (float32 in every
 * Nemotron-3 config; vLLM's NemotronH config defaults it to float32 too).
 */
function mamba2State(g: Geometry): number {
  const t = g.text;
  const f = positiveInts(
    t,
    ["mamba_num_heads", "mamba_head_dim", "n_groups", "ssm_state_size", "conv_kernel"],
    "it sizes the Mamba2 state",
  );
  const ssmName = t["mamba_ssm_cache_dtype"];
  const ssm = typeof ssmName === "string" ? dtypeBytes(ssmName) : 4;
  const inner = f.mamba_num_heads * f.mamba_head_dim;
  const conv = (inner + 2 * f.n_groups * f.ssm_state_size) * (f.conv_kernel - 1) * g.dtypeBytes;
  return conv + inner * f.ssm_state_size * ssm;
}

/**
 * Nemotron-H: `hybrid_override_pattern` (M = Mamba2, E = MoE, * = attention,
 * - = MLP) or `layers_block_type` (mamba/moe/attention/mlp). Only attention
 * blocks hold KV; MoE and MLP blocks hold nothing.
 */
export function nemotronHCaches(g: Geometry, kinds: string[], field: string): LayerCache[] {
  const state = kinds.some((k) => k === "M" || k === "mamba") ? mamba2State(g) : 0;
  return kinds.map((k, i): LayerCache => {
    if (k === "M" || k === "mamba") return { kind: "linear", stateBytesPerSeq: state };
    if (k === "*" || k === "attention") return g.full;
    if (k === "E" || k === "moe" || k === "-" || k === "mlp") return { kind: "none" };
    throw new ModelError(`${field}[${i}] is "${k}", a block kind Modelplan does not know (M, E, *, -).`, field);
  });
}

export const NEMOTRON_H: ConfigFamily = {
  name: "Nemotron-H (hybrid_override_pattern / layers_block_type)",
  detects: (g) =>
    typeof g.text["hybrid_override_pattern"] === "string" || stringList(g.text, "layers_block_type") !== undefined,
  layerCaches(g) {
    const pattern = g.text["hybrid_override_pattern"];
    if (typeof pattern === "string")
      return nemotronHCaches(g, requireLength([...pattern], g, "hybrid_override_pattern"), "hybrid_override_pattern");
    return nemotronHCaches(
      g,
      requireLength(stringList(g.text, "layers_block_type") ?? [], g, "layers_block_type"),
      "layers_block_type",
    );
  },
};
