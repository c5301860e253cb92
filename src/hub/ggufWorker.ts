/**
 * The header worker: parses the bytes the page fetched, off the page's
 * thread, so a long header never blocks a frame (issue 19). The page keeps
 * the fetching (and its Hub error messages); this file only parses.
 */
import { GgufFormatError, parseGgufHeader } from "./ggufParse.ts";
import type { GgufParseReply, GgufParseRequest } from "./ggufWorkerProtocol.ts";

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<GgufParseRequest>) => void) | null;
  postMessage(reply: GgufParseReply): void;
};

scope.onmessage = (e) => {
  const { id, bytes } = e.data;
  try {
    scope.postMessage({ id, ok: true, result: parseGgufHeader(bytes) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ id, ok: false, format: err instanceof GgufFormatError, message });
  }
};
