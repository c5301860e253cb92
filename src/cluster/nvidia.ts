/**
 * nvidia-smi, in every form operators paste it, read in one pass so pastes
 * that join several outputs (a table and `-L`, `mig -lgip` and `mig -lgi`)
 * are read as one machine:
 * - the default table, old (79-column) and new (91-column) layouts, with its
 *   "MIG devices" and "Processes" tables, and `ERR!` cells;
 * - `nvidia-smi -L`, with MIG lines under their card (old drivers' "MIG
 *   1c.3g.20gb" compute-instance names included);
 * - `--query-gpu=… --format=csv`, columns matched by name, with or without units;
 * - `nvidia-smi mig -lgi` (the instances that exist) and `-lgip` (profile
 *   memory, used only to tell which card the instances are on).
 * The table prints no profile names: its MIG slices are matched by memory.
 * It says nothing of a scheduler either, so a card counts as busy when a
 * compute process runs on it or it holds a GiB or more, and the review says so.
 */
import { cardOf } from "../plan/index.ts";
import { draftNode, finishNode, promptHost, type DraftNode } from "./draft.ts";
import { identifyCard, identifyMig, parentFromProfiles } from "./identify.ts";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";

const MIB = 2 ** 20;
/**
 * Memory in use past which a card is taken as busy. An idle H100 shows 1 MiB,
 * an idle RTX 4090 2 MiB, a MIG-enabled RTX PRO 6000 287 MiB and a desktop
 * card driving a display a few hundred; a loaded model holds gigabytes.
 */
const BUSY_USED_MIB = 1024;

interface Gpu {
  index: number;
  line: number;
  name?: string;
  totalMib?: number;
  usedMib?: number;
  err: boolean;
  migEnabled?: boolean;
  computeProcesses: number;
}

interface Slice {
  gpu: number;
  line: number;
  profile?: string;
  memMib?: number;
  usedMib?: number;
  /** Its UUID as -L prints it ("MIG-…"): what CUDA_VISIBLE_DEVICES and Compose's device_ids take for a MIG instance. */
  uuid?: string;
}

interface Segment {
  host: string | null;
  gpus: Map<number, Gpu>;
  /** Slices by where they were read: -L names them, lgi names them, the table's MIG devices only sizes them. */
  listSlices: Slice[];
  lgiSlices: Slice[];
  tableSlices: Slice[];
  /** lgip: profile name → GiB, per GPU. */
  lgip: Map<number, Map<string, number>>;
  kinds: Set<string>;
  /** The table's MIG devices block says "No MIG devices found". */
  noMigDevices: boolean;
}

function segment(host: string | null): Segment {
  return {
    host,
    gpus: new Map(),
    listSlices: [],
    lgiSlices: [],
    tableSlices: [],
    lgip: new Map(),
    kinds: new Set(),
    noMigDevices: false,
  };
}

const BANNER = /NVIDIA-SMI\s+[\d.]+\s+(Driver|KMD) Version/;
const LIST_GPU = /^\s*GPU (\d+): (.+?)\s*\(UUID: /;
const LIST_MIG = /^\s*MIG (\S+)\s+Device\s+(\d+): \(UUID: ([^)\s]+)\)/;
const TABLE_GPU = /^\s*\|\s*(\d+)\s+(.*?)\s{1,}(On|Off|ERR!|N\/A)\s*\|/;
const TABLE_MEM = /(\d+)MiB\s*\/\s*(\d+)MiB/;
const TABLE_MIG_MODE = /\|\s*(Enabled|Disabled|N\/A|ERR!)\s*\|\s*$/;
const TABLE_MIG_DEVICE = /^\s*\|\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\|\s*(\d+)MiB\s*\/\s*(\d+)MiB/;
const PROCESS = /^\s*\|\s*(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(C\+G|C|G|M\+C|M)\s+/;
const LGI_ROW = /^\s*\|\s*(\d+)\s+MIG (\S+)\s+(\d+)\s+(\d+)\s+(\d+):(\d+)\s*\|/;
const LGIP_ANYWHERE = /^[^\S\n]*\|\s*\d+\s+MIG \S+\s+\d+\s+\d+\/\d+\s+[\d.]+\s/m;
const LGIPP = /^GPU\s+\d+ Profile ID\s+\d+ Placements?\s*:/m;
const LGIP_ROW = /^\s*\|\s*(\d+)\s+MIG (\S+)\s+(\d+)\s+(\d+)\/(\d+)\s+([\d.]+)\s/;

/** `--format=csv,noheader`: rows of a card name and MiB figures with no header naming the columns. */
const HEADERLESS_CSV = /^[^\S\n]*\d+\s*,\s*(NVIDIA|Tesla|Quadro|GeForce)[^,]*,\s*\d+(\s*MiB)?\s*(,|$)/m;

export function detectNvidia(text: string): boolean {
  return (
    HEADERLESS_CSV.test(text) ||
    BANNER.test(text) ||
    /^[^\S\n]*GPU \d+: .+\(UUID: GPU-/m.test(text) ||
    /GPU instances:|GPU instance profiles:|MIG devices:/.test(text) ||
    LGIP_ANYWHERE.test(text) ||
    LGIPP.test(text) ||
    /Memory-Usage/.test(text) ||
    /^[^\S\n]*\|\s*\d+\s+\S.*(On|Off)\s*\|\s*[\dA-Fa-f]{4,8}:[\dA-Fa-f]{2}:[\dA-Fa-f]{2}\.\d/m.test(text) ||
    /^[^\S\n]*index\s*,\s*name\s*,|memory\.total/m.test(text)
  );
}

type Section = "none" | "gpus" | "processes" | "mig-devices" | "lgi" | "lgip";

function parse(text: string): { segments: Segment[]; warnings: ImportMessage[] } {
  const segments: Segment[] = [];
  const warnings: ImportMessage[] = [];
  let seg = segment(null);
  let section: Section = "none";
  let current: Gpu | undefined;
  let csv: { columns: string[]; line: number } | null = null;
  const lines = text.split("\n");
  const startSegment = (host: string | null) => {
    if (seg.gpus.size > 0 || seg.lgiSlices.length > 0) {
      segments.push(seg);
      seg = segment(host);
    } else if (host) seg.host = host;
  };

  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    const lineNo = i + 1;
    const host = promptHost(line);
    if (host && host !== seg.host) startSegment(host);
    if (BANNER.test(line) && (seg.gpus.size > 0 || seg.kinds.has("table"))) startSegment(null);

    if (/GPU instance profiles:/.test(line)) return void (section = "lgip");
    if (/GPU instances:/.test(line)) return void (section = "lgi");
    if (/MIG devices:/.test(line)) return void (section = "mig-devices");
    if (/Processes:/.test(line)) return void (section = "processes");
    if (/GPU\s+Name\s+.*(Persistence-M|Bus-Id)/.test(line) || /^\|\s*GPU\s+Name\s*\|/.test(line))
      return void (section = "gpus");
    if (BANNER.test(line)) return void (seg.kinds.add("table"), (section = "gpus"));

    const list = LIST_GPU.exec(line);
    if (list) {
      seg.kinds.add("-L");
      current = gpuAt(seg, Number(list[1]), lineNo);
      current.name = list[2]!.trim();
      return;
    }
    const listMig = LIST_MIG.exec(line);
    if (listMig && current) {
      seg.listSlices.push({ gpu: current.index, line: lineNo, profile: listMig[1]!, uuid: listMig[3]! });
      return;
    }

    if (csv === null && isCsvHeader(line)) {
      csv = { columns: line.split(",").map((c) => c.trim().toLowerCase()), line: lineNo };
      seg.kinds.add("csv");
      return;
    }
    if (csv !== null && line.includes(",")) {
      readCsvRow(seg, csv.columns, line, lineNo, warnings);
      return;
    }

    if (section !== "lgip" && section !== "lgi" && LGIP_ROW.test(line)) section = "lgip";
    switch (section) {
      case "lgip": {
        const m = LGIP_ROW.exec(line);
        if (m) {
          const profiles = seg.lgip.get(Number(m[1])) ?? new Map<string, number>();
          profiles.set(m[2]!.replace(/[+-].*$/, ""), Number(m[6]));
          seg.lgip.set(Number(m[1]), profiles);
          seg.kinds.add("mig -lgip");
        }
        return;
      }
      case "lgi": {
        const m = LGI_ROW.exec(line);
        if (m) {
          seg.lgiSlices.push({ gpu: Number(m[1]), line: lineNo, profile: m[2]! });
          seg.kinds.add("mig -lgi");
        }
        return;
      }
      case "mig-devices": {
        if (/No MIG devices found/.test(line)) seg.noMigDevices = true;
        const m = TABLE_MIG_DEVICE.exec(line);
        if (m) seg.tableSlices.push({ gpu: Number(m[1]), line: lineNo, usedMib: Number(m[5]), memMib: Number(m[6]) });
        return;
      }
      case "processes": {
        const m = PROCESS.exec(line);
        if (m && m[5]!.includes("C")) gpuAt(seg, Number(m[1]), lineNo).computeProcesses += 1;
        return;
      }
      default:
        readTableLine(
          seg,
          line,
          lineNo,
          (g) => (current = g),
          () => current,
        );
    }
  });
  segments.push(seg);
  return { segments: segments.filter((s) => s.gpus.size > 0 || s.lgiSlices.length > 0 || s.lgip.size > 0), warnings };
}

/** A --query-gpu header: every cell a field name ("memory.total [MiB]"), one of them the name or memory. */
function isCsvHeader(line: string): boolean {
  const cells = line.split(",").map((c) => c.trim());
  return (
    cells.length > 1 &&
    cells.every((c) => /^[a-z_.]+(\s*\[[^\]]*\])?$/i.test(c)) &&
    cells.some((c) => /^(name|memory\.total)\b/i.test(c))
  );
}

function gpuAt(seg: Segment, index: number, line: number): Gpu {
  let g = seg.gpus.get(index);
  if (!g) {
    g = { index, line, err: false, computeProcesses: 0 };
    seg.gpus.set(index, g);
  }
  return g;
}

/** One line of the default table's GPU section: a block's first, second or third row. */
function readTableLine(
  seg: Segment,
  line: string,
  lineNo: number,
  setCurrent: (g: Gpu) => void,
  current: () => Gpu | undefined,
): void {
  if (!line.trimStart().startsWith("|")) return;
  const first = TABLE_GPU.exec(line);
  if (first && !/^\s*\|\s*\d+\s+(N\/A|\d+)\s+(N\/A|\d+)\s+\d+\s/.test(line)) {
    const g = gpuAt(seg, Number(first[1]), lineNo);
    const name = first[2]!.trim();
    g.err = g.err || name === "ERR!" || first[3] === "ERR!";
    if (name !== "" && name !== "ERR!") g.name = name;
    seg.kinds.add("table");
    setCurrent(g);
    return;
  }
  const g = current();
  if (!g) return;
  if (g.totalMib === undefined) {
    const mem = TABLE_MEM.exec(line);
    if (mem) {
      g.usedMib = Number(mem[1]);
      g.totalMib = Number(mem[2]);
      if (/ERR!/.test(line)) g.err = true;
      return;
    }
    if (/ERR!/.test(line)) g.err = true;
  }
  const mode = TABLE_MIG_MODE.exec(line);
  if (mode && g.migEnabled === undefined && (g.totalMib !== undefined || g.err)) g.migEnabled = mode[1] === "Enabled";
}

/** A --query-gpu CSV row, columns by header name: "memory.total [MiB]" and "memory.total" alike. */
function readCsvRow(seg: Segment, columns: string[], line: string, lineNo: number, warnings: ImportMessage[]): void {
  const cells = line.split(",").map((c) => c.trim());
  const col = (name: string) => {
    const at = columns.findIndex((c) => c === name || c.startsWith(`${name} `) || c.startsWith(`${name}[`));
    return at >= 0 ? cells[at] : undefined;
  };
  const mib = (v: string | undefined) => {
    if (v === undefined) return undefined;
    const m = /^([\d.]+)\s*(MiB)?$/i.exec(v);
    return m ? Number(m[1]) : undefined;
  };
  const indexCell = col("index");
  const index = indexCell !== undefined && /^\d+$/.test(indexCell) ? Number(indexCell) : seg.gpus.size;
  const name = col("name");
  if (name === undefined) return;
  const g = gpuAt(seg, index, lineNo);
  g.name = name;
  const total = mib(col("memory.total"));
  if (total !== undefined) g.totalMib = total;
  else if (col("memory.total") !== undefined) {
    warnings.push(
      note(`GPU ${index} (${name}): memory.total is "${col("memory.total")}"; the catalog's figure is used`, {
        line: lineNo,
      }),
    );
  }
  const used = mib(col("memory.used"));
  if (used !== undefined) g.usedMib = used;
  const mig = col("mig.mode.current");
  if (mig !== undefined) g.migEnabled = /enabled/i.test(mig);
  if (cells.some((c) => c === "ERR!")) g.err = true;
}

function buildNode(seg: Segment, nodeIndex: number, warnings: ImportMessage[]): DraftNode {
  const node = draftNode(seg.host ?? `node-${nodeIndex + 1}`);
  const say = (message: string, line: number) => warnings.push(note(message, { line, node: node.id }));

  const slicesOf = (gpu: number): { slices: Slice[]; named: boolean } => {
    const listed = seg.listSlices.filter((s) => s.gpu === gpu);
    if (listed.length > 0) return { slices: listed, named: true };
    const lgi = seg.lgiSlices.filter((s) => s.gpu === gpu);
    if (lgi.length > 0) return { slices: lgi, named: true };
    return { slices: seg.tableSlices.filter((s) => s.gpu === gpu), named: false };
  };

  const gpuIndexes = new Set<number>([...seg.gpus.keys(), ...seg.lgiSlices.map((s) => s.gpu)]);
  for (const index of [...gpuIndexes].sort((a, b) => a - b)) {
    const g = seg.gpus.get(index);
    const { slices, named } = slicesOf(index);
    const label = g?.name ? `GPU ${index} (${g.name})` : `GPU ${index}`;
    const line = g?.line ?? slices[0]?.line ?? 0;
    let parentClass: string | undefined;
    if (g?.name) {
      const id = identifyCard(g.name, g.totalMib);
      if (!id) {
        say(
          `${label}: the name does not say which card it is${/\.\.\.$/.test(g.name) ? " (cut short)" : ""} and no memory total was printed: add it by hand`,
          line,
        );
        continue;
      }
      if (!id.card)
        say(
          `${label} is not in the card catalog: added as "${id.class}" with the ${(id.memGib ?? 0).toFixed(1)} GiB it reports`,
          line,
        );
      parentClass = id.class;
      if (slices.length === 0) {
        if (g.migEnabled) {
          say(
            seg.noMigDevices
              ? `${label} is in MIG mode with no instances ("No MIG devices found"): nothing can run on it until instances are made; the card is left out`
              : `${label} is in MIG mode but its instances are not in the paste: add \`nvidia-smi -L\` or \`nvidia-smi mig -lgi\`; the card is left out`,
            line,
          );
          continue;
        }
        const busy = g.err || g.computeProcesses > 0 || (g.usedMib ?? 0) >= BUSY_USED_MIB;
        if (g.err) say(`${label} shows ERR!: counted, but not as free`, line);
        const freeMemGib =
          g.totalMib !== undefined && g.usedMib !== undefined ? Math.max(0, g.totalMib - g.usedMib) / 1024 : undefined;
        node.devices.push({ class: id.class, free: !busy, memGib: id.memGib, freeMemGib, name: String(index) });
        continue;
      }
    } else if (g?.err) {
      say(
        `GPU ${index} shows ERR! where its name should be${g.totalMib ? ` (${g.totalMib} MiB)` : ""}: add it by hand if it works`,
        line,
      );
      continue;
    }
    if (slices.length === 0) continue;
    if (!parentClass) {
      const names = slices.map((s) => s.profile ?? "").filter(Boolean);
      const lgip = seg.lgip.get(index);
      const parent = parentFromProfiles(
        names.map((name) => {
          const gib = lgip?.get(name.replace(/[+-].*$/, ""));
          return { name, memoryBytes: gib !== undefined ? gib * 2 ** 30 : undefined };
        }),
      );
      if (!parent) {
        say(
          `${label}: MIG instances ${names.join(", ")} match no card in the catalog; paste \`nvidia-smi -L\` with them`,
          line,
        );
        continue;
      }
      parentClass = parent.card.class;
      say(
        `${label}: mig -lgi does not name the card; ${parentClass} by its profiles${parent.others.length > 0 ? ` (also possible: ${parent.others.join(", ")}; the smallest is kept)` : ""}`,
        line,
      );
    }
    if (!named)
      say(`${label}: the table prints no MIG profile names; slices matched by their memory`, slices[0]?.line ?? line);
    for (const s of slices) addSlice(node, parentClass, s, label, say);
  }
  if (!seg.host && node.devices.length > 0)
    warnings.push(
      note(`nvidia-smi does not print the host name: the node is called "${node.id}"; rename it`, { node: node.id }),
    );
  return node;
}

function addSlice(
  node: DraftNode,
  parentClass: string,
  s: Slice,
  label: string,
  say: (m: string, line: number) => void,
): void {
  const memoryBytes = s.memMib !== undefined ? s.memMib * MIB : undefined;
  const busy = (s.usedMib ?? 0) >= BUSY_USED_MIB;
  if (s.profile !== undefined) {
    const mig = identifyMig(parentClass, s.profile, memoryBytes);
    if (!mig) return say(`${label}: cannot read the MIG profile "${s.profile}"`, s.line);
    if (mig.warning) say(mig.warning, s.line);
    node.devices.push({ class: mig.class, free: !busy, memGib: mig.memGib, name: s.uuid });
    return;
  }
  // A table slice: memory only. Profiles of equal memory differ only in compute, so the fewest slices is taken.
  const card = cardOf(parentClass);
  const byMemory = card?.migProfiles
    .filter((p) => memoryBytes !== undefined && Math.abs(p.memoryBytes - memoryBytes) / p.memoryBytes < 0.05)
    .sort((a, b) => a.slices - b.slices)[0];
  if (!byMemory) {
    node.devices.push({
      class: `${parentClass}-mig-${Math.round((s.memMib ?? 0) / 1024)}gb`,
      free: !busy,
      memGib: (s.memMib ?? 0) / 1024,
    });
    return say(
      `${label}: a ${s.memMib} MiB MIG slice matches no catalog profile: added with the memory it reports`,
      s.line,
    );
  }
  const reported = memoryBytes !== undefined && memoryBytes < byMemory.memoryBytes ? memoryBytes / 2 ** 30 : undefined;
  const freeMemGib =
    s.memMib !== undefined && s.usedMib !== undefined ? Math.max(0, s.memMib - s.usedMib) / 1024 : undefined;
  node.devices.push({ class: `${parentClass}-mig-${byMemory.profile}`, free: !busy, memGib: reported, freeMemGib });
}

export function readNvidia(text: string): Reading {
  if (HEADERLESS_CSV.test(text) && !/memory\.total|^[^\S\n]*index\s*,\s*name/m.test(text)) {
    return {
      nodes: [],
      warnings: [],
      errors: [
        note(
          "this is `nvidia-smi --query-gpu=… --format=csv,noheader`: without the header the columns cannot be told apart; run it again without `noheader` (nounits is fine)",
        ),
      ],
      format: "nvidia-smi --query-gpu csv",
    };
  }
  const { segments, warnings } = parse(text);
  const inventories = segments.filter((seg) => seg.gpus.size > 0 || seg.lgiSlices.length > 0);
  if (inventories.length === 0) {
    const what =
      LGIPP.test(text) && !LGIP_ANYWHERE.test(text)
        ? "`nvidia-smi mig -lgipp`: where profiles could be placed"
        : "`nvidia-smi mig -lgip`: the profiles a card could still make";
    return {
      nodes: [],
      warnings: [],
      errors: [note(`this is ${what}, not what the card has; paste \`nvidia-smi -L\` or \`nvidia-smi mig -lgi\``)],
      format: "nvidia-smi mig -lgip",
    };
  }
  const nodes = inventories.map((seg, i) => buildNode(seg, i, warnings));
  const found = nodes.filter((n) => n.devices.length > 0);
  const kinds = new Set(segments.flatMap((s) => [...s.kinds]));
  if (found.length > 0 && !kinds.has("table") && !kinds.has("csv")) {
    warnings.push(
      note("nvidia-smi -L and mig -lgi do not say which cards are busy: all are taken as free; set the free counts"),
    );
  } else if (found.length > 0) {
    warnings.push(
      note(
        `nvidia-smi does not know the scheduler: a card is taken as busy when a compute process runs on it or it holds ${BUSY_USED_MIB} MiB or more; check the free counts`,
      ),
    );
  }
  if (found.length === 0) {
    const errors = warnings.length > 0 ? warnings : [note("read as nvidia-smi output, but no cards were found in it")];
    return { nodes: [], warnings: [], errors, format: nvidiaFormat(text) };
  }
  return { nodes: found.map(finishNode), warnings, errors: [], format: nvidiaFormat(text) };
}

export function nvidiaFormat(text: string): string {
  if (BANNER.test(text) || /Memory-Usage/.test(text)) return "nvidia-smi";
  if (LIST_GPU.test(text.split("\n").find((l) => LIST_GPU.test(l)) ?? "")) return "nvidia-smi -L";
  if (/GPU instances:/.test(text)) return "nvidia-smi mig -lgi";
  if (/memory\.total|^[^\S\n]*index\s*,\s*name/m.test(text)) return "nvidia-smi --query-gpu csv";
  return "nvidia-smi";
}

export const NVIDIA_READER: Reader = {
  format: "nvidia-smi",
  detect: (text) => detectNvidia(text),
  read: (text) => readNvidia(text),
};
