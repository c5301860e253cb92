/**
 * Which artifacts vLLM and SGLang plan, and the refusals they give first:
 * GGUF is llama.cpp's; a KV dtype they lack is refused in words, a layout
 * they have no model of is left out (refused once by `unmodelled`), and a
 * context past the model's own is refused once, not over every width.
 */
import type { EngineModel } from "../engine.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Artifact, Refusal, Workload } from "../../types.ts";

export function servingAdmits(
  engine: EngineModel,
  a: Artifact,
  shape: ModelShape,
  w: Workload,
): { refusals: Refusal[]; places: boolean } {
  const refusals: Refusal[] = [];
  if (a.format === "gguf") return { refusals, places: false };
  if (!engine.kvDtypes.includes(w.kvDtype)) {
    refusals.push({
      artifact: a.name,
      engine: engine.id,
      where: "any",
      reason: `${engine.label} has no KV cache dtype "${w.kvDtype}": use auto or fp8`,
    });
    return { refusals, places: false };
  }
  if (engine.unmodelled(shape) !== null) return { refusals, places: false };
  const past = engine.pastModelContext(shape, w.contextTokens);
  if (past !== null && !past.runs)
    refusals.push({ artifact: a.name, engine: engine.id, where: "any", reason: past.words });
  return { refusals, places: true };
}
