/**
 * Inventories as a paste damages them, for the importer's fuzz runs: the
 * real samples of test/fixtures/inventory/ (and hand-made CSV and Modelplan
 * files), cut, spliced, with noise where numbers go, lines swapped or
 * repeated, and the structural attacks of issue 20 (deep nesting, YAML
 * anchors reused, recursive aliases, a list grown to 200,000 items).
 * Used by test/cluster/property.test.ts, test/cluster/fuzz.test.ts and
 * scripts/fuzz-inventories.ts.
 */
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { clusterToJson } from "../../src/cluster/json.ts";
import { PRESETS } from "../../src/cluster/presets.ts";

const FIXTURES = new URL("../../test/fixtures/inventory/", import.meta.url);

/** A sample as a user pastes it: line 1 of the fixture is its source, the rest is verbatim. */
function sample(name: string): string {
  const text = readFileSync(new URL(name, FIXTURES), "utf8");
  return text.slice(text.indexOf("\n") + 1);
}

const SAMPLE_FILES = readdirSync(FIXTURES).filter((f) => f.endsWith(".txt"));

/** Hand-made samples for the formats with no sample file. */
const EXTRA: Record<string, string[]> = {
  csv: [
    "id,fabric,host_mem_gib,host_free_gib,class,count,free,mem_gib\ndgx-1,ib0,2048,2000,h100-80g,8,8,\ncpu,,512,500,,,,\nbox,,64,64,my-card,2,1,20\n",
  ],
  modelplan: [
    ...PRESETS.map((p) => clusterToJson(p.cluster)),
    "nodes:\n  - id: a\n    fabric: ib0\n    host_mem_gib: 512\n    host_free_gib: 500\n    devices:\n      - class: h100-80g\n        count: 8\n        free: 8\n",
  ],
};

const PREFIXES: Record<string, string[]> = {
  "nvidia-smi": ["nvidia-smi-"],
  kubernetes: ["k8s-"],
  slurm: ["scontrol-", "slurm-"],
  "rocm-smi": ["rocm-smi-"],
  "ray status": ["ray-"],
};

/** The samples of one reader's format (a READERS format name, or "modelplan"). */
export function samplesFor(format: string): string[] {
  return [
    ...SAMPLE_FILES.filter((f) => (PREFIXES[format] ?? []).some((p) => f.startsWith(p))).map(sample),
    ...(EXTRA[format] ?? []),
  ];
}

/** Every sample of every format. */
export function allSamples(): string[] {
  return [...SAMPLE_FILES.map(sample), ...Object.values(EXTRA).flat()];
}

/** Tokens people and tools put where numbers and names go. */
export const NOISE = [
  "",
  "-1",
  "0",
  "2.5",
  "1e999",
  "NaN",
  "ERR!",
  "N/A",
  "[N/A]",
  "99999999999999999999",
  "MiB",
  "…",
  "\t",
  "\u0000",
  '"',
  "{",
  "]",
  "=",
  ":",
  ",",
  "\n",
  "GPU 0:",
  "|",
  "MIG 1g.10gb",
  "nvidia.com/gpu: 8",
  "NodeName=x",
  "Gres=gpu:h100:8",
  "\u001b]0;x\u0007",
  "&a",
  "*a",
  "<<: *a",
];

/** One edit of a text: the kind of damage a paste suffers. */
export function mutation(text: string): fc.Arbitrary<string> {
  const n = text.length;
  const at = fc.integer({ min: 0, max: n });
  const lines = text.split("\n");
  const line = fc.integer({ min: 0, max: Math.max(0, lines.length - 1) });
  return fc.oneof(
    at.map((i) => text.slice(0, i)),
    fc.tuple(at, at).map(([a, b]) => text.slice(0, Math.min(a, b)) + text.slice(Math.max(a, b))),
    fc
      .tuple(at, fc.oneof(fc.constantFrom(...NOISE), fc.string({ maxLength: 12 })))
      .map(([i, s]) => text.slice(0, i) + s + text.slice(i)),
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
    fc
      .tuple(line, fc.constantFrom(...NOISE))
      .map(([a, token]) => lines.map((l, i) => (i === a ? l.replace(/\d+(\.\d+)?/g, token) : l)).join("\n")),
  );
}

/** Issue 20's shapes, grown from a sample: nested, aliased, or repeated past every bound. */
export function attack(text: string): fc.Arbitrary<string> {
  const lines = text.split("\n");
  const line = fc.integer({ min: 0, max: Math.max(0, lines.length - 1) });
  return fc.oneof(
    // Nested: in brackets (JSON) or indentation (YAML), up to 100,000 deep.
    fc
      .integer({ min: 1, max: 100_000 })
      .map((depth) => `${"[".repeat(depth)}${text.length > 2000 ? "1" : JSON.stringify(text)}${"]".repeat(depth)}`),
    fc
      .integer({ min: 1, max: 3000 })
      .map((depth) => `nodes:\n${Array.from({ length: depth }, (_, i) => `${" ".repeat(i + 2)}a:`).join("\n")} 1\n`),
    // One anchor on a line, aliased from up to 300 later lines.
    fc.tuple(line, fc.integer({ min: 1, max: 300 })).map(([a, uses]) => {
      const copy = [...lines];
      copy[a] = `${copy[a] ?? ""} &a`;
      return [...copy, ...Array.from({ length: uses }, () => "  - *a")].join("\n");
    }),
    // An alias inside its own anchor.
    fc.constant(`nodes: &a\n  - id: x\n    host_mem_gib: 1\n    devices: *a\n`),
    // One line repeated up to 200,000 times (within the 5 MiB paste limit).
    fc.tuple(line, fc.integer({ min: 1000, max: 200_000 })).map(([a, times]) => {
      const one = lines[a] ?? "";
      const repeated = `${one}\n`.repeat(Math.min(times, Math.floor((5 * 2 ** 20) / (one.length + 1))));
      return [...lines.slice(0, a), repeated, ...lines.slice(a)].join("\n");
    }),
  );
}

/** One to three damaging edits of a sample. */
export function mutated(texts: string[]): fc.Arbitrary<string> {
  return fc
    .constantFrom(...texts)
    .chain((t) =>
      fc
        .array(fc.constant(null), { minLength: 1, maxLength: 3 })
        .chain((edits) => edits.reduce<fc.Arbitrary<string>>((acc) => acc.chain(mutation), fc.constant(t))),
    );
}

/** A damaged sample, or one of issue 20's shapes grown from one (one case in eight). */
export function hostile(texts: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: mutated(texts), weight: 7 },
    { arbitrary: fc.constantFrom(...texts).chain(attack), weight: 1 },
  );
}

/**
 * Words of the runtime or a parser, never of Modelplan: a message with one
 * of these is an internal message (a reader threw, or passed a parser's
 * text through).
 */
export const INTERNAL_WORDS =
  /could not read this text|call stack|circular structure|resource exhaustion|ReferenceError|RangeError|TypeError|Cannot read propert|is not a function|is not iterable|\bundefined\b|\[object Object\]|\bNaN\b/;

/** Whether a message is internal: its own words, not the input it quotes ("NaN" is not a number), hold INTERNAL_WORDS. */
export function isInternal(message: string): boolean {
  // A quote cut by the message's length bound runs to the end.
  return INTERNAL_WORDS.test(message.replace(/"(?:[^"\\]|\\.)*(?:"|$)/g, '""'));
}
