/**
 * KV geometries of a model's layer ranges, kept per shape: enumeration and offload splits ask for the
 * same ranges again and again.
 */
import { type KvGeometry, kvGeometry } from "./kv.ts";
import type { ModelShape } from "./shapeTypes.ts";

/** Geometries of a model's first or last n layers at TP 1, kept per shape: offload splits ask for many. */
const firstLayers = new WeakMap<ModelShape, Map<number, KvGeometry>>();

const lastLayers = new WeakMap<ModelShape, Map<number, KvGeometry>>();

function cachedGeometry(
  cache: WeakMap<ModelShape, Map<number, KvGeometry>>,
  shape: ModelShape,
  n: number,
  fromEnd: boolean,
): KvGeometry {
  let byCount = cache.get(shape);
  if (!byCount) {
    byCount = new Map();
    cache.set(shape, byCount);
  }
  let g = byCount.get(n);
  if (!g) {
    const layers = fromEnd ? shape.layerCaches.slice(shape.layerCaches.length - n) : shape.layerCaches.slice(0, n);
    g = kvGeometry(layers, 1);
    byCount.set(n, g);
  }
  return g;
}

/** Geometries of a stage's layers [start, end) at a TP width, kept per shape: every candidate width asks. */
const rangeGeometries = new WeakMap<ModelShape, Map<number, KvGeometry>>();

export function geometryOfRange(shape: ModelShape, start: number, end: number, tp: number): KvGeometry {
  let byRange = rangeGeometries.get(shape);
  if (!byRange) {
    byRange = new Map();
    rangeGeometries.set(shape, byRange);
  }
  const key = (start * 65536 + end) * 4096 + tp;
  let g = byRange.get(key);
  if (!g) {
    g = kvGeometry(shape.layerCaches.slice(start, end), tp);
    byRange.set(key, g);
  }
  return g;
}

export function geometryOfFirst(shape: ModelShape, n: number): KvGeometry {
  return cachedGeometry(firstLayers, shape, n, false);
}

export function geometryOfLast(shape: ModelShape, n: number): KvGeometry {
  return cachedGeometry(lastLayers, shape, n, true);
}
