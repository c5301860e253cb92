/**
 * A Hub repository read into the snapshot the engine takes, in as few
 * requests as the Hub allows (the request budget):
 *
 *   1. the model info with `blobs=true`: the commit sha, every file with its
 *      size, the parameter count; one plain fetch, because @huggingface/hub's
 *      modelInfo cannot ask for blobs (docs/notes/hub-api.md §1a);
 *   2. config.json at that sha, when the repo has one;
 *   3. hf_quant_config.json at that sha, only for repos that carry it (ModelOpt
 *      FP8/NVFP4 checkpoints keep their quantization there);
 *   4. pytorch_model.bin.index.json at that sha, only for a repo served from
 *      .bin shards (no safetensors): its total_size is the tensors' bytes,
 *      which the pickled shards overstate (artifacts.ts pytorchBytes);
 *   5. for each GGUF artifact, the header of its first part, by range
 *      requests that stop where the header ends (ggufParse.ts steps over the
 *      vocabulary); the first by path alone, so a plan can start from it
 *      (onProgress), then the rest in parallel, each refining it as it arrives.
 *
 * A safetensors repo therefore costs 2 requests, 3 with hf_quant_config.json;
 * a .bin repo 2 for a lone pytorch_model.bin, 3 for shards with their index.
 */
import { downloadFile, HubApiError } from "@huggingface/hub";
import { PYTORCH_INDEX, needsPytorchIndex } from "../plan/index.ts";
import { readConfigJson } from "./configJson.ts";
import type { GgufHeader, RepoFile, RepoSnapshot } from "../plan/index.ts";
import {
  HubError,
  badResponseError,
  gatedError,
  networkError,
  notFoundError,
  rateLimitError,
  retryAfterSeconds,
  revisionError,
  shapeError,
} from "./errors.ts";
import { configCeilingError } from "./limits.ts";
import { readGgufHeader } from "./gguf.ts";
import { ggufHeaderPaths } from "./ggufFiles.ts";
import { markEarly } from "./readProgress.ts";
import { firstIssue, jsonObjectSchema, MAX_REPO_FILES, modelInfoSchema, type ModelInfo } from "./schemas.ts";
import { checkToken } from "./settings.ts";
import { DEFAULT_HUB_TIMEOUT_MS, onceMoreIfTimedOut, timedFetch } from "./timeout.ts";

/** How to reach the Hub: its address, the user's token, and (for tests and the terminal) a fetch. */
export interface HubAccess {
  hubUrl: string;
  accessToken?: string;
  fetch?: typeof fetch;
  /** The query's signal: aborting it stops every request of the read. */
  signal?: AbortSignal;
  /** How long a request may wait for its answer, and its answer between pieces (default DEFAULT_HUB_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** JSON files read besides config.json, when the repo has them. */
export const EXTRA_JSON_FILES = ["hf_quant_config.json"] as const;

/** The requests readRepo makes for a repo with these files, after the info call. */
export interface RequestPlan {
  /** The model-info call: always 1. */
  info: 1;
  /** JSON files fetched whole: config.json, the extras the repo has, and a .bin checkpoint's index. */
  jsonFiles: string[];
  /** GGUF files whose header is read (2 MB range requests each, as many as the header needs). */
  ggufHeaders: string[];
}

/**
 * What readRepo will fetch for a file list: the budget the tests hold it to,
 * and the one function readRepo itself follows.
 */
export function requestBudget(paths: readonly string[]): RequestPlan {
  const present = new Set(paths);
  const jsonFiles = ["config.json", ...EXTRA_JSON_FILES].filter((p) => present.has(p));
  if (needsPytorchIndex(paths)) jsonFiles.push(PYTORCH_INDEX);
  return { info: 1, jsonFiles, ggufHeaders: ggufHeaderPaths(paths) };
}

/**
 * What the snapshot keeps of a .bin index: its metadata (total_size), not
 * its weight_map of every tensor's name (tens of kB the engine never reads,
 * in a snapshot persisted under a size cap).
 */
function indexMetadataOnly(index: Record<string, unknown>): Record<string, unknown> {
  return { metadata: index["metadata"] ?? null };
}

/** The fetch every request of a read goes through, the libraries' included: it carries the read's signal. */
export function resolvedFetch(access: HubAccess): typeof fetch {
  // Looked up at call time, like the libraries do, so a stubbed global works.
  const base = access.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const { signal } = access;
  const withSignal: typeof fetch = signal
    ? (input, init) => base(input, { ...init, signal: init?.signal ? AbortSignal.any([signal, init.signal]) : signal })
    : base;
  return timedFetch(withSignal, access.timeoutMs ?? DEFAULT_HUB_TIMEOUT_MS);
}

/** An error answer to the info call, in words (status table: docs/notes/hub-api.md §1d). */
function infoError(res: Response, repo: string, revision: string | null, access: HubAccess): HubError {
  const code = res.headers.get("x-error-code") ?? "";
  const withToken = access.accessToken !== undefined;
  const wait = retryAfterSeconds(res.headers, Date.now());
  if (res.status === 429) return rateLimitError(429, wait);
  if (code === "GatedRepo") return gatedError(access.hubUrl, repo, res.status, withToken);
  if (code === "RevisionNotFound") return revisionError(repo, revision ?? "main", res.status);
  if (res.status === 401 && withToken && code !== "RepoNotFound") {
    return new HubError(
      "token",
      `the Hub at ${access.hubUrl} refused the read token (401): it may be mistyped or revoked; paste a new one, or clear it to read public repos`,
      401,
    );
  }
  if (res.status === 401 || res.status === 403 || res.status === 404)
    return notFoundError(access.hubUrl, repo, res.status, withToken);
  const err = badResponseError(access.hubUrl, `status ${res.status} to the model info of ${repo}`, res.status);
  if (wait !== undefined) err.retryAfterS = wait;
  return err;
}

function authHeaders(access: HubAccess): Record<string, string> {
  return access.accessToken ? { Authorization: `Bearer ${access.accessToken}` } : {};
}

/**
 * The most of a model info read: about 200 bytes a file with blobs=true, so
 * MAX_REPO_FILES files is ~10 MiB; a listing of 1.5 M files (928 MB in the
 * attack of issue 20) is cut off here instead of read whole.
 */
const MAX_INFO_BYTES = 32 * 2 ** 20;

/** The body as text, or null once it passes `maxBytes` (the rest is not read). */
async function textUpTo(res: Response, maxBytes: number): Promise<string | null> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

async function fetchModelInfo(repo: string, revision: string | null, access: HubAccess): Promise<ModelInfo> {
  const url = `${access.hubUrl}/api/models/${repo}/revision/${encodeURIComponent(revision ?? "main")}?blobs=true`;
  let res: Response;
  try {
    res = await resolvedFetch(access)(url, { headers: authHeaders(access) });
  } catch (err) {
    if (err instanceof HubError) throw err;
    throw networkError(access.hubUrl, err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw infoError(res, repo, revision, access);
  }
  let text: string | null;
  try {
    text = await textUpTo(res, MAX_INFO_BYTES);
  } catch (err) {
    if (err instanceof HubError) throw err;
    throw networkError(access.hubUrl, err instanceof Error ? err.message : String(err));
  }
  if (text === null) {
    throw badResponseError(
      access.hubUrl,
      `a model info for ${repo} this page cannot read (it is of more than ${MAX_INFO_BYTES / 2 ** 20} MiB, far past any real repo's listing: siblings: more than ${MAX_REPO_FILES.toLocaleString("en-US")} files?)`,
      res.status,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badResponseError(access.hubUrl, `a page that is not JSON to the model info of ${repo}`, res.status);
  }
  // Counted before zod walks each entry: a listing of millions is refused at once.
  const siblings = (body as { siblings?: unknown } | null)?.siblings;
  if (Array.isArray(siblings) && siblings.length > MAX_REPO_FILES) {
    throw badResponseError(
      access.hubUrl,
      `a model info for ${repo} this page cannot read (siblings: more than ${MAX_REPO_FILES.toLocaleString("en-US")} files)`,
      res.status,
    );
  }
  const info = modelInfoSchema.safeParse(body);
  if (!info.success)
    throw badResponseError(
      access.hubUrl,
      `a model info for ${repo} this page cannot read (${firstIssue(info.error)})`,
      res.status,
    );
  return info.data;
}

function filesOf(info: ModelInfo, access: HubAccess): { files: RepoFile[]; blobIds: Map<string, string> } {
  const files: RepoFile[] = [];
  const blobIds = new Map<string, string>();
  for (const s of info.siblings) {
    // LFS files: `size` is the real size too, and lfs.size says the same (§4).
    const size = s.lfs?.size ?? s.size;
    if (typeof size !== "number")
      throw badResponseError(access.hubUrl, `no size for ${s.rfilename} (was blobs=true dropped by a proxy?)`);
    files.push({ path: s.rfilename, sizeBytes: size });
    if (s.blobId) blobIds.set(s.rfilename, s.blobId);
  }
  return { files, blobIds };
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

export function resolveUrl(hubUrl: string, repo: string, sha: string, path: string): string {
  return `${hubUrl}/${repo}/resolve/${sha}/${encodePath(path)}`;
}

/** A small JSON file at the pinned sha: one GET through @huggingface/hub (size and etag are known already). */
async function fetchJsonFile(
  repo: string,
  sha: string,
  file: RepoFile,
  etag: string,
  access: HubAccess,
): Promise<Record<string, unknown>> {
  const url = resolveUrl(access.hubUrl, repo, sha, file.path);
  let text: string;
  try {
    const blob = await downloadFile({
      repo,
      path: file.path,
      revision: sha,
      hubUrl: access.hubUrl,
      fetch: resolvedFetch(access),
      xet: false,
      // Passing what the info call told us skips the library's probe request.
      downloadInfo: { size: file.sizeBytes, etag, url },
      ...(access.accessToken ? { accessToken: access.accessToken } : {}),
    });
    if (!blob) throw badResponseError(access.hubUrl, `no ${file.path}, which the file list names`);
    text = await blob.text();
  } catch (err) {
    throw fileError(err, repo, file.path, access);
  }
  let parsed: unknown;
  try {
    parsed = readConfigJson(text);
  } catch {
    throw badResponseError(access.hubUrl, `${file.path} of ${repo} that is not JSON`);
  }
  const object = jsonObjectSchema.safeParse(parsed);
  if (!object.success || Array.isArray(parsed))
    throw badResponseError(access.hubUrl, `${file.path} of ${repo} that is not a JSON object`);
  return object.data;
}

function fileError(err: unknown, repo: string, path: string, access: HubAccess): HubError {
  if (err instanceof HubError) return err;
  if (err instanceof HubApiError) {
    // Issue 3: 401 or 403 on a file means gated (metadata of gated repos is public).
    if (err.statusCode === 401 || err.statusCode === 403)
      return gatedError(access.hubUrl, repo, err.statusCode, access.accessToken !== undefined);
    if (err.statusCode === 429) return rateLimitError(429);
    return badResponseError(access.hubUrl, `status ${err.statusCode} for ${path}`, err.statusCode);
  }
  return networkError(access.hubUrl, err instanceof Error ? err.message : String(err));
}

/** Runs tasks at most `width` at a time: a browser opens about 6 connections per host anyway. */
async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const i = next++;
      const task = tasks[i];
      if (task) results[i] = await task();
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}

const PARALLEL_HEADER_READS = 6;

/** How far a read is: GGUF headers read of all, bytes of them fetched, and a snapshot to plan from once one header is in. */
export interface ReadProgress {
  headersRead: number;
  headersTotal: number;
  bytesRead: number;
  /** The snapshot to plan from once the first header is in (the rest of the files by their listed sizes); null in every other report. */
  snapshot: RepoSnapshot | null;
}

export async function readRepo(
  asked: string,
  revision: string | null,
  given: HubAccess,
  onProgress?: (p: ReadProgress) => void,
): Promise<RepoSnapshot> {
  const access: HubAccess = { ...given, hubUrl: given.hubUrl.replace(/\/+$/, "") };
  if (access.accessToken !== undefined) {
    const token = checkToken(access.accessToken);
    if (token instanceof HubError) throw token;
  }
  const info = await onceMoreIfTimedOut(() => fetchModelInfo(asked, revision, access), access.signal);
  // A renamed repo answers (after a redirect) under its new id: later reads and the plan's commands use that one.
  const repo = typeof info.id === "string" && /^[^/]+\/[^/]+$/.test(info.id) ? info.id : asked;
  const sha = info.sha;
  const { files, blobIds } = filesOf(info, access);
  const plan = requestBudget(files.map((f) => f.path));
  const byPath = new Map(files.map((f) => [f.path, f]));

  const jsonReads = plan.jsonFiles.map(
    (path) => async (): Promise<readonly [string, Record<string, unknown> | null]> => {
      const file = byPath.get(path);
      if (!file) throw badResponseError(access.hubUrl, `no ${path}`);
      const read = onceMoreIfTimedOut(
        () => fetchJsonFile(repo, sha, file, blobIds.get(path) ?? sha, access),
        access.signal,
      );
      // The index only refines the .bin bytes (the files' sizes are already known and
      // within 1 %): a broken or missing one is no reason to refuse the repo.
      if (path === PYTORCH_INDEX) return [path, await read.then(indexMetadataOnly, () => null)] as const;
      return [path, await read] as const;
    },
  );
  const headersTotal = plan.ggufHeaders.length;
  const progress = { headersRead: 0, bytesRead: 0 };
  const readHeader = async (path: string) => {
    const ctx = {
      hubUrl: access.hubUrl,
      repo,
      path,
      fetch: resolvedFetch(access),
      ...(access.signal ? { signal: access.signal } : {}),
      ...(access.accessToken ? { accessToken: access.accessToken } : {}),
    };
    const header = await readGgufHeader(resolveUrl(access.hubUrl, repo, sha, path), ctx, (bytes) => {
      progress.bytesRead += bytes;
      onProgress?.({ ...progress, headersTotal, snapshot: null });
    });
    progress.headersRead++;
    return [path, header] as const;
  };
  // All quants of one model share its architecture: the plan starts from the
  // header the engine takes the shape from (the first by path), with the other
  // artifacts' sizes from the listing; their headers refine it as they arrive.
  const [firstPath, ...otherPaths] = [...plan.ggufHeaders].sort();
  const [jsons, firstHeader] = await Promise.all([
    Promise.all(jsonReads.map((read) => read())),
    firstPath === undefined ? Promise.resolve(null) : readHeader(firstPath),
  ]);
  const ggufHeaders: Record<string, GgufHeader> = firstHeader ? { [firstHeader[0]]: firstHeader[1] } : {};
  const snapshotNow = (): RepoSnapshot => snapshotOf(repo, sha, info, files, jsons, { ...ggufHeaders });
  if (otherPaths.length > 0 && onProgress)
    onProgress({ ...progress, headersTotal, snapshot: markEarly(snapshotNow()) });
  await inParallel(
    otherPaths.map((path) => async () => {
      const [p, header] = await readHeader(path);
      ggufHeaders[p] = header;
      // Each header refines its artifact as it arrives (the page re-plans in its worker and redraws the
      // off-screen cards in idle slices); the last is the read's answer, not an early snapshot.
      const refined = progress.headersRead < headersTotal && onProgress ? markEarly(snapshotNow()) : null;
      onProgress?.({ ...progress, headersTotal, snapshot: refined });
    }),
    PARALLEL_HEADER_READS,
  );
  return snapshotNow();
}

function snapshotOf(
  repo: string,
  sha: string,
  info: ModelInfo,
  files: RepoFile[],
  jsons: (readonly [string, Record<string, unknown> | null])[],
  ggufHeaders: Record<string, GgufHeader>,
): RepoSnapshot {
  const jsonByPath = new Map<string, Record<string, unknown> | null>(jsons);
  const extraJson: Record<string, unknown> = {};
  for (const name of [...EXTRA_JSON_FILES, PYTORCH_INDEX]) {
    const value = jsonByPath.get(name);
    if (value) extraJson[name] = value;
  }
  const config = jsonByPath.get("config.json") ?? null;
  const tooLarge = config ? configCeilingError(config) : null;
  if (tooLarge) throw shapeError(repo, tooLarge);
  const paramsTotal = numberOrNull(info.safetensors?.total) ?? numberOrNull(info.gguf?.total);
  return {
    repo,
    sha,
    config,
    files,
    paramsTotal,
    ggufHeaders,
    ...(Object.keys(extraJson).length > 0 ? { extraJson } : {}),
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
