/**
 * Slurm: `scontrol show node(s)` (plain or -d), slurm.conf NodeName lines,
 * gres.conf and `sinfo`. Gres gives the cards (`gpu:a100:8`, `gpu:a40:1(S:0-1)`,
 * `gpu:8`), GresUsed or AllocTRES the ones in use, RealMemory and AllocMem the
 * RAM (Slurm's "MB" are MiB), State whether anything may start: a DRAIN,
 * DOWN, FAIL or MAINT node has no free cards whatever its counts say. GPU
 * types are site-defined and carry no memory, so the variant of an A100 or a
 * V100 is the smaller one unless the type or Features say otherwise, and the
 * review says so.
 */
import { draftNode, finishNode, pushDevices, type DraftNode } from "./draft.ts";
import { identifyCard, MIG_NAME_TO_GIB, parseMigProfile } from "./identify.ts";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";
import { MAX_NODES } from "./validate.ts";

/** Expands a Slurm host list: "c[002-004,007],gpu-1" → c002 c003 c004 c007 gpu-1; never past MAX_NODES hosts. */
export function expandHostList(list: string): string[] {
  const out: string[] = [];
  for (const part of list.match(/[^,[]+(\[[^\]]*\])?[^,]*/g) ?? []) {
    if (out.length >= MAX_NODES) break;
    const m = /^(.*?)\[([^\]]*)\](.*)$/.exec(part);
    if (!m) {
      if (part) out.push(part);
      continue;
    }
    const [, prefix, ranges, suffix] = m as unknown as [string, string, string, string];
    for (const range of ranges.split(",")) {
      const [a, b] = range.split("-");
      if (a === undefined) continue;
      const from = Number(a);
      const to = b === undefined ? from : Number(b);
      if (!Number.isInteger(from) || !Number.isInteger(to) || to < from || to - from > 10_000) {
        out.push(`${prefix}${range}${suffix}`);
        continue;
      }
      for (let i = from; i <= to && out.length < MAX_NODES; i++)
        out.push(`${prefix}${String(i).padStart(a.length, "0")}${suffix}`);
    }
  }
  return out;
}

interface SlurmNode {
  names: string[];
  line: number;
  fields: Map<string, string>;
}

export function detectSlurm(text: string): boolean {
  return (
    /(^|\s)NodeName=\S+/m.test(text) ||
    /^[^\S\n]*PARTITION\s+AVAIL\s+TIMELIMIT/m.test(text) ||
    /^[^\S\n]*NODELIST\s+\S/m.test(text) ||
    /^[^\S\n]*Name=gpu\s+/m.test(text)
  );
}

/** Every `Key=Value` of a node, from its NodeName line to the next. */
function readNodes(text: string): { nodes: SlurmNode[]; gresConf: Map<string, number>; sinfo: Map<string, string> } {
  const nodes: SlurmNode[] = [];
  const gresConf = new Map<string, number>();
  const sinfo = new Map<string, string>();
  let current: SlurmNode | undefined;
  let sinfoColumns: string[] | null = null;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line)) return;
    const header = /^\s*PARTITION\s+AVAIL/.test(line) || /^\s*NODELIST\s/.test(line);
    if (header) {
      sinfoColumns = line.trim().split(/\s+/);
      return;
    }
    if (sinfoColumns && !/=/.test(line) && line.trim() !== "") {
      const cells = line.trim().split(/\s+/);
      const at = (name: string) => cells[sinfoColumns!.indexOf(name)];
      const list = at("NODELIST");
      if (list && cells.length === sinfoColumns.length) {
        for (const host of expandHostList(list)) sinfo.set(host, at("STATE") ?? "");
        const gres = at("GRES");
        if (gres && gres !== "(null)") {
          current = {
            names: expandHostList(list),
            line: i + 1,
            fields: new Map([
              ["Gres", gres],
              ["State", at("STATE") ?? ""],
            ]),
          };
          nodes.push(current);
        }
        return;
      }
      if (!/^\s/.test(raw)) sinfoColumns = null;
    }
    const gresLine = /^\s*Name=gpu\b.*?\bType=(\S+)/.exec(line);
    if (gresLine?.[1] && !/NodeName=/.test(line)) {
      gresConf.set(gresLine[1], (gresConf.get(gresLine[1]) ?? 0) + 1);
      return;
    }
    const start = /(?:^|\s)NodeName=(\S+)/.exec(line);
    if (start?.[1]) {
      current = { names: expandHostList(start[1]), line: i + 1, fields: new Map() };
      nodes.push(current);
    }
    if (!current || /^\s*(PartitionName|GresTypes)=/.test(line)) return;
    for (const m of line.matchAll(/(?:^|\s)([A-Za-z]+)=(\S*)/g)) {
      if (m[1] !== "NodeName") current.fields.set(m[1]!, m[2]!);
    }
  });
  return { nodes, gresConf, sinfo };
}

interface GresEntry {
  type: string;
  count: number;
}

/** "gpu:a100:8", "gpu:a40:1(S:0,2,4)", "gpu:8", "gpu:1080ti:1(IDX:0),gpu:980gtx:1(IDX:1)" → type and count per entry. */
export function parseGres(gres: string | undefined): GresEntry[] {
  if (!gres || gres === "(null)") return [];
  const out: GresEntry[] = [];
  for (const part of gres.split(/,(?![^(]*\))/)) {
    const m = /^gpu(?::([^:(]+))?:(\d+)/.exec(part.trim());
    if (m) out.push({ type: m[1] ?? "", count: Number(m[2]) });
  }
  return out;
}

/** GPUs in use: GresUsed's counts, else AllocTRES's gres/gpu (empty when none are allocated). */
function usedGpus(fields: Map<string, string>): Map<string, number> | number {
  const gresUsed = fields.get("GresUsed");
  if (gresUsed) {
    const used = new Map<string, number>();
    for (const e of parseGres(gresUsed)) used.set(e.type, (used.get(e.type) ?? 0) + e.count);
    return used;
  }
  const tres = /(?:^|,)gres\/gpu=(\d+)/.exec(fields.get("AllocTRES") ?? "");
  return tres ? Number(tres[1]) : 0;
}

/**
 * Which GPUs are in use, by GRES index, from `scontrol -d`'s GresUsed
 * ("gpu:a100:2(IDX:0-1)", "gpu:a40:0(IDX:N/A)"), by type; absent without IDX.
 */
function usedIndices(gresUsed: string | undefined): Map<string, Set<number>> | undefined {
  if (!gresUsed || !/\(IDX:/.test(gresUsed)) return undefined;
  const used = new Map<string, Set<number>>();
  for (const part of gresUsed.split(/,(?![^(]*\))/)) {
    const m = /^gpu(?::([^:(]+))?:\d+\(IDX:([^)]*)\)/.exec(part.trim());
    if (!m) continue;
    const set = used.get(m[1] ?? "") ?? new Set<number>();
    for (const range of (m[2] ?? "").split(",")) {
      const [a, b] = range.split("-").map(Number);
      if (a === undefined || !Number.isInteger(a)) continue;
      for (let i = a; i <= (b !== undefined && Number.isInteger(b) ? Math.min(b, a + 1024) : a); i++) set.add(i);
    }
    used.set(m[1] ?? "", set);
  }
  return used;
}

/** Slurm's memory fields are in MB meaning MiB (slurm.conf(5): RealMemory "in megabytes"), CfgTRES mem with a unit. */
function tresMemGib(cfg: string | undefined): number | undefined {
  const m = /(?:^|,)mem=(\d+(?:\.\d+)?)([KMGT])?/.exec(cfg ?? "");
  if (!m) return undefined;
  const scale: Record<string, number> = { K: 1 / 1024 / 1024, M: 1 / 1024, G: 1, T: 1024 };
  return Number(m[1]) * (scale[m[2] ?? "M"] ?? 1 / 1024);
}

/**
 * Below this a RealMemory is a misconfiguration, not a machine (the samples
 * carry RealMemory=1 and RealMemory=480, the latter meant as GB): no host
 * that serves models has less than 4 GiB.
 */
const MIN_PLAUSIBLE_RAM_GIB = 4;

const NOT_SCHEDULABLE = /DRAIN|DOWN|FAIL|MAINT|NOT_RESPONDING|POWER(ED|ING)_DOWN|RESERVED|REBOOT/i;

function stateOf(raw: string | undefined): { usable: boolean; allocated: boolean } {
  const state = (raw ?? "").toUpperCase();
  // sinfo suffixes: * not responding, ~ powered off, # powering up, % powering down, ! pending power down, @ reboot pending.
  const notResponding = /[*~%!@]$/.test(state.trim());
  return {
    usable: !NOT_SCHEDULABLE.test(state) && !notResponding && !/^(DRAIN|DRNG|DRNG@|FAIL|MAINT|DOWN)/i.test(state),
    allocated: /^ALLOC/.test(state),
  };
}

/** The card a Slurm GPU type names, with the Features as a second hint; A100/V100 without a size are the smaller. */
function cardOfType(
  type: string,
  features: string,
  say: (m: string) => void,
): { class: string; memGib?: number } | null {
  const hints = [type, ...features.split(",")].filter((h) => h && h !== "(null)");
  for (const hint of hints) {
    const id = identifyCard(hint);
    if (id?.card) return { class: id.class };
  }
  const family = hints.map((h) => h.toLowerCase()).find((h) => /a100|v100/.test(h));
  if (family) {
    const cls = /a100/.test(family) ? "a100-40g" : "v100-16g";
    say(
      `Slurm's GPU type "${type || family}" does not say its memory: taken as ${cls}, the smaller; change the class if the cards are larger`,
    );
    return { class: cls };
  }
  const mig = parseMigProfile(type);
  if (mig) {
    const memGib = Math.floor(mig.nameGb * MIG_NAME_TO_GIB * 100) / 100;
    say(
      `Slurm's GPU type "${type}" is a MIG profile with no card named: added as "gpu-mig-${mig.profile}" at ${memGib} GiB (${Math.round(MIG_NAME_TO_GIB * 100)}% of its name, the least any listed slice holds); set the card`,
    );
    return { class: `gpu-mig-${mig.profile}`, memGib };
  }
  return null;
}

function buildNode(
  id: string,
  n: SlurmNode,
  sinfoState: string | undefined,
  gresConf: Map<string, number>,
  warnings: ImportMessage[],
  problems: ImportMessage[],
): DraftNode {
  const node = draftNode(id);
  const say = (message: string) => warnings.push(note(message, { node: id, line: n.line }));
  const fail = (message: string) => problems.push(note(message, { node: id, line: n.line }));
  const f = n.fields;

  const realGib = f.has("RealMemory") ? Number(f.get("RealMemory")) / 1024 : undefined;
  const cfgGib = tresMemGib(f.get("CfgTRES"));
  const ramGib = [realGib, cfgGib].find((g) => g !== undefined && g >= MIN_PLAUSIBLE_RAM_GIB);
  if (ramGib !== undefined) {
    node.hostMemGib = Math.round(ramGib * 100) / 100;
    const allocGib = Number(f.get("AllocMem") ?? "0") / 1024;
    node.hostFreeGib = Math.max(0, Math.round((ramGib - allocGib) * 100) / 100);
  } else if (realGib !== undefined) {
    say(
      `RealMemory=${f.get("RealMemory")} MB is not a real machine's RAM (a misconfigured slurm.conf): host RAM left unknown; set it`,
    );
  }
  const features = f.get("ActiveFeatures") ?? f.get("AvailableFeatures") ?? f.get("Features") ?? "";
  const fabric = features.split(",").find((x) => /^(ib|infiniband|roce|efa)$/i.test(x));
  if (fabric) node.fabric = fabric.toLowerCase();

  const state = stateOf(f.get("State") ?? sinfoState);
  let gres = parseGres(f.get("Gres"));
  if (gres.length === 0 && gresConf.size > 0) gres = [...gresConf].map(([type, count]) => ({ type, count }));
  if (gres.length === 0) {
    const tres = /(?:^|,)gres\/gpu=(\d+)/.exec(f.get("CfgTRES") ?? "");
    if (tres && Number(tres[1]) > 0)
      fail(`CfgTRES counts ${tres[1]} GPU(s) but no Gres line says which: add the node's Gres`);
    return node;
  }
  const used = usedGpus(f);
  let untypedUsed = typeof used === "number" ? used : 0;
  if (!state.usable) say(`State=${f.get("State") ?? sinfoState}: nothing can start on it, so no card counts as free`);
  const usedIdx = usedIndices(f.get("GresUsed"));
  // GRES indices run over the node's gpu entries in order (gres.conf's File order).
  let firstIndex = 0;
  for (const entry of gres) {
    const indices = Array.from({ length: Math.min(entry.count, 1024) }, (_, i) => firstIndex + i);
    firstIndex += entry.count;
    const card = cardOfType(entry.type, features, say);
    if (!card) {
      fail(
        `GPU type "${entry.type || "(none)"}" names no card Modelplan knows${entry.type ? "" : " (Gres=gpu:N gives only a count)"}: add the node by hand, or give its card in Features`,
      );
      continue;
    }
    const usedHere = typeof used === "number" ? Math.min(untypedUsed, entry.count) : (used.get(entry.type) ?? 0);
    if (typeof used === "number") untypedUsed -= usedHere;
    const free = state.usable && !state.allocated ? Math.max(0, entry.count - usedHere) : 0;
    const busyIdx = usedIdx?.get(entry.type);
    const freeIdx = indices.filter((i) => !busyIdx?.has(i));
    // Named only when IDX accounts for every free card: the free ones first, as pushDevices takes them.
    const names =
      busyIdx !== undefined && freeIdx.length === free
        ? [...freeIdx, ...indices.filter((i) => busyIdx.has(i))].map(String)
        : undefined;
    const problem = pushDevices(node, card.class, entry.count, free, card.memGib, {
      gresType: entry.type,
      ...(names ? { names } : {}),
    });
    if (problem) fail(problem);
  }
  return node;
}

export function readSlurm(text: string): Reading {
  const { nodes, gresConf, sinfo } = readNodes(text);
  const warnings: ImportMessage[] = [];
  const problems: ImportMessage[] = [];
  // scontrol repeats what slurm.conf said: the last description of a host wins.
  const byHost = new Map<string, SlurmNode>();
  for (const n of nodes) for (const host of n.names) byHost.set(host, n);
  if (byHost.size === 0 && gresConf.size > 0) byHost.set("node-1", { names: ["node-1"], line: 1, fields: new Map() });
  const drafts = [...byHost].map(([host, n]) => buildNode(host, n, sinfo.get(host), gresConf, warnings, problems));
  for (const host of sinfo.keys()) {
    if (!byHost.has(host))
      warnings.push(
        note(
          `sinfo lists ${host}, but no scontrol output describes it: add \`scontrol show node ${host}\` to import its cards`,
        ),
      );
  }
  const unread = new Set(problems.map((p) => p.node));
  const found = drafts.filter((d) => !unread.has(d.id) && (d.devices.length > 0 || d.hostMemGib > 0)).map(finishNode);
  const format = /NodeName=\S+.*\n\s+(CPUAlloc|Arch)=/.test(text)
    ? "slurm scontrol show node"
    : sinfo.size > 0 && nodes.length === 0
      ? "slurm sinfo"
      : "slurm";
  if (found.length === 0) {
    const errors =
      problems.length > 0
        ? problems
        : [
            note(
              sinfo.size > 0
                ? 'sinfo names nodes but not their cards: paste `scontrol show node` (or `sinfo -o "%N %G %T"`)'
                : "read as Slurm output, but no node with GPUs or RAM was found",
            ),
          ];
    return { nodes: [], warnings, errors, format };
  }
  warnings.push(...problems);
  if (found.every((n) => n.fabric === "") && found.length > 1)
    warnings.push(
      note(
        'Slurm does not say how nodes are connected: set a fabric on the nodes that share one (Features such as "ib" are read when present)',
      ),
    );
  return { nodes: found, warnings, errors: [], format };
}

export const SLURM_READER: Reader = { format: "slurm", detect: detectSlurm, read: readSlurm };
