/**
 * A Hub that answers from recordings (test/fixtures/hub/*.json), in the real
 * Hub's shapes and status codes (shared/notes/hub-api.md §1d, §4, §7):
 *  - GET /api/models/{id}/revision/{rev}?blobs=true → the recorded info;
 *    unknown repo → anonymous 401 "Invalid username or password.", with a
 *    token 404 RepoNotFound; unknown revision → 404 RevisionNotFound;
 *  - GET /{id}/resolve/{sha}/{path} → the file; GGUF files by Range, 206 +
 *    Content-Range with the file's REAL total size; gated repos 401/403;
 *  - faults a test switches on: 429, 500, a 502 HTML page from a proxy, an
 *    HTML page, a 200 ignoring Range, a short 206, a file that ends inside
 *    its header, no network.
 * The same handler serves both the tests' fetch and a node:http server.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { TabStorage } from "../../src/hub/settings.ts";

export interface Recording {
  source: string[];
  info: {
    id: string;
    sha: string;
    gated: false | "manual" | "auto";
    siblings: { rfilename: string; size: number }[];
  } & Record<string, unknown>;
  texts: Record<string, string>;
  ggufFacts: Record<string, Record<string, unknown>>;
}

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "hub");

export function loadRecording(repo: string): Recording {
  return JSON.parse(readFileSync(join(FIXTURES, `${repo.replace("/", "__")}.json`), "utf8")) as Recording;
}

export function allRecordings(): Recording[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), "utf8")) as Recording);
}

/** Recorded answers of the Hub's model list, by the filter asked (test/fixtures/hub/lists/). */
export interface ListRecording {
  source: string[];
  lists: Record<string, Record<string, unknown>[]>;
}

export function loadListRecordings(): ListRecording[] {
  const dir = join(FIXTURES, "lists");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ListRecording);
}

export type Fault =
  | "none"
  | "rate-limit"
  | "html"
  | "ignore-range"
  | "short-206"
  | "ends-in-header"
  | "offline"
  | "server-error"
  | "bad-gateway";

export interface LoggedRequest {
  method: string;
  url: string;
  range: string | null;
  authorization: string | null;
}

export interface FakeHubOptions {
  recordings: Recording[];
  /** Model-list answers by filter; a filter not among them is answered from the recordings' tags. */
  lists?: ListRecording[];
  /** The token the gated repos have approved; any other token gets 403. */
  approvedToken?: string;
  fault?: Fault;
  /** Milliseconds before each answer, so requests in flight overlap as on a real network. */
  latencyMs?: number;
}

/** A long array as recorded: its length and, for strings, their total bytes (the strings were not recorded). */
interface ArrayFact {
  array: "string" | "int32";
  count: number;
  bytes?: number;
}

/** A text recorded by its length only, beginning with its recorded start. */
interface TextFact {
  text: string;
  bytes: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** count strings of `bytes` bytes in all, each within a byte of the mean; merges look like "Ġa b". */
function stringsOf(count: number, bytes: number, merge: boolean): string[] {
  const floor = Math.floor(bytes / count);
  const longer = bytes - floor * count;
  return Array.from({ length: count }, (_, i) => {
    const n = floor + (i < longer ? 1 : 0);
    const core = merge && n >= 5 ? `Ġ${"a".repeat(n - 4)} b` : `t${i}`;
    return core.length >= n ? core.slice(0, n) : core + "_".repeat(n - new TextEncoder().encode(core).length);
  });
}

/** A little-endian GGUF writer for the value types the recordings use (GGUF spec, ggml-org/ggml docs/gguf.md). */
class GgufWriter {
  private parts: Uint8Array[] = [];
  private readonly enc = new TextEncoder();
  length = 0;
  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  private fixed(n: number, set: (v: DataView) => void): void {
    const b = new Uint8Array(n);
    set(new DataView(b.buffer));
    this.push(b);
  }
  u32(v: number): void {
    this.fixed(4, (d) => d.setUint32(0, v, true));
  }
  u64(v: number): void {
    this.fixed(8, (d) => d.setBigUint64(0, BigInt(v), true));
  }
  string(s: string): void {
    const b = this.enc.encode(s);
    this.u64(b.length);
    this.push(b);
  }
  /** A string array in one buffer: 300,000 small pushes would be slow. */
  strings(list: string[]): void {
    const encoded = list.map((s) => this.enc.encode(s));
    const out = new Uint8Array(encoded.reduce((n, b) => n + 8 + b.length, 0));
    const view = new DataView(out.buffer);
    let at = 0;
    for (const b of encoded) {
      view.setBigUint64(at, BigInt(b.length), true);
      out.set(b, at + 8);
      at += 8 + b.length;
    }
    this.push(out);
  }
  bytes(b: Uint8Array): void {
    this.push(b);
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

// GGUF value type ids (gguf.md).
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;

/** One recorded fact as a GGUF key-value; long arrays are rebuilt at their real lengths and bytes. */
function writeKv(w: GgufWriter, key: string, value: unknown): boolean {
  if (key === "gguf.tensors") return false;
  if (key === "tokenizer.ggml.tokens.count" && typeof value === "number") {
    // Real token strings were not recorded, only their count; each stands in as a short string.
    w.string("tokenizer.ggml.tokens");
    w.u32(T.ARRAY);
    w.u32(T.STRING);
    w.u64(value);
    w.strings(Array.from({ length: value }, (_, i) => `t${i}`));
  } else if (isObject(value) && "array" in value) {
    const a = value as unknown as ArrayFact;
    w.string(key);
    w.u32(T.ARRAY);
    w.u32(a.array === "int32" ? T.INT32 : T.STRING);
    w.u64(a.count);
    if (a.array === "int32") {
      // Every token "normal" (1): the planner reads only the array's length.
      const b = new Uint8Array(4 * a.count);
      for (let i = 0; i < a.count; i++) b[4 * i] = 1;
      w.bytes(b);
    } else w.strings(stringsOf(a.count, a.bytes ?? a.count * 8, key.endsWith(".merges")));
  } else if (isObject(value) && "bytes" in value) {
    const t = value as unknown as TextFact;
    w.string(key);
    w.u32(T.STRING);
    w.string(t.text.padEnd(t.bytes, " "));
  } else if (isObject(value) && typeof value.f32 === "number") {
    const f = value.f32;
    w.string(key);
    w.u32(T.FLOAT32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, f, true);
    w.bytes(b);
  } else if (Array.isArray(value)) {
    w.string(key);
    w.u32(T.ARRAY);
    w.u32(T.STRING);
    w.u64(value.length);
    w.strings(value.map(String));
  } else if (typeof value === "string") {
    w.string(key);
    w.u32(T.STRING);
    w.string(value);
  } else if (typeof value === "boolean") {
    w.string(key);
    w.u32(T.BOOL);
    w.bytes(new Uint8Array([value ? 1 : 0]));
  } else if (typeof value === "number") {
    w.string(key);
    w.u32(T.UINT32);
    w.u32(value);
  } else return false;
  return true;
}

/** The recorded tensor infos, "name|dims|ggml type" each. */
function tensorsOf(facts: Record<string, unknown>): { name: string; shape: number[]; type: number }[] {
  const list = facts["gguf.tensors"];
  if (!Array.isArray(list)) return [];
  return (list as string[]).map((line) => {
    const [name = "", dims = "", type = "0"] = line.split("|");
    return { name, shape: dims.split(",").map(Number), type: Number(type) };
  });
}

/** Tensor infos as the GGUF spec lays them out, after the key-values. */
function writeTensorInfos(w: GgufWriter, tensors: { name: string; shape: number[]; type: number }[]): void {
  for (const t of tensors) {
    w.string(t.name);
    w.u32(t.shape.length);
    for (const d of t.shape) w.u64(d);
    w.u32(t.type);
    // The data offset is not read by the planner; 0 keeps the bytes a pure function of the recording.
    w.u64(0);
  }
}

/** Header facts for a GGUF file: those recorded for it, else none (an empty but valid header). */
function factsFor(rec: Recording, path: string): Record<string, unknown> {
  return rec.ggufFacts[path] ?? {};
}

const ALIGNMENT = 32;
const headerCache = new Map<string, Uint8Array>();
export function ggufHeaderBytes(rec: Recording, path: string): Uint8Array {
  const key = `${rec.info.id}/${path}`;
  let bytes = headerCache.get(key);
  if (!bytes) {
    const facts = factsFor(rec, path);
    const kvs = new GgufWriter();
    let kvCount = 0;
    for (const [k, v] of Object.entries(facts)) if (writeKv(kvs, k, v)) kvCount++;
    const tensors = tensorsOf(facts);
    const w = new GgufWriter();
    w.bytes(new TextEncoder().encode("GGUF"));
    w.u32(3);
    w.u64(tensors.length);
    w.u64(kvCount);
    w.bytes(kvs.concat());
    writeTensorInfos(w, tensors);
    // Padded to the data's alignment, where the tensor data would start.
    w.bytes(new Uint8Array((ALIGNMENT - (w.length % ALIGNMENT)) % ALIGNMENT));
    bytes = w.concat();
    headerCache.set(key, bytes);
  }
  return bytes;
}

const EXPOSE =
  "Content-Range,ETag,X-Linked-Size,X-Linked-ETag,Link,X-Repo-Commit,X-Error-Code,X-Error-Message,X-Request-Id";

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "access-control-expose-headers": EXPOSE, ...headers },
  });
}

function error(status: number, code: string | null, message: string, extra: Record<string, string> = {}): Response {
  return json(
    status,
    { error: message },
    { ...(code ? { "x-error-code": code } : {}), "x-error-message": message, ...extra },
  );
}

const HTML = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>Please sign in</body></html>";

/** A body that would stream a whole multi-GB file; counts what was pulled, so a test sees it was cancelled. */
function endlessBody(pulled: { bytes: number }): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      pulled.bytes += 65536;
      controller.enqueue(new Uint8Array(65536));
    },
  });
}

export function fakeHub(options: FakeHubOptions) {
  const byRepo = new Map(options.recordings.map((r) => [r.info.id, r]));
  const requests: LoggedRequest[] = [];
  const pulled = { bytes: 0 };
  const inFlight = { now: 0, max: 0 };
  const fault = options.fault ?? "none";

  function repoFrom(parts: string[]): Recording | undefined {
    return byRepo.get(`${parts[0]}/${parts[1]}`);
  }

  function modelInfo(parts: string[], auth: string | null): Response {
    // parts: ["api","models",owner,name,"revision",rev]
    const rec = repoFrom(parts.slice(2));
    if (!rec) {
      return auth
        ? error(404, "RepoNotFound", "Repository not found")
        : new Response("Invalid username or password.", {
            status: 401,
            headers: { "x-error-message": "Invalid username or password.", "access-control-expose-headers": EXPOSE },
          });
    }
    const rev = decodeURIComponent(parts[5] ?? "");
    if (rev !== "main" && rev !== rec.info.sha) return error(404, "RevisionNotFound", `Invalid rev id: ${rev}`);
    return json(200, rec.info);
  }

  function resolve(parts: string[], range: string | null, auth: string | null): Response {
    // parts: [owner,name,"resolve",sha,...path]
    const rec = repoFrom(parts);
    if (!rec) return error(401, "RepoNotFound", "Invalid username or password.");
    if (rec.info.gated !== false) {
      if (!auth)
        return error(
          401,
          "GatedRepo",
          "Access to model is restricted. You must have access to it and be authenticated to access it. Please log in.",
        );
      if (auth !== `Bearer ${options.approvedToken}`)
        return error(403, "GatedRepo", "Access to model is restricted and you are not in the authorized list.");
    }
    if (parts[3] !== rec.info.sha) return error(404, "RevisionNotFound", "Invalid rev id");
    const path = parts.slice(4).map(decodeURIComponent).join("/");
    const sibling = rec.info.siblings.find((s) => s.rfilename === path);
    if (!sibling) return error(404, "EntryNotFound", `${path} does not exist`, { "x-repo-commit": rec.info.sha });
    const commit = {
      "x-repo-commit": rec.info.sha,
      etag: `"${rec.info.sha}-${path}"`,
      "access-control-expose-headers": EXPOSE,
    };
    const text = rec.texts[path];
    if (text !== undefined)
      return new Response(text, { status: 200, headers: { "content-type": "text/plain; charset=utf-8", ...commit } });
    if (fault === "html")
      return new Response(HTML, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } });
    if (fault === "ignore-range") {
      return new Response(endlessBody(pulled), {
        status: 200,
        headers: { "content-type": "application/octet-stream", "content-length": String(sibling.size), ...commit },
      });
    }
    const header = ggufHeaderBytes(rec, path);
    // A file that ends inside its own header: an interrupted upload.
    const total = fault === "ends-in-header" ? Math.floor(header.length / 2) : sibling.size;
    const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? "");
    if (!m) return new Response(endlessBody(pulled), { status: 200, headers: commit });
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), total - 1);
    if (start >= total)
      return new Response(null, { status: 416, headers: { "content-range": `bytes */${total}`, ...commit } });
    const body = new Uint8Array(end - start + 1);
    body.set(header.subarray(start, Math.min(end + 1, header.length)));
    const sent = fault === "short-206" ? body.subarray(0, 1000) : body;
    return new Response(sent, {
      status: 206,
      headers: {
        "content-type": "application/octet-stream",
        "content-range": `bytes ${start}-${end}/${total}`,
        ...commit,
      },
    });
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const auth = request.headers.get("authorization");
    const range = request.headers.get("range");
    requests.push({ method: request.method, url: request.url, range, authorization: auth });
    if (fault === "offline") throw new TypeError("fetch failed");
    if (options.latencyMs) {
      inFlight.now++;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      await new Promise((ok) => setTimeout(ok, options.latencyMs));
      inFlight.now--;
    }
    if (fault === "rate-limit") return error(429, null, "Too Many Requests", { ratelimit: '"api";r=0;t=120' });
    if (fault === "server-error")
      return error(500, null, "Internal Error - We're working hard to fix this as soon as possible!");
    // A load balancer's own page in front of the Hub: HTML, no CORS or error headers.
    if (fault === "bad-gateway")
      return new Response(
        "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>",
        { status: 502, headers: { "content-type": "text/html" } },
      );
    const parts = url.pathname.split("/").filter((p) => p !== "");
    if (parts[0] === "api" && parts[1] === "models" && parts[4] === "revision") return modelInfo(parts, auth);
    if (parts[0] === "api" && parts[1] === "models" && parts.length === 2) return listModels(url);
    if (parts[2] === "resolve") return resolve(parts, range, auth);
    return error(404, null, "Not Found");
  }

  /** GET /api/models?filter=base_model:quantized:<repo>: the recorded list for that filter, else the recordings tagged with it. */
  function listModels(url: URL): Response {
    const filter = url.searchParams.getAll("filter");
    const wanted = filter.length === 1 ? filter[0] : undefined;
    const recorded =
      wanted === undefined ? undefined : options.lists?.find((l) => Object.hasOwn(l.lists, wanted))?.lists[wanted];
    if (recorded) return json(200, recorded);
    const found = [...byRepo.values()].filter((r) => {
      const tags = Array.isArray(r.info.tags) ? (r.info.tags as string[]) : [];
      return filter.every((f) => tags.includes(f));
    });
    return json(
      200,
      found.map((r) => ({ _id: r.info.sha.slice(0, 24), ...r.info })),
    );
  }

  const fetchFn: typeof fetch = async (input, init) => handle(new Request(input, init));
  return { fetch: fetchFn, requests, pulled, inFlight, handle };
}

/** The same fake Hub on a real socket (127.0.0.1, a free port): for HF_ENDPOINT tests of the terminal command. */
export async function serveFakeHub(hub: {
  handle(request: Request): Promise<Response>;
}): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    hub
      .handle(new Request(url, { method: req.method ?? "GET", headers }))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch(() => {
        res.destroy();
      });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Web Storage in memory, as sessionStorage or localStorage behave within one page. */
export function memoryStorage(): TabStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}
