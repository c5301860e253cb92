/**
 * What the cluster says of its wires, for the speed model: a fabric's
 * bandwidth (an explicit `fabricGbps` on its nodes, or a label that names it:
 * `ib-400g`, `roce-200g`, `eth-25g`), and a node's host memory bandwidth.
 * Unknown stays null: the speed model assumes a stated default and says so.
 */
import type { Cluster } from "./types.ts";

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
}

export function clusterLinks(cluster: Cluster): ClusterLinks {
  const fabric = new Map<string, number | null>();
  const host = new Map<string, number>();
  let mostRamGib = -Infinity;
  let cpuHost: number | null = null;
  const cores = new Map<string, number>();
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
  };
}
