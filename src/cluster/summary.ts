/**
 * One line that says what a cluster holds, for the import review and the
 * terminal: "3 nodes, 24 GPUs and 3 MIG instances of 4 classes". Counting only:
 * what the cards can hold is the engine's to say.
 */
import { cardSpecOf, isMigClass } from "../plan/index.ts";
import type { Cluster } from "../plan/index.ts";

/** One formatter, made once: toLocaleString builds a new one per call, which showed in the import's profile. */
const COUNT = new Intl.NumberFormat("en-US");

function plural(n: number, one: string, many = `${one}s`): string {
  return `${COUNT.format(n)} ${n === 1 ? one : many}`;
}

export function summarize(cluster: Cluster): string {
  let gpus = 0;
  let migInstances = 0;
  const classes = new Set<string>();
  for (const node of cluster.nodes) {
    for (const d of node.devices) {
      classes.add(d.class);
      if (isMigClass(d.class)) migInstances += d.count;
      else gpus += d.count;
    }
  }
  const nodes = plural(cluster.nodes.length, "node");
  if (classes.size === 0) return `${nodes}, CPU only`;
  const devices = [gpus > 0 ? plural(gpus, "GPU") : "", migInstances > 0 ? plural(migInstances, "MIG instance") : ""]
    .filter(Boolean)
    .join(" and ");
  return `${nodes}, ${devices} of ${plural(classes.size, "class", "classes")}`;
}

/**
 * What the cluster leaves for the user to set, in the words the review shows
 * after the summary: a multi-node replica needs a fabric, a CPU or offload
 * plan needs host RAM, a card the speed table lacks needs its GB/s (a MIG
 * slice's share of its card is not known, and not asked for).
 */
export function gaps(cluster: Cluster): string[] {
  const out: string[] = [];
  const gpuNodes = cluster.nodes.filter((n) => n.devices.length > 0);
  if (cluster.nodes.length > 1 && gpuNodes.some((n) => n.fabric === "")) out.push("fabric unknown: set it");
  if (cluster.nodes.some((n) => n.hostMemGib === 0)) out.push("host RAM unknown: set it");
  const unknown = new Set<string>();
  const given = new Set<string>();
  for (const n of cluster.nodes)
    for (const d of n.devices) {
      if (d.memGBps !== undefined) given.add(d.class);
      else if (!isMigClass(d.class) && cardSpecOf(d.class) === undefined) unknown.add(d.class);
    }
  const speedless = [...unknown].filter((c) => !given.has(c));
  if (speedless.length > 0)
    out.push(`speed of ${listed(speedless)} unknown: give ${speedless.length === 1 ? "its" : "their"} GB/s`);
  return out;
}

/** "lab-card", "a and b", "a, b and 3 more". */
function listed(classes: string[]): string {
  if (classes.length === 1) return classes[0] ?? "";
  if (classes.length === 2) return `${classes[0]} and ${classes[1]}`;
  return `${classes.slice(0, 2).join(", ")} and ${plural(classes.length - 2, "more", "more")}`;
}
