/**
 * Modelplan's own cluster file: the JSON `npm run plan --cluster` takes and
 * the page exports, snake_case on the wire. The same text read as YAML (a
 * superset of JSON) so hand-written YAML works too, and so every value keeps
 * its position: a bad count is reported at its line.
 */
import { LineCounter } from "yaml";
import type { Cluster } from "../plan/index.ts";
import { note, type ImportMessage } from "./messages.ts";
import {
  composeYaml,
  jsonProblem,
  MAX_ALIAS_COUNT,
  MAX_YAML_ERRORS,
  parserProblem,
  yamlProblem,
  yamlSizeProblem,
} from "./structure.ts";
import { validateCluster } from "./validate.ts";

/** Modelplan JSON, pretty, with `mem_gib` only where a class needs it. */
export function clusterToJson(cluster: Cluster): string {
  const nodes = cluster.nodes.map((n) => ({
    id: n.id,
    fabric: n.fabric,
    host_mem_gib: n.hostMemGib,
    host_free_gib: n.hostFreeGib,
    ...(n.fabricGbps !== undefined ? { fabric_gbps: n.fabricGbps } : {}),
    ...(n.hostMemGBps !== undefined ? { host_mem_gbps: n.hostMemGBps } : {}),
    ...(n.cpuCores !== undefined ? { cpu_cores: n.cpuCores } : {}),
    devices: n.devices.map((d) => ({
      class: d.class,
      count: d.count,
      free: d.free,
      ...(d.memGib !== undefined ? { mem_gib: d.memGib } : {}),
      ...(d.freeMemGib !== undefined ? { free_mem_gib: d.freeMemGib } : {}),
      ...(d.freeIndices !== undefined ? { free_indices: d.freeIndices } : {}),
      ...(d.gpuProduct !== undefined ? { gpu_product: d.gpuProduct } : {}),
      ...(d.gresType !== undefined ? { gres_type: d.gresType } : {}),
      ...(d.memGBps !== undefined ? { mem_gbps: d.memGBps } : {}),
      ...(d.bf16Tflops !== undefined ? { bf16_tflops: d.bf16Tflops } : {}),
      ...(d.memKind !== undefined ? { mem_kind: d.memKind } : {}),
    })),
  }));
  return `${JSON.stringify({ nodes }, null, 2)}\n`;
}

export interface ParsedText {
  /** The document's value, or undefined when the text is not JSON/YAML at all. */
  value: unknown;
  errors: ImportMessage[];
  /** Line of a path in the text (1-based), when it is there. */
  lineOf: (path: (string | number)[]) => number | undefined;
  /** A bound of structure.ts refused it (too deep, an alias bomb): no reader should try it as anything else. */
  refused: boolean;
}

/**
 * Parses JSON or YAML text, never throwing. JSON goes through JSON.parse (an
 * order of magnitude faster than the YAML parser); the YAML document, which
 * knows every value's position, is built only when a line is asked for, or
 * when the text is not JSON.
 */
/** The YAML parser's limit: past it only strict JSON is read (src/cluster/import.ts MAX_IMPORT_CHARS). */
const MAX_YAML_CHARS = 5 * 1024 * 1024;

export function parseStructured(text: string): ParsedText {
  let positions: (ReturnType<typeof composeYaml> & { counter: LineCounter }) | null = null;
  // Computed once, and only when the YAML document is wanted: lines for a JSON's messages, or a text that is not JSON.
  let tooBig: string | null | undefined;
  const yamlTooBig = () => (tooBig === undefined ? (tooBig = yamlSizeProblem(text)) : tooBig);
  const document = () => {
    if (!positions) {
      const counter = new LineCounter();
      positions = { ...composeYaml(text, counter), counter };
    }
    return positions;
  };
  const lineOf = (path: (string | number)[]): number | undefined => {
    if (yamlTooBig()) return undefined;
    const { doc, counter } = document();
    if (!doc) return undefined;
    for (let cut = path.length; cut > 0; cut--) {
      const node: unknown = doc.getIn(path.slice(0, cut), true);
      const range =
        typeof node === "object" && node !== null && "range" in node
          ? (node as { range?: [number, number, number] | null }).range
          : null;
      if (range) return counter.linePos(range[0]).line;
    }
    return undefined;
  };
  const refuse = (problem: string): ParsedText => ({
    value: undefined,
    errors: [note(`not read: ${problem}`)],
    lineOf: () => undefined,
    refused: true,
  });
  if (/^\s*[[{]/.test(text)) {
    let value: unknown;
    let parsed = false;
    try {
      value = JSON.parse(text) as unknown;
      parsed = true;
    } catch (e) {
      // Not strict JSON (comments, trailing commas, or broken): the YAML parser says where, if the text is not too long for it.
      if (text.length > MAX_YAML_CHARS) {
        return {
          value: undefined,
          errors: [
            note(
              `not valid JSON (${e instanceof Error ? e.message : String(e)}); a text over ${MAX_YAML_CHARS / 2 ** 20} MiB must be strict JSON`,
            ),
          ],
          lineOf: () => undefined,
          refused: false,
        };
      }
    }
    if (parsed) {
      const problem = jsonProblem(value);
      return problem ? refuse(problem) : { value, errors: [], lineOf, refused: false };
    }
  }
  if (text.length > MAX_YAML_CHARS)
    return {
      value: undefined,
      errors: [note(`a YAML text over ${MAX_YAML_CHARS / 2 ** 20} MiB: paste only the tool's output`)],
      lineOf: () => undefined,
      refused: false,
    };
  const big = yamlTooBig();
  if (big) return refuse(big);
  try {
    const { doc, problems, counter, stopped } = document();
    const deep = problems.map((e) => parserProblem(e.message)).find((p) => p !== null);
    if (deep) return refuse(deep);
    // yaml quotes the token it stopped at, which can be the rest of the file: a message keeps 160 characters of it.
    const said = (message: string) => {
      const first = message.split("\n")[0] ?? "";
      return first.length > 160 ? `${first.slice(0, 159)}…` : first;
    };
    const errors = problems.map((e) =>
      note(`not valid JSON/YAML: ${said(e.message)}`, { line: counter.linePos(e.offset).line }),
    );
    if (stopped)
      errors.push(note(`not valid JSON/YAML: more problems follow; the reader stopped after ${MAX_YAML_ERRORS}`));
    if (errors.length > 0 || !doc) return { value: undefined, errors, lineOf, refused: false };
    const problem = yamlProblem(doc);
    if (problem) return refuse(problem);
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown, errors, lineOf, refused: false };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // yaml's alias limit counts nested aliases too (an anchor inside an anchor): said about the file, not the parser.
    if (/alias count/i.test(message))
      return refuse(
        `its aliases repeat values more than ${MAX_ALIAS_COUNT} times over; YAML readers stop there against alias bombs: write the values out`,
      );
    const deep = parserProblem(message);
    if (deep) return refuse(deep);
    return {
      value: undefined,
      errors: [note(`not valid JSON/YAML: ${message}`)],
      lineOf: () => undefined,
      refused: false,
    };
  }
}

/** Whether a parsed value looks like Modelplan's cluster file. */
export function isModelplanCluster(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "nodes" in value;
}

/**
 * Validates a parsed Modelplan cluster and puts each message at its line:
 * the node is found by its id (or "#n"), the field by its path.
 */
export function importModelplan(parsed: ParsedText): {
  cluster: Cluster | null;
  errors: ImportMessage[];
  warnings: ImportMessage[];
} {
  const result = validateCluster(parsed.value);
  const nodes: unknown[] =
    isModelplanCluster(parsed.value) && Array.isArray((parsed.value as { nodes: unknown }).nodes)
      ? (parsed.value as { nodes: unknown[] }).nodes
      : [];
  const place = (m: ImportMessage): ImportMessage => {
    if (m.line !== undefined || m.node === undefined) return m;
    const index =
      m.nodeIndex ??
      nodes.findIndex(
        (n, i) =>
          (typeof n === "object" && n !== null && (n as { id?: unknown }).id === m.node) || `#${i + 1}` === m.node,
      );
    if (index < 0) return m;
    const path: (string | number)[] = ["nodes", index];
    for (const part of (m.field ?? "").split(/[.[\]]+/).filter(Boolean)) {
      if (part.startsWith("nodes")) continue;
      path.push(/^\d+$/.test(part) ? Number(part) : part.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    }
    const line =
      parsed.lineOf(path) ??
      parsed.lineOf(
        path.map((p) => (typeof p === "string" ? p.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : p)),
      );
    return line === undefined ? m : { ...m, line };
  };
  const unknown = result.cluster ? unknownFields(nodes, parsed.lineOf) : [];
  return {
    cluster: result.cluster,
    errors: result.errors.map(place),
    warnings: [...unknown, ...result.warnings.map(place)],
  };
}

/** The fields a hand-written cluster file may give, in both spellings the reader takes. */
const NODE_FIELDS = [
  "id",
  "fabric",
  "host_mem_gib",
  "host_free_gib",
  "fabric_gbps",
  "host_mem_gbps",
  "host_mem_channels",
  "host_mem_mts",
  "cpu_cores",
  "devices",
  "hostMemGib",
  "hostFreeGib",
  "fabricGbps",
  "hostMemGBps",
  "hostMemChannels",
  "hostMemMts",
  "cpuCores",
];
const DEVICE_FIELDS = [
  "class",
  "count",
  "free",
  "mem_gib",
  "free_mem_gib",
  "free_indices",
  "gpu_product",
  "gres_type",
  "mem_gbps",
  "bf16_tflops",
  "mem_kind",
  "memGib",
  "freeMemGib",
  "freeIndices",
  "gpuProduct",
  "gresType",
  "memGBps",
  "bf16Tflops",
  "memKind",
];

/**
 * Fields the file gives that Modelplan does not read: a typo (`host_mem_gb`, `fre`) would otherwise be
 * dropped in silence and its default taken (every card free, all RAM free). Each is named at its line,
 * with the field it most likely meant.
 */
function unknownFields(nodes: unknown[], lineOf: ParsedText["lineOf"]): ImportMessage[] {
  const out: ImportMessage[] = [];
  const check = (
    value: unknown,
    allowed: readonly string[],
    path: (string | number)[],
    nodeId: string,
    nodeIndex: number,
    place: string,
  ) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      const guess = closest(key, allowed);
      out.push(
        note(
          `${place}: ${JSON.stringify(key)} is not a field Modelplan reads, so it was ignored${guess ? ` (did you mean ${guess}?)` : ""}`,
          { node: nodeId, nodeIndex, field: key, line: lineOf([...path, key]) },
        ),
      );
    }
  };
  nodes.forEach((n, i) => {
    const id =
      typeof n === "object" && n !== null && typeof (n as { id?: unknown }).id === "string"
        ? String((n as { id: string }).id)
        : `#${i + 1}`;
    const node = `Node ${i + 1}${id.startsWith("#") ? "" : ` (${id})`}`;
    check(n, NODE_FIELDS, ["nodes", i], id, i, node);
    const devices = typeof n === "object" && n !== null ? (n as { devices?: unknown }).devices : undefined;
    if (Array.isArray(devices)) {
      devices.forEach((d, k) => {
        const cls =
          typeof d === "object" && d !== null && typeof (d as { class?: unknown }).class === "string"
            ? (d as { class: string }).class
            : `card group ${k + 1}`;
        check(d, DEVICE_FIELDS, ["nodes", i, "devices", k], id, i, `${node}, ${cls}`);
      });
    }
  });
  return out;
}

/** The allowed field a typo most likely meant: the nearest by edit distance, if it is near (≤ 3 edits). */
function closest(key: string, allowed: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 4;
  for (const candidate of allowed) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || a.length > 64 || b.length > 64) return Number.POSITIVE_INFINITY;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? Number.POSITIVE_INFINITY;
}
