/**
 * A repository read as the engine needs it: the model's shape and the
 * artifacts it offers. config.json decides the shape when the repository has
 * one; a GGUF-only repository (bartowski/…-GGUF, unsloth/…-GGUF) is read from
 * the header of its first GGUF.
 */
import { artifactsOf, isProjector } from "./artifacts.ts";
import { ModelError } from "./config/fields.ts";
import { shapeFromGguf } from "./config/gguf.ts";
import { textConfigOf } from "./config/model.ts";
import { paramsFromConfig } from "./config/params.ts";
import { shapeFromConfig } from "./config/shape.ts";
import { dtypeBytes } from "./dtype.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact, GgufHeader, RepoSnapshot } from "./types.ts";

/** The header of the first GGUF by path; a projector's (mmproj) describes the vision tower, not the model. */
function firstModelHeader(snapshot: RepoSnapshot): GgufHeader | undefined {
  const path = Object.keys(snapshot.ggufHeaders)
    .filter((p) => !isProjector(p))
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
  const hasVision = snapshot.files.some((f) => isProjector(f.path) && f.path.toLowerCase().endsWith(".gguf"));
  return { ...shape, hasVision };
}

/** Bytes a parameter takes in an unquantized artifact, 0 for a quantized one. */
function fullPrecisionWidth(a: Artifact, shape: ModelShape): number {
  // A .bin's element size is config.json's torch_dtype too: the listing shows no pickle's dtypes.
  if (a.format === "safetensors" || a.format === "pytorch")
    return shape.quantMethod === "" ? dtypeBytes(shape.dtype) : 0;
  const widths: Record<string, number> = { F32: 4, F16: 2, BF16: 2 };
  return widths[a.quant] ?? 0;
}

/**
 * The parameter count when the Hub gave none: an unquantized artifact's bytes
 * over its width (what fixtures/models calls "derived": the index's total_size
 * ÷ 2 for bf16). Headers add well under 0.01 %. unsloth/DeepSeek-R1-GGUF's
 * BF16 set gives 671.1 B, the model card's 671 B. Without it, every artifact's
 * bits and expert share fall back to a quant's nominal bits.
 */
function paramsFromFullPrecision(artifacts: Artifact[], shape: ModelShape): number | null {
  for (const a of artifacts) {
    const width = fullPrecisionWidth(a, shape);
    if (width > 0) return Math.round(a.bytes / width);
  }
  return null;
}

/** The shape and the artifacts of a repository snapshot; throws ModelError, in words, when the shape cannot be read. */
export function readModel(snapshot: RepoSnapshot): { shape: ModelShape; artifacts: Artifact[] } {
  const shape = shapeOf(snapshot);
  const artifacts = artifactsOf(snapshot, shape);
  if (shape.paramsTotal !== null) return { shape, artifacts };
  const derived = paramsFromFullPrecision(artifacts, shape);
  // Last, the config's own count (an FP8 or MXFP4 checkpoint, a manual config): made once here, at read time.
  const fromConfig =
    derived === null && snapshot.config !== null ? paramsFromConfig(textConfigOf(snapshot.config), shape) : null;
  if (derived === null && fromConfig === null) return { shape, artifacts };
  const counted: ModelShape =
    derived !== null
      ? { ...shape, paramsTotal: derived, paramsSource: "weights" }
      : { ...shape, paramsTotal: fromConfig, paramsSource: "config" };
  return { shape: counted, artifacts: artifactsOf(snapshot, counted) };
}
