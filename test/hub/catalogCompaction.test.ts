/**
 * The catalog keeps one hf_quant_config.json `quantized_layers` entry per distinct value
 * (scripts/lib/compactQuant.ts; MiniMax-M3-NVFP4's full map is 22,422 entries, 3.0 MB of the
 * service worker's precache). Nothing the engine computes may move: each compacted model is
 * planned from the full file the build read (test/fixtures/configs/) and from the catalog's
 * entry, with the same weights and cluster, and the plans must be equal, option for option.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { CatalogEntry } from "../../src/hub/catalog.ts";
import { readConfigJson } from "../../src/hub/configJson.ts";
import { catalogEntry, catalogIndex } from "../../scripts/lib/catalog.ts";
import { DEFAULT_WORKLOAD, plan, readModel, type Cluster, type RepoSnapshot } from "../../src/plan/index.ts";
import { cards, node } from "../plan/planning-fixtures.ts";

const CONFIGS = new URL("../fixtures/configs/", import.meta.url);
const name = (repo: string) => repo.replace("/", "__");

/** The full hf_quant_config.json the build read, its added `_source` key left out (the catalog leaves it out too). */
function fullQuantConfig(repo: string): Record<string, unknown> {
  const text = readFileSync(new URL(`${name(repo)}.hf_quant_config.json`, CONFIGS), "utf8");
  const { _source, ...json } = readConfigJson(text) as Record<string, unknown>;
  return json;
}

/** The fixture's config.json, as the build read it. */
function fixtureConfig(repo: string): Record<string, unknown> {
  const text = readFileSync(new URL(`${name(repo)}.config.json`, CONFIGS), "utf8");
  const { _source, ...json } = readConfigJson(text) as Record<string, unknown>;
  return json;
}

const compacted = catalogIndex()
  .map((e) => catalogEntry(e.repo))
  .filter((e): e is CatalogEntry => e?.compacted !== undefined);

/** Two nodes of 8 H100s on one InfiniBand fabric. */
const CLUSTER: Cluster = {
  nodes: [node("a", "ib0", [cards("h100-80g", 8)]), node("b", "ib0", [cards("h100-80g", 8)])],
};

/**
 * The weights' size the user gives in manual mode (their files' sizes were not seen, src/hub/manual.ts):
 * the same for both plans. 160 GB does not fit one 80 GB card: the options split it, on up to 16.
 */
const WEIGHTS_BYTES = 160e9;

function withWeights(snapshot: RepoSnapshot): RepoSnapshot {
  return { ...snapshot, files: [...snapshot.files, { path: "model.safetensors", sizeBytes: WEIGHTS_BYTES }] };
}

/** A plan as JSON: what the page and `npm run plan --json` see of it. */
function planned(snapshot: RepoSnapshot): unknown {
  const { shape, artifacts } = readModel(snapshot);
  const p = plan({ repo: snapshot.repo, revision: snapshot.sha, shape, artifacts }, CLUSTER, DEFAULT_WORKLOAD);
  return JSON.parse(JSON.stringify({ shape: p.shape, artifacts: p.artifacts, options: p.options, refused: p.refused }));
}

/** The model as its recorded files give it: config.json and the full hf_quant_config.json, nothing from the catalog. */
function fromFixtures(entry: CatalogEntry): RepoSnapshot {
  const repo = entry.snapshot.repo;
  const full = fullQuantConfig(repo);
  return withWeights({
    repo,
    sha: "",
    config: fixtureConfig(repo),
    files: entry.snapshot.files,
    paramsTotal: null,
    ggufHeaders: {},
    extraJson: { "hf_quant_config.json": full },
  });
}

test("the six ModelOpt models whose hf_quant_config.json lists its layers are the ones compacted", () => {
  expect(compacted.map((e) => e.snapshot.repo).sort()).toEqual([
    "nvidia/DeepSeek-V4-Flash-NVFP4",
    "nvidia/DeepSeek-V4-Pro-NVFP4",
    "nvidia/MiniMax-M3-NVFP4",
    "nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4",
    "nvidia/Qwen3.6-27B-NVFP4",
    "nvidia/Qwen3.6-35B-A3B-NVFP4",
  ]);
});

describe.each(compacted.map((e) => [e.snapshot.repo, e] as const))("%s", (_repo, entry) => {
  test("plans the same from the catalog's copy as from the full file: shape, artifacts, options, refusals", () => {
    const full = planned(fromFixtures(entry));
    const copy = planned(withWeights(entry.snapshot));
    expect((full as { options: unknown[] }).options.length).toBeGreaterThan(0);
    expect(copy).toEqual(full);
  });

  test("its chunk holds no more than one layer per distinct value, and says the size it was cut from", () => {
    const quant = entry.snapshot.extraJson?.["hf_quant_config.json"] as { quantization: Record<string, unknown> };
    const layers = quant.quantization["quantized_layers"] as Record<string, unknown>;
    const values = Object.values(layers).map((v) => JSON.stringify(v));
    expect(new Set(values).size).toBe(values.length);
    const size = entry.snapshot.files.find((f) => f.path === "hf_quant_config.json")?.sizeBytes;
    expect(entry.compacted?.[0]?.bytes).toBe(size);
  });
});

test("the test can fail: a copy keeping only MiniMax-M3's first layer (MXFP8) plans other artifacts", () => {
  const entry = compacted.find((e) => e.snapshot.repo === "nvidia/MiniMax-M3-NVFP4");
  if (!entry) throw new Error("MiniMax-M3-NVFP4 is not compacted");
  const full = fullQuantConfig(entry.snapshot.repo);
  const q = full["quantization"] as Record<string, unknown>;
  const [first] = Object.entries(q["quantized_layers"] as Record<string, unknown>);
  if (!first) throw new Error("no layers");
  const firstOnly = { ...full, quantization: { ...q, quantized_layers: Object.fromEntries([first]) } };
  const wrong = planned(withWeights({ ...entry.snapshot, extraJson: { "hf_quant_config.json": firstOnly } }));
  const right = planned(fromFixtures(entry)) as { artifacts: { quant: string }[] };
  expect(right.artifacts[0]?.quant).toBe("nvfp4");
  expect(wrong).not.toEqual(right);
});

/**
 * The service worker precaches every catalog chunk (vite.config.ts); MiniMax-M3's was 3.0 MB of a
 * 7.0 MB precache before the build cut its layer map. The largest now is Qwen3.6-27B-NVFP4's, 73 kB,
 * whose verbatim config.json repeats the map (33 kB): a chunk past 128 KiB is bloat to look at.
 */
test("every catalog chunk is under 128 KiB", () => {
  const dir = new URL("../../src/hub/catalog/", import.meta.url);
  const sizes = readdirSync(dir).map((file) => [file, statSync(new URL(file, dir)).size] as const);
  expect(sizes.length).toBeGreaterThan(80);
  expect(sizes.filter(([, bytes]) => bytes > 128 * 1024)).toEqual([]);
});
