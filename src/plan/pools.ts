/** The cluster by card class and fabric: which nodes can host a width, which are free, and their RAM. */
import { cardMemoryBytes, cardOf, isMigClass } from "./cards.ts";
import { HOST_SHARE } from "./engines/llamacpp/memory.ts";
import type { ClassPool, EnumContext, FabricOrder, HostShare, PoolNode, SingleNodeHosts } from "./layout.ts";
import type { Cluster } from "./types.ts";
import { GIB } from "./units.ts";

/**
 * Groups the cluster's cards by class, and each class by fabric. A node with
 * devices of several classes is in each class's pool, as the node it is for
 * that class: its devices of that class and no others. A MIG instance runs one
 * replica alone, however many the node has (seed `classes`).
 */
export function classPools(cluster: Cluster): ClassPool[] {
  const byClass = new Map<string, ClassPool>();
  for (const node of cluster.nodes) {
    for (const d of node.devices) {
      if (d.count <= 0) continue;
      const mig = isMigClass(d.class);
      let pool = byClass.get(d.class);
      if (!pool) {
        pool = {
          gpuClass: d.class,
          memoryBytes: cardMemoryBytes(d.class, d.memGib),
          computeCapability: cardOf(d.class)?.computeCapability ?? 0,
          mig,
          maxPerNode: 0,
          fabrics: new Map(),
          hostsByWidth: new Map(),
        };
        byClass.set(d.class, pool);
      }
      const count = mig ? 1 : d.count;
      const free = mig ? Math.min(1, d.free) : d.free;
      pool.maxPerNode = Math.max(pool.maxPerNode, count);
      const list = pool.fabrics.get(node.fabric) ?? [];
      list.push({
        id: node.id,
        fabric: node.fabric,
        count,
        free,
        instances: d.count,
        instancesFree: d.free,
        freeMemBytes: d.freeMemGib === undefined ? null : d.freeMemGib * GIB,
        hostMemBytes: node.hostMemGib * GIB,
        hostFreeBytes: node.hostFreeGib * GIB,
      });
      pool.fabrics.set(node.fabric, list);
    }
  }
  return [...byClass.values()].sort((a, b) => (a.gpuClass < b.gpuClass ? -1 : a.gpuClass > b.gpuClass ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Enumeration

export function hostShare(
  mode: HostShare["mode"],
  c: EnumContext,
  node: PoolNode | null,
  fixedBytes: number,
): HostShare {
  const physical = node ? node.hostMemBytes : (c.allHostUsable[c.allHostUsable.length - 1] ?? 0) / HOST_SHARE;
  return {
    usableBytes: physical * HOST_SHARE,
    physicalBytes: physical,
    freeBytes: node ? node.hostFreeBytes : (c.allHostFree[c.allHostFree.length - 1] ?? 0),
    fixedBytes,
    mode,
    nodeUsableBytes: c.allHostUsable,
    nodeFreeBytes: c.allHostFree,
  };
}

/**
 * Single-node nodes of a class that have `width` cards, whether one has them
 * free, the most free memory a card of those has, and the node a replica would
 * take: the free one with the most free memory, else the first that has the cards.
 */
export function singleNodeHosts(pool: ClassPool, width: number): SingleNodeHosts {
  const known = pool.hostsByWidth.get(width);
  if (known) return known;
  const found = countSingleNodeHosts(pool, width);
  pool.hostsByWidth.set(width, found);
  return found;
}

function countSingleNodeHosts(pool: ClassPool, width: number): SingleNodeHosts {
  let hosts = 0;
  let replicas = 0;
  let replicasFreeNow = 0;
  let freeNow = false;
  let freeMemBytes: number | null = null;
  let unknown = false;
  let chosen: PoolNode | null = null;
  for (const nodes of pool.fabrics.values()) {
    for (const n of nodes) {
      if (n.count < width) continue;
      hosts++;
      // A MIG pool's node counts one device (it runs one replica alone); its instances are the replicas.
      replicas += n.count === 1 && n.instances > 1 ? n.instances : Math.floor(n.count / width);
      replicasFreeNow += n.count === 1 && n.instances > 1 ? n.instancesFree : Math.floor(n.free / width);
      if (n.free >= width) {
        if (!chosen || chosen.free < width || (n.freeMemBytes ?? Infinity) > (chosen.freeMemBytes ?? Infinity))
          chosen = n;
        freeNow = true;
        if (n.freeMemBytes === null) unknown = true;
        else freeMemBytes = Math.max(freeMemBytes ?? 0, n.freeMemBytes);
      } else if (!chosen) {
        chosen = n;
      }
    }
  }
  return {
    hosts,
    replicas,
    replicasFreeNow,
    freeNow,
    freeMemBytes: unknown ? null : freeMemBytes,
    nodeIds: chosen ? [chosen.id] : [],
  };
}

export function fabricOrder(able: PoolNode[], width: number): FabricOrder {
  const free = able.filter((x) => x.free >= width);
  const byFreeMem = [...free].sort((p, q) => (q.freeMemBytes ?? Infinity) - (p.freeMemBytes ?? Infinity));
  const ids = [...byFreeMem, ...able.filter((x) => x.free < width)].map((x) => x.id);
  const known = free.every((x) => x.freeMemBytes !== null);
  return { able, freeCount: free.length, ids, freeMem: known ? byFreeMem.map((x) => x.freeMemBytes ?? 0) : null };
}
