/**
 * Where a header is parsed: in the header worker when the page runs in a
 * browser (one worker, started on the first GGUF read), inline in Node (the
 * terminal and the tests), where no frame waits on it.
 */
import { GgufFormatError, parseGgufHeader, type GgufParseResult } from "./ggufParse.ts";
import type { GgufParseReply, GgufParseRequest } from "./ggufWorkerProtocol.ts";

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { ok: (r: GgufParseResult) => void; fail: (e: Error) => void }>();

function startWorker(): Worker {
  const w = new Worker(new URL("./ggufWorker.ts", import.meta.url), { type: "module", name: "gguf-header" });
  w.onmessage = (e: MessageEvent<GgufParseReply>) => {
    const reply = e.data;
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (!pending) return;
    if (reply.ok) pending.ok(reply.result);
    else pending.fail(reply.format ? new GgufFormatError(reply.message) : new Error(reply.message));
  };
  w.onerror = (e) => {
    // A worker that cannot start (a CSP without worker-src, say): every read waiting on it is told so.
    for (const pending of waiting.values()) pending.fail(new Error(`the GGUF header worker failed: ${e.message}`));
    waiting.clear();
    worker = null;
  };
  return w;
}

function inBrowser(): boolean {
  return typeof Worker === "function" && typeof window !== "undefined";
}

/** The header from the bytes so far, or how many bytes it needs; parsed off the page's thread in a browser. */
export function parseGgufBytes(bytes: Uint8Array): Promise<GgufParseResult> {
  if (!inBrowser()) return Promise.resolve().then(() => parseGgufHeader(bytes));
  worker ??= startWorker();
  const id = nextId++;
  const w = worker;
  return new Promise((ok, fail) => {
    waiting.set(id, { ok, fail });
    const request: GgufParseRequest = { id, bytes };
    w.postMessage(request);
  });
}
