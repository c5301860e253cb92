/**
 * Writes a GGUF (v3) whose header is real and whose tensor data is a hole:
 * the file is extended to its full size with ftruncate, so a 16 GB model
 * takes a few kilobytes of disk and reads back as zeros. Layout from
 * ggml-org/llama.cpp ggml/docs/gguf.md (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md):
 * magic, version, tensor count, KV count, the KVs, the tensor infos, then the
 * data, each tensor at an offset aligned to `general.alignment` (32).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";

/** A GGUF metadata value with its on-disk type (gguf_type ids). */
export type GgufKvValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "u32[]" | "i32[]" | "f32[]"; value: readonly number[] }
  | { type: "bool[]"; value: readonly boolean[] }
  | { type: "string[]"; value: readonly string[] };

export const u32 = (value: number): GgufKvValue => ({ type: "u32", value });
export const i32 = (value: number): GgufKvValue => ({ type: "i32", value });
export const f32 = (value: number): GgufKvValue => ({ type: "f32", value });
export const bool = (value: boolean): GgufKvValue => ({ type: "bool", value });
export const str = (value: string): GgufKvValue => ({ type: "string", value });
export const i32s = (value: readonly number[]): GgufKvValue => ({ type: "i32[]", value });
export const u32s = (value: readonly number[]): GgufKvValue => ({ type: "u32[]", value });
export const f32s = (value: readonly number[]): GgufKvValue => ({ type: "f32[]", value });
export const strs = (value: readonly string[]): GgufKvValue => ({ type: "string[]", value });
export const bools = (value: readonly boolean[]): GgufKvValue => ({ type: "bool[]", value });

/** A tensor as llama.cpp names it, its dims in ggml order (ne0 first), its ggml_type id. */
export interface GgufTensorSpec {
  name: string;
  dims: readonly number[];
  type: number;
}

/** ggml types this writer sizes: [block size, bytes a block] (ggml/src/ggml.c type_traits). */
export const GGML = { F32: 0, F16: 1, Q4_0: 2, Q5_0: 6, Q8_0: 8, Q4_K: 12, Q6_K: 14, BF16: 30, MXFP4: 39 } as const;
const TYPE_BLOCKS: Record<number, [number, number]> = {
  0: [1, 4],
  1: [1, 2],
  2: [32, 18],
  6: [32, 22],
  8: [32, 34],
  12: [256, 144],
  14: [256, 210],
  30: [1, 2],
  39: [32, 17],
};

const ALIGNMENT = 32;

export function tensorDataBytes(t: GgufTensorSpec): number {
  const blocks = TYPE_BLOCKS[t.type];
  if (blocks === undefined)
    throw new Error(`the GGUF writer cannot size ggml type ${t.type} (${t.name}): add it to TYPE_BLOCKS`);
  const [block, bytes] = blocks;
  const [row = 1, ...rest] = t.dims;
  if (row % block !== 0)
    throw new Error(`${t.name}: a row of ${row} is not whole ${block}-element blocks of type ${t.type}`);
  return (row / block) * bytes * rest.reduce((a, b) => a * b, 1);
}

const align = (n: number): number => Math.ceil(n / ALIGNMENT) * ALIGNMENT;

class Bytes {
  private chunks: Buffer[] = [];
  length = 0;
  private push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  private fixed(size: number, write: (b: Buffer) => unknown): void {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }
  u32(n: number): void {
    this.fixed(4, (b) => b.writeUInt32LE(n));
  }
  i32(n: number): void {
    this.fixed(4, (b) => b.writeInt32LE(n));
  }
  f32(n: number): void {
    this.fixed(4, (b) => b.writeFloatLE(n));
  }
  u64(n: number): void {
    this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(n)));
  }
  u8(n: number): void {
    this.push(Buffer.from([n]));
  }
  string(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.push(b);
  }
  zeros(n: number): void {
    this.push(Buffer.alloc(n));
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

// gguf_type ids (ggml/include/gguf.h).
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

function writeValue(out: Bytes, v: GgufKvValue): void {
  switch (v.type) {
    case "u32":
      out.u32(T.u32);
      out.u32(v.value);
      return;
    case "i32":
      out.u32(T.i32);
      out.i32(v.value);
      return;
    case "f32":
      out.u32(T.f32);
      out.f32(v.value);
      return;
    case "bool":
      out.u32(T.bool);
      out.u8(v.value ? 1 : 0);
      return;
    case "string":
      out.u32(T.string);
      out.string(v.value);
      return;
    case "u32[]":
      out.u32(T.array);
      out.u32(T.u32);
      out.u64(v.value.length);
      v.value.forEach((x) => out.u32(x));
      return;
    case "i32[]":
      out.u32(T.array);
      out.u32(T.i32);
      out.u64(v.value.length);
      v.value.forEach((x) => out.i32(x));
      return;
    case "f32[]":
      out.u32(T.array);
      out.u32(T.f32);
      out.u64(v.value.length);
      v.value.forEach((x) => out.f32(x));
      return;
    case "bool[]":
      out.u32(T.array);
      out.u32(T.bool);
      out.u64(v.value.length);
      v.value.forEach((x) => out.u8(x ? 1 : 0));
      return;
    case "string[]":
      out.u32(T.array);
      out.u32(T.string);
      out.u64(v.value.length);
      v.value.forEach((x) => out.string(x));
      return;
  }
}

/** Writes the file and returns its size in bytes; only the header occupies disk. */
export function writeSparseGguf(
  path: string,
  metadata: Readonly<Record<string, GgufKvValue>>,
  tensors: readonly GgufTensorSpec[],
): number {
  const out = new Bytes();
  out.u32(0x46554747); // "GGUF" little-endian
  out.u32(3);
  out.u64(tensors.length);
  const kvs = Object.entries({ ...metadata, "general.alignment": u32(ALIGNMENT) });
  out.u64(kvs.length);
  for (const [key, value] of kvs) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const t of tensors) {
    out.string(t.name);
    out.u32(t.dims.length);
    t.dims.forEach((d) => out.u64(d));
    out.u32(t.type);
    out.u64(offset);
    offset = align(offset + tensorDataBytes(t));
  }
  out.zeros(align(out.length) - out.length);
  const header = out.buffer();
  const fd = openSync(path, "w");
  try {
    writeSync(fd, header);
    ftruncateSync(fd, header.length + offset);
  } finally {
    closeSync(fd);
  }
  return header.length + offset;
}
