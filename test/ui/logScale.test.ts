import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MIN_CONTEXT_TOKENS, positionToTokens, SLIDER_STEPS, tokensToPosition } from "../../src/ui/logScale.ts";

describe("the context slider's log scale", () => {
  test("its ends are exactly 512 and the model's own maximum (Qwen3-32B: 40,960)", () => {
    expect(positionToTokens(0, MIN_CONTEXT_TOKENS, 40960)).toBe(512);
    expect(positionToTokens(SLIDER_STEPS, MIN_CONTEXT_TOKENS, 40960)).toBe(40960);
  });

  test("the middle of the track is the geometric middle, not the arithmetic one", () => {
    // √(512 × 131072) = 8192: on a linear slider the middle would be 65,792.
    expect(positionToTokens(SLIDER_STEPS / 2, MIN_CONTEXT_TOKENS, 131072)).toBe(8192);
  });

  test("a context set in the number field puts the thumb where the slider would give it back", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4096, max: 1_048_576 }),
        fc.integer({ min: 0, max: SLIDER_STEPS }),
        (max, position) => {
          const tokens = positionToTokens(position, MIN_CONTEXT_TOKENS, max);
          expect(tokens).toBeGreaterThanOrEqual(MIN_CONTEXT_TOKENS);
          expect(tokens).toBeLessThanOrEqual(max);
          // Snapping moves a token count by at most a quarter of a position, so the thumb lands where it was.
          expect(tokensToPosition(tokens, MIN_CONTEXT_TOKENS, max)).toBe(position);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test.each([8192, 32768, 163840, 1048576])("every arrow-key step moves the context (512 to %d)", (max) => {
    // A regression: snapping to coarse round numbers once swallowed single steps, and the arrow keys did nothing.
    let last = 0;
    for (let p = 0; p <= SLIDER_STEPS; p++) {
      const tokens = positionToTokens(p, MIN_CONTEXT_TOKENS, max);
      expect(tokens).toBeGreaterThan(last);
      last = tokens;
    }
  });
});
