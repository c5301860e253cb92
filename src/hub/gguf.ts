/**
 * One GGUF header, read by range requests and parsed by ggufParse.ts (in the
 * header worker in a browser), made JSON-safe for the snapshot.
 * headerFromParse does the same for @huggingface/gguf's parse, which the
 * terminal's local files use.
 *
 * @huggingface/gguf never checks a response's status (docs/notes/hub-api.md §2):
 * a 401 page becomes "not a valid gguf file", and a server that ignores Range
 * streams a multi-GB file into memory. So its fetch is wrapped: anything but
 * a 206 slice of the file is an error that says what came back.
 */
import type { GGUFParseOutput } from "@huggingface/gguf";
import { MAX_KEPT_ARRAY } from "./ggufParse.ts";
import type { GgufHeader, GgufValue } from "../plan/index.ts";
import { HubError, badResponseError, gatedError, networkError, rateLimitError, shapeError } from "./errors.ts";
import { ggufCeilingError, MAX_GGUF_HEADER_BYTES } from "./limits.ts";
import { parseGgufBytes } from "./ggufParser.ts";
import { onceMoreIfTimedOut } from "./timeout.ts";

export interface GgufReadContext {
  hubUrl: string;
  repo: string;
  /** The file's path in the repo, for messages. */
  path: string;
  fetch: typeof fetch;
  accessToken?: string;
  /** The read's signal: a cancelled read is not tried again after a timeout. */
  signal?: AbortSignal;
}

function requestedRange(init: RequestInit | undefined): [number, number] | null {
  const headers = new Headers(init?.headers);
  const m = /^bytes=(\d+)-(\d+)$/.exec(headers.get("range") ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function contentRange(res: Response): { start: number; end: number; total: number } | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get("content-range")?.trim() ?? "");
  return m ? { start: Number(m[1]), end: Number(m[2]), total: Number(m[3]) } : null;
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart().toLowerCase();
  return head.startsWith("<!doctype") || head.startsWith("<html");
}

function truncatedError(ctx: GgufReadContext, detail: string): HubError {
  return new HubError(
    "gguf-truncated",
    `${ctx.repo}/${ctx.path}: the GGUF header is truncated (${detail}): the upload may be incomplete; pick another file or retry later`,
  );
}

function htmlError(ctx: GgufReadContext, status: number): HubError {
  return new HubError(
    "gguf-html",
    `${ctx.repo}/${ctx.path}: the server answered an HTML page instead of the file's bytes: the Hub address in settings may point at a web site or a login page`,
    status,
  );
}

function checkStatus(res: Response, ctx: GgufReadContext, range: [number, number] | null): void {
  if (res.status === 401 || res.status === 403)
    throw gatedError(ctx.hubUrl, ctx.repo, res.status, ctx.accessToken !== undefined);
  if (res.status === 429) throw rateLimitError(res.status);
  if (res.status === 416) {
    throw truncatedError(ctx, `the header runs past the end of the file, at byte ${range?.[0] ?? "?"}`);
  }
  if (res.status === 404)
    throw badResponseError(ctx.hubUrl, `404 for ${ctx.path}, which the file list names`, res.status);
  if ((res.headers.get("content-type") ?? "").includes("text/html")) throw htmlError(ctx, res.status);
  if (res.status === 200) {
    throw new HubError(
      "gguf-range",
      `${ctx.repo}/${ctx.path}: the server sent the whole file (200) instead of the byte range asked for (206): the Hub address in settings points at a server or proxy that ignores Range requests`,
      200,
    );
  }
  if (res.status !== 206) throw badResponseError(ctx.hubUrl, `status ${res.status} for ${ctx.path}`, res.status);
}

/** What the guard learnt about the file: its real size, from Content-Range. */
export interface GgufFileSeen {
  totalBytes: number | null;
}

/** The fetch handed to the gguf reader: only whole 206 slices get through. */
export function guardedGgufFetch(ctx: GgufReadContext, seen: GgufFileSeen = { totalBytes: null }): typeof fetch {
  // Each range request is a GET: one that timed out (before or during its body) is asked once more.
  return (input, init) => onceMoreIfTimedOut(() => guardedOnce(ctx, seen, input, init), ctx.signal);
}

async function guardedOnce(
  ctx: GgufReadContext,
  seen: GgufFileSeen,
  input: RequestInfo | URL,
  init: RequestInit | undefined,
): Promise<Response> {
  const range = requestedRange(init);
  if (range && range[0] >= MAX_GGUF_HEADER_BYTES) {
    throw shapeError(
      ctx.repo,
      `${ctx.path}: its GGUF header runs past ${MAX_GGUF_HEADER_BYTES / 2 ** 20} MiB, more than any real model's (a few MB): its key or tensor counts are not a real model's`,
    );
  }
  let res: Response;
  try {
    res = await ctx.fetch(input, init);
  } catch (err) {
    if (err instanceof HubError) throw err;
    throw networkError(ctx.hubUrl, err instanceof Error ? err.message : String(err));
  }
  try {
    checkStatus(res, ctx, range);
  } catch (err) {
    // Stop the body: a server ignoring Range would otherwise send gigabytes.
    await res.body?.cancel().catch(() => undefined);
    throw err;
  }
  const cr = contentRange(res);
  if (!cr) {
    await res.body?.cancel().catch(() => undefined);
    throw new HubError(
      "gguf-range",
      `${ctx.repo}/${ctx.path}: the 206 answer has no Content-Range, so the file's size is unknown: check the Hub address in settings`,
      206,
    );
  }
  seen.totalBytes = cr.total;
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (looksLikeHtml(bytes)) throw htmlError(ctx, res.status);
  const wanted = range ? Math.min(range[1], cr.total - 1) - range[0] + 1 : bytes.length;
  if (bytes.length < wanted) {
    throw truncatedError(ctx, `the server sent ${bytes.length} of the ${wanted} bytes asked for`);
  }
  return new Response(bytes, { status: 206, headers: res.headers });
}

/**
 * Longest array kept whole. Per-layer arrays (head_count_kv, sliding-window
 * patterns) have one entry per layer, a few hundred at most; the tokenizer's
 * scores and token types have one per token (150k+), megabytes the engine
 * does not need: they are kept as their length only.
 */
export { MAX_KEPT_ARRAY } from "./ggufParse.ts";

/** A header value made JSON-safe: bigints to numbers; long and string arrays are dropped by the caller. */
function jsonSafe(value: unknown): GgufValue | undefined {
  if (typeof value === "bigint") return Number(value);
  // NaN and ±Infinity would become null in JSON.
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) {
    if (value.length > MAX_KEPT_ARRAY) return undefined;
    if (value.every((v) => (typeof v === "number" && Number.isFinite(v)) || typeof v === "bigint"))
      return value.map(Number);
    if (value.every((v) => typeof v === "boolean")) return value as boolean[];
  }
  return undefined;
}

/**
 * The parse made JSON-safe. String arrays (the vocabulary, merges) and
 * per-token arrays are megabytes and the engine needs only their length,
 * kept as `<key>.count`.
 */
export function headerFromParse(
  parse: Pick<GGUFParseOutput, "metadata" | "tensorInfos" | "tensorDataOffset">,
): GgufHeader {
  const metadata: Record<string, GgufValue> = {};
  for (const [key, value] of Object.entries(parse.metadata)) {
    const safe = jsonSafe(value);
    if (safe !== undefined) metadata[key] = safe;
    else if (Array.isArray(value)) metadata[`${key}.count`] = value.length;
  }
  return {
    metadata,
    tensors: parse.tensorInfos.map((t) => ({ name: t.name, shape: t.shape.map(Number), type: t.dtype })),
    tensorDataOffsetBytes: Number(parse.tensorDataOffset),
  };
}

/**
 * Bytes asked for per range request: the library's own chunk (2 MB, its
 * HTTP_CHUNK_SIZE), so a small header still costs one request.
 */
export const GGUF_CHUNK_BYTES = 2_000_000;

export async function readGgufHeader(
  url: string,
  ctx: GgufReadContext,
  onBytes?: (bytes: number) => void,
): Promise<GgufHeader> {
  const seen: GgufFileSeen = { totalBytes: null };
  const fetchRange = guardedGgufFetch(ctx, seen);
  const headers: Record<string, string> = ctx.accessToken ? { Authorization: `Bearer ${ctx.accessToken}` } : {};
  let bytes = new Uint8Array(0);
  let needBytes = GGUF_CHUNK_BYTES;
  let estimateBytes = 0;
  try {
    for (;;) {
      if (seen.totalBytes !== null && bytes.length >= seen.totalBytes) {
        throw truncatedError(ctx, `the header needs more than ${needBytes} bytes, the file has ${seen.totalBytes}`);
      }
      // At least one chunk more, or as far as the parse said it needs, or (one request for the rest) to where it
      // expects the header to end, from the array lengths read so far.
      const end =
        Math.max(bytes.length + GGUF_CHUNK_BYTES, needBytes, Math.min(estimateBytes, MAX_GGUF_HEADER_BYTES)) - 1;
      const res = await fetchRange(url, { headers: { ...headers, Range: `bytes=${bytes.length}-${end}` } });
      const chunk = new Uint8Array(await res.arrayBuffer());
      const grown = new Uint8Array(bytes.length + chunk.length);
      grown.set(bytes);
      grown.set(chunk, bytes.length);
      bytes = grown;
      onBytes?.(chunk.length);
      const result = await parseGgufBytes(bytes);
      if (result.kind === "more") {
        needBytes = result.needBytes;
        estimateBytes = result.estimateBytes;
        continue;
      }
      const header = result.header;
      if (seen.totalBytes !== null && header.tensorDataOffsetBytes > seen.totalBytes) {
        throw truncatedError(
          ctx,
          `the header needs ${header.tensorDataOffsetBytes} bytes, the file has ${seen.totalBytes}`,
        );
      }
      const tooLarge = ggufCeilingError(header.metadata, ctx.path);
      if (tooLarge) throw shapeError(ctx.repo, tooLarge);
      return header;
    }
  } catch (err) {
    if (err instanceof HubError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    if (detail.includes("magic number")) {
      throw new HubError(
        "bad-response",
        `${ctx.repo}/${ctx.path} does not start with "GGUF": it is not a GGUF file, or the server sent something else`,
      );
    }
    throw badResponseError(ctx.hubUrl, `a GGUF header the reader could not parse for ${ctx.path} (${detail})`);
  }
}
