import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigJsonError, readConfigJson as parseConfigJson } from "../../src/hub/configJson.ts";

describe("config.json as Python writes it", () => {
  test("Nemotron-3-Super's real config.json, with a bare Infinity, parses", () => {
    const text = readFileSync(
      join(
        import.meta.dirname,
        "..",
        "fixtures",
        "configs",
        "nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.config.json",
      ),
      "utf8",
    );
    expect(() => JSON.parse(text)).toThrow();
    const config = parseConfigJson(text) as Record<string, unknown>;
    expect(config["time_step_limit"]).toEqual([0, Infinity]);
  });

  test.each([
    ['{"a": NaN, "b": -Infinity}', { a: null, b: -Infinity }],
    [
      '{"note": "Infinity and NaN stay words", "x": [1, Infinity]}',
      { note: "Infinity and NaN stay words", x: [1, Infinity] },
    ],
    ['{"q": "a \\" Infinity"}', { q: 'a " Infinity' }],
  ])("%s", (text, want) => {
    expect(parseConfigJson(text)).toEqual(want);
  });

  test("text that is not JSON is still refused", () => {
    expect(() => parseConfigJson("{ not json")).toThrow(ConfigJsonError);
  });
});
