/**
 * The shape ceilings (issue 20): every real config and header passes, and
 * the absurd shapes the attack used are refused where they enter, with the
 * field named.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { catalogEntries, catalogSnapshot } from "../../scripts/lib/catalog.ts";
import { HubError } from "../../src/hub/errors.ts";
import { configCeilingError, ggufCeilingError } from "../../src/hub/limits.ts";
import { readRepo } from "../../src/hub/read.ts";
import { snapshotFromManual } from "../../src/hub/manual.ts";
import { readConfigJson as parseConfigJson } from "../../src/hub/configJson.ts";
import { fakeHub, loadRecording } from "./fakeHub.ts";

const CONFIGS = join(import.meta.dirname, "..", "fixtures", "configs");
const realConfigs = readdirSync(CONFIGS)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f, parseConfigJson(readFileSync(join(CONFIGS, f), "utf8")) as Record<string, unknown>] as const);
const llama = realConfigs.find(([f]) => f.startsWith("meta-llama__Llama-3.1-8B"))?.[1] ?? realConfigs[0]?.[1] ?? {};

describe("every real model is within the ceilings", () => {
  test.each(realConfigs)("%s", (_file, config) => {
    expect(configCeilingError(config)).toBeNull();
  });

  test("every model of the bundled catalog, its config and its GGUF headers", () => {
    for (const { repo } of catalogEntries()) {
      const snap = catalogSnapshot(repo);
      if (!snap) continue;
      if (snap.config) expect(configCeilingError(snap.config)).toBeNull();
      for (const [path, header] of Object.entries(snap.ggufHeaders))
        expect(ggufCeilingError(header.metadata, path)).toBeNull();
    }
  });
});

describe("absurd shapes are refused with the field named", () => {
  test.each([
    [
      "num_hidden_layers",
      2 ** 32,
      /config\.json's num_hidden_layers is 4,294,967,296: no real model has more than 1,024/,
    ],
    ["num_hidden_layers", 1e12, /num_hidden_layers is 1,000,000,000,000/],
    ["num_hidden_layers", 1e308, /num_hidden_layers is 1e\+308/],
    ["num_hidden_layers", 1e6, /num_hidden_layers is 1,000,000/],
    ["num_hidden_layers", -1, /num_hidden_layers is -1/],
    ["num_attention_heads", 1e9, /num_attention_heads/],
    ["vocab_size", 2 ** 40, /vocab_size/],
    ["num_local_experts", 1e7, /num_local_experts/],
    ["hidden_size", 1e9, /hidden_size/],
  ])("%s = %d", (field, value, named) => {
    expect(configCeilingError({ ...llama, [field]: value })).toMatch(named);
  });

  test("in a sub-config, with its path", () => {
    expect(configCeilingError({ architectures: ["X"], text_config: { num_hidden_layers: 2 ** 32 } })).toMatch(
      /config\.json's text_config\.num_hidden_layers is 4,294,967,296/,
    );
  });

  test("a per-layer list longer than any model's layers", () => {
    expect(configCeilingError({ num_key_value_heads: Array.from({ length: 5000 }, () => 8) })).toMatch(
      /num_key_value_heads lists 5,000 entries/,
    );
  });

  test("a GGUF block_count of 2^32 − 1, and a token count of 10^9", () => {
    expect(ggufCeilingError({ "general.architecture": "qwen2", "qwen2.block_count": 2 ** 32 - 1 }, "m.gguf")).toMatch(
      /m\.gguf: qwen2\.block_count is 4,294,967,295/,
    );
    expect(ggufCeilingError({ "general.architecture": "llama", "tokenizer.ggml.tokens.count": 1e9 }, "m.gguf")).toMatch(
      /tokenizer\.ggml\.tokens/,
    );
  });

  test.each([2 ** 32, 1e12, 1e308, 1e6])("manual mode refuses %d layers in words, before the engine runs", (layers) => {
    const started = performance.now();
    const out = snapshotFromManual(JSON.stringify({ ...llama, num_hidden_layers: layers }), 16e9);
    expect(out).toEqual({
      error: expect.stringMatching(/num_hidden_layers is .*no real model has more than 1,024/) as unknown as string,
    });
    expect(performance.now() - started).toBeLessThan(100);
  });

  test("a GGUF header read from the Hub with block_count 2^32 − 1 is refused, naming the file and key", async () => {
    const rec = structuredClone(loadRecording("bartowski/Qwen2.5-14B-Instruct-GGUF"));
    const path = "Qwen2.5-14B-Instruct-Q8_0.gguf";
    rec.ggufFacts[path] = { ...rec.ggufFacts[path], "qwen2.block_count": 2 ** 32 - 1 };
    const hub = fakeHub({ recordings: [rec] });
    const err = await readRepo(rec.info.id, null, { hubUrl: "https://hub.test", fetch: hub.fetch }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HubError);
    expect((err as HubError).kind).toBe("shape");
    expect((err as HubError).message).toContain(`${path}: qwen2.block_count is 4,294,967,295`);
  });

  test("a config.json read from the Hub with 10^6 layers is refused before the engine plans it", async () => {
    const rec = structuredClone(loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct"));
    rec.texts["config.json"] = JSON.stringify({
      ...(JSON.parse(rec.texts["config.json"] ?? "{}") as object),
      num_hidden_layers: 1e6,
    });
    const hub = fakeHub({ recordings: [rec] });
    const err = await readRepo(rec.info.id, null, { hubUrl: "https://hub.test", fetch: hub.fetch }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as HubError).kind).toBe("shape");
    expect((err as HubError).message).toMatch(
      /^Qwen\/Qwen2\.5-Coder-32B-Instruct: config\.json's num_hidden_layers is 1,000,000/,
    );
  });
});
