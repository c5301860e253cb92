/** What each card of a llama.cpp layer split holds. */
import { geometryOfFirst } from "../../geometries.ts";
import type { Part } from "../../layout.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Artifact } from "../../types.ts";
import { weightParts } from "../../weights.ts";

/**
 * The parts of a llama.cpp layer split over `cards` of one node: each card
 * holds ceil(layers ÷ cards) layers and their KV; the last also the output
 * layer and the logits. The token embedding stays in a CPU buffer.
 */
export function layerSplitParts(
  shape: ModelShape,
  a: Artifact,
  gpuClass: string,
  physicalBytes: number,
  cards: number,
): Part[] {
  const wp = weightParts(shape, a);
  const perCard = Math.ceil(shape.layers / cards);
  const moePerCard = Math.ceil(wp.moeLayers / cards);
  const body = perCard * wp.layerBytes + moePerCard * wp.expertLayerBytes;
  const kv = geometryOfFirst(shape, perCard);
  // The output layer sits on the last card; a tied model's is a copy of token_embd, whose
  // original stays in a CPU buffer for the lookups (calibration: Gemma-3-27B's CUDA0 buffer
  // is the whole file, and its CPU buffer the embedding again).
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  const lastPart: Part = {
    gpuClass,
    cards: 1,
    role: cards > 1 ? "last card" : "",
    physicalBytes,
    bodyBytes: body + output + wp.projectorBytes,
    embedBytes: 0,
    tensorParallel: 1,
    pipelineParallel: cards,
    holdsOutput: true,
    kv,
  };
  if (cards === 1) return [lastPart];
  return [{ ...lastPart, cards: cards - 1, role: "other cards", bodyBytes: body, holdsOutput: false }, lastPart];
}
