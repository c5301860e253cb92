/**
 * A model directory on disk, as a download leaves it (`hf download --local-dir`,
 * or a cache snapshot of symlinks), read into the same RepoSnapshot the Hub
 * reader makes: every file with its size, config.json, hf_quant_config.json,
 * and the header of the first part of each GGUF artifact. Node only.
 */
import { readFile, readdir, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { gguf, parseGgufShardFilename } from "@huggingface/gguf";
import { headerFromParse } from "../../src/hub/gguf.ts";
import { ggufHeaderPaths, isProjector } from "../../src/hub/ggufFiles.ts";
import { EXTRA_JSON_FILES } from "../../src/hub/read.ts";
import { needsPytorchIndex, PYTORCH_INDEX, pytorchWeightFiles } from "../../src/plan/index.ts";
import { ConfigJsonError, readConfigJson } from "../../src/hub/configJson.ts";
import type { GgufHeader, RepoFile, RepoSnapshot } from "../../src/plan/index.ts";

export class LocalModelError extends Error {}

/** Folders a download tool keeps for itself (huggingface_hub's .cache/huggingface, git's .git). */
const SKIPPED_DIRS = new Set([".cache", ".git", ".huggingface"]);
/** A model directory has tens of files, a few hundred with many splits; this bounds a wrong path like "/". */
const MAX_FILES = 20_000;

async function listFiles(root: string): Promise<RepoFile[]> {
  const files: RepoFile[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (files.length > MAX_FILES)
        throw new LocalModelError(`${root} holds over ${MAX_FILES} files: give the model's own directory`);
      const full = join(dir, entry.name);
      // stat follows symlinks: a cache snapshot's files are links into blobs/.
      const info = await stat(full).catch(() => null);
      if (!info) continue;
      if (info.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(full);
      } else if (info.isFile()) {
        files.push({ path: relative(root, full).split(sep).join("/"), sizeBytes: info.size });
      }
    }
  }
  await walk(root);
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/** A config or index JSON past this is not one: DeepSeek-V3's safetensors index, among the largest, is under 10 MB. */
const MAX_JSON_BYTES = 64 * 2 ** 20;

async function readJson(root: string, path: string): Promise<Record<string, unknown>> {
  const info = await stat(join(root, path));
  if (info.size > MAX_JSON_BYTES)
    throw new LocalModelError(
      `${join(root, path)} is ${info.size.toLocaleString("en-US")} bytes, more than any ${basename(path)} (${MAX_JSON_BYTES / 2 ** 20} MiB): is it the right file?`,
    );
  const text = await readFile(join(root, path), "utf8");
  let value: unknown;
  try {
    value = readConfigJson(text);
  } catch (err) {
    if (!(err instanceof ConfigJsonError)) throw err;
    throw new LocalModelError(`${join(root, path)}: ${err.message}: is the download complete?`);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new LocalModelError(`${join(root, path)} is not a JSON object: is the download complete?`);
}

async function readHeader(root: string, path: string, sizeBytes: number): Promise<GgufHeader> {
  const full = join(root, path);
  try {
    const parse = await gguf(full, { allowLocalFile: true });
    if (Number(parse.tensorDataOffset) > sizeBytes)
      throw new LocalModelError(
        `${full}: the GGUF header runs past the file's ${sizeBytes} bytes: the download is incomplete`,
      );
    return headerFromParse(parse);
  } catch (err) {
    if (err instanceof LocalModelError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new LocalModelError(`${full} is not a readable GGUF file (${detail}): is the download complete?`);
  }
}

/**
 * The parameter count, when the index says it: recent safetensors indexes
 * carry metadata.total_parameters; total_size is bytes, not parameters, so
 * it is not used here.
 */
async function paramsFromIndex(root: string, files: RepoFile[]): Promise<number | null> {
  if (!files.some((f) => f.path === "model.safetensors.index.json")) return null;
  const index = await readJson(root, "model.safetensors.index.json");
  const meta = index.metadata as { total_parameters?: unknown } | undefined;
  return typeof meta?.total_parameters === "number" ? meta.total_parameters : null;
}

/** A Hub cache snapshot (~/.cache/huggingface/hub/models--owner--name/snapshots/<sha>) names its repo and commit. */
export function cacheIdentity(root: string): { repo: string; sha: string } | null {
  const m = /models--([^/\\]+?)--([^/\\]+)[/\\]snapshots[/\\]([0-9a-f]{40})$/.exec(root);
  return m ? { repo: `${m[1]}/${m[2]}`, sha: m[3] ?? "" } : null;
}

/**
 * One .gguf file given by path: that file (with the rest of its split set)
 * and any projector beside it, as llama-server -m would load them.
 */
function onlyThisGguf(files: RepoFile[], fileName: string): RepoFile[] {
  const split = parseGgufShardFilename(fileName);
  return files.filter((f) => {
    if (f.path.includes("/")) return false;
    if (isProjector(f.path)) return true;
    const other = parseGgufShardFilename(f.path);
    return split && other ? other.prefix === split.prefix && other.total === split.total : f.path === fileName;
  });
}

/** The directory a local model is served from, absolute: the one given, or the one a given .gguf file is in. */
export function localModelDir(given: string): string {
  const path = resolve(given);
  return path.toLowerCase().endsWith(".gguf") ? dirname(path) : path;
}

export async function readLocalModel(given: string): Promise<RepoSnapshot> {
  let root = resolve(given);
  const info = await stat(root).catch(() => null);
  if (!info) throw new LocalModelError(`no such directory: ${given}`);
  let fileName: string | null = null;
  if (!info.isDirectory()) {
    if (!root.toLowerCase().endsWith(".gguf"))
      throw new LocalModelError(
        `${given} is a file: give the model's directory (config.json with *.safetensors or pytorch_model*.bin, or *.gguf files), or one .gguf file`,
      );
    fileName = basename(root);
    root = dirname(root);
  }
  const dir = fileName === null ? given : root;
  const all = await listFiles(root);
  const files = fileName === null ? all : onlyThisGguf(all, fileName);
  const paths = new Set(files.map((f) => f.path));
  const ggufPaths = ggufHeaderPaths([...paths]);
  // The same weights the Hub reader takes: safetensors, else a complete pytorch_model*.bin set, or GGUF.
  const hasWeights =
    ggufPaths.length > 0 || files.some((f) => f.path.endsWith(".safetensors")) || pytorchWeightFiles(files).length > 0;
  if (!paths.has("config.json") && ggufPaths.length === 0) {
    throw new LocalModelError(`${dir} has no config.json and no .gguf file: give the directory a download made`);
  }
  if (!hasWeights)
    throw new LocalModelError(
      `${dir} has a config.json but no *.safetensors, complete pytorch_model*.bin set or *.gguf weights: is the download complete?`,
    );
  const extraJson: Record<string, unknown> = {};
  for (const name of EXTRA_JSON_FILES) if (paths.has(name)) extraJson[name] = await readJson(root, name);
  // .bin shards weigh what their index's total_size says (artifacts.ts pytorchBytes), as from the Hub.
  if (needsPytorchIndex([...paths])) extraJson[PYTORCH_INDEX] = await readJson(root, PYTORCH_INDEX);
  const sizeOf = new Map(files.map((f) => [f.path, f.sizeBytes]));
  const ggufHeaders: Record<string, GgufHeader> = {};
  for (const path of ggufPaths) ggufHeaders[path] = await readHeader(root, path, sizeOf.get(path) ?? 0);
  const identity = cacheIdentity(root);
  return {
    repo: identity?.repo ?? basename(root),
    sha: identity?.sha ?? "",
    config: paths.has("config.json") ? await readJson(root, "config.json") : null,
    files,
    paramsTotal: await paramsFromIndex(root, files),
    ggufHeaders,
    ...(Object.keys(extraJson).length > 0 ? { extraJson } : {}),
  };
}
