/**
 * A model family's reading of which layer caches what. Each family detects
 * its config by the field it alone uses and returns one cache per layer; the
 * families are tried in order (index.ts), like the cluster's importers.
 */
import type { Geometry } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

export interface ConfigFamily {
  /** The family in words, and the field that marks it. */
  readonly name: string;
  /** Whether the config is this family's (it may throw a ModelError naming a field that is malformed). */
  detects(g: Geometry): boolean;
  layerCaches(g: Geometry, attentionHeads: number): LayerCache[];
}
