/**
 * One GGUF header, read by range requests with @huggingface/gguf, made
 * JSON-safe for the snapshot.
 *
 * The library never checks a response's status (docs/notes/hub-api.md §2):
 * a 401 page becomes "not a valid gguf file", and a server that ignores Range
 * streams a multi-GB file into memory. So its fetch is wrapped: anything but
 * a 206 slice of the file is an error that says what came back.
 */
import { gguf } from "@huggingface/gguf";
import type { GGUFParseOutput } from "@huggingface/gguf";
import type { GgufHeader, GgufValue } from "../plan/index.ts";
import { HubError, badResponseError, gatedError, networkError, rateLimitError, shapeError } from "./errors.ts";
import { ggufCeilingError, MAX_GGUF_HEADER_BYTES } from "./limits.ts";
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
  if (res.status === 401 || res.status === 403) throw gatedError(ctx.hubUrl, ctx.repo, res.status, ctx.accessToken !== undefined);
  if (res.status === 429) throw rateLimitError(res.status);
  if (res.status === 416) {
    throw truncatedError(ctx, `the header runs past the end of the file, at byte ${range?.[0] ?? "?"}`);
  }
  if (res.status === 404) throw badResponseError(ctx.hubUrl, `404 for ${ctx.path}, which the file list names`, res.status);
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

async function guardedOnce(ctx: GgufReadContext, seen: GgufFileSeen, input: RequestInfo | URL, init: RequestInit | undefined): Promise<Response> {
  const range = requestedRange(init);
  if (range && range[0] >= MAX_GGUF_HEADER_BYTES) {
    throw shapeError(ctx.repo, `${ctx.path}: its GGUF header runs past ${MAX_GGUF_HEADER_BYTES / 2 ** 20} MiB, more than any real model's (a few MB): its key or tensor counts are not a real model's`);
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
    throw new HubError("gguf-range", `${ctx.repo}/${ctx.path}: the 206 answer has no Content-Range, so the file's size is unknown: check the Hub address in settings`, 206);
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
export const MAX_KEPT_ARRAY = 4096;

/** A header value made JSON-safe: bigints to numbers; long and string arrays are dropped by the caller. */
function jsonSafe(value: unknown): GgufValue | undefined {
  if (typeof value === "bigint") return Number(value);
  // NaN and ±Infinity would become null in JSON.
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value)) {
    if (value.length > MAX_KEPT_ARRAY) return undefined;
    if (value.every((v) => (typeof v === "number" && Number.isFinite(v)) || typeof v === "bigint")) return value.map(Number);
    if (value.every((v) => typeof v === "boolean")) return value as boolean[];
  }
  return undefined;
}

/**
 * The parse made JSON-safe. String arrays (the vocabulary, merges) and
 * per-token arrays are megabytes and the engine needs only their length,
 * kept as `<key>.count`.
 */
export function headerFromParse(parse: Pick<GGUFParseOutput, "metadata" | "tensorInfos" | "tensorDataOffset">): GgufHeader {
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

export async function readGgufHeader(url: string, ctx: GgufReadContext): Promise<GgufHeader> {
  const seen: GgufFileSeen = { totalBytes: null };
  try {
    const parse = await gguf(url, {
      fetch: guardedGgufFetch(ctx, seen),
      ...(ctx.accessToken ? { additionalFetchHeaders: { Authorization: `Bearer ${ctx.accessToken}` } } : {}),
    });
    // The reader pads its buffer to whole 2 MB chunks with zeros, so a file
    // that ends inside its header can still "parse": its header then claims
    // to end past the file's last byte.
    if (seen.totalBytes !== null && Number(parse.tensorDataOffset) > seen.totalBytes) {
      throw truncatedError(ctx, `the header needs ${Number(parse.tensorDataOffset)} bytes, the file has ${seen.totalBytes}`);
    }
    const header = headerFromParse(parse);
    const tooLarge = ggufCeilingError(header.metadata, ctx.path);
    if (tooLarge) throw shapeError(ctx.repo, tooLarge);
    return header;
  } catch (err) {
    if (err instanceof HubError) throw err;
    if (err instanceof RangeError) throw truncatedError(ctx, "a value runs past the bytes the file has");
    const detail = err instanceof Error ? err.message : String(err);
    if (detail.includes("magic number")) {
      throw new HubError("bad-response", `${ctx.repo}/${ctx.path} does not start with "GGUF": it is not a GGUF file, or the server sent something else`);
    }
    throw badResponseError(ctx.hubUrl, `a GGUF header the reader could not parse for ${ctx.path} (${detail})`);
  }
}
