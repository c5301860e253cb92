/** A context longer than the model's own, in the words every engine's message shares. */
import type { ModelShape } from "../shapeTypes.ts";

/** The model's own longest context, or 0 when its files do not say. */
export function modelContextTokens(shape: ModelShape): number {
  return shape.maxContextTokens > 0 ? shape.maxContextTokens : 0;
}

/** The asked and the model's own context, formatted, when the asked one is past the model's; null when within it. */
export function pastContextWords(shape: ModelShape, contextTokens: number): { asked: string; own: string } | null {
  const most = modelContextTokens(shape);
  if (most === 0 || contextTokens <= most) return null;
  return { asked: contextTokens.toLocaleString("en-US"), own: most.toLocaleString("en-US") };
}
