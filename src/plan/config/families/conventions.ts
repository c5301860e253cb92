/**
 * Sliding windows without a per-layer list (Gemma-2, Gemma-3, Cohere2, Qwen2, Mistral), and the
 * recurrent layouts Modelplan refuses rather than guess.
 */
import type { ConfigFamily } from "./family.ts";
import { type Json, ModelError, optionalInt } from "../fields.ts";
import { type Geometry, slidingFromFull } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Layouts whose recurrent or linear layers this file cannot place: Jamba's
 * `attn_layer_period`, Falcon-H1's parallel Mamba
 * (`mamba_*` with no layer list). Sized as plain attention they would miss a
 * per-sequence state and overstate the KV, so they are refused by name.
 */
export function refuseUnplacedRecurrence(t: Json): void {
  const field =
    (t["attn_layer_period"] !== undefined ? "attn_layer_period" : undefined) ??
    Object.keys(t).find((k) => /^(mamba_|ssm_|linear_num_|linear_attn)/.test(k) && k !== "mamba_ssm_dtype");
  if (field === undefined) return;
  throw new ModelError(
    `config.json has ${field} but no layer list Modelplan can read (layer_types, hybrid_override_pattern, ` +
      "full_attention_interval, linear_attn_config): which layers hold a recurrent state is unknown, and Modelplan will not guess.",
    field,
  );
}

/**
 * Sliding window without a per-layer list: Gemma-2 alternates (even layers
 * slide, transformers `is_sliding = not layer_idx % 2`); Gemma-3 and Cohere2
 * slide all but every `sliding_window_pattern`-th layer; Qwen2's
 * `sliding_window` counts only when `use_sliding_window` is true, and then from
 * `max_window_layers` on; otherwise a set window applies to every layer, as
 * vLLM does for Mistral-style configs.
 */
export function slidingByConvention(g: Geometry): LayerCache[] {
  const t = g.text;
  const window = t["sliding_window"];
  const all = (f: (i: number) => LayerCache) => Array.from({ length: g.layers }, (_, i) => f(i));
  if (typeof window !== "number" || window <= 0) return all(() => g.full);
  if (t["use_sliding_window"] === false) return all(() => g.full);
  if (g.modelType === "gemma2") return all((i) => (i % 2 === 0 ? slidingFromFull(g, window) : g.full));
  const p = optionalInt(t, "sliding_window_pattern") ?? optionalInt(t, "_sliding_window_pattern");
  if (p !== undefined && p > 0) return all((i) => ((i + 1) % p !== 0 ? slidingFromFull(g, window) : g.full));
  if (t["use_sliding_window"] === true) {
    const from = optionalInt(t, "max_window_layers") ?? 0;
    return all((i) => (i >= from ? slidingFromFull(g, window) : g.full));
  }
  return all(() => slidingFromFull(g, window));
}

// ---------------------------------------------------------------------------
// Mixture of experts.

/** Every other config: recurrent layers it cannot place are refused, sliding windows read by convention. */
export const CONVENTIONS: ConfigFamily = {
  name: "conventions (sliding_window, Gemma-2/3, Cohere2, Qwen2, Mistral)",
  detects: () => true,
  layerCaches(g) {
    refuseUnplacedRecurrence(g.text);
    return slidingByConvention(g);
  },
};
