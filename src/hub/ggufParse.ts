/**
 * A GGUF header read from the bytes fetched so far, keeping only what the
 * engine needs (the same JSON-safe header as headerFromParse in gguf.ts).
 *
 * @huggingface/gguf decodes every string of the vocabulary and merges
 * (~150,000 each for Qwen2.5) and has no option to skip them (0.4.6's
 * `gguf()` takes fetch, headers, typedMetadata, computeParametersCount
 * only): in the page that blocked for seconds a file (issue 19). Here a
 * long array is stepped over by its elements' lengths, never decoded, and
 * the read stops at the end of the tensor infos. When the bytes run out, it says
 * where the header likely ends, from the array lengths read so far, so the
 * reader asks for the rest in one request (issue 19). The layout follows the
 * GGUF spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 *
 * Pure (no DOM, no fetch): it runs in the header worker and, in Node, inline.
 */
import type { GgufHeader, GgufValue } from "../plan/index.ts";

/** Longest array kept whole (see gguf.ts: per-layer arrays are a few hundred long, per-token ones 150k+). */
export const MAX_KEPT_ARRAY = 4096;

// Ceilings past any real model, checked before a loop runs on them (issue 20).
const MAX_KV_COUNT = 1_000_000;
const MAX_TENSOR_COUNT = 1_000_000;
const MAX_ARRAY_LENGTH = 100_000_000;
const MAX_STRING_BYTES = 100_000_000;
const MAX_DIMS = 8;
const DEFAULT_ALIGNMENT = 32;

/** Bytes of one element of a fixed-size GGUF value type; undefined for strings and arrays. */
const FIXED_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/**
 * What the parse needs next: the header, or at least this many bytes from the start of the file, and where
 * the header likely ends (estimateBytes, from the array lengths read so far), so one request can fetch the rest.
 */
export type GgufParseResult =
  { kind: "header"; header: GgufHeader } | { kind: "more"; needBytes: number; estimateBytes: number };

/** Thrown inside the parse when a value runs past the bytes fetched so far. */
class NeedMore {
  constructor(
    readonly needBytes: number,
    /** Where the value being read (or, from the key-value loop, the header) likely ends, from the lengths known. */
    readonly endBytes?: number,
    /** That array's length and its elements' mean bytes (with their 8-byte lengths). */
    readonly array?: { count: number; meanBytes: number },
  ) {}
}

/** A malformed header: the message says which field. */
export class GgufFormatError extends Error {}

class Cursor {
  offset = 0;
  private readonly view: DataView;
  private readonly decoder = new TextDecoder();
  constructor(
    private readonly bytes: Uint8Array,
    readonly little: boolean,
    readonly version: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number): void {
    if (this.offset + n > this.bytes.length) throw new NeedMore(this.offset + n);
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, this.little);
    this.offset += 4;
    return v;
  }
  /** A size field: 32 bits in GGUF v1, 64 from v2; as a number (ceilings are checked by the caller). */
  size(): number {
    if (this.version === 1) return this.u32();
    this.need(8);
    const v = this.view.getBigUint64(this.offset, this.little);
    this.offset += 8;
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
  }
  string(): string {
    const n = this.size();
    if (n > MAX_STRING_BYTES) throw new GgufFormatError(`a string of ${n} bytes, past any real header's`);
    this.need(n);
    const s = this.decoder.decode(this.bytes.subarray(this.offset, this.offset + n));
    this.offset += n;
    return s;
  }
  skip(n: number): void {
    this.need(n);
    this.offset += n;
  }
  scalar(type: number): GgufValue | bigint {
    const at = this.offset;
    this.need(FIXED_BYTES[type] ?? 0);
    const v = this.view;
    const l = this.little;
    let value: GgufValue | bigint;
    switch (type) {
      case 0:
        value = v.getUint8(at);
        break;
      case 1:
        value = v.getInt8(at);
        break;
      case 2:
        value = v.getUint16(at, l);
        break;
      case 3:
        value = v.getInt16(at, l);
        break;
      case 4:
        value = v.getUint32(at, l);
        break;
      case 5:
        value = v.getInt32(at, l);
        break;
      case 6:
        value = v.getFloat32(at, l);
        break;
      case 7:
        value = v.getUint8(at) !== 0;
        break;
      case 10:
        value = v.getBigUint64(at, l);
        break;
      case 11:
        value = v.getBigInt64(at, l);
        break;
      case 12:
        value = v.getFloat64(at, l);
        break;
      default:
        throw new GgufFormatError(`an unknown value type ${type}`);
    }
    this.offset += FIXED_BYTES[type] ?? 0;
    return value;
  }
}

/** A scalar made JSON-safe: bigints to numbers; NaN and ±Infinity dropped (JSON would make them null). */
function safeScalar(value: GgufValue | bigint): GgufValue | undefined {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number" && !Number.isFinite(value)) return undefined;
  return value;
}

/** One array: short arrays of numbers or booleans are kept, every other is stepped over and kept as its length. */
function readArray(c: Cursor, depth: number): { value?: GgufValue; count: number; meanBytes?: number } {
  const type = c.u32();
  const count = c.size();
  if (count > MAX_ARRAY_LENGTH) throw new GgufFormatError(`an array of ${count} elements, past any real header's`);
  const fixed = FIXED_BYTES[type];
  if (fixed !== undefined) {
    if (count > MAX_KEPT_ARRAY) {
      c.skip(count * fixed);
      return { count };
    }
    const values: (number | boolean)[] = [];
    let finite = true;
    for (let i = 0; i < count; i++) {
      const v = safeScalar(c.scalar(type));
      if (v === undefined) finite = false;
      else values.push(v as number | boolean);
    }
    return finite ? { value: values as GgufValue, count } : { count };
  }
  if (type === STRING) {
    // The vocabulary: each string stepped over by its length, never decoded.
    const start = c.offset;
    let element = start;
    let i = 0;
    try {
      for (; i < count; i++) {
        element = c.offset;
        c.skip(c.size());
      }
    } catch (err) {
      if (!(err instanceof NeedMore) || i === 0) throw err;
      const meanBytes = (element - start) / i;
      throw new NeedMore(err.needBytes, start + count * meanBytes, { count, meanBytes });
    }
    return { count, meanBytes: count > 0 ? (c.offset - start) / count : 0 };
  }
  if (type === ARRAY) {
    if (depth >= 2) throw new GgufFormatError("arrays nested deeper than any real header's");
    for (let i = 0; i < count; i++) readArray(c, depth + 1);
    return { count };
  }
  throw new GgufFormatError(`an array of unknown value type ${type}`);
}

function readTensorInfo(c: Cursor, tensors: NonNullable<GgufHeader["tensors"]>): void {
  const name = c.string();
  const dims = c.u32();
  if (dims > MAX_DIMS) throw new GgufFormatError(`tensor ${name} has ${dims} dimensions, past GGML's ${MAX_DIMS}`);
  const shape: number[] = [];
  for (let d = 0; d < dims; d++) shape.push(c.size());
  const type = c.u32();
  c.skip(8); // the tensor's offset in the data section: not needed for the plan
  tensors.push({ name, shape, type });
}

const TOKENS = "tokenizer.ggml.tokens";
/**
 * The per-token arrays llama.cpp's writers put after the tokens, in order (gguf-py: add_token_list, then
 * add_token_scores, add_token_types; SpecialVocab's merges after): scores for a SentencePiece vocabulary
 * ("llama"), merges for a BPE one ("gpt2"), each merge two halves of a token and a space.
 */
const AFTER_TOKENS: { key: string; model?: string; bytes: (tokens: number, tokenMean: number) => number }[] = [
  { key: "tokenizer.ggml.scores", model: "llama", bytes: (n) => 4 * n },
  { key: "tokenizer.ggml.token_type", bytes: (n) => 4 * n },
  { key: "tokenizer.ggml.merges", model: "gpt2", bytes: (n, mean) => n * (mean + 1) },
];
/** A tensor info's bytes, a little over a dense model's mean (8 + ~25 name + 4 + 2 × 8 dims + 4 + 8). */
const TENSOR_INFO_BYTES = 80;
/** The short keys after the vocabulary (ids, flags, a chat template of a few KB). */
const SLACK_BYTES = 64 * 1024;

/** Where the header likely ends, when the bytes ran out among its key-values: sized from the lengths known. */
function headerEndEstimate(
  err: NeedMore,
  metadata: Record<string, GgufValue>,
  key: string,
  tokenMeanBytes: number,
  tensorCount: number,
): number {
  let end = err.endBytes ?? err.needBytes;
  const inTokens = key === TOKENS && err.array !== undefined;
  const tokens = inTokens ? err.array?.count : metadata[`${TOKENS}.count`];
  const mean = inTokens ? (err.array?.meanBytes ?? 0) : tokenMeanBytes;
  if (typeof tokens === "number") {
    const model = metadata["tokenizer.ggml.model"];
    // The arrays after the one being read (after the tokens, when the bytes ran out in them or before).
    const at = inTokens ? -1 : AFTER_TOKENS.findIndex((a) => a.key === key);
    for (const a of AFTER_TOKENS.slice(at + 1)) {
      if (a.model !== undefined && a.model !== model) continue;
      if (metadata[`${a.key}.count`] !== undefined) continue;
      end += a.bytes(tokens, mean) + 8 + a.key.length + 4 + 4 + 8;
    }
  }
  return end + SLACK_BYTES + tensorCount * TENSOR_INFO_BYTES;
}

function parse(bytes: Uint8Array): GgufHeader {
  if (bytes.length < 8) throw new NeedMore(8);
  if (bytes[0] !== 0x47 || bytes[1] !== 0x47 || bytes[2] !== 0x55 || bytes[3] !== 0x46) {
    throw new GgufFormatError('not a valid gguf file: it does not start with the "GGUF" magic number');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The version is 1, 2 or 3 in either byte order: a big-endian file reads as a multiple of 2^16 little-endian.
  const raw = view.getUint32(4, true);
  const little = (raw & 0xffff) !== 0;
  const version = little ? raw : view.getUint32(4, false);
  if (version < 1 || version > 3) throw new GgufFormatError(`not a valid gguf file: unsupported version ${version}`);
  const c = new Cursor(bytes, little, version);
  c.offset = 8;
  const tensorCount = c.size();
  if (tensorCount > MAX_TENSOR_COUNT)
    throw new GgufFormatError(`a tensor count of ${tensorCount}, past any real model's`);
  const kvCount = c.size();
  if (kvCount > MAX_KV_COUNT) throw new GgufFormatError(`a key count of ${kvCount}, past any real model's`);
  // The library's parse carries these three as metadata too; headerFromParse keeps them, so this does.
  const metadata: Record<string, GgufValue> = { version, tensor_count: tensorCount, kv_count: kvCount };
  let key = "";
  let tokenMeanBytes = 0;
  try {
    for (let i = 0; i < kvCount; i++) {
      key = c.string();
      const type = c.u32();
      if (type === STRING) metadata[key] = c.string();
      else if (type === ARRAY) {
        const { value, count, meanBytes } = readArray(c, 0);
        if (value !== undefined) metadata[key] = value;
        else metadata[`${key}.count`] = count;
        if (key === TOKENS) tokenMeanBytes = meanBytes ?? 0;
      } else {
        const v = safeScalar(c.scalar(type));
        if (v !== undefined) metadata[key] = v;
      }
    }
  } catch (err) {
    if (!(err instanceof NeedMore)) throw err;
    throw new NeedMore(err.needBytes, headerEndEstimate(err, metadata, key, tokenMeanBytes, tensorCount));
  }
  const tensors: GgufHeader["tensors"] = [];
  for (let i = 0; i < tensorCount; i++) {
    const at = c.offset;
    try {
      readTensorInfo(c, tensors);
    } catch (err) {
      if (!(err instanceof NeedMore)) throw err;
      // Out of bytes among the tensor infos: the rest at about their mean size.
      throw new NeedMore(err.needBytes, at + (tensorCount - i) * TENSOR_INFO_BYTES);
    }
  }
  const alignment = metadata["general.alignment"] ?? DEFAULT_ALIGNMENT;
  if (typeof alignment !== "number" || !Number.isInteger(alignment) || alignment <= 0) {
    throw new GgufFormatError(`general.alignment must be a positive integer, got ${String(alignment)}`);
  }
  return { metadata, tensors, tensorDataOffsetBytes: Math.ceil(c.offset / alignment) * alignment };
}

/** The header, if the bytes hold all of it; else how many bytes from the file's start the parse needs at least. */
export function parseGgufHeader(bytes: Uint8Array): GgufParseResult {
  try {
    return { kind: "header", header: parse(bytes) };
  } catch (err) {
    if (err instanceof NeedMore)
      return {
        kind: "more",
        needBytes: err.needBytes,
        estimateBytes: Math.ceil(Math.max(err.needBytes, err.endBytes ?? 0)),
      };
    throw err;
  }
}
