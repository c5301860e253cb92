/**
 * Which cards a deployment asks for, and by what name: the device-plugin
 * resource Kubernetes schedules (nvidia.com/gpu, nvidia.com/mig-<profile>,
 * amd.com/gpu), and the free cards the inventory named on each node.
 */
import { cardOf, isMigClass, type Cluster, type DeviceGroup, type PlanOption } from "../plan/index.ts";
import type { Accelerator } from "./images.ts";
import { inventoryName } from "./names.ts";

export interface CardRequest {
  accelerator: Accelerator;
  /** The Kubernetes extended resource; "" on the CPU. */
  resource: string;
  /** Cards per node (MIG: instances). */
  perNode: number;
}

/**
 * The resource a class is scheduled by, or why it cannot be told. MIG under
 * the device plugin's mixed strategy is `nvidia.com/mig-<profile>` (what GFD
 * labels and the plugin advertises, and what src/cluster/k8s.ts reads back);
 * AMD's device plugin advertises `amd.com/gpu`, partitions (CPX) included.
 */
export function cardRequest(option: PlanOption, cluster: Cluster): CardRequest | string {
  const p = option.placement;
  if (p.cpu) return { accelerator: "cpu", resource: "", perNode: 0 };
  const cls = p.gpuClass;
  if (isMigClass(cls)) {
    // Under the single strategy every card is one profile and the plugin advertises the instances as
    // nvidia.com/gpu; GFD then writes the profile into the product label (…-MIG-3g.20gb).
    const single = /-MIG-\d+g\.\d+gb$/i.test(groupOn(option, cluster, 0)?.gpuProduct ?? "");
    return {
      accelerator: "cuda",
      resource: single ? "nvidia.com/gpu" : `nvidia.com/mig-${cls.split("-mig-")[1] ?? ""}`,
      perNode: p.gpusPerNode,
    };
  }
  const vendor = cardOf(cls)?.vendor;
  if (vendor === undefined)
    return `"${cls}" is not in Modelplan's card catalog, so which vendor's device plugin serves it is unknown: give the node a catalog class`;
  return vendor === "amd"
    ? { accelerator: "rocm", resource: "amd.com/gpu", perNode: p.gpusPerNode }
    : { accelerator: "cuda", resource: "nvidia.com/gpu", perNode: p.gpusPerNode };
}

/** The device group the option runs on, on the i-th of its nodes. */
export function groupOn(option: PlanOption, cluster: Cluster, index: number): DeviceGroup | undefined {
  const id = option.placement.nodeIds?.[index];
  const node = cluster.nodes.find((n) => n.id === id);
  return node?.devices.find((d) => d.class === option.placement.gpuClass);
}

/**
 * The free cards to pin on the i-th node, by the inventory's names: the first
 * `perNode` of its free cards, or undefined when the inventory did not name
 * them (or names fewer than the option takes).
 */
export function pinnedCards(option: PlanOption, cluster: Cluster, index: number): string[] | undefined {
  const p = option.placement;
  if (p.cpu) return undefined;
  const group = groupOn(option, cluster, index);
  const names = group?.freeIndices;
  // Names that no longer match the free count (edited in the panel since the import) cannot be trusted.
  if (names === undefined || names.length !== group?.free || names.length < p.gpusPerNode) return undefined;
  return names.slice(0, p.gpusPerNode).map((n) => inventoryName("card", n));
}
