/**
 * rocm-smi: the concise table (two lines a device, the name on the second)
 * and `--showmeminfo vram` (bytes). An MI300X split into compute partitions
 * (DPX, QPX, CPX in the Partitions column) is listed once per partition, and
 * each partition reports the whole card's memory (ROCm/legacy-rocm-build
 * #4750): counting each as a card would count one card's memory up to eight
 * times. A partition is therefore recorded as 1/N of its card.
 */
import { CARDS, cardOf } from "../plan/index.ts";
import { draftNode, finishNode, promptHost } from "./draft.ts";
import { identifyCard } from "./identify.ts";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";

/** PCI device ids (pci.ids, AMD vendor 1002): what the concise table's "[Model : Revision]" column prints. */
const DEVICE_IDS: Record<string, string> = {
  "0x74a1": "mi300x-192g",
  "0x74b5": "mi325x-256g",
  // Chip ids as rocminfo prints them beside the card's name: MI210 "29711(0x740f)" (ROCm/legacy-rocm-build#2595),
  // MI100 "29580(0x738c)" (ROCm/amdgpu#173); 0x7408 is what rocm-smi's "Card Model" prints on HPE Cray EX MI250X nodes.
  "0x7408": "mi250x-64g",
  "0x740f": "mi210-64g",
  "0x738c": "mi100-32g",
};

/** The AMD catalog cards by the byte total each reports. */
const AMD_BY_TOTAL: ReadonlyMap<number, string[]> = CARDS.filter((c) => c.vendor === "amd").reduce((m, c) => {
  m.set(c.memoryBytes, [...(m.get(c.memoryBytes) ?? []), c.class]);
  return m;
}, new Map<number, string[]>());

/** Devices one card becomes in each compute-partition mode (AMD Instinct MI300X partitioning docs). */
const PARTITIONS: Record<string, number> = { SPX: 1, DPX: 2, QPX: 4, CPX: 8 };

/** VRAM% at or past which a device is taken as busy: 1% of an MI300X is 1.9 GiB, a loaded model's worth. */
const BUSY_VRAM_PERCENT = 1;

interface Device {
  index: number;
  line: number;
  name?: string;
  deviceId?: string;
  mode?: string;
  vramPercent?: number;
  totalBytes?: number;
  usedBytes?: number;
}

export function detectRocm(text: string): boolean {
  return /ROCm System Management Interface|VRAM Total Memory \(B\)|^[^\S\n]*Device\s+\[Model : Revision\]/m.test(text);
}

export function readRocm(text: string): Reading {
  const devices = new Map<number, Device>();
  const warnings: ImportMessage[] = [];
  let host: string | null = null;
  let last: Device | undefined;
  const at = (index: number, line: number): Device => {
    const d = devices.get(index) ?? { index, line };
    devices.set(index, d);
    return d;
  };
  text.split("\n").forEach((raw, i) => {
    const line = raw.trimEnd();
    host = host ?? promptHost(line);
    const mem = /^GPU\[(\d+)\]\s*:\s*VRAM Total (Used )?Memory \(B\):\s*(\d+)/.exec(line);
    if (mem) {
      const d = at(Number(mem[1]), i + 1);
      if (mem[2]) d.usedBytes = Number(mem[3]);
      else d.totalBytes = Number(mem[3]);
      return;
    }
    const row = /^(\d+)\s+(?:\d+\s+)?\[?(0x[0-9a-f]{4})[\s:,\]]/i.exec(line);
    if (row && /°C|W\s/.test(line)) {
      last = at(Number(row[1]), i + 1);
      last.deviceId = row[2]!.toLowerCase();
      const mode = /\b(SPX|DPX|QPX|CPX)\b/.exec(line);
      if (mode?.[1]) last.mode = mode[1];
      const percents = [...line.matchAll(/(\d+(?:\.\d+)?)%/g)].map((m) => Number(m[1]));
      // The last two percentages are VRAM% and GPU%.
      if (percents.length >= 2) last.vramPercent = percents[percents.length - 2]!;
      return;
    }
    const name = /^\s+(AMD Instinct \S+|AMD Radeon [\w ]+?)\s*$/.exec(line);
    if (name?.[1] && last && last.name === undefined) last.name = name[1];
  });

  // A paste that shows a partition mode for some devices (the concise table) and only memory for
  // others (--showmeminfo) is one machine in one mode: the memory-only devices are partitions too.
  const shown = [...devices.values()].map((d) => d.mode).find((m) => m !== undefined && m !== "SPX");
  if (shown) for (const d of devices.values()) d.mode ??= shown;

  const node = draftNode(host ?? "node-1");
  if (!host)
    warnings.push(
      note(`rocm-smi does not print the host name: the node is called "${node.id}"; rename it`, { node: node.id }),
    );
  const errors: ImportMessage[] = [];
  for (const d of [...devices.values()].sort((a, b) => a.index - b.index)) {
    // Memory-only lines (--showmeminfo) name no card: the exact byte total a catalog card reports does, when only one
    // card reports it (an MI210 and an MI250X GCD both report 68,702,699,520; three 16 GB Radeons 17,163,091,968).
    const sameTotal = d.totalBytes !== undefined ? AMD_BY_TOTAL.get(d.totalBytes) : undefined;
    const byMemory = sameTotal?.length === 1 ? sameTotal[0] : undefined;
    const byId = (d.deviceId ? DEVICE_IDS[d.deviceId] : undefined) ?? byMemory;
    const id = d.name ? identifyCard(d.name, d.totalBytes !== undefined ? d.totalBytes / 2 ** 20 : undefined) : null;
    const cls = id?.card ? id.class : byId;
    if (!cls) {
      errors.push(
        note(`GPU ${d.index}${d.name ? ` (${d.name})` : ""}: not a card Modelplan knows; add it by hand`, {
          line: d.line,
          node: node.id,
        }),
      );
      continue;
    }
    const card = cardOf(cls)!;
    const parts = PARTITIONS[d.mode ?? "SPX"] ?? 1;
    const busy = (d.vramPercent ?? 0) >= BUSY_VRAM_PERCENT || (d.usedBytes ?? 0) >= 2 ** 30;
    if (parts > 1) {
      node.devices.push({
        class: `${cls}-${d.mode!.toLowerCase()}`,
        free: !busy,
        memGib: card.memoryBytes / parts / 2 ** 30,
      });
    } else {
      const reported =
        d.totalBytes !== undefined && d.totalBytes < card.memoryBytes ? d.totalBytes / 2 ** 30 : undefined;
      const freeMemGib =
        d.totalBytes !== undefined && d.usedBytes !== undefined
          ? Math.max(0, d.totalBytes - d.usedBytes) / 2 ** 30
          : undefined;
      node.devices.push({ class: cls, free: !busy, memGib: reported, freeMemGib });
    }
  }
  const modes = new Set([...devices.values()].map((d) => d.mode).filter((m) => m && m !== "SPX"));
  if (modes.size > 0) {
    warnings.push(
      note(
        `compute partitions (${[...modes].join(", ")}): each partition reports the whole card's memory; each is counted as its share of the card`,
      ),
    );
  } else if ([...devices.values()].every((d) => d.mode === undefined) && devices.size > 1) {
    warnings.push(
      note(
        "`rocm-smi --showmeminfo vram` does not show partitions: if the cards are split (CPX/QPX/DPX), paste `rocm-smi` too, or each partition is counted as a whole card",
      ),
    );
  }
  warnings.push(
    note(
      "rocm-smi knows no scheduler: a device is taken as busy when it holds 1% of its memory or more; check the free counts",
    ),
  );
  if (node.devices.length === 0)
    return {
      nodes: [],
      warnings: [],
      errors: errors.length > 0 ? errors : [note("read as rocm-smi output, but no devices were found")],
      format: "rocm-smi",
    };
  return { nodes: [finishNode(node)], warnings: [...warnings, ...errors], errors: [], format: "rocm-smi" };
}

export const ROCM_READER: Reader = { format: "rocm-smi", detect: detectRocm, read: readRocm };
