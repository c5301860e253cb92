/**
 * Issue 20's link attack, bounded for `npm test`: 100 links of each shape
 * (bit flips, truncations, huge numbers, NaN, deep nesting, long strings,
 * __proto__, wrong versions, 1 MB fragments) decoded, and 6 of each drawn
 * as the page. The 10,000-link run is `npx tsx scripts/fuzz-links.ts`.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { attack, rng, runCase, SHAPES } from "../../scripts/lib/linkFuzz.ts";
import { defaultChoices } from "../../src/app/defaults.ts";

const manualConfig = JSON.parse(
  readFileSync(new URL("../fixtures/configs/Qwen__Qwen3-32B-FP8.config.json", import.meta.url), "utf8"),
) as Record<string, unknown>;
const defaults = defaultChoices();

describe.each(SHAPES)("links attacked by %s", (shape) => {
  test("100 decode without throwing, to a plan the page can draw, each in under 1 s", () => {
    const random = rng(SHAPES.indexOf(shape) + 1);
    for (let i = 0; i < 100; i++) {
      const fragment = attack(shape, random, defaults, manualConfig);
      const r = runCase(shape, fragment, defaults, false);
      expect(r.decodeError, fragment.slice(0, 120)).toBeNull();
      expect(r.unsound, fragment.slice(0, 120)).toBeNull();
      expect(r.decodeMs).toBeLessThan(1000);
    }
  });

  test("6 draw the page: no throw, never blank", () => {
    const random = rng(1000 + SHAPES.indexOf(shape));
    for (let i = 0; i < 6; i++) {
      const r = runCase(shape, attack(shape, random, defaults, manualConfig), defaults, true);
      expect(r.renderError).toBeNull();
      expect(r.blank).toBe(false);
      // 1 s is the bound; a loaded 2-core CI machine gets 3.
      expect(r.renderMs).toBeLessThan(3000);
    }
  });
});

test("bit flips are reported, not planned: the checksum catches every one", () => {
  const random = rng(99);
  let silent = 0;
  for (let i = 0; i < 300; i++) {
    const r = runCase("bit-flip", attack("bit-flip", random, defaults, manualConfig), defaults, false);
    if (r.notices === 0) silent++;
  }
  expect(silent).toBe(0);
});
