/**
 * Edits the panel makes to a cluster, as pure functions: each returns a new
 * cluster and leaves the old one untouched, so the page's store can keep the
 * previous one for undo and the URL.
 */
import { CARDS, cardMemoryBytes } from "../plan/index.ts";
import type { Cluster, ClusterNode, DeviceGroup } from "../plan/index.ts";

/** Copies a panel may add at once: past this, an import or a file is the better tool. */
export const MAX_DUPLICATES = 256;

/** An id not yet used in the cluster: "node-3", or "dgx-1-2" for a copy of dgx-1. */
export function freshId(cluster: Cluster, base = "node"): string {
  const taken = new Set(cluster.nodes.map((n) => n.id));
  const stem = base.replace(/-\d+$/, "") || "node";
  for (let i = 1; ; i++) {
    const id = `${stem}-${i}`;
    if (!taken.has(id)) return id;
  }
}

export function addNode(cluster: Cluster, node?: Partial<ClusterNode>): Cluster {
  const next: ClusterNode = {
    id: node?.id ?? freshId(cluster),
    fabric: node?.fabric ?? "",
    hostMemGib: node?.hostMemGib ?? 0,
    hostFreeGib: node?.hostFreeGib ?? node?.hostMemGib ?? 0,
    devices: node?.devices ?? [],
  };
  return { nodes: [...cluster.nodes, next] };
}

/** Adds `times` copies of the node at `index`, each with a fresh id, right after it. */
export function duplicateNode(cluster: Cluster, index: number, times = 1): Cluster {
  const source = cluster.nodes[index];
  if (!source) return cluster;
  const n = Math.max(0, Math.min(MAX_DUPLICATES, Math.floor(times)));
  const copies: ClusterNode[] = [];
  let working = cluster;
  for (let i = 0; i < n; i++) {
    const copy: ClusterNode = {
      ...source,
      id: freshId(working, source.id),
      devices: source.devices.map((d) => ({ ...d })),
    };
    copies.push(copy);
    working = { nodes: [...working.nodes, copy] };
  }
  return { nodes: [...cluster.nodes.slice(0, index + 1), ...copies, ...cluster.nodes.slice(index + 1)] };
}

export function removeNode(cluster: Cluster, index: number): Cluster {
  return { nodes: cluster.nodes.filter((_, i) => i !== index) };
}

export function updateNode(cluster: Cluster, index: number, change: Partial<Omit<ClusterNode, "devices">>): Cluster {
  return { nodes: cluster.nodes.map((n, i) => (i === index ? { ...n, ...change } : n)) };
}

export function addDevice(cluster: Cluster, index: number, device: DeviceGroup): Cluster {
  return { nodes: cluster.nodes.map((n, i) => (i === index ? { ...n, devices: [...n.devices, device] } : n)) };
}

/** Replaces one device group: a whole object, so a custom memory can be dropped by leaving memGib out. */
export function setDevice(cluster: Cluster, index: number, deviceIndex: number, device: DeviceGroup): Cluster {
  return {
    nodes: cluster.nodes.map((n, i) =>
      i === index ? { ...n, devices: n.devices.map((d, j) => (j === deviceIndex ? device : d)) } : n,
    ),
  };
}

export function removeDevice(cluster: Cluster, index: number, deviceIndex: number): Cluster {
  return {
    nodes: cluster.nodes.map((n, i) =>
      i === index ? { ...n, devices: n.devices.filter((_, j) => j !== deviceIndex) } : n,
    ),
  };
}

export interface ClassOption {
  /** The class label: "h100-80g", "a100-80g-mig-3g.40gb". */
  value: string;
  /** What the picker shows: "a100-80g-mig-3g.40gb · 39.25 GiB". */
  label: string;
}

export interface ClassGroup {
  /** The card's name as nvidia-smi prints it. */
  label: string;
  options: ClassOption[];
}

/** GiB with at most two decimals, as lgip prints them: a unit conversion for display, not a plan figure. */
function gibText(bytes: number): string {
  return `${Math.round((bytes / 2 ** 30) * 100) / 100} GiB`;
}

/** The picker's catalog: one group per card, the whole card first, then its MIG profiles. */
export function classGroups(): ClassGroup[] {
  // One group per card name: a machine sold in several memory sizes (Apple M3 Ultra 256 and 512 GB) is one
  // group of classes, not two groups of one name (which React also keys on).
  const groups = new Map<string, ClassGroup>();
  for (const card of CARDS) {
    let group = groups.get(card.name);
    if (group === undefined) {
      group = { label: card.name, options: [] };
      groups.set(card.name, group);
    }
    group.options.push(
      { value: card.class, label: `${card.class} · ${gibText(card.memoryBytes)}` },
      ...card.migProfiles.map((p) => ({
        value: `${card.class}-mig-${p.profile}`,
        label: `${card.class}-mig-${p.profile} · ${gibText(p.memoryBytes)}`,
      })),
    );
  }
  return [...groups.values()];
}

/** Whether the catalog knows a class (whole card or MIG profile) without a memory of its own. */
export function isCatalogClass(cls: string): boolean {
  return cardMemoryBytes(cls) !== null;
}

/** A new device group for the picker's "custom" choice: the user types its class and memory. 24 GiB is only a starting value to overwrite (the commonest workstation card size, RTX 3090/4090). */
export const CUSTOM_DEVICE: DeviceGroup = { class: "custom-gpu", count: 1, free: 1, memGib: 24 };
