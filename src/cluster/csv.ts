/**
 * A spreadsheet's cluster: one row per node and card class, the node's
 * columns repeated (a CPU-only node has an empty class). Columns are found by
 * name, in any order, in Modelplan's JSON spelling or a plain one:
 *
 *   id,fabric,host_mem_gib,host_free_gib,class,count,free,mem_gib
 *   dgx-1,ib0,2048,2000,h100-80g,8,8,
 *
 * A custom card's speed figures ride in mem_gbps, bf16_tflops and mem_kind columns.
 *
 * Every message carries its row's line.
 */
import Papa from "papaparse";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";
import { MAX_NODES } from "./schema.ts";
import { validateCluster } from "./validate.ts";

const COLUMNS: Record<string, string[]> = {
  id: ["id", "node", "node_id", "name", "host"],
  fabric: ["fabric", "interconnect", "network"],
  host_mem_gib: ["host_mem_gib", "ram_gib", "host_ram_gib", "mem_host_gib", "ram"],
  host_free_gib: ["host_free_gib", "ram_free_gib", "free_ram_gib"],
  class: ["class", "gpu_class", "gpu", "card"],
  count: ["count", "gpus", "gpu_count", "cards"],
  free: ["free", "free_gpus", "gpus_free", "free_count"],
  mem_gib: ["mem_gib", "gpu_mem_gib", "memory_gib"],
  free_mem_gib: ["free_mem_gib", "gpu_free_mem_gib"],
  mem_gbps: ["mem_gbps", "gpu_mem_gbps", "bandwidth_gbps"],
  bf16_tflops: ["bf16_tflops", "tflops"],
  mem_kind: ["mem_kind", "memory_kind"],
};

/** The cells of one line as papaparse splits them (RFC 4180 quotes), trimmed. */
function cellsOf(line: string, sep: string): string[] {
  const row = Papa.parse<string[]>(line, { delimiter: sep, quoteChar: '"' }).data[0] ?? [];
  return row.map((c) => c.trim());
}

function headerOf(line: string): { sep: string; map: Map<string, number> } | null {
  for (const sep of SEPARATORS) {
    const cells = cellsOf(line, sep).map((c) => c.toLowerCase().replace(/[\s-]+/g, "_"));
    if (cells.length < 3) continue;
    const map = new Map<string, number>();
    for (const [field, names] of Object.entries(COLUMNS)) {
      const at = cells.findIndex((c) => names.includes(c));
      if (at >= 0) map.set(field, at);
    }
    if (map.has("id") && (map.has("class") || map.has("host_mem_gib"))) return { sep, map };
  }
  return null;
}

/** Where each line starts, to turn papaparse's character cursor back into the row's line number. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of a character offset (binary search over the line starts). */
function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** The data rows after the header, each with the line it starts on; comment (#) and blank lines skipped. */
function rowsOf(
  text: string,
  headerEnd: number,
  sep: string,
): { rows: { cells: string[]; line: number }[]; errors: ImportMessage[] } {
  const starts = lineStarts(text);
  const body = text.slice(headerEnd);
  const rows: { cells: string[]; line: number }[] = [];
  const errors: ImportMessage[] = [];
  // Each row starts where the one before it ended: papaparse's cursor is just past that row's newline.
  let cursor = 0;
  Papa.parse<string[]>(body, {
    delimiter: sep,
    newline: "\n",
    quoteChar: '"',
    step: (result, parser) => {
      const line = lineAt(starts, headerEnd + cursor);
      cursor = result.meta.cursor;
      const cells = result.data.map((c) => c.trim());
      if (cells.every((c) => c === "") || (cells[0] ?? "").startsWith("#")) return;
      // An opening quote never closed swallows every row after it: say where it opened rather than read on.
      if (result.errors.some((e) => e.code === "MissingQuotes"))
        errors.push(note('a quoted cell is never closed: remove the stray " or close it', { line }));
      if (rows.length >= MAX_ROWS) {
        errors.push(
          note(
            `more than ${MAX_ROWS.toLocaleString("en-US")} rows: a cluster has at most ${MAX_NODES.toLocaleString("en-US")} nodes, each a row per card class; is this the right file?`,
            { line },
          ),
        );
        parser.abort();
        return;
      }
      rows.push({ cells, line });
    },
  });
  return { rows, errors };
}

/** Rows read before the file is refused: every node of the largest cluster with two card classes (a 5 MiB paste of one row repeated took 1.3 s). */
const MAX_ROWS = 2 * MAX_NODES;

/** Separators a spreadsheet exports with, tried in this order on the header row. */
const SEPARATORS = [",", ";", "\t"];

export function detectCsv(text: string): boolean {
  const first = text.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  return first !== undefined && headerOf(first) !== null;
}

/** A number cell: "" is absent, anything not a plain number is said with its line. */
function numberCell(
  value: string | undefined,
  field: string,
  line: number,
  errors: ImportMessage[],
  node: string,
): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!/^-?\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) {
    errors.push(note(`node "${node}", ${field}: "${value}" is not a number`, { line, node, field }));
    return undefined;
  }
  return n;
}

export function readCsv(text: string): Reading {
  const lines = text.split("\n");
  const headerAt = lines.findIndex((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  const header = headerOf(lines[headerAt] ?? "");
  if (!header)
    return {
      nodes: [],
      warnings: [],
      errors: [note("a CSV needs a header row naming at least id and class columns")],
      format: "csv",
    };
  const headerEnd = lines.slice(0, headerAt + 1).reduce((sum, l) => sum + l.length + 1, 0);
  const { rows, errors } = rowsOf(text, headerEnd, header.sep);
  interface RawNode {
    id: string;
    fabric?: string;
    host_mem_gib?: number;
    host_free_gib?: number;
    devices: Record<string, unknown>[];
    line: number;
    deviceLines: number[];
  }
  const nodes = new Map<string, RawNode>();
  for (const { cells, line } of rows) {
    const cell = (f: string) => {
      const at = header.map.get(f);
      return at === undefined ? undefined : cells[at];
    };
    const id = cell("id") ?? "";
    if (id === "") {
      errors.push(note("a row has no node id", { line, field: "id" }));
      continue;
    }
    const node = nodes.get(id) ?? { id, devices: [], line, deviceLines: [] };
    nodes.set(id, node);
    const fabric = cell("fabric");
    if (fabric !== undefined && fabric !== "") node.fabric = fabric;
    const mem = numberCell(cell("host_mem_gib"), "host_mem_gib", line, errors, id);
    if (mem !== undefined) node.host_mem_gib = mem;
    const free = numberCell(cell("host_free_gib"), "host_free_gib", line, errors, id);
    if (free !== undefined) node.host_free_gib = free;
    const cls = cell("class");
    if (cls) {
      const device: Record<string, unknown> = {
        class: cls,
        count: numberCell(cell("count"), "count", line, errors, id),
      };
      const devFree = numberCell(cell("free"), "free", line, errors, id);
      if (devFree !== undefined) device.free = devFree;
      const memGib = numberCell(cell("mem_gib"), "mem_gib", line, errors, id);
      if (memGib !== undefined) device.mem_gib = memGib;
      const freeMemGib = numberCell(cell("free_mem_gib"), "free_mem_gib", line, errors, id);
      if (freeMemGib !== undefined) device.free_mem_gib = freeMemGib;
      // A custom card's speed figures, checked by the cluster schema as a file's are.
      const gbps = numberCell(cell("mem_gbps"), "mem_gbps", line, errors, id);
      if (gbps !== undefined) device.mem_gbps = gbps;
      const tflops = numberCell(cell("bf16_tflops"), "bf16_tflops", line, errors, id);
      if (tflops !== undefined) device.bf16_tflops = tflops;
      const kind = cell("mem_kind");
      if (kind !== undefined && kind !== "") device.mem_kind = kind.toLowerCase();
      node.devices.push(device);
      node.deviceLines.push(line);
    }
  }
  if (errors.length > 0) return { nodes: [], warnings: [], errors, format: "csv" };
  const rawNodes = [...nodes.values()];
  const checked = validateCluster({
    nodes: rawNodes.map(({ line: _l, deviceLines: _d, ...n }) => ({ host_mem_gib: 0, ...n })),
  });
  const lineOf = (m: ImportMessage): ImportMessage => {
    const n = rawNodes.find((r) => r.id === m.node);
    if (!n) return m;
    const device = /^devices\[(\d+)\]/.exec(m.field ?? "");
    const line = device ? n.deviceLines[Number(device[1])] : n.line;
    return line === undefined ? m : { ...m, line };
  };
  if (!checked.cluster) return { nodes: [], warnings: [], errors: checked.errors.map(lineOf), format: "csv" };
  return { nodes: checked.cluster.nodes, warnings: checked.warnings.map(lineOf), errors: [], format: "csv" };
}

export const CSV_READER: Reader = { format: "csv", detect: detectCsv, read: readCsv };
