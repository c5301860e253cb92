/**
 * What the cluster says of its wires, for the speed model: a fabric's
 * bandwidth (an explicit `fabricGbps` on its nodes, or a label that names it:
 * `ib-400g`, `roce-200g`, `eth-25g`), and a node's host memory bandwidth.
 * Unknown stays null: the speed model assumes a stated default and says so.
 */
import type { CardMemoryKind, Cluster } from "./types.ts";

/** What the cluster gives of a card class's own speed figures (DeviceGroup memGBps, bf16Tflops, memKind); null where it gives none. */
export interface GivenCardFigures {
  memBandwidthGBps: number | null;
  bf16Tflops: number | null;
  memKind: CardMemoryKind | null;
}

/** A fabric label's line rate: "ib-400g", "roce_200G", "eth-25g" → 400, 200, 25 Gbit/s; null when it names none. */
export function fabricGbpsOfLabel(fabric: string): number | null {
  const m = /(?:^|[-_ ])(\d{1,4}(?:\.\d+)?)\s*g(?:b(?:it)?(?:ps|\/s)?)?$/i.exec(fabric.trim());
  if (!m?.[1]) return null;
  const gbps = Number(m[1]);
  return gbps > 0 ? gbps : null;
}

/** The cluster's wires, read once per plan. */
export interface ClusterLinks {
  /** One direction of a fabric per card, GB/s (line rate ÷ 8), or null when neither its nodes nor its label say. */
  fabricGBps(fabric: string): number | null;
  /** A node's host memory bandwidth in GB/s, or null when the inventory does not say. */
  hostGBps(nodeId: string | undefined): number | null;
  /**
   * The CPU option's host: it plans against the node with the most RAM
   * (pools.ts hostShare) and names none, so its bandwidth is that node's
   * (the fastest said among equals), or null when none of them says.
   */
  cpuHostGBps(): number | null;
  /** A node's CPU cores (cpu_cores), or null when the inventory does not say. */
  hostCores(nodeId: string | undefined): number | null;
  /** The CPU option's host's cores (the node cpuHostGBps names: the most RAM, the most cores said among equals). */
  cpuHostCores(): number | null;
  /**
   * The figures the cluster gives a card class (a custom card's, or a replacement of the table's), or null
   * when none of its groups gives any. Groups of one class that differ give the slowest: an option may land on any.
   */
  cardFigures(gpuClass: string): GivenCardFigures | null;
}

export function clusterLinks(cluster: Cluster): ClusterLinks {
  const fabric = new Map<string, number | null>();
  const host = new Map<string, number>();
  let mostRamGib = -Infinity;
  let cpuHost: number | null = null;
  const cores = new Map<string, number>();
  const cards = new Map<string, GivenCardFigures>();
  let cpuCores: number | null = null;
  for (const n of cluster.nodes) {
    if (n.hostMemGib > mostRamGib) {
      mostRamGib = n.hostMemGib;
      cpuHost = n.hostMemGBps ?? null;
      cpuCores = n.cpuCores ?? null;
    } else if (n.hostMemGib === mostRamGib) {
      if (n.hostMemGBps !== undefined) cpuHost = Math.max(cpuHost ?? 0, n.hostMemGBps);
      if (n.cpuCores !== undefined) cpuCores = Math.max(cpuCores ?? 0, n.cpuCores);
    }
    if (n.cpuCores !== undefined) cores.set(n.id, n.cpuCores);
    const said = n.fabricGbps ?? fabricGbpsOfLabel(n.fabric);
    // The slowest node a fabric names decides a replica that spans it.
    if (n.fabric !== "" && said !== null) fabric.set(n.fabric, Math.min(fabric.get(n.fabric) ?? Infinity, said));
    if (n.hostMemGBps !== undefined) host.set(n.id, n.hostMemGBps);
    for (const d of n.devices)
      if (d.memGBps !== undefined || d.bf16Tflops !== undefined || d.memKind !== undefined)
        cards.set(d.class, givenOf(cards.get(d.class), d));
  }
  return {
    fabricGBps: (f) => {
      const gbps = fabric.get(f);
      return gbps === undefined || gbps === null ? null : gbps / 8;
    },
    hostGBps: (id) => (id === undefined ? null : (host.get(id) ?? null)),
    cpuHostGBps: () => cpuHost,
    hostCores: (id) => (id === undefined ? null : (cores.get(id) ?? null)),
    cpuHostCores: () => cpuCores,
    cardFigures: (c) => cards.get(c) ?? null,
  };
}

/** One more group's figures folded in: the slowest bandwidth and compute given, the first kind given. */
function givenOf(
  known: GivenCardFigures | undefined,
  d: { memGBps?: number; bf16Tflops?: number; memKind?: CardMemoryKind },
): GivenCardFigures {
  const least = (a: number | null | undefined, b: number | undefined) =>
    b === undefined ? (a ?? null) : a === null || a === undefined ? b : Math.min(a, b);
  return {
    memBandwidthGBps: least(known?.memBandwidthGBps, d.memGBps),
    bf16Tflops: least(known?.bf16Tflops, d.bf16Tflops),
    memKind: known?.memKind ?? d.memKind ?? null,
  };
}
