/** Llama-4: chunked local attention on RoPE layers, global NoPE attention on every fourth. */
import type { ConfigFamily } from "./family.ts";
import { numberList, optionalInt, positiveInt } from "../fields.ts";
import { chunkedFromFull, type Geometry, requireLength } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Llama-4: chunked local attention on RoPE layers, global NoPE attention on
 * the others. `no_rope_layers[i]` is 1 for a RoPE (chunked) layer; when the
 * list is absent transformers' Llama4TextConfig builds it from
 * `no_rope_layer_interval` (default 4): every fourth layer is global.
 */
export function llama4Caches(g: Geometry): LayerCache[] {
  const chunk = positiveInt(g.text, "attention_chunk_size", "chunked layers hold one chunk");
  const listed = numberList(g.text, "no_rope_layers");
  const interval = optionalInt(g.text, "no_rope_layer_interval") ?? 4;
  const usesRope = listed
    ? requireLength(listed, g, "no_rope_layers").map((v) => v !== 0)
    : Array.from({ length: g.layers }, (_, i) => (i + 1) % interval !== 0);
  return usesRope.map((rope) => (rope ? chunkedFromFull(g, chunk) : g.full));
}

export const LLAMA4: ConfigFamily = {
  name: "Llama-4 (attention_chunk_size)",
  detects: (g) =>
    (g.modelType === "llama4" || g.modelType === "llama4_text") && typeof g.text["attention_chunk_size"] === "number",
  layerCaches: llama4Caches,
};
