import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { snapshotFromManual } from "../../src/hub/manual.ts";
import { readModel } from "../../src/plan/index.ts";
import { loadRecording } from "./fakeHub.ts";

const coderConfig = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct").texts["config.json"] ?? "";

describe("manual mode", () => {
  test("a pasted config.json and the weights' size make a snapshot the engine sizes", () => {
    const snap = snapshotFromManual(coderConfig, 65_527_841_688, "my copy of Coder-32B");
    if ("error" in snap) throw new Error(snap.error);
    expect(snap.repo).toBe("my copy of Coder-32B");
    const { shape, artifacts } = readModel(snap);
    expect(shape.layers).toBe(64);
    expect(artifacts[0]?.bytes).toBe(65_527_841_688);
  });

  test.each([
    ["{", 1e9, "not valid JSON"],
    ["[1,2]", 1e9, "must be a JSON object"],
    [coderConfig, 0, "weights' size"],
    [coderConfig, Number.NaN, "weights' size"],
    ["x".repeat(1_000_001), 1e9, "over 1 MB"],
  ])("bad input gets words: %#", (text, bytes, words) => {
    const result = snapshotFromManual(text, bytes);
    expect("error" in result && result.error).toContain(words);
  });

  test("a config the engine cannot size is refused here, naming what is missing", () => {
    const result = snapshotFromManual(JSON.stringify({ model_type: "llama" }), 1e9);
    expect("error" in result).toBe(true);
  });

  test("the recording is the fixture's verbatim config", () => {
    const fixture = JSON.parse(
      readFileSync(
        join(import.meta.dirname, "..", "..", "src", "hub", "catalog", "Qwen__Qwen2.5-Coder-32B-Instruct.json"),
        "utf8",
      ),
    ) as { snapshot: { config: unknown } };
    expect(JSON.parse(coderConfig)).toEqual(fixture.snapshot.config);
  });
});
