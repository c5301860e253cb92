/**
 * Kimi-Linear and Kimi-K3: Kimi Delta Attention layers (a recurrent state) among MLA layers, listed
 * 1-based in linear_attn_config.
 */
import type { ConfigFamily } from "./family.ts";
import { isMla, mlaCache } from "./mla.ts";
import { isRecord, type Json, ModelError, numberList, positiveInts } from "../fields.ts";
import type { Geometry } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Kimi Delta Attention state (Kimi-Linear, Kimi-K3), vLLM's `kda_state_shape`:
 * three short-conv states (q, k, v) of heads·head_dim × (kernel − 1) in the
 * model dtype, plus the recurrent heads × head_dim × head_dim, always float32.
 */
function kdaState(g: Geometry, linear: Json): number {
  const f = positiveInts(
    linear,
    ["num_heads", "head_dim", "short_conv_kernel_size"],
    "it sizes the KDA (linear attention) state",
  );
  const proj = f.num_heads * f.head_dim;
  return 3 * proj * (f.short_conv_kernel_size - 1) * g.dtypeBytes + f.num_heads * f.head_dim * f.head_dim * 4;
}

function oneBasedSet(linear: Json, name: string, layers: number): Set<number> {
  const list = numberList(linear, name);
  if (list === undefined) {
    throw new ModelError(
      `linear_attn_config.${name} is missing: which layers are linear is unknown.`,
      `linear_attn_config.${name}`,
    );
  }
  for (const n of list) {
    if (n < 1 || n > layers) {
      throw new ModelError(
        `linear_attn_config.${name} lists layer ${n}, outside 1..${layers} (the lists are 1-based).`,
        `linear_attn_config.${name}`,
      );
    }
  }
  return new Set(list.map((n) => n - 1));
}

/** Kimi-Linear / K3: `linear_attn_config.kda_layers` and `full_attn_layers`, 1-based (docs/notes/architectures.md, pitfall 2). */
export function kimiLinearCaches(g: Geometry, linear: Json): LayerCache[] {
  const kda = oneBasedSet(linear, "kda_layers", g.layers);
  const full = oneBasedSet(linear, "full_attn_layers", g.layers);
  const mla = mlaCache(g.text);
  const state = kdaState(g, linear);
  return Array.from({ length: g.layers }, (_, i): LayerCache => {
    if (kda.has(i) && full.has(i)) {
      throw new ModelError(
        `linear_attn_config lists layer ${i + 1} as both KDA and full attention.`,
        "linear_attn_config",
      );
    }
    if (kda.has(i)) return { kind: "linear", stateBytesPerSeq: state };
    if (full.has(i)) return mla;
    throw new ModelError(
      `linear_attn_config lists layer ${i + 1} in neither kda_layers nor full_attn_layers: its cache is unknown.`,
      "linear_attn_config",
    );
  });
}

export const KIMI_LINEAR: ConfigFamily = {
  name: "Kimi-Linear / Kimi-K3 (MLA + linear_attn_config)",
  detects: (g) => isMla(g.text, g.modelType) && isRecord(g.text["linear_attn_config"]),
  layerCaches: (g) => kimiLinearCaches(g, g.text["linear_attn_config"] as Json),
};
