/**
 * The terminal cases of issue 20, run as a user runs them (tsx, from the
 * project's root): each ends in one line on stderr with exit 1 or 2, within
 * 30 s and under 300 MB of resident memory (GNU time's %M, the process's
 * peak RSS). Before: `--cluster /dev/zero` took 11 s and 694 MB, a FIFO
 * hung, a 42 KB YAML cost 27 s, 1.7 GB and 990,102 lines, and header text
 * retitled the terminal.
 */
import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GGUFValueType, serializeGgufMetadata, type GGUFTypedMetadata } from "@huggingface/gguf";
import { describe, expect, test } from "vitest";
import { DGX_CLUSTER } from "./dgxCluster.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "modelplan-terminal-"));
const MAX_SECONDS = 30;
const MAX_RSS_MB = 300;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  rssMb: number;
}

/** Runs a script under GNU time, which writes the child's peak RSS (KiB) to a file of its own. */
function run(script: "plan" | "cluster", args: string[], input?: string): Run {
  const rssFile = join(work, `rss-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const out = spawnSync(
    "/usr/bin/time",
    ["-f", "%M", "-o", rssFile, join(ROOT, "node_modules", ".bin", "tsx"), `scripts/${script}.ts`, ...args],
    {
      cwd: ROOT,
      encoding: "utf8",
      input: input ?? "",
      timeout: (MAX_SECONDS + 5) * 1000,
      // A closed port: no Hub answers, at once.
      env: { ...process.env, HF_ENDPOINT: "http://127.0.0.1:9", HF_TOKEN: "" },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    code: out.status,
    stdout: out.stdout,
    stderr: out.stderr,
    seconds,
    rssMb: Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)) / 1024,
  };
}

function file(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const fifo = join(work, "inventory.fifo");
execFileSync("mkfifo", [fifo]);

/** A local model directory whose GGUF header carries `architecture` (terminal escapes, or 9 MB of text) and these counts. */
function ggufDir(name: string, architecture: string, counts: Record<string, number> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const kv: Record<string, { value: unknown; type: GGUFValueType }> = {
    "general.architecture": { value: architecture, type: GGUFValueType.STRING },
  };
  for (const [key, value] of Object.entries(counts)) kv[key] = { value, type: GGUFValueType.UINT32 };
  const meta = {
    version: { value: 3, type: GGUFValueType.UINT32 },
    tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
    kv_count: { value: BigInt(Object.keys(kv).length), type: GGUFValueType.UINT64 },
    ...kv,
  } as GGUFTypedMetadata;
  writeFileSync(join(dir, "model.gguf"), serializeGgufMetadata(meta));
  return dir;
}

/** A local download: Qwen3-8B's real config.json (test/fixtures/configs) with one field changed, and one empty shard. */
function configDir(name: string, change: Record<string, unknown>): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const config = JSON.parse(
    readFileSync(join(ROOT, "test", "fixtures", "configs", "Qwen__Qwen3-8B.config.json"), "utf8"),
  ) as Record<string, unknown>;
  writeFileSync(join(dir, "config.json"), JSON.stringify({ ...config, ...change }));
  writeFileSync(join(dir, "model.safetensors"), "");
  return dir;
}

const cluster = file("cluster.json", JSON.stringify(DGX_CLUSTER));
const ESC = "\u001b";
const TITLE = `${ESC}]0;owned${"\u0007"}`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const anchor = `x: &d\n${"  - {class: h100-80g, count: 9, free: 1}\n".repeat(900)}nodes:\n${Array.from({ length: 99 }, (_, i) => `  - id: n${i}\n    host_mem_gib: 64\n    devices: *d\n`).join("")}`;

const CASES: [string, "plan" | "cluster", () => string[], RegExp][] = [
  ["npm run cluster /dev/zero", "cluster", () => ["/dev/zero"], /cannot read \/dev\/zero: it is a device, not a file/],
  ["npm run cluster <a FIFO>", "cluster", () => [fifo], /it is a named pipe \(FIFO\), not a file/],
  [
    "npm run plan --cluster /dev/zero",
    "plan",
    () => ["Qwen/Qwen3-8B", "--cluster", "/dev/zero"],
    /--cluster \/dev\/zero: it is a device, not a file/,
  ],
  [
    "npm run plan --cluster <a FIFO>",
    "plan",
    () => ["Qwen/Qwen3-8B", "--cluster", fifo],
    /it is a named pipe \(FIFO\), not a file/,
  ],
  ["a 6 MB inventory", "cluster", () => [file("big.txt", "x".repeat(6 * 2 ** 20))], /more than 5 MiB/],
  [
    "the 42 KB YAML whose anchor 99 nodes reuse",
    "cluster",
    () => [file("anchor.yaml", anchor)],
    /repeat more than 100,000 values/,
  ],
  [
    "a recursive alias",
    "cluster",
    () => [file("loop.yaml", "nodes: &a\n  - id: x\n    host_mem_gib: 1\n    devices: *a\n")],
    /the alias \*a is used inside the value it names/,
  ],
  [
    "JSON nested 100,000 deep",
    "plan",
    () => ["Qwen/Qwen3-8B", "--cluster", file("deep.json", `${"[".repeat(100_000)}${"]".repeat(100_000)}`)],
    /nests more than 64 levels deep/,
  ],
  [
    "a node with 200,000 device groups",
    "cluster",
    () => [
      file("wide.json", JSON.stringify({ nodes: [{ id: "a", host_mem_gib: 1, devices: Array(200_000).fill({}) }] })),
    ],
    /200,000 card groups; a node has at most 64/,
  ],
  [
    "the Hub unreachable, a model not bundled",
    "plan",
    () => ["Qwen/Qwen3-8B", "--cluster", cluster],
    /cannot reach the Hub/,
  ],
  [
    "a GGUF header with 9 MB of architecture",
    "plan",
    () => [ggufDir("huge-arch", "x".repeat(9 * 2 ** 20)), "--cluster", cluster],
    /./,
  ],
  [
    "a GGUF header whose architecture retitles and clears the terminal",
    "plan",
    () => [ggufDir("escape-arch", `llama${TITLE}${CLEAR}`), "--cluster", cluster],
    /./,
  ],
  [
    "a GGUF whose block_count is 2^32 − 1 (it aborted at 1.7 GB)",
    "plan",
    () => [
      ggufDir("huge-layers", "llama", {
        "llama.block_count": 2 ** 32 - 1,
        "llama.attention.head_count": 32,
        "llama.embedding_length": 4096,
      }),
      "--cluster",
      cluster,
    ],
    /llama\.block_count is 4,294,967,295: no real model has more than 1,024/,
  ],
  [
    "a config.json with num_hidden_layers 1e6 (it planned for 39 s)",
    "plan",
    () => [configDir("million-layers", { num_hidden_layers: 1e6 }), "--cluster", cluster],
    /num_hidden_layers is 1,000,000: no real model has more than 1,024/,
  ],
  [
    "a node id that retitles the terminal",
    "cluster",
    () => [file("escape.json", JSON.stringify({ nodes: [{ id: `a${TITLE}`, host_mem_gib: 1 }] }))],
    /control character/,
  ],
];

describe("issue 20's terminal cases: one line, exit 1 or 2, within 30 s and 300 MB", { timeout: 60_000 }, () => {
  test.each(CASES)("%s", (_, script, args, words) => {
    const r = run(script, args());
    expect([1, 2]).toContain(r.code);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(words);
    expect(r.stderr).not.toContain(ESC);
    expect(r.stderr).not.toContain("\u0000");
    expect(r.stderr.length).toBeLessThan(2100);
    expect(r.seconds).toBeLessThan(MAX_SECONDS);
    expect(r.rssMb).toBeLessThan(MAX_RSS_MB);
  });
});

describe("control characters in a cluster file", { timeout: 60_000 }, () => {
  test("a fabric with escapes in a cluster file is refused in plain words, with no escape printed", () => {
    // The fabric is free text; the cluster schema refuses control characters in it, so the file is refused, in plain words.
    const r = run("plan", [
      "Qwen/Qwen2.5-Coder-32B-Instruct",
      "--cluster",
      file(
        "fabric.json",
        JSON.stringify({
          nodes: [
            { id: "n", fabric: `ib0${CLEAR}`, host_mem_gib: 64, devices: [{ class: "h100-80g", count: 1, free: 1 }] },
          ],
        }),
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/fabric holds a control character/);
    expect(r.stderr).not.toContain(ESC);
  });
});
