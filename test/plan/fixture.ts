/**
 * Loads the recorded configs and repository listings under test/fixtures/
 * (copied from shared/fixtures, each keeping its `_source` / `sources`) as
 * the engine takes them.
 */

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ModelError } from "../../src/plan/index.ts";
import { readConfigJson as parseConfigJson } from "../../src/hub/configJson.ts";
import type { GgufHeader, GgufValue, LayerCache, RepoFile, RepoSnapshot } from "../../src/plan/index.ts";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
export const CONFIG_DIR = join(FIXTURES, "configs");
export const MODEL_DIR = join(FIXTURES, "models");

/**
 * config.json as Python's json.dumps writes it may hold bare Infinity/NaN
 * (Nemotron-3-Super's time_step_limit); JSON.parse refuses them, so they are
 * read as 1e999 (Infinity) and null.
 */
export function parsePythonJson(text: string): unknown {
  return parseConfigJson(text);
}

function readJson(path: string): Record<string, unknown> {
  return parsePythonJson(readFileSync(path, "utf8")) as Record<string, unknown>;
}

/** `<owner>__<name>` of every recorded config.json. */
export function configNames(): string[] {
  return readdirSync(CONFIG_DIR)
    .filter((f) => f.endsWith(".config.json"))
    .map((f) => f.slice(0, -".config.json".length))
    .sort();
}

export function loadConfig(name: string): Record<string, unknown> {
  return readJson(join(CONFIG_DIR, `${name}.config.json`));
}

/** The repo's hf_quant_config.json as extraJson, when recorded. */
export function loadExtraJson(name: string): Record<string, unknown> | undefined {
  try {
    return { "hf_quant_config.json": readJson(join(CONFIG_DIR, `${name}.hf_quant_config.json`)) };
  } catch {
    return undefined;
  }
}

interface ModelFixtureFile {
  path: string;
  size?: number | null;
  size_exact?: boolean;
}

export interface ModelFixture {
  id: string;
  config?: Record<string, unknown>;
  files?: ModelFixtureFile[];
  other_files?: ModelFixtureFile[];
  params?: number;
  quant_totals?: Record<string, { n_files: number; total_size: number }>;
  weights_total_bytes?: number;
}

export function modelNames(): string[] {
  return readdirSync(MODEL_DIR)
    .filter((f) => f.endsWith(".json") && f.includes("__"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

export function loadModel(name: string): ModelFixture {
  return readJson(join(MODEL_DIR, `${name}.json`)) as unknown as ModelFixture;
}

/**
 * A recorded repository as a snapshot. Only files whose size was recorded
 * exactly are listed (`exactOnly`), so byte sums are sums of real sizes;
 * pass false to keep rounded display sizes too.
 */
export function snapshotOf(name: string, exactOnly = true): RepoSnapshot {
  const m = loadModel(name);
  const files: RepoFile[] = [...(m.files ?? []), ...(m.other_files ?? [])]
    .filter((f) => typeof f.size === "number" && (!exactOnly || f.size_exact === true))
    .map((f) => ({ path: f.path, sizeBytes: f.size as number }));
  return {
    repo: m.id,
    sha: "",
    config: m.config ?? null,
    files,
    paramsTotal: typeof m.params === "number" ? m.params : null,
    ggufHeaders: {},
  };
}

/** KV bytes one token costs over all layers that hold it at `bytesPerElement`, by kind (K and V; MLA one latent). */
export function kvBytesPerToken(
  caches: LayerCache[],
  bytesPerElement: number,
  kinds: LayerCache["kind"][] = ["full", "mla"],
): number {
  let sum = 0;
  for (const c of caches) {
    if (!kinds.includes(c.kind)) continue;
    if (c.kind === "full" || c.kind === "sliding") sum += c.kvHeads * (c.headDimK + c.headDimV) * bytesPerElement;
    if (c.kind === "mla") sum += c.latentDim * bytesPerElement;
  }
  return sum;
}

export function stateBytesPerSeq(caches: LayerCache[]): number {
  return caches.reduce((sum, c) => sum + (c.kind === "linear" ? c.stateBytesPerSeq : 0), 0);
}

export const MIB = 2 ** 20;
export const GIB = 2 ** 30;

/** The ModelError a call throws; fails the test when it throws nothing or something else. */
export function thrown(f: () => unknown): ModelError {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  throw new Error("no ModelError was thrown");
}

/** GGUF headers as llama.cpp printed them (test/fixtures/models/gguf-headers.json). */
export function recordedHeader(name: string, extra: Record<string, GgufValue> = {}): GgufHeader {
  const all = (readJson(join(MODEL_DIR, "gguf-headers.json"))["headers"] ?? {}) as Record<
    string,
    { metadata: Record<string, GgufValue> }
  >;
  const r = all[name];
  if (r === undefined) throw new Error(`no recorded header ${name}`);
  return { metadata: { ...r.metadata, ...extra }, tensorDataOffsetBytes: 0 };
}
