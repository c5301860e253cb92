/**
 * Identical nodes as one group: a cluster of 40 DGX H100 on ib0 is one row
 * ("40 nodes of 8 × h100-80g, ib0"), edited once for all of them, not 40 forms
 * (issue 19: 480 nodes drew 3,869 form controls and took seconds). Nodes are
 * identical when all but their id is equal: fabric, RAM, free RAM and every
 * card group. Pure functions; each edit returns a new cluster.
 */
import type { Cluster, ClusterNode } from "../plan/index.ts";

export interface NodeGroup {
  /** The indices of its nodes in cluster.nodes, in order. */
  indices: number[];
  /** The first node: what every node of the group is, but its id. */
  node: ClusterNode;
}

/** What makes two nodes the same but for their id. */
export function nodeKey(n: ClusterNode): string {
  // Every card field counts (memory, free memory, free indices, product): the importers write them in one order.
  // So do the wires: nodes on a 400G and a 100G link are two groups, or one edit would overwrite the other's speed.
  return `${n.fabric}|${n.hostMemGib}|${n.hostFreeGib}|${n.fabricGbps ?? ""}|${n.hostMemGBps ?? ""}|${n.cpuCores ?? ""}|${JSON.stringify(n.devices)}`;
}

/** The cluster's nodes grouped by nodeKey, in the order each group first appears. */
export function groupNodes(cluster: Cluster): NodeGroup[] {
  const byKey = new Map<string, NodeGroup>();
  cluster.nodes.forEach((node, index) => {
    const key = nodeKey(node);
    const group = byKey.get(key);
    if (group) group.indices.push(index);
    else byKey.set(key, { indices: [index], node });
  });
  return [...byKey.values()];
}

/** "8 × h100-80g (6 free)": a node's cards in a line, or "CPU only". */
export function cardsLabel(node: ClusterNode): string {
  if (node.devices.length === 0) return "CPU only";
  return node.devices.map((d) => `${d.count} × ${d.class}${d.free === d.count ? "" : ` (${d.free} free)`}`).join(" + ");
}

/**
 * "40 nodes of 8 × h100-80g, ib0": the group's row title. It says "nodes" in words: "40 × (8 × h100-80g)"
 * read as a formula, not as forty machines. The model has no node kind to name ("DGX H100"), so the cards say it.
 */
export function groupLabel(group: NodeGroup): string {
  const count = group.indices.length;
  const cards = cardsLabel(group.node);
  const nodes =
    count === 1
      ? cards
      : `${count.toLocaleString("en-US")} nodes${group.node.devices.length === 0 ? ", " : " of "}${cards}`;
  return `${nodes}${group.node.fabric ? `, ${group.node.fabric}` : ""}`;
}

/** Every node of the group changed the same way (its id kept). */
export function editGroup(
  cluster: Cluster,
  group: NodeGroup,
  edit: (node: ClusterNode) => Omit<ClusterNode, "id">,
): Cluster {
  const members = new Set(group.indices);
  return { nodes: cluster.nodes.map((n, i) => (members.has(i) ? { ...edit(n), id: n.id } : n)) };
}

export function removeGroup(cluster: Cluster, group: NodeGroup): Cluster {
  const members = new Set(group.indices);
  return { nodes: cluster.nodes.filter((_, i) => !members.has(i)) };
}

/** The group at `count` nodes: copies of its first (fresh ids) after its last, or its last ones removed. */
export function resizeGroup(cluster: Cluster, group: NodeGroup, count: number): Cluster {
  const want = Math.max(1, Math.floor(count));
  const have = group.indices.length;
  if (want === have) return cluster;
  if (want < have) {
    const drop = new Set(group.indices.slice(want));
    return { nodes: cluster.nodes.filter((_, i) => !drop.has(i)) };
  }
  // freshId's rule ("dgx-1" → "dgx-2", "dgx-3"…), with one counter for all copies: thousands stay linear.
  const taken = new Set(cluster.nodes.map((n) => n.id));
  const stem = group.node.id.replace(/-\d+$/, "") || "node";
  const copies: ClusterNode[] = [];
  for (let k = 0, i = 1; k < want - have; k++) {
    while (taken.has(`${stem}-${i}`)) i++;
    const id = `${stem}-${i}`;
    taken.add(id);
    copies.push({ ...group.node, id, devices: group.node.devices.map((d) => ({ ...d })) });
  }
  const last = group.indices[have - 1] ?? cluster.nodes.length - 1;
  return { nodes: [...cluster.nodes.slice(0, last + 1), ...copies, ...cluster.nodes.slice(last + 1)] };
}
