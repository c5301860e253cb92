/**
 * A repository read as the engine needs it: the model's shape and the
 * artifacts it offers. config.json decides the shape when the repository has
 * one; a GGUF-only repository (bartowski/…-GGUF, unsloth/…-GGUF) is read from
 * the header of its first GGUF.
 */

import { artifactsOf } from "./artifacts.ts";
import { shapeFromGguf } from "./gguf.ts";
import { ModelError, shapeFromConfig } from "./shape.ts";
import type { Artifact, GgufHeader, ModelShape, RepoSnapshot } from "./types.ts";

/** The header of the first GGUF by path; a projector's (mmproj) describes the vision tower, not the model. */
function firstModelHeader(snapshot: RepoSnapshot): GgufHeader | undefined {
  const path = Object.keys(snapshot.ggufHeaders)
    .filter((p) => !/mmproj/i.test(p))
    .sort()[0];
  return path === undefined ? undefined : snapshot.ggufHeaders[path];
}

function shapeOf(snapshot: RepoSnapshot): ModelShape {
  if (snapshot.config !== null) return shapeFromConfig(snapshot.config, snapshot.paramsTotal, snapshot.extraJson);
  const header = firstModelHeader(snapshot);
  if (header === undefined) {
    throw new ModelError(
      `${snapshot.repo || "this repository"} has no config.json and no GGUF header was read, so its shape is unknown. ` +
        "Open a repository with a config.json or .gguf files, or paste the model's config.json.",
      "config.json",
    );
  }
  const shape = shapeFromGguf(header, snapshot.paramsTotal);
  // A GGUF repo reads pictures when it ships a projector (mmproj) beside the model.
  const hasVision = snapshot.files.some((f) => /mmproj/i.test(f.path) && f.path.toLowerCase().endsWith(".gguf"));
  return { ...shape, hasVision };
}

/** The shape and the artifacts of a repository snapshot; throws ModelError, in words, when the shape cannot be read. */
export function readModel(snapshot: RepoSnapshot): { shape: ModelShape; artifacts: Artifact[] } {
  const shape = shapeOf(snapshot);
  return { shape, artifacts: artifactsOf(snapshot, shape) };
}
