/**
 * Nodes as readers assemble them: devices are added one card (or slice) at a
 * time, with the memory the tool reported, and folded into one group per
 * class. A group's memory is the smallest any of its cards reported (a V100
 * with retired pages shows 32,764 MiB beside its 32,768 siblings: a replica
 * may land on it), recorded only when it differs from the catalog's.
 */
import { cardMemoryBytes } from "../plan/index.ts";
import type { ClusterNode, DeviceGroup } from "../plan/index.ts";
import { MAX_DEVICES_PER_GROUP } from "./bounds.ts";

export interface DraftDevice {
  class: string;
  free: boolean;
  /** GiB this device reported (or the reader worked out), when not the catalog's. */
  memGib?: number | undefined;
  /** GiB free on it now (total − used), when the tool said. */
  freeMemGib?: number | undefined;
  /** Its name in the inventory (an nvidia-smi index, a MIG UUID, a GRES index), when the tool printed one. */
  name?: string | undefined;
  /** What the scheduler calls the card, where a deployment must repeat it (DeviceGroup.gpuProduct, .gresType). */
  gpuProduct?: string | undefined;
  gresType?: string | undefined;
}

/** What a reader knows of the cards it adds beyond their class and memory. */
export interface DeviceNames {
  /** One name per card, in order (the first `free` are the free ones). */
  names?: string[];
  gpuProduct?: string;
  gresType?: string;
}

export interface DraftNode {
  id: string;
  fabric: string;
  hostMemGib: number;
  hostFreeGib: number;
  devices: DraftDevice[];
}

export function draftNode(id: string): DraftNode {
  return { id, fabric: "", hostMemGib: 0, hostFreeGib: 0, devices: [] };
}

/**
 * Adds `count` devices of a class, the first `free` of them free. A count past
 * what any node holds is a damaged paste, not a machine: it is refused with
 * words (and never allocated, which a count of 10^20 would try to do).
 */
export function pushDevices(
  node: DraftNode,
  cls: string,
  count: number,
  free: number,
  memGib?: number,
  names: DeviceNames = {},
): string | null {
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_DEVICES_PER_GROUP) {
    return `${count} ${cls} on one node is not a real count (at most ${MAX_DEVICES_PER_GROUP}): check the paste`;
  }
  for (let i = 0; i < count; i++)
    node.devices.push({
      class: cls,
      free: i < free,
      memGib,
      name: names.names?.[i],
      gpuProduct: names.gpuProduct,
      gresType: names.gresType,
    });
  return null;
}

/** Folds a node's devices into one group per class, in the order each class first appeared. */
export function finishNode(d: DraftNode): ClusterNode {
  const groups = new Map<
    string,
    {
      count: number;
      free: number;
      memGib: number | undefined;
      freeMemGib: number | undefined;
      freeNames: string[];
      named: boolean;
      gpuProduct: string | undefined;
      gresType: string | undefined;
    }
  >();
  for (const dev of d.devices) {
    const g = groups.get(dev.class) ?? {
      count: 0,
      free: 0,
      memGib: undefined,
      freeMemGib: undefined,
      freeNames: [],
      named: true,
      gpuProduct: undefined,
      gresType: undefined,
    };
    g.count += 1;
    if (dev.free) g.free += 1;
    // Free cards are named only when every card of the class is: a partial list would pin the wrong ones.
    g.named &&= dev.name !== undefined;
    if (dev.free && dev.name !== undefined) g.freeNames.push(dev.name);
    g.gpuProduct ??= dev.gpuProduct;
    g.gresType ??= dev.gresType;
    // The least free memory among the free devices: a replica may land on that one.
    if (dev.free && dev.freeMemGib !== undefined)
      g.freeMemGib = Math.min(g.freeMemGib ?? Number.POSITIVE_INFINITY, dev.freeMemGib);
    const catalogGib = (cardMemoryBytes(dev.class) ?? Number.POSITIVE_INFINITY) / 2 ** 30;
    const mem = dev.memGib ?? catalogGib;
    const smallest = Math.min(g.memGib ?? Number.POSITIVE_INFINITY, mem);
    g.memGib = Number.isFinite(smallest) ? smallest : undefined;
    groups.set(dev.class, g);
  }
  const devices: DeviceGroup[] = [...groups].map(([cls, g]) => {
    const group: DeviceGroup = { class: cls, count: g.count, free: g.free };
    const catalog = cardMemoryBytes(cls);
    if (g.memGib !== undefined && (catalog === null || Math.abs(g.memGib * 2 ** 30 - catalog) >= 1)) {
      group.memGib = Math.round(g.memGib * 1000) / 1000;
    }
    if (g.freeMemGib !== undefined && g.free > 0) group.freeMemGib = Math.floor(g.freeMemGib * 1000) / 1000;
    if (g.named && g.free > 0) group.freeIndices = g.freeNames;
    if (g.gpuProduct !== undefined) group.gpuProduct = g.gpuProduct;
    if (g.gresType !== undefined) group.gresType = g.gresType;
    return group;
  });
  return { id: d.id, fabric: d.fabric, hostMemGib: d.hostMemGib, hostFreeGib: d.hostFreeGib, devices };
}

/** The shell prompt's host in a pasted session ("aiuser1@gpu-07:~$ nvidia-smi", "[gpu6000 ~]# …"), if any. */
export function promptHost(line: string): string | null {
  const at = /^\s*(?:\(\S+\)\s*)?\[?[\w.-]+@([\w.-]+)[:\s\]]/.exec(line);
  if (at?.[1]) return at[1];
  const bracket = /^\s*\[([\w.-]+)\s+[^\]]*\][#$]/.exec(line);
  return bracket?.[1] ?? null;
}
