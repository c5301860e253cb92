/** Configs that name each layer's kind in `layer_types`, and Gemma-3n/4's shared KV layers. */
import type { ConfigFamily } from "./family.ts";
import { gatedDeltaState } from "./qwenNext.ts";
import { ModelError, optionalInt, positiveInt, stringList } from "../fields.ts";
import { chunkedFromFull, fullLayer, type Geometry, requireLength, slidingLayer } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/** One `layer_types` entry, for a model whose attention layers are GQA. */
export function cacheForLayerType(g: Geometry, type: string, i: number): LayerCache {
  switch (type) {
    case "full_attention":
    case "attention":
      return fullLayer(g);
    case "sliding_attention":
      return slidingLayer(g);
    case "chunked_attention":
      return chunkedFromFull(g, positiveInt(g.text, "attention_chunk_size", "chunked layers hold one chunk"));
    case "linear_attention":
      return { kind: "linear", stateBytesPerSeq: gatedDeltaState(g) };
    default:
      throw new ModelError(
        `layer_types[${i}] is "${type}", a layer kind Modelplan cannot size yet ` +
          "(known: full_attention, sliding_attention, chunked_attention, linear_attention).",
        "layer_types",
      );
  }
}

/**
 * Gemma-3n/4 `num_kv_shared_layers`: the last N layers reuse an earlier
 * layer's cache and hold none of their own (transformers Gemma3n/Gemma4).
 */
export function withKvSharing(g: Geometry, caches: LayerCache[]): LayerCache[] {
  const shared = optionalInt(g.text, "num_kv_shared_layers") ?? 0;
  if (shared === 0) return caches;
  return caches.map((c, i) => (i >= g.layers - shared ? { kind: "none" } : c));
}

/** Any config that names each layer's kind in `layer_types` (gpt-oss, Gemma-3n/4, Qwen3.5+, Llama-4 with chunked layers). */
export const LAYER_TYPES: ConfigFamily = {
  name: "layer_types",
  detects: (g) => stringList(g.text, "layer_types") !== undefined,
  layerCaches: (g) =>
    withKvSharing(
      g,
      requireLength(stringList(g.text, "layer_types") ?? [], g, "layer_types").map((type, i) =>
        cacheForLayerType(g, type, i),
      ),
    ),
};
