/**
 * Issue 19: a GGUF repo plans in seconds. The header parse steps over the
 * vocabulary (src/hub/ggufParse.ts) and gives what @huggingface/gguf's parse
 * gives after headerFromParse; readRepo hands a snapshot to plan from once
 * the first header is in, and refines it as the others arrive.
 */
import { GGUFValueType, gguf, serializeGgufMetadata } from "@huggingface/gguf";
import type { GGUFTypedMetadata } from "@huggingface/gguf";
import { describe, expect, test } from "vitest";
import { headerFromParse } from "../../src/hub/gguf.ts";
import { parseGgufHeader } from "../../src/hub/ggufParse.ts";
import { readRepo, type ReadProgress } from "../../src/hub/read.ts";
import { ggmlTypeBytes, readModel } from "../../src/plan/index.ts";
import { fakeHub, ggufHeaderBytes, loadRecording } from "./fakeHub.ts";

const HUB = "https://hub.test";
// 10 quants of one model, a vocabulary of 152,064 tokens (Qwen2.5's config.json vocab_size).
const QWEN = loadRecording("bartowski/Qwen2.5-14B-Instruct-GGUF");
const Q8_0 = "Qwen2.5-14B-Instruct-Q8_0.gguf";
/**
 * A real Q8_0's header: its file size (15,701,598,336, the Hub's listing at 7cfec38) less its tensors' bytes
 * (338 Q8_0 matrices, 241 F32 vectors), as five other quants' sizes give too (scripts/lib/qwen25GgufHeader.ts).
 */
const REAL_HEADER_BYTES = 5_968_000;
const R1 = loadRecording("unsloth/DeepSeek-R1-GGUF");

/** The library's own parse of whole bytes, served as one 206 answer. */
async function libraryHeader(bytes: Uint8Array) {
  const fetch206: typeof fetch = (_input, init) => {
    const m = /bytes=(\d+)-(\d+)/.exec(new Headers(init?.headers).get("range") ?? "");
    const start = Number(m?.[1] ?? 0);
    const end = Math.min(Number(m?.[2] ?? 0), bytes.length - 1);
    const body = new Uint8Array(Number(m?.[2] ?? 0) - start + 1);
    body.set(bytes.subarray(start, end + 1));
    return Promise.resolve(
      new Response(body, { status: 206, headers: { "content-range": `bytes ${start}-${end}/${bytes.length}` } }),
    );
  };
  return headerFromParse(await gguf("https://hub.test/x.gguf", { fetch: fetch206 }));
}

/** A header with long float arrays, a nested array, big and non-finite numbers, and two tensor infos after the keys. */
function headerWithTensors(): Uint8Array {
  const meta = {
    version: { value: 3, type: GGUFValueType.UINT32 },
    tensor_count: { value: 2n, type: GGUFValueType.UINT64 },
    kv_count: { value: 6n, type: GGUFValueType.UINT64 },
    "general.architecture": { value: "llama", type: GGUFValueType.STRING },
    "llama.block_count": { value: 32, type: GGUFValueType.UINT32 },
    "tokenizer.ggml.scores": {
      value: Array.from({ length: 5000 }, (_, i) => i / 7),
      type: GGUFValueType.ARRAY,
      subType: GGUFValueType.FLOAT32,
    },
    "llama.attention.head_count_kv": { value: [8, 8, 4, 4], type: GGUFValueType.ARRAY, subType: GGUFValueType.INT32 },
    "general.size": { value: 123456789012n, type: GGUFValueType.UINT64 },
    "general.nan": { value: Number.NaN, type: GGUFValueType.FLOAT64 },
  } as unknown as GGUFTypedMetadata;
  const keys = serializeGgufMetadata(meta, { alignment: 1 });
  const enc = new TextEncoder();
  const parts: number[] = [];
  const u32 = (v: number) => parts.push(v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255);
  const u64 = (v: number) => {
    u32(v % 2 ** 32);
    u32(Math.floor(v / 2 ** 32));
  };
  for (const [name, shape, type] of [
    ["token_embd.weight", [5120, 152064], 12],
    ["blk.0.attn_q.weight", [5120, 5120], 8],
  ] as const) {
    const b = enc.encode(name);
    u64(b.length);
    parts.push(...b);
    u32(shape.length);
    for (const d of shape) u64(d);
    u32(type);
    u64(0);
  }
  const out = new Uint8Array(keys.length + parts.length);
  out.set(keys);
  out.set(parts, keys.length);
  return out;
}

describe("the header parse", () => {
  test.each([
    ["Qwen2.5-14B Q8_0 (152,064 tokens)", ggufHeaderBytes(QWEN, "Qwen2.5-14B-Instruct-Q8_0.gguf")],
    [
      "DeepSeek-R1 IQ1_S (129,280 tokens)",
      ggufHeaderBytes(R1, "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf"),
    ],
    ["long arrays, big numbers and tensor infos", headerWithTensors()],
  ])("of %s equals @huggingface/gguf's parse kept by headerFromParse", async (_name, bytes) => {
    const ours = parseGgufHeader(bytes);
    expect(ours.kind).toBe("header");
    expect(ours.kind === "header" ? ours.header : null).toEqual(await libraryHeader(bytes));
  });

  test("asks for more bytes, never past what the header needs, when given a part of it", () => {
    const bytes = ggufHeaderBytes(QWEN, Q8_0);
    const part = parseGgufHeader(bytes.subarray(0, 1_000_000));
    expect(part.kind).toBe("more");
    expect(part.kind === "more" ? part.needBytes : 0).toBeGreaterThan(1_000_000);
    expect(part.kind === "more" ? part.needBytes : Infinity).toBeLessThanOrEqual(bytes.length);
  });

  test("is as big as a real file's: tokens, token types, merges and 579 tensor infos", () => {
    const bytes = ggufHeaderBytes(QWEN, Q8_0);
    // The 32-byte alignment aside, exact: the recording is built to a real file's size, not to the reader.
    expect(bytes.length).toBe(REAL_HEADER_BYTES);
    const parsed = parseGgufHeader(bytes);
    if (parsed.kind !== "header") throw new Error("the whole header did not parse");
    // ollama/ollama#8588's load log of qwen2.5:14b: n_vocab 152064, n_merges 151387, 579 tensors.
    expect(parsed.header.metadata["tokenizer.ggml.tokens.count"]).toBe(152_064);
    expect(parsed.header.metadata["tokenizer.ggml.token_type.count"]).toBe(152_064);
    expect(parsed.header.metadata["tokenizer.ggml.merges.count"]).toBe(151_387);
    expect(parsed.header.tensors).toHaveLength(579);
  });

  test.each(["Q8_0", "Q6_K_L", "Q5_K_L", "Q5_K_M", "Q4_K_L", "Q4_K_M"])(
    "of %s, with its tensors' bytes, is the file's listed size to the byte",
    (quant) => {
      const path = `Qwen2.5-14B-Instruct-${quant}.gguf`;
      const parsed = parseGgufHeader(ggufHeaderBytes(QWEN, path));
      if (parsed.kind !== "header") throw new Error("the whole header did not parse");
      // Each tensor's size is a multiple of 32 bytes here, so no alignment padding lies between them.
      const data = (parsed.header.tensors ?? []).reduce(
        (sum, t) =>
          sum +
          ggmlTypeBytes(
            t.type,
            t.shape.reduce((a, b) => a * b, 1),
          ),
        0,
      );
      const listed = QWEN.info.siblings.find((f) => f.rfilename === path)?.size;
      expect(parsed.header.tensorDataOffsetBytes + data).toBe(listed);
    },
  );

  test("after the first 2 MB, says where the header ends from the lengths it read: one request fetches the rest", () => {
    const part = parseGgufHeader(ggufHeaderBytes(QWEN, Q8_0).subarray(0, 2_000_000));
    if (part.kind !== "more") throw new Error("2 MB held the whole header");
    // Never short of the end (a short guess costs a third request), at most 5 % past it (bytes read for nothing).
    expect(part.estimateBytes).toBeGreaterThanOrEqual(REAL_HEADER_BYTES);
    expect(part.estimateBytes).toBeLessThanOrEqual(REAL_HEADER_BYTES * 1.05);
  });

  test("refuses a file that is not GGUF, and absurd counts before any loop runs", () => {
    expect(() => parseGgufHeader(new TextEncoder().encode("<!DOCTYPE html><html>"))).toThrow(/magic number/);
    const bytes = ggufHeaderBytes(QWEN, "Qwen2.5-14B-Instruct-Q8_0.gguf").slice(0, 64);
    new DataView(bytes.buffer).setBigUint64(16, 2n ** 40n, true); // kv_count
    expect(() => parseGgufHeader(bytes)).toThrow(/key count of 1099511627776/);
  });
});

describe("a 10-quant GGUF repo of a 152k vocabulary", () => {
  test("gives its first plan after one header read, ≤ 2 header requests and ≤ 8 MB, then refines it header by header to all 10", async () => {
    const hub = fakeHub({ recordings: [QWEN], latencyMs: 5 });
    const seen: ReadProgress[] = [];
    const ranged = () => hub.requests.filter((r) => r.range !== null);
    const at: {
      first: {
        requests: number;
        rangeRequests: number;
        filesRead: number;
        bytes: number;
        artifacts: number;
        headers: number;
      } | null;
    } = { first: null };
    const snap = await readRepo("bartowski/Qwen2.5-14B-Instruct-GGUF", null, { hubUrl: HUB, fetch: hub.fetch }, (p) => {
      seen.push(p);
      if (p.snapshot && !at.first) {
        const { artifacts } = readModel(p.snapshot);
        at.first = {
          requests: hub.requests.length,
          rangeRequests: ranged().length,
          // Header reads begun: the files any range request went to.
          filesRead: new Set(ranged().map((r) => r.url)).size,
          bytes: p.bytesRead,
          artifacts: artifacts.length,
          headers: p.headersRead,
        };
      }
    });
    const headerBytes = ggufHeaderBytes(QWEN, Q8_0).length;
    const perFileMap = new Map<string, number>();
    for (const r of ranged()) perFileMap.set(r.url, (perFileMap.get(r.url) ?? 0) + 1);
    const perFile = [...perFileMap.values()];
    console.log(
      `first plan: ${JSON.stringify(at.first)}; whole read: ${hub.requests.length} requests (range requests per file ${perFile.join(",")}), ${seen.at(-1)?.bytesRead} bytes (header ${headerBytes} bytes)`,
    );
    const first = at.first;
    if (!first) throw new Error("no snapshot came before the read ended");
    // Issue 19: the first plan after ≤ 2 header reads and ≤ 8 MB.
    expect(first.headers).toBe(1);
    expect(first.filesRead).toBeLessThanOrEqual(2);
    expect(first.bytes).toBeLessThanOrEqual(8e6);
    // The info call, then the first header: a 2 MB chunk, and the rest in one request sized from its arrays.
    expect(first.rangeRequests).toBeLessThanOrEqual(2);
    expect(first.requests).toBe(1 + first.rangeRequests);
    // Every quant is planned from the first header, by its listed size.
    expect(first.artifacts).toBe(10);
    expect(seen.at(-1)?.headersRead).toBe(10);
    expect(Object.keys(snap.ggufHeaders)).toHaveLength(10);
    // And refines it as the headers arrive: a snapshot with each of 1 to 9 headers in, every quant planned in each.
    const early = seen.flatMap((p) => (p.snapshot ? [p.snapshot] : []));
    expect(early.map((s) => Object.keys(s.ggufHeaders).length)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const s of early) expect(readModel(s).artifacts).toHaveLength(10);
    // Each header in 2 requests, and its bytes and at most 5 % more: each read stops near its header's end.
    expect(perFile).toEqual(new Array<number>(10).fill(2));
    expect(seen.at(-1)?.bytesRead).toBeLessThanOrEqual(10 * headerBytes * 1.05);
  });
});
