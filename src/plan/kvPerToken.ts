/**
 * KV bytes a token costs over a card's layers, every kind summed: the figure engines print as bytes
 * per token.
 */
import { compressedBytesPerToken } from "./engines/vllm/dsv4.ts";
import { type KvGeometry, kvGeometry } from "./kv.ts";
import type { LayerCache } from "./shapeTypes.ts";

/** Whole-model KV bytes per token of context at TP 1 (full, sliding as full, MLA): the figure people quote. */
export function kvBytesPerToken(layers: readonly LayerCache[], elementBytes: number): number {
  return geometryBytesPerToken(kvGeometry(layers, 1), elementBytes);
}

/** A card's KV bytes per token of context in the engine's own layout, sliding layers counted whole: what logs divide by. */
export function geometryBytesPerToken(g: KvGeometry, elementBytes: number): number {
  const sliding = g.sliding.reduce((s, x) => s + x.elemsPerToken, 0);
  // DeepSeek-V4's entries are vLLM's fixed fp8_ds_mla layout, whatever the element size.
  const compressed = compressedBytesPerToken(g.compressed);
  return (
    (g.fullElemsPerToken + g.mlaElemsPerToken + sliding) * elementBytes +
    g.indexerBytesPerToken +
    compressed.entries +
    compressed.indexer
  );
}
