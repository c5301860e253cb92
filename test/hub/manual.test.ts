import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { quantConfigEssentials, snapshotFromManual } from "../../src/hub/manual.ts";
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

  test.each(["nvidia__DeepSeek-V3.1-NVFP4", "nvidia__DeepSeek-V3.2-NVFP4"])(
    "%s, picked from the catalog offline, plans as NVFP4: its quantization is declared only in hf_quant_config.json",
    (file) => {
      // The bundled catalog's own entry (config.json and hf_quant_config.json as the Hub serves them, the layer map compacted).
      const entry = JSON.parse(
        readFileSync(new URL(`../../src/hub/catalog/${file}.json`, import.meta.url), "utf8"),
      ) as {
        snapshot: { config: unknown; extraJson: Record<string, unknown> };
      };
      const hf = entry.snapshot.extraJson["hf_quant_config.json"] as { quantization: Record<string, unknown> };
      const essentials = quantConfigEssentials(hf);
      // exclude_modules is most of the file and unread: what is left fits in a link beside the config.
      expect(hf.quantization["exclude_modules"]).toBeDefined();
      expect(JSON.stringify(essentials).length).toBeLessThan(400);
      const config = JSON.stringify(entry.snapshot.config);
      const withQuant = snapshotFromManual(config, 4e11, file, JSON.stringify(essentials));
      const without = snapshotFromManual(config, 4e11, file);
      if ("error" in withQuant || "error" in without) throw new Error("the catalog config was refused");
      expect(readModel(withQuant).artifacts[0]?.quant).toBe("nvfp4");
      expect(readModel(withQuant).shape.quantMethod).toBe("modelopt");
      // The defect this guards: the config alone reads as an unquantized checkpoint.
      expect(readModel(without).artifacts[0]?.quant).toBe("bf16");
    },
  );

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
