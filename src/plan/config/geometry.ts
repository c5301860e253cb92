/**
 * A model's attention geometry: KV heads under every spelling, head dim, and the full and sliding
 * layers built from them.
 */
import { firstNumber, type Json, ModelError, optionalInt, positiveInt } from "./fields.ts";
import type { LayerCache } from "../shapeTypes.ts";

/**
 * KV heads under every spelling vLLM's `get_total_num_kv_heads` tries, in its
 * order, falling back to the attention heads (multi-head attention).
 */
const KV_HEAD_KEYS = [
  "n_head_kv",
  "num_kv_heads",
  "num_key_value_heads",
  "multi_query_group_num",
  "num_attention_groups",
] as const;

export function kvHeadsOf(text: Json, attentionHeads: number): number {
  const found = firstNumber(text, KV_HEAD_KEYS);
  if (found === undefined) return attentionHeads;
  if (!Number.isInteger(found.value) || found.value <= 0) {
    throw new ModelError(
      `config.json field ${found.name} must be a positive whole number, got ${found.value}.`,
      found.name,
    );
  }
  return found.value;
}

/** head_dim when present and positive (null is absent: docs/notes/architectures.md pitfall 13), else hidden ÷ heads. */
export function headDimOf(text: Json, hiddenSize: number, attentionHeads: number): number {
  const value = text["head_dim"];
  if (typeof value === "number" && value > 0) return value;
  if (hiddenSize % attentionHeads !== 0) {
    throw new ModelError(
      `config.json has no head_dim and hidden_size ${hiddenSize} does not divide by num_attention_heads ${attentionHeads}; add head_dim.`,
      "head_dim",
    );
  }
  return hiddenSize / attentionHeads;
}

// ---------------------------------------------------------------------------
// Which layer is which.

export interface Geometry {
  text: Json;
  modelType: string;
  layers: number;
  dtypeBytes: number;
  full: Extract<LayerCache, { kind: "full" }>;
}

function slidingWindowOf(text: Json): number {
  return positiveInt(text, "sliding_window", "sliding-window layers hold at most that many tokens");
}

export function slidingFromFull(g: Geometry, windowTokens: number): Extract<LayerCache, { kind: "sliding" }> {
  return {
    kind: "sliding",
    kvHeads: g.full.kvHeads,
    headDimK: g.full.headDimK,
    headDimV: g.full.headDimV,
    windowTokens,
  };
}

/** A chunked-local layer (Llama-4): one chunk of the full layers' heads, which vLLM sizes apart from a sliding window. */
export function chunkedFromFull(g: Geometry, chunkTokens: number): LayerCache {
  return { ...slidingFromFull(g, chunkTokens), chunked: true };
}

/**
 * A full-attention layer. Gemma-4 gives its full layers their own geometry
 * (`num_global_key_value_heads` × `global_head_dim`, docs/notes/architectures.md pitfall 5); everything
 * else uses the model's.
 */
export function fullLayer(g: Geometry): LayerCache {
  if (g.text["per_layer_config"] !== undefined && g.text["num_global_key_value_heads"] === undefined) {
    // transformers ≥ 5.15 may move Gemma-4's global geometry there (docs/notes/architectures.md, pitfall 5); its shape is not known yet.
    throw new ModelError(
      "config.json keeps its layer geometry in per_layer_config, which Modelplan does not read yet: the full layers' KV heads are unknown.",
      "per_layer_config",
    );
  }
  const globalHeads = optionalInt(g.text, "num_global_key_value_heads");
  const globalDim = optionalInt(g.text, "global_head_dim");
  if (globalHeads !== undefined && globalHeads > 0 && globalDim !== undefined && globalDim > 0) {
    return { kind: "full", kvHeads: globalHeads, headDimK: globalDim, headDimV: globalDim };
  }
  return g.full;
}

/** A sliding layer: MiMo-V2 gives them their own heads (`swa_*`), others share the model's. */
export function slidingLayer(g: Geometry): LayerCache {
  const window = slidingWindowOf(g.text);
  const swaHeads = optionalInt(g.text, "swa_num_key_value_heads");
  if (swaHeads !== undefined && swaHeads > 0) {
    const k = optionalInt(g.text, "swa_head_dim") ?? g.full.headDimK;
    const v = optionalInt(g.text, "swa_v_head_dim") ?? k;
    return { kind: "sliding", kvHeads: swaHeads, headDimK: k, headDimV: v, windowTokens: window };
  }
  return slidingFromFull(g, window);
}

export function requireLength<T>(list: T[], g: Geometry, name: string): T[] {
  if (list.length !== g.layers) {
    throw new ModelError(
      `config.json ${name} has ${list.length} entries for ${g.layers} layers: which layer is which is unknown.`,
      name,
    );
  }
  return list;
}
