/**
 * The shapes of issue 20 that reached the user as the parser's words
 * ("Maximum call stack size exceeded", "Converting circular structure to
 * JSON") or as 990,102 error lines: each is now one message about the
 * input, at once.
 */
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { MAX_ALIAS_VALUES, MAX_DEPTH, MAX_YAML_TOKENS } from "../../src/cluster/structure.ts";
import { validateCluster } from "../../src/cluster/validate.ts";

/** The 42 KB YAML: one anchored list of 900 device groups, used by 99 nodes (under yaml's 100-alias limit). */
function anchorReused(uses: number): string {
  const devices = "  - {class: h100-80g, count: 9, free: 1}\n".repeat(900);
  const nodes = Array.from({ length: uses }, (_, i) => `  - id: n${i}\n    host_mem_gib: 64\n    devices: *d\n`).join(
    "",
  );
  return `x: &d\n${devices}nodes:\n${nodes}`;
}

const PARSER_WORDS = /call stack|circular|resource exhaustion|ReferenceError|RangeError|could not read this text/i;

describe("documents refused in words about the document", () => {
  test.each([
    [
      "a 42 KB YAML whose anchor 99 nodes reuse",
      anchorReused(99),
      /aliases \(\*name\) repeat more than 100,000 values/,
    ],
    [
      "an alias inside the value it names",
      "nodes: &a\n  - id: x\n    host_mem_gib: 1\n    devices: *a\n",
      /the alias \*a is used inside the value it names/,
    ],
    [
      "an anchor used 101 times",
      `d: &d {class: h100-80g, count: 1, free: 1}\nnodes:\n  - id: a\n    host_mem_gib: 64\n    devices: [${Array(101).fill("*d").join(", ")}]\n`,
      /&d is used more than 100 times/,
    ],
    [
      "JSON lists nested 100,000 deep",
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      /nests more than 64 levels deep/,
    ],
    [
      "JSON maps nested 100,000 deep",
      `{"nodes":${'{"a":'.repeat(100_000)}1${"}".repeat(100_001)}`,
      /nests more than 64 levels deep/,
    ],
    [
      "YAML flow lists nested 100,000 deep",
      `nodes: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`,
      /nests more than 64 levels deep/,
    ],
    [
      "YAML block maps nested 2,000 deep",
      `nodes:\n${Array.from({ length: 2000 }, (_, i) => `${" ".repeat(i + 1)}a:`).join("\n")} 1\n`,
      /nests more than 64 levels deep/,
    ],
    [
      "a flow list of 200,000 aliases",
      `d: &d {class: h100-80g, count: 1, free: 1}\nnodes:\n  - id: a\n    host_mem_gib: 64\n    devices: [${Array(200_000).fill("*d").join(",")}]\n`,
      /more than 250,000 YAML items/,
    ],
    [
      "a node with 200,000 device groups",
      JSON.stringify({ nodes: [{ id: "a", host_mem_gib: 64, devices: Array.from({ length: 200_000 }, () => ({})) }] }),
      /Node 1 \(a\): 200,000 card groups; a node has at most 64/,
    ],
    [
      "12,000 nodes",
      JSON.stringify({ nodes: Array.from({ length: 12_000 }, (_, i) => ({ id: `n${i}`, host_mem_gib: 1 })) }),
      /lists 12,000 nodes; Modelplan plans at most 10,000/,
    ],
  ])("%s: one message, no parser words, under 3 s", (_, text, words) => {
    const started = performance.now();
    const result = importCluster(text);
    const ms = performance.now() - started;
    expect(result.cluster).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message).toMatch(words);
    expect(result.errors[0]?.message).not.toMatch(PARSER_WORDS);
    expect(ms).toBeLessThan(3000);
  });

  test("the bounds leave real files alone: 98 uses of an anchor in a hand-written file, 60 levels of nesting", () => {
    const nodes = Array.from({ length: 98 }, (_, i) => `  - id: n${i}\n    host_mem_gib: 64\n    devices: *dgx\n`).join(
      "",
    );
    const result = importCluster(`x: &dgx\n  - {class: h100-80g, count: 8, free: 8}\nnodes:\n${nodes}`);
    expect(result.errors).toEqual([]);
    expect(result.cluster?.nodes).toHaveLength(98);
    const deep = `{"nodes":[{"id":"a","host_mem_gib":1,"x":${"[".repeat(MAX_DEPTH - 4)}${"]".repeat(MAX_DEPTH - 4)}}]}`;
    expect(importCluster(deep).errors).toEqual([]);
    expect(MAX_ALIAS_VALUES).toBeGreaterThan(98 * 5);
    expect(MAX_YAML_TOKENS).toBeGreaterThan(40 * 1000);
  });
});

describe("one message a field, with a count of the rest", () => {
  test("2,000 nodes with free above total: one message naming the first, and 1,999 more", () => {
    const nodes = Array.from({ length: 2000 }, (_, i) => ({
      id: `n${i}`,
      host_mem_gib: 64,
      host_free_gib: 64,
      devices: [{ class: "h100-80g", count: 2, free: 3 }],
    }));
    const { errors } = validateCluster({ nodes });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ node: "n0", field: "devices[0].free" });
    expect(errors[0]?.message).toMatch(/\(and 1,999 more like it\)$/);
  });

  test("two different problems stay two messages", () => {
    const { errors } = validateCluster({
      nodes: [{ id: "a", host_mem_gib: 64, host_free_gib: 65, devices: [{ class: "h100-80g", count: 2, free: 3 }] }],
    });
    expect(errors.map((e) => e.field)).toEqual(["host_free_gib", "devices[0].free"]);
  });
});
