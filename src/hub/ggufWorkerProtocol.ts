/** The header worker's messages: the bytes fetched so far in, the parse's answer out. */
import type { GgufParseResult } from "./ggufParse.ts";

export interface GgufParseRequest {
  id: number;
  bytes: Uint8Array;
}

export type GgufParseReply =
  { id: number; ok: true; result: GgufParseResult } | { id: number; ok: false; format: boolean; message: string };
