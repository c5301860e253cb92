import { describe, expect, test } from "vitest";
import { HubError } from "../../src/hub/errors.ts";
import { readRepo, requestBudget } from "../../src/hub/read.ts";
import type { HubAccess } from "../../src/hub/read.ts";
import { fakeHub, ggufHeaderBytes, loadRecording } from "./fakeHub.ts";
import type { Fault } from "./fakeHub.ts";

const HUB = "https://hub.test";
const CODER = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
const LLAMA = loadRecording("meta-llama/Llama-3.1-8B-Instruct");
const R1_GGUF = loadRecording("unsloth/DeepSeek-R1-GGUF");
const LLAMA_GGUF = loadRecording("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF");
const NVFP4 = loadRecording("nvidia/Qwen3-235B-A22B-NVFP4");
const ALL = [CODER, LLAMA, R1_GGUF, LLAMA_GGUF, NVFP4];

function setup(fault: Fault = "none", token?: string) {
  const hub = fakeHub({ recordings: ALL, approvedToken: "hf_approved", fault });
  const access: HubAccess = { hubUrl: HUB, fetch: hub.fetch, ...(token ? { accessToken: token } : {}) };
  return { hub, access };
}

async function failure(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof HubError)) throw new Error(`expected a HubError, got ${String(err)}`);
  return err;
}

describe("a safetensors repo", () => {
  test("takes 2 requests: the info with sizes, then config.json at the pinned sha", async () => {
    const { hub, access } = setup();
    const snap = await readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, access);
    expect(hub.requests.map((r) => r.url)).toEqual([
      `${HUB}/api/models/Qwen/Qwen2.5-Coder-32B-Instruct/revision/main?blobs=true`,
      `${HUB}/Qwen/Qwen2.5-Coder-32B-Instruct/resolve/b47205940b83b5b484577359f71ee7b88472df67/config.json`,
    ]);
    expect(snap.sha).toBe("b47205940b83b5b484577359f71ee7b88472df67");
    // shared/fixtures/models: "Sum of 14 shard files = 65527841688 bytes" (LFS pointers at b472059).
    const shards = snap.files.filter((f) => f.path.endsWith(".safetensors"));
    expect(shards).toHaveLength(14);
    expect(shards.reduce((s, f) => s + f.sizeBytes, 0)).toBe(65_527_841_688);
    expect(snap.config?.num_key_value_heads).toBe(8);
    expect(snap.config?.num_hidden_layers).toBe(64);
    expect(snap.paramsTotal).toBe(32_763_876_352);
    expect(snap.ggufHeaders).toEqual({});
    expect(snap.extraJson).toBeUndefined();
    expect(requestBudget(snap.files.map((f) => f.path))).toEqual({
      info: 1,
      jsonFiles: ["config.json"],
      ggufHeaders: [],
    });
  });

  test("pinned to a sha, reads that sha", async () => {
    const { hub, access } = setup();
    const snap = await readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", "b47205940b83b5b484577359f71ee7b88472df67", access);
    expect(snap.sha).toBe("b47205940b83b5b484577359f71ee7b88472df67");
    expect(hub.requests[0]?.url).toContain("/revision/b47205940b83b5b484577359f71ee7b88472df67?blobs=true");
  });

  test("with hf_quant_config.json takes a 3rd request, and keeps it in extraJson", async () => {
    const { hub, access } = setup();
    const snap = await readRepo("nvidia/Qwen3-235B-A22B-NVFP4", null, access);
    expect(hub.requests).toHaveLength(3);
    const quant = snap.extraJson?.["hf_quant_config.json"] as {
      quantization: { quant_algo: string; group_size: number };
    };
    expect(quant.quantization.quant_algo).toBe("NVFP4");
    expect(quant.quantization.group_size).toBe(16);
  });
});

describe("a renamed repo", () => {
  test("answers under its new id after the Hub's redirect, and later reads use that id", async () => {
    const { hub } = setup();
    // The Hub answers an old id with 307 to the new one (bert-base-uncased → google-bert/…, hub-api.md §4); fetch follows it.
    const redirecting: typeof fetch = (input, init) =>
      hub.fetch(
        String(input).replace("/api/models/OldName/Coder-32B/", "/api/models/Qwen/Qwen2.5-Coder-32B-Instruct/"),
        init,
      );
    const snap = await readRepo("OldName/Coder-32B", null, { hubUrl: `${HUB}/`, fetch: redirecting });
    expect(snap.repo).toBe("Qwen/Qwen2.5-Coder-32B-Instruct");
    expect(hub.requests[1]?.url).toBe(
      `${HUB}/Qwen/Qwen2.5-Coder-32B-Instruct/resolve/b47205940b83b5b484577359f71ee7b88472df67/config.json`,
    );
  });
});

describe("a GGUF repo", () => {
  test("reads the info, config.json, and the header of the first part of each of its 13 split sets", async () => {
    const { hub, access } = setup();
    const snap = await readRepo("unsloth/DeepSeek-R1-GGUF", null, access);
    const headers = Object.keys(snap.ggufHeaders);
    // 13 quant folders (shared/fixtures/models/unsloth__DeepSeek-R1-GGUF.json quant_totals).
    expect(headers).toHaveLength(13);
    expect(headers.every((p) => /-00001-of-\d{5}\.gguf$/.test(p))).toBe(true);
    expect(headers).toContain("DeepSeek-R1-BF16/DeepSeek-R1.BF16-00001-of-00030.gguf");
    const IQ1 = "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf";
    const headerBytes = ggufHeaderBytes(R1_GGUF, IQ1).length;
    const ranged = hub.requests.filter((r) => r.range !== null);
    // Only as far as the header goes: no range starts past a header's end.
    for (const r of ranged) expect(Number(/bytes=(\d+)-/.exec(r.range ?? "")?.[1])).toBeLessThan(headerBytes);
    // The reader fetches 2 MB chunks, the next one when under 500 kB remain before a key:
    // the IQ1_S header (its vocabulary of 129,280 tokens) costs between ceil(bytes / 2 MB) and
    // ceil((bytes + 500 kB) / 2 MB) requests; the 12 headers with no recorded facts are tiny: 1 each.
    const iq1Reads = ranged.filter((r) => r.url.endsWith(IQ1)).length;
    expect(iq1Reads).toBeGreaterThanOrEqual(Math.ceil(headerBytes / 2_000_000));
    expect(iq1Reads).toBeLessThanOrEqual(Math.ceil((headerBytes + 500_000) / 2_000_000));
    expect(hub.requests).toHaveLength(1 + 1 + iq1Reads + 12);
    const iq1 = snap.ggufHeaders[IQ1];
    expect(iq1?.metadata["general.architecture"]).toBe("deepseek2");
    expect(iq1?.metadata["deepseek2.block_count"]).toBe(61);
    expect(iq1?.metadata["deepseek2.expert_count"]).toBe(256);
    expect(iq1?.metadata["tokenizer.ggml.tokens.count"]).toBe(129_280);
    expect(iq1?.metadata["tokenizer.ggml.tokens"]).toBeUndefined();
    expect(iq1?.tensorDataOffsetBytes).toBe(headerBytes);
    // JSON-safe: it survives a round trip unchanged (no bigint, no undefined).
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });

  test("reads its headers in parallel, 6 at a time (a browser's connections per host)", async () => {
    const hub = fakeHub({ recordings: ALL, latencyMs: 20 });
    await readRepo("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", null, { hubUrl: HUB, fetch: hub.fetch });
    expect(hub.inFlight.max).toBe(6);
  });

  test("of single files with no config takes the info plus one range per file", async () => {
    const { hub, access } = setup();
    const snap = await readRepo("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", null, access);
    expect(snap.config).toBeNull();
    expect(Object.keys(snap.ggufHeaders)).toHaveLength(8);
    expect(hub.requests).toHaveLength(1 + 8);
    expect(snap.files.find((f) => f.path === "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf")?.sizeBytes).toBe(4_920_739_232);
  });
});

describe("gated repos", () => {
  test("anonymously: 401 on config.json says the repo is gated and what to do", async () => {
    const { access } = setup();
    const err = await failure(readRepo("meta-llama/Llama-3.1-8B-Instruct", null, access));
    expect(err.kind).toBe("gated");
    expect(err.status).toBe(401);
    expect(err.message).toContain("this repo is gated: accept its terms on its Hub page, then paste a read token");
  });

  test("with a token not yet approved: 403 is gated too", async () => {
    const { access } = setup("none", "hf_notapproved");
    const err = await failure(readRepo("meta-llama/Llama-3.1-8B-Instruct", null, access));
    expect(err.kind).toBe("gated");
    expect(err.status).toBe(403);
  });

  test("with an approved token: reads it, the token only in the Authorization header", async () => {
    const { hub, access } = setup("none", "hf_approved");
    const snap = await readRepo("meta-llama/Llama-3.1-8B-Instruct", null, access);
    expect(snap.config?.model_type).toBe("llama");
    expect(hub.requests.every((r) => r.authorization === "Bearer hf_approved")).toBe(true);
    expect(hub.requests.some((r) => r.url.includes("hf_approved"))).toBe(false);
  });

  test("a revoked token: the Hub's 401 to an authenticated call says the token is refused", async () => {
    // The Hub answers a bad Bearer token with 401 "Invalid credentials in Authorization header" on every call.
    const refusing: typeof fetch = async () =>
      new Response(JSON.stringify({ error: "Invalid credentials in Authorization header" }), {
        status: 401,
        headers: {
          "content-type": "application/json",
          "x-error-message": "Invalid credentials in Authorization header",
        },
      });
    const err = await failure(
      readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, { hubUrl: HUB, fetch: refusing, accessToken: "hf_revoked" }),
    );
    expect(err.kind).toBe("token");
    expect(err.message).toContain("refused the read token");
    expect(err.message).not.toContain("hf_revoked");
  });

  test("a token that is not a token is refused before any request", async () => {
    const { hub, access } = setup("none", "my-password");
    const err = await failure(readRepo("meta-llama/Llama-3.1-8B-Instruct", null, access));
    expect(err.kind).toBe("token");
    expect(err.message).not.toContain("my-password");
    expect(hub.requests).toHaveLength(0);
  });
});

describe("every other failure has words and a way on", () => {
  test("an unknown repo, anonymously (the Hub answers 401, not 404)", async () => {
    const { access } = setup();
    const err = await failure(readRepo("nobody/no-such-model", null, access));
    expect(err.kind).toBe("not-found");
    expect(err.status).toBe(401);
    expect(err.message).toContain('no model "nobody/no-such-model"');
  });

  test("an unknown repo, with a token (404 RepoNotFound)", async () => {
    const { access } = setup("none", "hf_approved");
    const err = await failure(readRepo("nobody/no-such-model", null, access));
    expect(err.kind).toBe("not-found");
    expect(err.status).toBe(404);
  });

  test("a missing revision", async () => {
    const { access } = setup();
    const err = await failure(readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", "v9", access));
    expect(err.kind).toBe("revision");
    expect(err.message).toContain('no revision "v9"');
  });

  test("429 says to wait and retry", async () => {
    const { access } = setup("rate-limit");
    const err = await failure(readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, access));
    expect(err.kind).toBe("rate-limit");
    expect(err.message).toMatch(/wait .* retry/);
  });

  test("no network says so and offers the catalog and manual mode", async () => {
    const { access } = setup("offline");
    const err = await failure(readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, access));
    expect(err.kind).toBe("network");
    expect(err.message).toContain("bundled catalog");
    expect(err.message).toContain("manual mode");
  });

  test("a Hub address that answers a web page", async () => {
    const page: typeof fetch = async () =>
      new Response("<!DOCTYPE html><html></html>", { status: 200, headers: { "content-type": "text/html" } });
    const err = await failure(readRepo("Qwen/Qwen2.5-Coder-32B-Instruct", null, { hubUrl: HUB, fetch: page }));
    expect(err.kind).toBe("bad-response");
    expect(err.message).toContain("not JSON");
  });
});

describe("the guarded GGUF reader", () => {
  test("an HTML answer is gguf-html", async () => {
    const { access } = setup("html");
    expect((await failure(readRepo("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", null, access))).kind).toBe("gguf-html");
  });

  test("a 200 that ignores Range is gguf-range, and the body is not drained", async () => {
    const { hub, access } = setup("ignore-range");
    const err = await failure(readRepo("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", null, access));
    expect(err.kind).toBe("gguf-range");
    expect(err.message).toContain("instead of the byte range");
    expect(hub.pulled.bytes).toBeLessThan(10 * 2 ** 20);
  });

  test("a short 206 is gguf-truncated", async () => {
    const { access } = setup("short-206");
    const err = await failure(readRepo("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", null, access));
    expect(err.kind).toBe("gguf-truncated");
    expect(err.message).toContain("sent 1000 of");
  });

  test("a file that ends inside its header is gguf-truncated", async () => {
    const { access } = setup("ends-in-header");
    const err = await failure(readRepo("unsloth/DeepSeek-R1-GGUF", null, access));
    expect(err.kind).toBe("gguf-truncated");
    expect(err.message).not.toContain("not a valid gguf");
  });
});
