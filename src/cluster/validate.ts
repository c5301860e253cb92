/**
 * The one gate every cluster passes before the engine sees it: Modelplan's
 * JSON (snake_case, as `npm run plan --cluster` takes it), or the camelCase
 * object the page holds. zod checks the shape and the numbers; the checks
 * that span fields (free above total, duplicate ids, a class nobody knows
 * the memory of) follow. Every message names the node and the field, as the
 * user wrote it, and says what to do.
 */
import { cardMemoryBytes, cardSpecOf } from "../plan/index.ts";
import type { Cluster, ClusterNode, DeviceGroup } from "../plan/index.ts";
import { note, type ImportMessage } from "./messages.ts";
import { clusterSchema, MAX_GROUPS_PER_NODE, MAX_HOST_GBPS, MAX_NODES, type SnakeNode } from "./schema.ts";

export { MAX_DEVICE_MEM_GIB, MAX_DEVICES_PER_GROUP, MAX_HOST_MEM_GIB, MAX_NODES } from "./bounds.ts";

/**
 * Free memory may sit a hair above the catalog's total: cards of one class
 * differ by a few MiB (a V100 with retired pages reports 32,764 MiB beside
 * 32,768), and the catalog keeps the smaller. 1% covers that and nothing more.
 */
const FREE_MEMORY_SLACK = 0.01;

/** camelCase spellings the page uses, to their snake_case wire names. */
const CAMEL_TO_SNAKE: Record<string, string> = {
  hostMemGib: "host_mem_gib",
  hostFreeGib: "host_free_gib",
  memGib: "mem_gib",
  freeMemGib: "free_mem_gib",
  freeIndices: "free_indices",
  gpuProduct: "gpu_product",
  gresType: "gres_type",
  fabricGbps: "fabric_gbps",
  hostMemGBps: "host_mem_gbps",
  hostMemChannels: "host_mem_channels",
  hostMemMts: "host_mem_mts",
  cpuCores: "cpu_cores",
  memGBps: "mem_gbps",
  bf16Tflops: "bf16_tflops",
  memKind: "mem_kind",
};
const SNAKE_TO_CAMEL = Object.fromEntries(Object.entries(CAMEL_TO_SNAKE).map(([c, s]) => [s, c]));

export interface Validation {
  cluster: Cluster | null;
  errors: ImportMessage[];
  /** What was filled in (a missing free count, a missing free RAM), said once each. */
  warnings: ImportMessage[];
}

/**
 * Checks a cluster in Modelplan's JSON (snake_case) or the page's camelCase
 * object. Never throws; a cluster comes back only when there are no errors.
 */
export function validateCluster(value: unknown): Validation {
  const long = oversized(value);
  if (long) return { cluster: null, errors: [long], warnings: [] };
  const camel = usesCamelCase(value);
  const parsed = clusterSchema.safeParse(toSnake(value));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => issueMessage(issue.path, issue.message, value, camel));
    return { cluster: null, errors: oneEach(errors), warnings: [] };
  }
  const errors: ImportMessage[] = [];
  const warnings: ImportMessage[] = [];
  const seen = new Map<string, number>();
  const nodes = parsed.data.nodes.map((n, i) => {
    const before = seen.get(n.id);
    if (before !== undefined) {
      errors.push(
        note(
          `${nodeWords(i, n.id)}: node ${before + 1} has this id too; ids must be unique: rename one (e.g. "${n.id}-2")`,
          { node: n.id, nodeIndex: i, field: `nodes[${i}].id` },
        ),
      );
    } else seen.set(n.id, i);
    return checkNode(n, i, camel, errors, warnings);
  });
  if (errors.length > 0) return { cluster: null, errors: oneEach(errors), warnings: [] };
  return { cluster: { nodes }, errors, warnings: oneEach(warnings) };
}

/**
 * A list too long to walk, said before zod walks it: zod checks every element
 * before the list's length, and its issue list overflows the stack at 200,000
 * elements ("Maximum call stack size exceeded", issue 20).
 */
function oversized(value: unknown): ImportMessage | null {
  if (!isRecord(value) || !Array.isArray(value.nodes)) return null;
  const count = (n: number) => n.toLocaleString("en-US");
  if (value.nodes.length > MAX_NODES)
    return note(
      `the cluster lists ${count(value.nodes.length)} nodes; Modelplan plans at most ${count(MAX_NODES)}: is this the right file?`,
      { field: "nodes" },
    );
  const long = value.nodes.flatMap((n, i) =>
    isRecord(n) && Array.isArray(n.devices) && n.devices.length > MAX_GROUPS_PER_NODE
      ? [{ i, n, length: n.devices.length }]
      : [],
  );
  const first = long[0];
  if (!first) return null;
  const id = typeof first.n.id === "string" && first.n.id.trim() !== "" ? first.n.id : `#${first.i + 1}`;
  const rest = long.length > 1 ? ` (and ${count(long.length - 1)} more nodes like it)` : "";
  const node = nodeWords(first.i, typeof first.n.id === "string" ? first.n.id : undefined);
  return note(
    `${node}: ${count(first.length)} card groups; a node has at most ${MAX_GROUPS_PER_NODE} (one per class): give each class once with its count${rest}`,
    { node: id, nodeIndex: first.i, field: "devices" },
  );
}

/** "Node 2 (gpu-1)": the panel's name for the node, and its id as written (cut to 40 characters). */
function nodeWords(index: number, id: string | undefined): string {
  const shown = id === undefined || id.trim() === "" ? "" : ` (${id.length > 40 ? `${id.slice(0, 39)}…` : id})`;
  return `Node ${index + 1}${shown}`;
}

/** GiB as a person reads them: at most two decimals. */
function gibWords(gib: number): string {
  return `${Math.round(gib * 100) / 100} GiB`;
}

function checkNode(
  n: SnakeNode,
  index: number,
  camel: boolean,
  errors: ImportMessage[],
  warnings: ImportMessage[],
): ClusterNode {
  const name = (f: string) => (camel ? f.replace(/[a-z_]+/g, (k) => SNAKE_TO_CAMEL[k] ?? k) : f);
  const where = (field: string) => ({ node: n.id, nodeIndex: index, field: name(field) });
  const node = nodeWords(index, n.id);
  const hostFree = n.host_free_gib ?? n.host_mem_gib;
  if (n.host_free_gib === undefined && n.host_mem_gib > 0) {
    warnings.push(
      note(`${node}: free RAM not given; taken as all ${gibWords(n.host_mem_gib)} free`, where("host_free_gib")),
    );
  }
  if (hostFree > n.host_mem_gib) {
    errors.push(
      note(
        `${node}: ${gibWords(hostFree)} free RAM of ${gibWords(n.host_mem_gib)}: give at most ${gibWords(n.host_mem_gib)}`,
        where("host_free_gib"),
      ),
    );
  }
  const classes = new Set<string>();
  const devices: DeviceGroup[] = (n.devices ?? []).map((d, j) => {
    const at = (f: string) => where(`devices[${j}].${f}`);
    const group = `${node}, ${d.class}`;
    if (classes.has(d.class)) {
      errors.push(note(`${group}: listed twice: give the class once, with the total count`, at("class")));
    }
    classes.add(d.class);
    if (d.count === 0) {
      errors.push(note(`${group}: 0 cards: give the count, or remove the row`, at("count")));
    }
    const free = d.free ?? d.count;
    if (d.free === undefined) {
      warnings.push(note(`${group}: free count not given; taken as all ${d.count} free`, at("free")));
    }
    if (free > d.count) {
      errors.push(
        note(
          `${group}: ${free} free of ${d.count} ${d.count === 1 ? "card" : "cards"}: give at most ${d.count}`,
          at("free"),
        ),
      );
    }
    if (d.mem_gib === undefined && cardMemoryBytes(d.class) === null) {
      errors.push(
        note(
          `${group}: not a card the catalog knows, and no memory given: pick a catalog class (e.g. "h100-80g"), or give its memory in GiB (${name("mem_gib")})`,
          at("class"),
        ),
      );
    }
    const deviceBytes = d.mem_gib !== undefined ? d.mem_gib * 2 ** 30 : cardMemoryBytes(d.class);
    if (
      d.free_mem_gib !== undefined &&
      deviceBytes !== null &&
      d.free_mem_gib * 2 ** 30 > deviceBytes * (1 + FREE_MEMORY_SLACK)
    ) {
      errors.push(
        note(
          `${group}: ${gibWords(d.free_mem_gib)} free a card, more than the ${gibWords(deviceBytes / 2 ** 30)} a card holds`,
          at("free_mem_gib"),
        ),
      );
    }
    const out: DeviceGroup = { class: d.class, count: d.count, free };
    if (d.mem_gib !== undefined) out.memGib = d.mem_gib;
    if (d.free_mem_gib !== undefined) out.freeMemGib = d.free_mem_gib;
    // Names that do not give each free card once (a free count edited since the import) would pin the wrong
    // cards: dropped, and said, rather than refusing a cluster whose counts are sound.
    const namesFit =
      d.free_indices === undefined || (d.free_indices.length === free && new Set(d.free_indices).size === free);
    if (!namesFit && d.free_indices !== undefined) {
      warnings.push(
        note(
          `${group}: ${d.free_indices.length} card name(s) (${new Set(d.free_indices).size} distinct) for ${free} free, so they were dropped: give one name per free card`,
          at("free_indices"),
        ),
      );
    }
    if (d.free_indices !== undefined && namesFit) out.freeIndices = d.free_indices;
    if (d.gpu_product !== undefined) out.gpuProduct = d.gpu_product;
    if (d.gres_type !== undefined) out.gresType = d.gres_type;
    replacedFigures(d, group, at, warnings);
    if (d.mem_gbps !== undefined) out.memGBps = d.mem_gbps;
    if (d.bf16_tflops !== undefined) out.bf16Tflops = d.bf16_tflops;
    if (d.mem_kind !== undefined) out.memKind = d.mem_kind;
    return out;
  });
  if (devices.length === 0 && n.host_mem_gib === 0) {
    warnings.push(note(`${node}: no cards and no RAM: nothing can run on it`, { node: n.id, nodeIndex: index }));
  }
  const out: ClusterNode = {
    id: n.id,
    fabric: n.fabric ?? "",
    hostMemGib: n.host_mem_gib,
    hostFreeGib: hostFree,
    devices,
  };
  if (n.fabric_gbps !== undefined) out.fabricGbps = n.fabric_gbps;
  // Checked whether or not host_mem_gbps is given: both at once is refused.
  const fromChannels = hostGBpsOfChannels(n, node, where, errors);
  const hostGBps = n.host_mem_gbps ?? fromChannels;
  if (hostGBps !== undefined) out.hostMemGBps = hostGBps;
  if (n.cpu_cores !== undefined) out.cpuCores = n.cpu_cores;
  return out;
}

/**
 * A card figure given for a class the table has, and unlike the table's: used (a power-capped or down-clocked card
 * is the user's to know), and said once, so a slip in a file is not taken in silence.
 */
function replacedFigures(
  d: NonNullable<SnakeNode["devices"]>[number],
  group: string,
  at: (field: string) => Parameters<typeof note>[1],
  warnings: ImportMessage[],
): void {
  const table = cardSpecOf(d.class);
  if (table === undefined) return;
  const said = (key: string, what: string, given: number | string | undefined, own: number | string | null) => {
    if (given === undefined || own === null || given === own) return;
    warnings.push(
      note(
        `${group}: ${what} ${given} given, in place of the card table's ${own}: the speed figures use yours`,
        at(key),
      ),
    );
  };
  said("mem_gbps", "memory bandwidth (GB/s)", d.mem_gbps, table.memBandwidthGBps);
  said("bf16_tflops", "dense BF16 TFLOPS", d.bf16_tflops, table.tflops.bf16);
  said("mem_kind", "memory kind", d.mem_kind, table.kind);
}

/**
 * A host's memory bandwidth said as its channels and their MT/s (issue 12: "channels × speed, or GB/s"), in GB/s:
 * channels × MT/s × 8 bytes ÷ 1000 (12 × DDR5-4800 = 460.8), to a tenth. One without the other, or both beside
 * host_mem_gbps, is refused in words: which figure to believe is the user's to say.
 */
function hostGBpsOfChannels(
  n: SnakeNode,
  node: string,
  where: (field: string) => { node: string; nodeIndex: number; field: string },
  errors: ImportMessage[],
): number | undefined {
  const channels = n.host_mem_channels;
  const mts = n.host_mem_mts;
  if (channels === undefined && mts === undefined) return undefined;
  if (n.host_mem_gbps !== undefined) {
    errors.push(
      note(
        `${node}: give the memory bandwidth once: host_mem_gbps, or host_mem_channels with host_mem_mts, not both`,
        where("host_mem_gbps"),
      ),
    );
    return undefined;
  }
  if (channels === undefined || mts === undefined) {
    errors.push(
      channels === undefined
        ? note(
            `${node}: host_mem_mts (${mts}) needs host_mem_channels, the memory channels of all sockets`,
            where("host_mem_channels"),
          )
        : note(
            `${node}: host_mem_channels (${channels}) needs host_mem_mts, the DIMMs' MT/s (4800 for DDR5-4800)`,
            where("host_mem_mts"),
          ),
    );
    return undefined;
  }
  const gbps = Math.round((channels * mts * 8) / 100) / 10;
  if (gbps > MAX_HOST_GBPS) {
    errors.push(
      note(
        `${node}: ${channels} channels × ${mts} MT/s is ${gbps} GB/s, over ${MAX_HOST_GBPS}: check the numbers`,
        where("host_mem_mts"),
      ),
    );
    return undefined;
  }
  return gbps;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function usesCamelCase(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.nodes)) return false;
  return value.nodes.some((n) => isRecord(n) && ("hostMemGib" in n || "hostFreeGib" in n));
}

/** A shallow rename of the camelCase keys, so one schema checks both spellings. */
function toSnake(value: unknown): unknown {
  if (!isRecord(value) || !Array.isArray(value.nodes)) return value;
  const rename = (o: unknown): unknown => {
    if (!isRecord(o)) return o;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o))
      out[CAMEL_TO_SNAKE[k] ?? k] = k === "devices" && Array.isArray(v) ? v.map(rename) : v;
    return out;
  };
  return { ...value, nodes: value.nodes.map(rename) };
}

/** "Node 2 (gpu-2), h100-80g: the card count is negative: give 0 or more", with the field as written for marking it. */
function issueMessage(path: PropertyKey[], message: string, value: unknown, camel: boolean): ImportMessage {
  const [, nodeIndex, ...rest] = path;
  if (path[0] !== "nodes" || typeof nodeIndex !== "number")
    return note(message, { field: path.map(String).join(".") || "nodes" });
  const nodes = isRecord(value) && Array.isArray(value.nodes) ? value.nodes : [];
  const raw: unknown = nodes[nodeIndex];
  const id = isRecord(raw) && typeof raw.id === "string" && raw.id.trim() !== "" ? raw.id : `#${nodeIndex + 1}`;
  const field = rest
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${camel ? (SNAKE_TO_CAMEL[String(p)] ?? String(p)) : String(p)}`))
    .join("")
    .replace(/^\./, "");
  let place = nodeWords(nodeIndex, isRecord(raw) && typeof raw.id === "string" ? raw.id : undefined);
  const [part, deviceIndex] = rest;
  if (part === "devices" && typeof deviceIndex === "number") {
    const device: unknown = isRecord(raw) && Array.isArray(raw.devices) ? raw.devices[deviceIndex] : undefined;
    const cls =
      isRecord(device) && typeof device.class === "string" && device.class.trim() !== "" ? device.class.trim() : "";
    place += cls !== "" && cls.length <= 40 ? `, ${cls}` : `, card group ${deviceIndex + 1}`;
  }
  return note(`${place}: ${message}`, { node: id, nodeIndex, ...(field ? { field } : {}) });
}

/**
 * One message a field, with a count of the rest: the same problem on 2,000
 * nodes (or 89,100 devices an alias repeated) is said once, at its first
 * place. Messages are alike when they differ only in their place, names and numbers.
 */
function oneEach(messages: ImportMessage[]): ImportMessage[] {
  const groups = new Map<string, { first: ImportMessage; more: number }>();
  for (const m of messages) {
    // The place ("Node 3 (gpu-3), h100-80g: ") differs on every node; what follows it says the problem.
    const problem = m.message.replace(/^Node \d+( \([^)]*\))?(, [^:]*)?: /, "");
    const key = `${(m.field ?? "").replace(/\[\d+\]/g, "[]")}|${problem.replace(/"[^"]*"/g, '""').replace(/\d+(\.\d+)?/g, "#")}`;
    const group = groups.get(key);
    if (group) group.more++;
    else groups.set(key, { first: m, more: 0 });
  }
  return [...groups.values()].map(({ first, more }) =>
    more === 0 ? first : { ...first, message: `${first.message} (and ${more.toLocaleString("en-US")} more like it)` },
  );
}
