/**
 * Issue 17, defect 6: the terminal names only what the terminal has. With
 * the Hub unreachable it used to advise "settings" and "upload its
 * config.json" (the page's); when nothing fitted it said "--json lists
 * why"; and a node's command lines sat flush with its "# node" line.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { catalogEntries } from "../../scripts/lib/catalog.ts";
import { badResponseError, gatedError, networkError, notFoundError, tokenError } from "../../src/hub/errors.ts";
import { terminalHubMessage } from "../../scripts/lib/hubWords.ts";
import { commandLines } from "../../scripts/lib/report.ts";
import { main } from "../../scripts/plan.ts";
import { fakeHub, loadRecording, serveFakeHub } from "../hub/fakeHub.ts";

const work = mkdtempSync(join(tmpdir(), "modelplan-words-"));
const clusterOf = (name: string, nodes: unknown[]) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify({ nodes }));
  return path;
};
const dgx = (id: string) => ({
  id,
  fabric: "ib0",
  host_mem_gib: 2048,
  host_free_gib: 2000,
  devices: [{ class: "h100-80g", count: 8, free: 8 }],
});
const TWO_DGX = clusterOf("two.json", [dgx("dgx-0"), dgx("dgx-1")]);
const ONE_L4 = clusterOf("l4.json", [
  { id: "ws", fabric: "", host_mem_gib: 16, host_free_gib: 16, devices: [{ class: "l4-24g", count: 1, free: 1 }] },
]);
/** A closed port: the Hub cannot be reached, at once. */
const OFFLINE = { HF_ENDPOINT: "http://127.0.0.1:9", HF_TOKEN: "" };
/** Words for things only the page has. */
const PAGE_WORDS = /\bsettings\b(?! \(Access Tokens\))|upload|manual mode|\bpaste\b|catalog picker/i;

describe("the Hub unreachable, a model the catalog does not hold", () => {
  test("exit 1, one line naming a local download, HF_ENDPOINT and every bundled model by name", async () => {
    const { code, stderr, stdout } = await main(["Qwen/Qwen3-8B", "--cluster", TWO_DGX], OFFLINE);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/cannot reach the Hub at http:\/\/127\.0\.0\.1:9/);
    expect(stderr).toContain("hf download Qwen/Qwen3-8B --local-dir ./Qwen3-8B");
    expect(stderr).toContain("HF_ENDPOINT");
    for (const { repo } of catalogEntries()) expect(stderr).toContain(repo);
    expect(stderr).not.toMatch(PAGE_WORDS);
  });

  test("a bundled model is planned from the catalog, said on stderr", async () => {
    const { code, stderr } = await main(["deepseek-ai/DeepSeek-R1", "--cluster", TWO_DGX], OFFLINE);
    expect(code).toBe(0);
    expect(stderr).toMatch(/planned from the bundled catalog's snapshot of deepseek-ai\/DeepSeek-R1/);
  });
});

describe("every Hub failure in terminal words", () => {
  const hub = "https://huggingface.co";
  test.each([
    ["gated, no token", gatedError(hub, "meta-llama/Llama-3.1-8B-Instruct", 401, false), /set HF_TOKEN=hf_…/],
    ["gated, a token not granted", gatedError(hub, "meta-llama/Llama-3.1-8B-Instruct", 403, true), /accept the terms/],
    ["not found", notFoundError(hub, "nobody/x", 401, false), /set HF_TOKEN=hf_…/],
    ["a bad answer", badResponseError(hub, "an HTML page", 502), /HF_ENDPOINT/],
    ["offline", networkError(hub, "fetch failed"), /HF_ENDPOINT/],
    ["a malformed token", tokenError(), /hf_/],
  ])("%s", (_, err, words) => {
    const text = terminalHubMessage(err, hub, "meta-llama/Llama-3.1-8B-Instruct");
    expect(text).toMatch(words);
    expect(text).not.toMatch(PAGE_WORDS);
  });
});

describe("the summary", () => {
  const coder = loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct");
  const fake = fakeHub({ recordings: [coder] });
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await serveFakeHub(fake);
  });
  afterAll(async () => {
    await server.close();
  });

  test("nothing fits: each configuration turned down with its one-line reason, not '--json lists why'", async () => {
    const { code, stdout } = await main(["Qwen/Qwen2.5-Coder-32B-Instruct", "--cluster", ONE_L4], {
      HF_ENDPOINT: server.url,
    });
    expect(code).toBe(0);
    expect(stdout).not.toContain("--json lists why");
    const lines = stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("Why not? ("));
    expect(at).toBeGreaterThan(0);
    const reasons = lines.slice(at + 1);
    expect(reasons.length).toBeGreaterThan(0);
    // "vllm · original · 1 × l4-24g: …", as the page's Why not? lists them.
    for (const r of reasons) expect(r).toMatch(/^ {2}(vllm|sglang|llamacpp|freetoken) · .+ · .+: .+|^ {2}… \d/);
  });

  test("something fits: the refusals stay behind --json", async () => {
    const { stdout } = await main(["Qwen/Qwen2.5-Coder-32B-Instruct", "--cluster", TWO_DGX], {
      HF_ENDPOINT: server.url,
    });
    expect(stdout).toContain("--json lists why");
    expect(stdout).not.toContain("Why not?");
  });
});

describe("a multi-node option's commands", () => {
  test("each node's command lines sit one step in under its # node line", async () => {
    const { stdout } = await main(["deepseek-ai/DeepSeek-R1", "--cluster", TWO_DGX], OFFLINE);
    const lines = stdout.split("\n");
    const heads = lines.flatMap((l, i) => (/^ {6}# dgx-\d/.test(l) ? [i] : []));
    expect(heads).toHaveLength(2);
    for (const i of heads) expect(lines[i + 1]).toMatch(/^ {8}vllm serve deepseek-ai\/DeepSeek-R1 /);
  });

  test("a one-node command stays at the command's indent", () => {
    expect(commandLines(["vllm serve m --tensor-parallel-size 8"])).toEqual([
      "      vllm serve m --tensor-parallel-size 8",
    ]);
    expect(commandLines(["# a (head)\nray start --head\nvllm serve m"])).toEqual([
      "      # a (head)",
      "        ray start --head",
      "        vllm serve m",
    ]);
  });
});
