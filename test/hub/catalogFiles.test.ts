/**
 * The catalog against its sources: every model's config is the fixture's
 * config.json (test/fixtures/configs/, its added `_source` key aside, or
 * test/fixtures/models/), read the way the page reads the chunk, and its
 * hf_quant_config.json the fixture's with the layer map cut as the build
 * cuts it (test/hub/catalogCompaction.test.ts plans both); every model the
 * engine sizes; the page's loader finds each one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { loadCatalogEntry } from "../../src/hub/catalog.ts";
import { catalogIndex, catalogSha, EXAMPLE_REPO } from "../../src/hub/catalogIndex.ts";
import { readConfigJson } from "../../src/hub/configJson.ts";
import { readModel } from "../../src/plan/index.ts";
import { catalogEntry } from "../../scripts/lib/catalog.ts";

const CONFIGS = new URL("../fixtures/configs/", import.meta.url);
const MODELS = new URL("../fixtures/models/", import.meta.url);
const name = (repo: string) => repo.replace("/", "__");

/** The fixture a model's config came from: the models' fixture when it has a verbatim one, else the configs'. */
function fixtureConfig(repo: string): unknown {
  const models = readdirSync(MODELS);
  if (models.includes(`${name(repo)}.json`)) {
    const f = JSON.parse(readFileSync(new URL(`${name(repo)}.json`, MODELS), "utf8")) as {
      config?: unknown;
      config_verbatim?: boolean;
    };
    if (f.config && f.config_verbatim) return f.config;
  }
  const { _source, ...config } = readConfigJson(
    readFileSync(new URL(`${name(repo)}.config.json`, CONFIGS), "utf8"),
  ) as Record<string, unknown>;
  expect(String(_source)).toMatch(/^https:\/\//);
  return config;
}

/** hf_quant_config.json's per-layer map (ModelOpt MIXED_PRECISION), or null when the file has none. */
function layerMap(quant: Record<string, unknown>): Record<string, unknown> | null {
  const q = quant["quantization"];
  const layers = typeof q === "object" && q !== null ? (q as Record<string, unknown>)["quantized_layers"] : undefined;
  return typeof layers === "object" && layers !== null ? (layers as Record<string, unknown>) : null;
}

describe("the catalog's index", () => {
  test("lists 82 models: every config of test/fixtures/configs/ and the verbatim ones of test/fixtures/models/", () => {
    const repos = catalogIndex().map((e) => e.repo.toLowerCase());
    expect(repos).toHaveLength(82);
    expect(new Set(repos).size).toBe(repos.length);
    for (const file of readdirSync(CONFIGS).filter((f) => f.endsWith(".config.json")))
      expect(repos).toContain(
        file
          .replace(/\.config\.json$/, "")
          .replace("__", "/")
          .toLowerCase(),
      );
  });

  test("8 plan with no network (their files' sizes are known); the rest ask the weights' size", () => {
    const files = catalogIndex().filter((e) => e.weights === "files");
    expect(files.map((e) => e.repo)).toEqual([
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      "meta-llama/Llama-3.1-8B-Instruct",
      "microsoft/phi-4",
      "Qwen/Qwen2.5-VL-7B-Instruct",
      "mistralai/Mixtral-8x7B-Instruct-v0.1",
      "deepseek-ai/DeepSeek-R1",
      "unsloth/DeepSeek-R1-GGUF",
      "openai/gpt-oss-20b",
    ]);
    // A model with no files answers no read: the Hub (or the user) gives its sizes.
    expect(catalogSha("zai-org/GLM-5")).toBeUndefined();
    expect(catalogSha(EXAMPLE_REPO)).toBe("b47205940b83b5b484577359f71ee7b88472df67");
  });
});

describe.each(catalogIndex().map((e) => ({ ...e })))("$repo", ({ repo, weights, label }) => {
  test("its config is the fixture's, value for value (Infinity kept)", () => {
    const entry = catalogEntry(repo);
    expect(entry?.label).toBe(label);
    expect(entry?.weights).toBe(weights);
    expect(entry?.snapshot.config).toEqual(fixtureConfig(repo));
    expect(entry?.source.length).toBeGreaterThan(1);
  });

  test("its hf_quant_config.json, where the fixtures hold one, is the fixture's, its layer map cut to one layer per value", () => {
    const file = new URL(`${name(repo)}.hf_quant_config.json`, CONFIGS);
    const entry = catalogEntry(repo);
    const quant = entry?.snapshot.extraJson?.["hf_quant_config.json"];
    if (!existsSync(file)) return expect(quant).toBeUndefined();
    const { _source, ...fixture } = readConfigJson(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(String(_source)).toMatch(/^https:\/\//);
    const layers = layerMap(fixture);
    if (!layers) {
      expect(entry?.compacted).toBeUndefined();
      return expect(quant).toEqual(fixture);
    }
    // The first layer of each distinct value, in the fixture's order; every other key as the fixture has it.
    const firsts = new Map<string, [string, unknown]>();
    for (const [layer, value] of Object.entries(layers))
      if (!firsts.has(JSON.stringify(value))) firsts.set(JSON.stringify(value), [layer, value]);
    const q = fixture["quantization"] as Record<string, unknown>;
    expect(quant).toEqual({
      ...fixture,
      quantization: { ...q, quantized_layers: Object.fromEntries(firsts.values()) },
    });
    // And it says so: the full map's count, each kept layer's share of it, the full file's size and source.
    const counts = new Map<string, number>();
    for (const value of Object.values(layers))
      counts.set(JSON.stringify(value), (counts.get(JSON.stringify(value)) ?? 0) + 1);
    expect(entry?.compacted).toEqual([
      expect.objectContaining({
        file: "hf_quant_config.json",
        key: "quantization.quantized_layers",
        entries: Object.keys(layers).length,
        bytes: Buffer.byteLength(`${JSON.stringify(fixture, null, 2)}\n`),
        kept: [...firsts.entries()].map(([value, [layer]]) => ({ layer, of: counts.get(value) })),
        source: String(_source),
      }),
    ]);
    expect(entry?.snapshot.files.find((f) => f.path === "hf_quant_config.json")?.sizeBytes).toBe(
      entry?.compacted?.[0]?.bytes,
    );
  });

  test("the engine sizes it, and the page's loader finds the same entry", async () => {
    const entry = catalogEntry(repo);
    if (!entry) throw new Error(`${repo}: not in the catalog`);
    const { shape, artifacts } = readModel(entry.snapshot);
    expect(shape.layers).toBeGreaterThan(0);
    // Weights in files: artifacts to plan. Config only: none (the user's size makes the one artifact).
    if (weights === "files") expect(artifacts.length).toBeGreaterThan(0);
    else expect(entry.snapshot.files.every((f) => f.path.endsWith(".json"))).toBe(true);
    expect(await loadCatalogEntry(repo.toUpperCase())).toEqual(entry);
  });
});

test("a config holding Python's bare Infinity keeps it (Nemotron-3-Super's time_step_limit)", () => {
  const config = catalogEntry("nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8")?.snapshot.config;
  expect(config?.["time_step_limit"]).toEqual([0, Infinity]);
});
