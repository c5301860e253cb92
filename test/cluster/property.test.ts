/**
 * Property tests (issue 4, Trust): 10,000 random and mutated inputs per
 * importer. None throws, and each returns a cluster or errors, never both or
 * neither; a cluster returned passes validation and survives a JSON round trip.
 * Mutations start from the real samples, so they reach deep into each reader.
 */
import fc from "fast-check";
import { readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";
import { READERS } from "../../src/cluster/readers.ts";
import { validateCluster } from "../../src/cluster/validate.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { sample } from "./inventory.ts";

const RUNS = 10_000;
const SAMPLES = readdirSync(new URL("../fixtures/inventory/", import.meta.url)).filter((f) => f.endsWith(".txt"));

/** Real samples per reader, plus hand-made ones for the formats with no sample file. */
const EXTRA: Record<string, string[]> = {
  csv: ["id,fabric,host_mem_gib,host_free_gib,class,count,free,mem_gib\ndgx-1,ib0,2048,2000,h100-80g,8,8,\ncpu,,512,500,,,,\nbox,,64,64,my-card,2,1,20\n"],
  modelplan: PRESETS.map((p) => clusterToJson(p.cluster)),
};

function samplesFor(format: string): string[] {
  const prefix: Record<string, string[]> = {
    "nvidia-smi": ["nvidia-smi-"],
    kubernetes: ["k8s-"],
    slurm: ["scontrol-", "slurm-"],
    "rocm-smi": ["rocm-smi-"],
    "ray status": ["ray-"],
  };
  return [...SAMPLES.filter((f) => (prefix[format] ?? []).some((p) => f.startsWith(p))).map(sample), ...(EXTRA[format] ?? [])];
}

/** Tokens people and tools put where numbers and names go. */
const NOISE = ["", "-1", "0", "2.5", "1e999", "NaN", "ERR!", "N/A", "[N/A]", "99999999999999999999", "MiB", "…", "\t", "\u0000", '"', "{", "]", "=", ":", ",", "\n", "GPU 0:", "|", "MIG 1g.10gb", "nvidia.com/gpu: 8", "NodeName=x", "Gres=gpu:h100:8"];

/** One edit of a text: the kind of damage a paste suffers. */
function mutation(text: string): fc.Arbitrary<string> {
  const n = text.length;
  const at = fc.integer({ min: 0, max: n });
  const lines = text.split("\n");
  const line = fc.integer({ min: 0, max: Math.max(0, lines.length - 1) });
  return fc.oneof(
    at.map((i) => text.slice(0, i)),
    fc.tuple(at, at).map(([a, b]) => text.slice(0, Math.min(a, b)) + text.slice(Math.max(a, b))),
    fc.tuple(at, fc.oneof(fc.constantFrom(...NOISE), fc.string({ maxLength: 12 }))).map(([i, s]) => text.slice(0, i) + s + text.slice(i)),
    fc.tuple(line, line).map(([a, b]) => {
      const copy = [...lines];
      [copy[a], copy[b]] = [copy[b] ?? "", copy[a] ?? ""];
      return copy.join("\n");
    }),
    fc.tuple(line, fc.integer({ min: 1, max: 40 })).map(([a, times]) => {
      const copy = [...lines];
      copy.splice(a, 0, ...Array.from({ length: times }, () => lines[a] ?? ""));
      return copy.join("\n");
    }),
    fc.tuple(line, fc.constantFrom(...NOISE)).map(([a, token]) => lines.map((l, i) => (i === a ? l.replace(/\d+(\.\d+)?/g, token) : l)).join("\n")),
  );
}

function mutated(texts: string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...texts).chain((t) => fc.array(fc.constant(null), { minLength: 1, maxLength: 3 }).chain((edits) => edits.reduce<fc.Arbitrary<string>>((acc) => acc.chain(mutation), fc.constant(t))));
}

/** importCluster turns a reader's exception into this message: seeing it means a reader threw. */
const THREW = /^could not read this text:/;

function checkResult(text: string): void {
  const result = importCluster(text);
  expect(typeof result.summary).toBe("string");
  for (const e of result.errors) expect(e.message).not.toMatch(THREW);
  if (result.cluster) {
    expect(result.errors).toEqual([]);
    expect(validateCluster(result.cluster).errors).toEqual([]);
    expect(validateCluster(JSON.parse(clusterToJson(result.cluster))).cluster).toEqual(result.cluster);
  } else {
    expect(result.errors.length).toBeGreaterThan(0);
    for (const e of result.errors) expect(e.message.length).toBeGreaterThan(0);
  }
}

describe.each(READERS.map((r) => r.format).concat("modelplan"))("%s importer", { timeout: 300_000 }, (format) => {
  const texts = samplesFor(format);

  test(`${RUNS} mutated samples: none throws, each gives a cluster or errors`, () => {
    expect(texts.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(mutated(texts), checkResult),
      { numRuns: RUNS },
    );
  });
});

describe("any text at all", { timeout: 300_000 }, () => {
  test(`${RUNS} random strings`, () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: "binary", maxLength: 200 }), fc.array(fc.constantFrom(...NOISE), { maxLength: 60 }).map((t) => t.join(" "))), checkResult), { numRuns: RUNS });
  });

  test(`${RUNS} random values through validateCluster`, () => {
    const nodeLike = fc.record(
      {
        id: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
        fabric: fc.oneof(fc.string(), fc.constant(null)),
        host_mem_gib: fc.oneof(fc.double(), fc.integer(), fc.string()),
        host_free_gib: fc.oneof(fc.double(), fc.integer()),
        devices: fc.oneof(
          fc.array(fc.record({ class: fc.oneof(fc.constantFrom("h100-80g", "a100-80g-mig-3g.40gb", "x"), fc.string()), count: fc.oneof(fc.integer(), fc.double()), free: fc.oneof(fc.integer(), fc.double()), mem_gib: fc.oneof(fc.double(), fc.constant(undefined)) }, { requiredKeys: [] })),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ nodes: fc.array(nodeLike, { maxLength: 5 }) })), (value) => {
        const { cluster, errors } = validateCluster(value);
        expect(cluster === null).toBe(errors.length > 0);
        if (cluster) expect(validateCluster(cluster).errors).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
