/**
 * The json5-based config reader (src/hub/configJson.ts) the terminal reads a
 * local download with: every config of the fixtures that JSON.parse reads
 * comes out the same, and Python's bare Infinity and NaN read as the
 * engine's hand-made reader (src/plan/configJson.ts) reads them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigJsonError, readConfigJson } from "../../src/hub/configJson.ts";

const CONFIGS = join(import.meta.dirname, "..", "fixtures", "configs");

describe("readConfigJson", () => {
  const strict = readdirSync(CONFIGS).filter((f) => f.endsWith(".json") && !f.includes("Nemotron-3-Super"));
  test.each(strict)("%s reads as JSON.parse reads it", (name) => {
    const text = readFileSync(join(CONFIGS, name), "utf8");
    expect(readConfigJson(text)).toEqual(JSON.parse(text));
  });

  test("Nemotron-3-Super's bare Infinity, and NaN as null", () => {
    const text = readFileSync(join(CONFIGS, "nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.config.json"), "utf8");
    expect((readConfigJson(text) as Record<string, unknown>).time_step_limit).toEqual([0, Infinity]);
    expect(readConfigJson('{"a": NaN, "b": -Infinity, "c": "NaN"}')).toEqual({ a: null, b: -Infinity, c: "NaN" });
  });

  test.each([
    ["{ not json", /^not JSON: /],
    [`${"[".repeat(100_000)}${"]".repeat(100_000)}`, /nests more than 64 levels deep/],
  ])("%#: refused in words", (text, words) => {
    expect(() => readConfigJson(text)).toThrow(ConfigJsonError);
    expect(() => readConfigJson(text)).toThrow(words);
  });
});
