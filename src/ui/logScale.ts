/**
 * The context slider's scale. Context lengths people pick span 512 to a
 * million tokens; on a linear slider everything below 100k would sit in the
 * first tenth of the track, so the slider moves on a log scale and snaps to
 * round figures.
 */

/** Slider positions: fine enough that each arrow-key step moves less than 1% of the range. */
export const SLIDER_STEPS = 1000;

/** The shortest context the page offers ("from 512"). */
export const MIN_CONTEXT_TOKENS = 512;

/**
 * Context lengths snap to a power of two no larger than half of what one
 * slider position spans there (16 at 4k on a 512–160k range): engines take
 * any length, but a link or a command reads better with round numbers, and
 * snapping finer than a position keeps every arrow-key step a real move.
 */
function snap(tokens: number, ratioPerStep: number): number {
  const step = 2 ** Math.floor(Math.log2(Math.max(1, (tokens * (ratioPerStep - 1)) / 2)));
  return Math.round(tokens / step) * step;
}

export function positionToTokens(position: number, minTokens: number, maxTokens: number): number {
  if (maxTokens <= minTokens) return maxTokens;
  const p = Math.min(Math.max(position, 0), SLIDER_STEPS);
  if (p === 0) return minTokens;
  if (p === SLIDER_STEPS) return maxTokens;
  const ratio = maxTokens / minTokens;
  const tokens = minTokens * Math.pow(ratio, p / SLIDER_STEPS);
  return Math.min(Math.max(snap(tokens, Math.pow(ratio, 1 / SLIDER_STEPS)), minTokens), maxTokens);
}

export function tokensToPosition(tokens: number, minTokens: number, maxTokens: number): number {
  if (maxTokens <= minTokens) return SLIDER_STEPS;
  const t = Math.min(Math.max(tokens, minTokens), maxTokens);
  return Math.round((Math.log(t / minTokens) / Math.log(maxTokens / minTokens)) * SLIDER_STEPS);
}
