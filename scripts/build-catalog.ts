/**
 * Builds, from the real snapshots in test/fixtures/models/ (each naming its
 * upstream sources), two things
 * the project keeps (so nothing reads outside the repo at run time):
 *
 *  - src/hub/catalog/<owner>__<name>.json: the bundled catalog, one
 *    RepoSnapshot per model with a verbatim config and exact file sizes
 *    (hf_quant_config.json's per-layer map cut to one layer per distinct
 *    value, what the engine reads: scripts/lib/compactQuant.ts);
 *  - test/fixtures/hub/<owner>__<name>.json: recordings in the Hub's real
 *    response shapes (the `?blobs=true` model info, the files' text, GGUF
 *    header facts) that the tests' fake Hub serves.
 *
 * and src/hub/catalog/copied.json, the day the catalog's entries last
 * changed (what the page names a bundled copy by) with a hash of them: a
 * build that writes the same entries keeps the day, one that changes them
 * writes today's (UTC).
 *
 * Run: npx tsx scripts/build-catalog.ts [path/to/fixtures] [--out DIR] [--today YYYY-MM-DD]
 * (--out writes the same tree under DIR, for test/scripts/buildCatalog.test.ts to compare; --today
 * stands for the clock). Nothing is invented: a file whose size was not seen is left out, and every
 * output names its sources.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readConfigJson } from "../src/hub/configJson.ts";
import { qwen25HeaderFacts } from "./lib/qwen25GgufHeader.ts";
import type { CatalogCompaction } from "../src/hub/catalog.ts";
import { compactQuantConfig } from "./lib/compactQuant.ts";
import type { RepoFile, RepoSnapshot } from "../src/plan/index.ts";

const args = parseArgs({
  allowPositionals: true,
  options: { out: { type: "string" }, today: { type: "string" } },
});
const fixtures = args.positionals[0] ?? join(import.meta.dirname, "..", "test", "fixtures");
const models = join(fixtures, "models");
const configs = join(fixtures, "configs");
const root = join(import.meta.dirname, "..");
/** Where the files go: the repository, or --out's tree. */
const outRoot = args.values.out ?? root;
const today = args.values.today ?? new Date().toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`--today ${today}: give the day as YYYY-MM-DD`);

interface FixtureFile {
  path: string;
  size?: number;
  size_exact: boolean;
  lfs_sha256?: string;
}

interface Fixture {
  id: string;
  sources: string[];
  revision?: string;
  config?: Record<string, unknown>;
  config_verbatim?: boolean;
  files?: FixtureFile[];
  other_files?: FixtureFile[];
  params?: number;
  params_source?: string;
  gguf?: Record<string, Record<string, unknown>>;
  notes?: string;
}

function load(repo: string): Fixture {
  return JSON.parse(readFileSync(join(models, `${repo.replace("/", "__")}.json`), "utf8")) as Fixture;
}

/** Files whose byte count was seen exactly; the others are left out (their size would be a guess). */
function exactFiles(f: Fixture): FixtureFile[] {
  return [...(f.files ?? []), ...(f.other_files ?? [])].filter((x) => x.size_exact && typeof x.size === "number");
}

/** The catalog's complete models: a verbatim config and exact weight sizes (test/fixtures/models/README.md). */
const CATALOG: { repo: string; label: string }[] = [
  { repo: "Qwen/Qwen2.5-Coder-32B-Instruct", label: "Qwen2.5 Coder 32B Instruct (bf16)" },
  { repo: "meta-llama/Llama-3.1-8B-Instruct", label: "Llama 3.1 8B Instruct (bf16)" },
  { repo: "microsoft/phi-4", label: "Phi-4 14B (bf16)" },
  { repo: "Qwen/Qwen2.5-VL-7B-Instruct", label: "Qwen2.5 VL 7B Instruct (bf16, vision)" },
  { repo: "mistralai/Mixtral-8x7B-Instruct-v0.1", label: "Mixtral 8x7B Instruct (MoE, bf16)" },
  { repo: "deepseek-ai/DeepSeek-R1", label: "DeepSeek R1 671B (MoE, MLA, fp8)" },
  { repo: "unsloth/DeepSeek-R1-GGUF", label: "DeepSeek R1 GGUF (13 quantizations, split)" },
];

/**
 * Models whose config.json fixture is verbatim but whose weights' sizes were
 * not seen: in the catalog with their config, the weights' size given by hand.
 */
const MODEL_CONFIGS_ONLY = [
  "LDCC/Qwen2.5-72B-Instruct-ko-AWQ",
  "Qwen/Qwen2.5-7B-Instruct",
  "Qwen/Qwen3-30B-A3B",
  "Qwen/Qwen3-32B",
  "Qwen/Qwen3-8B",
  "google/gemma-2-9b-it",
];

/** What a catalog model's page entry says of its weights: their files with exact sizes, or a size the user gives. */
type Weights = "files" | "manual";

/** One line of the catalog's index: all the page loads before a model is picked. */
interface IndexEntry {
  repo: string;
  label: string;
  sha: string;
  weights: Weights;
}

function snapshotOf(f: Fixture): RepoSnapshot {
  if (!f.config || !f.config_verbatim) throw new Error(`${f.id}: no verbatim config`);
  const files: RepoFile[] = exactFiles(f).map((x) => ({ path: x.path, sizeBytes: x.size ?? 0 }));
  return {
    repo: f.id,
    sha: f.revision ?? "",
    config: f.config,
    files,
    paramsTotal: f.params ?? null,
    ggufHeaders: {},
  };
}

/**
 * Python's json.dumps writes non-finite floats as bare words (NVIDIA's
 * Nemotron-3-Super: `"time_step_limit": [0.0, Infinity]`): they are written
 * back as such, so the page's config reader (src/hub/configJson.ts) reads
 * the same value the fixture holds, where JSON.stringify would write null.
 */
const NON_FINITE = "__modelplan_non_finite__:";

/** Writes a file and returns its text. */
function writeJson(path: string, value: unknown): string {
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? `${NON_FINITE}${String(v)}` : v),
    1,
  ).replace(new RegExp(`"${NON_FINITE}(-?Infinity|NaN)"`, "g"), "$1");
  writeFileSync(path, `${text}\n`);
  return `${text}\n`;
}

/** A config fixture of test/fixtures/configs/: the file's JSON without its added `_source` key, and that source. */
function configFixture(file: string): { source: string; json: Record<string, unknown> } | null {
  const path = join(configs, file);
  if (!existsSync(path)) return null;
  const { _source, ...json } = readConfigJson(readFileSync(path, "utf8")) as Record<string, unknown>;
  return { source: String(_source), json };
}

function fileName(repo: string): string {
  return `${repo.replace("/", "__")}.json`;
}

/** A repo's name as a label: "GLM-5 (zai-org)". */
function labelOf(repo: string, note: string): string {
  const [owner, name] = repo.split("/");
  return `${name ?? repo} (${owner}${note})`;
}

/** The catalog's day (src/hub/catalogIndex.ts CATALOG_COPIED) and the hash of the entries with that day. */
interface Copied {
  copied: string;
  sha256: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The day the entries last changed: the repository's copied.json's while its hash is theirs with
 * that day, else today's. The fixtures record no day of their own (their sources are commits), so this
 * is the honest one: when a build last put other facts in the catalog. The day is in the hash, so a
 * day typed into copied.json is a stale file to the build (test/scripts/buildCatalog.test.ts).
 */
function writeCopied(dir: string, texts: Map<string, string>): void {
  const entries = sha256(
    [...texts.keys()]
      .sort()
      .map((name) => `${name}\0${texts.get(name) ?? ""}`)
      .join("\0"),
  );
  const previousPath = join(root, "src", "hub", "catalog", "copied.json");
  const previous = existsSync(previousPath) ? (JSON.parse(readFileSync(previousPath, "utf8")) as Copied) : null;
  const kept = previous !== null && previous.sha256 === sha256(`${entries}\0${previous.copied}`);
  const day = kept ? previous.copied : today;
  writeJson(join(dir, "copied.json"), { copied: day, sha256: sha256(`${entries}\0${day}`) } satisfies Copied);
}

function buildCatalog(): void {
  const dir = join(outRoot, "src", "hub", "catalog");
  mkdirSync(dir, { recursive: true });
  const index: IndexEntry[] = [];
  const texts = new Map<string, string>();
  const write = (name: string, value: unknown): void => {
    texts.set(name, writeJson(join(dir, name), value));
  };
  for (const { repo, label } of CATALOG) {
    const f = load(repo);
    const dropped = [...(f.files ?? []), ...(f.other_files ?? [])]
      .filter((x) => !(x.size_exact && typeof x.size === "number"))
      .map((x) => x.path);
    const snapshot = snapshotOf(f);
    write(fileName(repo), {
      label,
      weights: "files",
      source: [
        `test/fixtures/models/${fileName(repo)} (copied by scripts/build-catalog.ts)`,
        ...f.sources,
        ...(f.params_source ? [`paramsTotal: ${f.params_source}`] : []),
        ...(dropped.length > 0 ? [`left out, size not seen: ${dropped.join(", ")}`] : []),
        ...(f.gguf && Object.keys(f.gguf).length > 0
          ? [
              "GGUF header facts in the fixture are partial (no head_count_kv, no tensor data offset): not copied; the engine reads config.json and quant names",
            ]
          : []),
      ],
      snapshot,
    });
    index.push({ repo, label, sha: snapshot.sha, weights: "files" });
  }
  for (const repo of MODEL_CONFIGS_ONLY) {
    const f = load(repo);
    if (!f.config || !f.config_verbatim) throw new Error(`${repo}: no verbatim config`);
    const label = labelOf(repo, ", config.json only");
    write(fileName(repo), {
      label,
      weights: "manual",
      source: [`test/fixtures/models/${fileName(repo)} (copied by scripts/build-catalog.ts)`, ...f.sources],
      snapshot: configOnlySnapshot(repo, f.revision ?? "", f.config, undefined),
    });
    index.push({ repo, label, sha: f.revision ?? "", weights: "manual" });
  }
  // Every config of test/fixtures/configs/ not already in: the models people serve in 2026 (its README).
  const have = new Set(index.map((e) => e.repo.toLowerCase()));
  for (const file of readdirSync(configs).filter((n) => n.endsWith(".config.json"))) {
    const repo = file.replace(/\.config\.json$/, "").replace("__", "/");
    if (have.has(repo.toLowerCase())) continue;
    const config = configFixture(file);
    if (!config) continue;
    const quant = configFixture(file.replace(/\.config\.json$/, ".hf_quant_config.json"));
    // Weights with exact sizes from the models' fixtures, where one holds them (gpt-oss-20b: its LFS pointers).
    const modelFixture = existsSync(join(models, fileName(repo))) ? load(repo) : null;
    const exact = modelFixture ? exactFiles(modelFixture).filter((x) => /\.(safetensors|gguf)$/.test(x.path)) : [];
    const weights: Weights = exact.length > 0 ? "files" : "manual";
    const label = labelOf(repo, weights === "files" ? "" : ", config.json only");
    const snapshot = configOnlySnapshot(repo, "", config.json, quant?.json);
    if (weights === "files") snapshot.files.push(...exact.map((x) => ({ path: x.path, sizeBytes: x.size ?? 0 })));
    // The per-layer map cut to what the engine reads; the files list keeps the full file's size.
    const compacted = quant
      ? compactQuantConfig(quant.json, Buffer.byteLength(configText(quant.json)), quant.source)
      : null;
    if (compacted?.compaction) snapshot.extraJson = { "hf_quant_config.json": compacted.json };
    const compactions: CatalogCompaction[] = compacted?.compaction ? [compacted.compaction] : [];
    write(fileName(repo), {
      label,
      weights,
      source: [
        `test/fixtures/configs/${file} (its _source key left out; copied by scripts/build-catalog.ts)`,
        config.source,
        ...(quant ? [quant.source] : []),
        ...compactions.map(
          (c) =>
            `${c.file}: ${c.key} cut from ${c.entries} entries (${c.bytes} bytes as 2-space JSON) to ${c.kept.length}, one per distinct value; see compacted`,
        ),
        ...(weights === "files"
          ? [`weights: test/fixtures/models/${fileName(repo)}`, ...(modelFixture?.sources ?? [])]
          : ["weights: their sizes were not seen; the page asks for them (manual mode)"]),
      ],
      ...(compactions.length > 0 ? { compacted: compactions } : {}),
      snapshot,
    });
    index.push({ repo, label, sha: "", weights });
  }
  write("index.json", index);
  writeCopied(dir, texts);
}

/** A catalog snapshot of a config (and hf_quant_config.json) alone: the weights' files are the user's to size. */
function configOnlySnapshot(
  repo: string,
  sha: string,
  config: Record<string, unknown>,
  quant: Record<string, unknown> | undefined,
): RepoSnapshot {
  const files: RepoFile[] = [{ path: "config.json", sizeBytes: Buffer.byteLength(configText(config)) }];
  if (quant) files.push({ path: "hf_quant_config.json", sizeBytes: Buffer.byteLength(configText(quant)) });
  return {
    repo,
    sha,
    config,
    files,
    paramsTotal: null,
    ggufHeaders: {},
    ...(quant ? { extraJson: { "hf_quant_config.json": quant } } : {}),
  };
}

// ---------------------------------------------------------------------------
// Recordings for the tests' fake Hub.
// ---------------------------------------------------------------------------

/** The Git-LFS pointer file the Hub stores for an LFS file: its git blob id is the sibling's blobId. */
function lfsPointer(sha256: string, size: number): string {
  return `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
}

function gitBlobId(text: string): string {
  const body = Buffer.from(text, "utf8");
  return createHash("sha1")
    .update(Buffer.concat([Buffer.from(`blob ${body.length}\0`), body]))
    .digest("hex");
}

/**
 * A `?blobs=true` sibling: `{rfilename, blobId, size, lfs?}` (docs/notes/hub-api.md §4).
 * An LFS file's blobId is the git id of its pointer, computed from the
 * pointer's known text; a small file's blobId would need its exact bytes,
 * which were not kept, so it is left out rather than made up.
 */
function sibling(path: string, size: number, lfsSha256: string | undefined): Record<string, unknown> {
  if (lfsSha256) {
    const pointer = lfsPointer(lfsSha256, size);
    return {
      rfilename: path,
      blobId: gitBlobId(pointer),
      size,
      lfs: { sha256: lfsSha256, size, pointerSize: pointer.length },
    };
  }
  return { rfilename: path, size };
}

interface Recording {
  source: string[];
  /** The body of GET /api/models/{id}/revision/{rev}?blobs=true, in the Hub's field names. */
  info: Record<string, unknown>;
  /** Text of small files served at /resolve/{sha}/{path}: the fixture's parsed JSON, written as transformers writes it (2 spaces). */
  texts: Record<string, string>;
  /** GGUF header facts per file (key → value, GGUF key names), for tests to build real header bytes. */
  ggufFacts: Record<string, Record<string, unknown>>;
}

function configText(config: Record<string, unknown>): string {
  // transformers writes config.json with 2-space indentation and a newline.
  return `${JSON.stringify(config, null, 2)}\n`;
}

function info(
  f: Fixture,
  sha: string,
  gated: false | "manual",
  texts: Record<string, string>,
  files: FixtureFile[],
): Record<string, unknown> {
  const [author] = f.id.split("/");
  // The size the fixture saw; for a file served from a copy whose size was not seen, the copy's own.
  const siblings = files.map((x) => sibling(x.path, x.size ?? Buffer.byteLength(texts[x.path] ?? ""), x.lfs_sha256));
  const body: Record<string, unknown> = {
    id: f.id,
    modelId: f.id,
    author,
    sha,
    private: false,
    gated,
    disabled: false,
    config: f.config ? { architectures: f.config.architectures, model_type: f.config.model_type } : {},
    siblings,
    usedStorage: siblings.reduce((s, x) => s + Number(x.size), 0),
  };
  if (f.params) body.safetensors = { parameters: { BF16: f.params }, total: f.params };
  return body;
}

function ggufFacts(raw: Record<string, unknown>): Record<string, unknown> {
  // Only keys that are real GGUF keys; display strings and notes stay out.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k.includes(".") && (typeof v === "number" || typeof v === "string") && !String(v).startsWith("N/A")) out[k] = v;
  }
  if (typeof raw.vocab_size === "number") out["tokenizer.ggml.tokens.count"] = raw.vocab_size;
  return out;
}

function buildRecordings(): void {
  const dir = join(outRoot, "test", "fixtures", "hub");
  mkdirSync(dir, { recursive: true });
  const note = (repo: string) =>
    `built by scripts/build-catalog.ts from test/fixtures/models/${repo.replace("/", "__")}.json`;

  // 1. Safetensors, complete: config verbatim at b472059, 14 shards exact.
  {
    const f = load("Qwen/Qwen2.5-Coder-32B-Instruct");
    const texts = { "config.json": configText(f.config ?? {}) };
    const rec: Recording = {
      source: [note(f.id), ...f.sources],
      info: info(f, f.revision ?? "", false, texts, exactFiles(f)),
      texts,
      ggufFacts: {},
    };
    writeJson(join(dir, "Qwen__Qwen2.5-Coder-32B-Instruct.json"), rec);
  }
  // 2. Gated: meta-llama answers 401 to anonymous file reads (the fixture's own probe log says so).
  {
    const f = load("meta-llama/Llama-3.1-8B-Instruct");
    const texts = { "config.json": configText(f.config ?? {}) };
    const sha = "0".repeat(40);
    const rec: Recording = {
      source: [note(f.id), ...f.sources, "sha: not seen in the sources; a placeholder of 40 zeros"],
      info: info(f, sha, "manual", texts, exactFiles(f)),
      texts,
      ggufFacts: {},
    };
    writeJson(join(dir, "meta-llama__Llama-3.1-8B-Instruct.json"), rec);
  }
  // 3. GGUF: 114 split files in 13 folders, config.json, header facts of UD-IQ1_S.
  {
    const f = load("unsloth/DeepSeek-R1-GGUF");
    const texts = { "config.json": configText(f.config ?? {}) };
    const facts: Record<string, Record<string, unknown>> = {};
    for (const [k, v] of Object.entries(f.gguf ?? {})) facts[k.replace(/ \(.*\)$/, "")] = ggufFacts(v);
    const rec: Recording = {
      source: [note(f.id), ...f.sources],
      info: info(f, f.revision ?? "", false, texts, exactFiles(f)),
      texts,
      ggufFacts: facts,
    };
    writeJson(join(dir, "unsloth__DeepSeek-R1-GGUF.json"), rec);
  }
  // 4. GGUF, single files with exact sizes (no config, no header facts seen).
  {
    const f = load("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF");
    const rec: Recording = {
      source: [note(f.id), ...f.sources, "sha: not seen in the sources; a placeholder"],
      info: info(f, "1".repeat(40), false, {}, exactFiles(f)),
      texts: {},
      ggufFacts: {},
    };
    writeJson(join(dir, "bartowski__Meta-Llama-3.1-8B-Instruct-GGUF.json"), rec);
  }
  // 5. ModelOpt NVFP4: config.json and hf_quant_config.json (weights' sizes not seen, so not listed).
  {
    const repo = "nvidia/Qwen3-235B-A22B-NVFP4";
    const strip = (path: string) => {
      const { _source, ...rest } = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      return { source: String(_source), json: rest };
    };
    const config = strip(join(configs, "nvidia__Qwen3-235B-A22B-NVFP4.config.json"));
    const quant = strip(join(configs, "nvidia__Qwen3-235B-A22B-NVFP4.hf_quant_config.json"));
    const texts = { "config.json": configText(config.json), "hf_quant_config.json": configText(quant.json) };
    const f: Fixture = { id: repo, sources: [], config: config.json };
    const files: FixtureFile[] = Object.keys(texts).map((path) => ({ path, size_exact: true }));
    const rec: Recording = {
      source: [
        "built by scripts/build-catalog.ts from test/fixtures/configs/nvidia__Qwen3-235B-A22B-NVFP4.{config,hf_quant_config}.json",
        config.source,
        quant.source,
        "sha: not seen; a placeholder. Weight files: sizes not seen, so the file list has only the two JSON files.",
      ],
      info: info(f, "2".repeat(40), false, texts, files),
      texts,
      ggufFacts: {},
    };
    writeJson(join(dir, "nvidia__Qwen3-235B-A22B-NVFP4.json"), rec);
  }
  // 6. GGUF-only (no config.json): 10 single files with exact sizes; the fixture saw no header, so the
  //    header is rebuilt at a real file's keys and sizes (scripts/lib/qwen25GgufHeader.ts).
  {
    const f = load("bartowski/Qwen2.5-14B-Instruct-GGUF");
    /** llama.cpp's llama_ftype of each file's quant; bartowski's _L/_XL files are their base type (Q8_0 embeddings aside). */
    const FTYPE: Record<string, number> = {
      Q8_0: 7,
      Q6_K_L: 18,
      Q5_K_L: 17,
      Q5_K_M: 17,
      Q4_K_L: 15,
      Q4_K_M: 15,
      Q3_K_XL: 13,
      Q4_0_4_4: 33,
      Q4_0_4_8: 34,
      IQ3_XS: 22,
    };
    const facts: Record<string, Record<string, unknown>> = {};
    for (const file of exactFiles(f)) {
      const quant = /-([A-Z0-9_]+)\.gguf$/.exec(file.path)?.[1] ?? "";
      const ftype = FTYPE[quant];
      if (ftype === undefined) throw new Error(`no llama_ftype for ${file.path}`);
      facts[file.path] = qwen25HeaderFacts(quant, ftype);
    }
    const rec: Recording = {
      source: [
        note(f.id),
        ...f.sources,
        "sha: not seen in the sources; a placeholder of 40 threes.",
        "Header facts: NOT read from these files (the fixture saw none). Keys, array lengths, string bytes and tensor infos at a real Qwen2.5-14B-Instruct GGUF's sizes, each from the sources in scripts/lib/qwen25GgufHeader.ts (ollama/ollama#8588's load log, qwen.tiktoken at x1ngzai/Qwen-VL-Chat-Int4@1cd721a, llama.cpp's quant recipes); the header is 5,968,000 bytes, the tensor data offset six of these files' sizes give to the byte. The chat template's text is not recorded (only its length).",
      ],
      info: info(f, "3".repeat(40), false, {}, exactFiles(f)),
      texts: {},
      ggufFacts: facts,
    };
    writeJson(join(dir, "bartowski__Qwen2.5-14B-Instruct-GGUF.json"), rec);
  }
}

buildCatalog();
buildRecordings();
