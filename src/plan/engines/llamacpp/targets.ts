/**
 * llama.cpp targets made of devices that differ: one node's mixed (or unevenly free) cards under one
 * --tensor-split, and several hosts of one fabric joined over RPC (rpc-server on the workers,
 * --rpc on the head), every device with its own share.
 */
import { chooseSplit, type SplitDevice, splitProblem } from "./split.ts";
import type { ClassPool, CpuOnlyNode, EnumContext, Enumerated, HostShare, Layout, PoolNode } from "../../layout.ts";
import { basePlacement, gib1, layoutId } from "../../placement.ts";
import { HOST_SHARE } from "./memory.ts";
import { hostShare } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { Artifact, Placement, Refusal } from "../../types.ts";
import { weightParts } from "../../weights.ts";

/** Hosts past the fewest whose cards hold the weights that the RPC search still tries (caches, buffers and margins need a little more). */
const RPC_EXTRA_HOSTS = 3;

/** A node as llama.cpp sees it: all its devices, whatever their class. */
export interface NodeDevices {
  id: string;
  fabric: string;
  devices: SplitDevice[];
  allFree: boolean;
}

/** Every node's devices for a plan's pools, made once: each GGUF artifact of the plan asks again (1,000 nodes × 30 artifacts). */
const devicesOfPools = new WeakMap<readonly ClassPool[], NodeDevices[]>();

/** Every node's devices, gathered over the class pools (a node with several classes is in each). */
export function nodeDevices(pools: readonly ClassPool[]): NodeDevices[] {
  const known = devicesOfPools.get(pools);
  if (known) return known;
  const made = gatherNodeDevices(pools);
  devicesOfPools.set(pools, made);
  return made;
}

function gatherNodeDevices(pools: readonly ClassPool[], only?: ReadonlySet<string>): NodeDevices[] {
  const byId = new Map<string, NodeDevices>();
  for (const pool of pools) {
    if (pool.memoryBytes === null || pool.mig) continue;
    const mem = pool.memoryBytes;
    for (const nodes of pool.fabrics.values()) {
      for (const n of nodes) {
        if (only && !only.has(n.id)) continue;
        const node = byId.get(n.id) ?? { id: n.id, fabric: n.fabric, devices: [], allFree: true };
        for (let k = 0; k < n.count; k++) {
          // Free devices offer what the inventory says is free; busy ones are planned on their total and the option is not free now.
          const free = k < n.free && n.freeMemBytes !== null ? Math.min(mem, n.freeMemBytes) : mem;
          node.devices.push({
            nodeId: n.id,
            gpuClass: pool.gpuClass,
            index: node.devices.length,
            physicalBytes: mem,
            freeBytes: free,
          });
        }
        if (n.free < n.count) node.allFree = false;
        byId.set(n.id, node);
      }
    }
  }
  // The largest last: it holds the output layer and the logits (llama.cpp's last device; CUDA's
  // own order is the user's to match, see the option's note).
  for (const n of byId.values()) {
    n.devices.sort((x, y) => Math.min(x.physicalBytes, x.freeBytes) - Math.min(y.physicalBytes, y.freeBytes));
    n.devices.forEach((d, i) => (d.index = i));
  }
  return [...byId.values()];
}

/**
 * The nodes whose devices differ, read from the pools without making their devices: cards of two
 * classes, or of one class some free with less than the card's memory beside busy ones (gatherNodeDevices).
 */
function differingNodeIds(pools: readonly ClassPool[]): Set<string> {
  const classesOf = new Map<string, number>();
  const ids = new Set<string>();
  for (const pool of pools) {
    if (pool.memoryBytes === null || pool.mig) continue;
    for (const nodes of pool.fabrics.values()) {
      for (const n of nodes) {
        const classes = (classesOf.get(n.id) ?? 0) + 1;
        classesOf.set(n.id, classes);
        const unevenlyFree =
          n.free > 0 && n.free < n.count && n.freeMemBytes !== null && n.freeMemBytes < pool.memoryBytes;
        if (classes > 1 || unevenlyFree) ids.add(n.id);
      }
    }
  }
  return ids;
}

/** A node the per-class split cannot describe: cards of several classes, or of one class unevenly free. */
function differs(n: NodeDevices): boolean {
  if (n.devices.length < 2) return false;
  const first = n.devices[0] as SplitDevice;
  return n.devices.some((d) => d.gpuClass !== first.gpuClass || d.freeBytes !== first.freeBytes);
}

/** The card classes of a split (an rpc-server's CPU is no class). */
function classLabel(devices: readonly SplitDevice[]): string {
  return [...new Set(devices.filter((d) => !d.cpu).map((d) => d.gpuClass))].join(" + ");
}

/** A GPU-only llama.cpp layout of this artifact already fits (on `nodeId`, when given): more devices buy nothing. */
function alreadyPlaced(a: Artifact, out: Enumerated, nodeId?: string): boolean {
  return out.layouts.some(
    (l) =>
      l.artifact === a &&
      l.engine === "llamacpp" &&
      !l.placement.cpu &&
      l.host === null &&
      (nodeId === undefined || (l.placement.nodeIds ?? []).includes(nodeId)),
  );
}

/** The layout of one split over `devices` (head's own last), or the reason it cannot be made. */
export function splitLayout(
  a: Artifact,
  c: EnumContext,
  devices: SplitDevice[],
  nodes: NodeDevices[],
  fabric: string,
  headCpuLayers = 0,
  cpuDeviceLayers?: number,
): Layout | string {
  const choice = chooseSplit(c.shape, a, devices, c.workload, headCpuLayers, cpuDeviceLayers);
  if (choice.kind !== "split") return splitProblem(choice, c.shape);
  const head = nodes[0] as NodeDevices;
  let host: HostShare | null = null;
  if (headCpuLayers > 0) {
    const node = poolNodeOf(c.pools, head.id, c.cpuOnlyNodes);
    if (!node || node.hostMemBytes <= 0) return `${head.id}'s RAM is not known, so no layers can be planned on its CPU`;
    // The token embedding stays in the head's RAM beside the layers (llama.cpp's input layer is always the CPU's).
    host = { ...hostShare("layers", c, node, weightParts(c.shape, a).embedBytes), splitCpuLayers: headCpuLayers };
  }
  const placement: Placement = {
    ...basePlacement(
      classLabel(devices),
      fabric,
      head.devices.length,
      nodes.length,
      1,
      devices.length,
      false,
      nodes.map((n) => n.id),
    ),
    tensorSplit: choice.slots,
  };
  const cpuHosts = nodes.filter((n) => n.devices.every((d) => d.cpu)).length;
  if (cpuHosts > 0) placement.cpuHosts = cpuHosts;
  return {
    id: layoutId(
      a,
      "llamacpp",
      placement,
      nodes.length > 1
        ? headCpuLayers > 0
          ? "rpc-cpu"
          : cpuDeviceLayers !== undefined
            ? "rpc-cpu-hosts"
            : "rpc"
        : "ts",
    ),
    artifact: a,
    engine: "llamacpp",
    placement,
    bitsPerWeight: bitsOf(a),
    parts: choice.parts,
    host,
    hosts: 1,
    freeNow: nodes.every((n) => n.allFree),
    cardsShort: 0,
    replicas: 1,
    replicasFreeNow: nodes.every((n) => n.allFree) ? 1 : 0,
    dataParallel: 1,
  };
}

export function push(a: Artifact, c: EnumContext, out: Enumerated, made: Layout | string, where: string): boolean {
  const why = typeof made === "string" ? made : c.problem(made);
  if (why === null && typeof made !== "string") {
    out.layouts.push(made);
    return true;
  }
  out.refused.push({ artifact: a.name, engine: "llamacpp", where, reason: why ?? "" });
  return false;
}

/** Nodes with the same differing devices, grouped once per plan's pools: each GGUF artifact asks (30 × 1,000 nodes on the bench). */
const alikeOfPools = new WeakMap<readonly ClassPool[], NodeDevices[][]>();

function alikeGroups(pools: readonly ClassPool[]): NodeDevices[][] {
  const known = alikeOfPools.get(pools);
  if (known) return known;
  const alike = new Map<string, NodeDevices[]>();
  const ids = differingNodeIds(pools);
  for (const n of ids.size === 0 ? [] : gatherNodeDevices(pools, ids)) {
    if (!differs(n)) continue;
    const key = n.devices.map((d) => `${d.gpuClass}:${d.physicalBytes}:${d.freeBytes}`).join("|");
    const group = alike.get(key);
    if (group) group.push(n);
    else alike.set(key, [n]);
  }
  const made = [...alike.values()];
  alikeOfPools.set(pools, made);
  return made;
}

/** One node's mixed or unevenly free cards as one --tensor-split target. */
export function mixedNodeOptions(a: Artifact, c: EnumContext, out: Enumerated): void {
  const groups = alikeGroups(c.pools);
  if (groups.length === 0) return;
  // The nodes a GPU-only llama.cpp layout of this artifact already runs on: more devices buy nothing there.
  const placedOn = new Set(
    out.layouts
      .filter((l) => l.artifact === a && l.engine === "llamacpp" && !l.placement.cpu && l.host === null)
      .flatMap((l) => l.placement.nodeIds ?? []),
  );
  // Nodes with the same devices are one option, hosted on each of them (a free one first).
  for (const all of groups) {
    const group = all.filter((n) => !placedOn.has(n.id));
    if (group.length === 0) continue;
    const n = group.find((x) => x.allFree) ?? (group[0] as NodeDevices);
    const made = splitLayout(a, c, n.devices, [n], "");
    if (typeof made !== "string") made.hosts = group.length;
    push(a, c, out, made, `${n.id}: ${n.devices.length} × ${classLabel(n.devices)} (-ts)`);
  }
}

/**
 * Hosts of one fabric over RPC, when no single host holds the model on its cards: the hosts with
 * the most memory first, as few as hold it. The head (the largest) keeps the output layer on its
 * own cards; llama.cpp puts the RPC devices first in its device list "to minimize network
 * transfers" (src/llama.cpp), so the workers' devices come first in the split. Hosts without cards
 * join when the cards cannot hold it (cpuHostsOption).
 */
export function rpcOptions(a: Artifact, c: EnumContext, out: Enumerated): void {
  if (alreadyPlaced(a, out)) return;
  const all = nodeDevices(c.pools).filter((n) => n.devices.length > 0);
  // Hosts without cards join a head with cards (cpuHostsOption): one of those and one other host is enough.
  const cpus = cpuWorkers(c);
  if (all.length === 0 || all.length + cpus.length < 2) return;
  const memOf = (n: NodeDevices): number => n.devices.reduce((s, d) => s + Math.min(d.physicalBytes, d.freeBytes), 0);
  const byFabric = new Map<string, NodeDevices[]>();
  for (const n of all) byFabric.set(n.fabric, [...(byFabric.get(n.fabric) ?? []), n]);
  const cpusOn = (fabric: string): NodeDevices[] => cpus.filter((n) => n.fabric === fabric);
  const named = [...byFabric].filter(
    ([fabric, members]) => fabric !== "" && members.length + cpusOn(fabric).length >= 2,
  );
  // No two hosts share a named network: RPC has nothing to join them over.
  if (named.length === 0) out.refused.push(noFabricRefusal(a, all.length + cpus.length));
  let joined = false;
  for (const [fabric, members] of named) {
    const nodes = [...members].sort((x, y) => memOf(y) - memOf(x));
    // The fewest hosts whose cards could hold the weights at all, and a few more for the caches and
    // buffers: a fabric of a hundred hosts is not tried a hundred times.
    let offered = 0;
    const first = Math.max(2, nodes.findIndex((n) => (offered += memOf(n)) >= a.bytes) + 1);
    let last: Layout | string =
      `the ${nodes.length} hosts on ${fabric} offer ${gib1(offered)} GiB in all; the weights alone are ${gib1(a.bytes)}`;
    let placed = false;
    for (let k = first; offered >= a.bytes && k <= Math.min(nodes.length, first + RPC_EXTRA_HOSTS) && !placed; k++) {
      const chosen = nodes.slice(0, k);
      const devices = [...chosen.slice(1).flatMap((n) => n.devices), ...(chosen[0] as NodeDevices).devices];
      last = splitLayout(a, c, devices, chosen, fabric);
      const why = typeof last === "string" ? last : c.problem(last);
      if (why === null) placed = push(a, c, out, last, "");
    }
    if (placed) joined = true;
    if (!placed) {
      // Why the cards alone do not, then the same hosts with the head's CPU taking the first layers
      // (a lone host with cards has neither: its own RAM is offloadOptions'), then hosts without cards.
      if (nodes.length >= 2) push(a, c, out, last, `${nodes.length} hosts on ${fabric} over RPC`);
      if (nodes.length >= 2) headCpuOption(a, c, out, nodes, fabric);
      if (cpusOn(fabric).length > 0) cpuHostsOption(a, c, out, nodes, cpusOn(fabric), fabric);
      // A host without cards elsewhere, said where its RAM was wanted.
      for (const other of cpus)
        if (other.fabric !== fabric) out.refused.push(elsewhereRefusal(a, other, fabric, "CPU and RAM"));
    }
    // A host elsewhere cannot join: rpc-server is reached over the head's network.
    for (const other of all) {
      if (other.fabric === fabric) continue;
      out.refused.push({
        artifact: a.name,
        engine: "llamacpp",
        where: `${other.id} over RPC`,
        reason: `${other.id} is ${other.fabric === "" ? "on no named fabric" : `on ${other.fabric}`}, not on ${fabric} with the other hosts: llama.cpp's --rpc reaches each rpc-server over the head's network, so its cards are left out; give it fabric "${fabric}" if it is on that network`,
      });
    }
  }
  if (!joined) unjoinedRpc(a, c, out, all, memOf);
}

/**
 * The fewest hosts, whatever fabric each names, whose cards would hold it over RPC when no one fabric's
 * hosts do: listed as an option that lacks a fabric for them (what to buy: "name a fabric for a and b").
 * Hosts one named fabric already joins were tried above.
 */
function unjoinedRpc(
  a: Artifact,
  c: EnumContext,
  out: Enumerated,
  all: readonly NodeDevices[],
  memOf: (n: NodeDevices) => number,
): void {
  const nodes = [...all].sort((x, y) => memOf(y) - memOf(x));
  let offered = 0;
  const first = Math.max(2, nodes.findIndex((n) => (offered += memOf(n)) >= a.bytes) + 1);
  if (offered < a.bytes) return;
  for (let k = first; k <= Math.min(nodes.length, first + RPC_EXTRA_HOSTS); k++) {
    const chosen = nodes.slice(0, k);
    const fabric = chosen[0]?.fabric ?? "";
    if (fabric !== "" && chosen.every((n) => n.fabric === fabric)) return;
    const devices = [...chosen.slice(1).flatMap((n) => n.devices), ...(chosen[0] as NodeDevices).devices];
    const made = splitLayout(a, c, devices, chosen, "");
    if (typeof made === "string" || c.problem(made) !== null) continue;
    const lacks = { kind: "fabric" as const, nodeIds: chosen.map((n) => n.id) };
    out.layouts.push({ ...made, freeNow: false, replicas: 0, replicasFreeNow: 0, lacks });
    return;
  }
}

/** Hosts no two of which share a named fabric, refused in words. */
export function noFabricRefusal(a: Artifact, hosts: number): Refusal {
  return {
    artifact: a.name,
    engine: "llamacpp",
    where: `${hosts} hosts over RPC`,
    reason:
      "no two of the hosts are on one named fabric: llama.cpp's --rpc needs the head to reach each rpc-server over a network they share; give the hosts that share one the same fabric in the cluster",
  };
}

/** A host on another fabric than the RPC option's, refused in words: its `what` (cards, or CPU and RAM) is left out. */
export function elsewhereRefusal(a: Artifact, other: NodeDevices, fabric: string, what: string): Refusal {
  return {
    artifact: a.name,
    engine: "llamacpp",
    where: `${other.id} over RPC`,
    reason: `${other.id} is ${other.fabric === "" ? "on no named fabric" : `on ${other.fabric}`}, not on ${fabric} with the other hosts: llama.cpp's --rpc reaches each rpc-server over the head's network, so its ${what} are left out; give it fabric "${fabric}" if it is on that network`,
  };
}

/**
 * The nodes without cards as RPC workers: rpc-server serves one CPU device on a host with no
 * accelerator (tools/rpc/rpc-server.cpp `get_devices`: "If there are no accelerators, fallback to
 * CPU device"), whose memory is what ggml's CPU device reports, the host's RAM. It offers the share
 * of it the plan keeps for llama.cpp (HOST_SHARE, as the CPU option), or the free RAM when the
 * inventory says less; a host whose RAM is not known offers nothing.
 */
export function cpuWorkers(c: EnumContext): NodeDevices[] {
  return (c.cpuOnlyNodes ?? [])
    .filter((n) => n.hostMemBytes > 0)
    .map((n) => {
      const share = n.hostMemBytes * HOST_SHARE;
      // Free RAM the inventory gives caps the share; none given (0), the share is planned and it is not free now.
      const offer = n.hostFreeBytes > 0 ? Math.min(share, n.hostFreeBytes) : share;
      const device: SplitDevice = {
        nodeId: n.id,
        gpuClass: "",
        index: 0,
        physicalBytes: n.hostMemBytes,
        freeBytes: offer,
        cpu: true,
      };
      return { id: n.id, fabric: n.fabric, devices: [device], allFree: n.hostFreeBytes > 0 };
    })
    .sort((x, y) => (y.devices[0]?.freeBytes ?? 0) - (x.devices[0]?.freeBytes ?? 0));
}

/** A node's pool entry (its RAM), by id; a node without cards (in no pool) as one of no cards. */
function poolNodeOf(pools: readonly ClassPool[], id: string, cpuOnly?: readonly CpuOnlyNode[]): PoolNode | undefined {
  for (const pool of pools) for (const nodes of pool.fabrics.values()) for (const n of nodes) if (n.id === id) return n;
  const n = cpuOnly?.find((x) => x.id === id);
  if (!n) return undefined;
  return { ...n, count: 0, free: 0, instances: 0, instancesFree: 0, freeMemBytes: null };
}

/**
 * Every host of a fabric over RPC when their cards together cannot hold the model: the first layers then
 * stay on the head's CPU, in its RAM (-ngl below all layers; the issue's "every device of every host is a
 * target, including the head's own cards and its CPU"), the fewest that let the cards hold the rest.
 * Whether it is offered, or why not, is pushed.
 */
function headCpuOption(a: Artifact, c: EnumContext, out: Enumerated, nodes: NodeDevices[], fabric: string): void {
  const devices = [...nodes.slice(1).flatMap((n) => n.devices), ...(nodes[0] as NodeDevices).devices];
  const cardsOnly = chooseSplit(c.shape, a, devices, c.workload);
  if (cardsOnly.kind !== "short") return;
  const L = c.shape.layers;
  const where = `${nodes.length} hosts on ${fabric} over RPC + ${nodes[0]?.id ?? "head"}'s CPU`;
  const wp = weightParts(c.shape, a);
  const headRam = (poolNodeOf(c.pools, nodes[0]?.id ?? "")?.hostMemBytes ?? 0) * HOST_SHARE;
  const layerBytes = wp.layerBytes + (wp.moeLayers * wp.expertLayerBytes) / Math.max(1, L);
  let last: Layout | string =
    `${nodes[0]?.id ?? "the head"}'s RAM (${gib1(headRam)} GiB for llama.cpp) cannot hold the ${L - cardsOnly.layersHeld} layers the cards cannot`;
  // The mean layer the split is sized on is not every card's: one more layer on the CPU until each card fits,
  // while the head's RAM still holds them.
  for (let k = Math.max(1, L - cardsOnly.layersHeld); k < L && wp.embedBytes + k * layerBytes <= headRam; k++) {
    last = splitLayout(a, c, devices, nodes, fabric, k);
    if (typeof last === "string" && last.includes("RAM is not known")) break;
    if (typeof last !== "string" && c.problem(last) === null) {
      push(a, c, out, last, where);
      return;
    }
  }
  push(a, c, out, last, where);
}

/**
 * The fabric's hosts with cards over RPC and, beside them, the fewest hosts without cards (the most RAM
 * first) whose CPUs take the fewest layers the cards cannot hold: the cards run faster than any CPU, so
 * they are kept full and the CPU devices hold the rest (split.ts chooseSplit's cpuDeviceLayers). The
 * CPU workers come first in --rpc and so in llama.cpp's device order, taking the first layers; the head
 * keeps the output. Whether it is offered, or why not, is pushed.
 */
function cpuHostsOption(
  a: Artifact,
  c: EnumContext,
  out: Enumerated,
  cardNodes: NodeDevices[],
  cpuNodes: NodeDevices[],
  fabric: string,
): void {
  const head = cardNodes[0] as NodeDevices;
  const cardDevices = [...cardNodes.slice(1).flatMap((n) => n.devices), ...head.devices];
  const L = c.shape.layers;
  const cardsOnly = chooseSplit(c.shape, a, cardDevices, c.workload);
  const where = `${cardNodes.length} host${cardNodes.length === 1 ? "" : "s"} with cards on ${fabric} over RPC + hosts without cards`;
  if (cardsOnly.kind === "too-small") {
    push(a, c, out, splitProblem(cardsOnly, c.shape), where);
    return;
  }
  // The cards' layers by the mean-layer estimate; the fit check may want one more on the CPUs.
  const fewest = Math.max(1, L - (cardsOnly.kind === "short" ? cardsOnly.layersHeld : L - 1));
  const wp = weightParts(c.shape, a);
  const layerBytes = wp.layerBytes + (wp.moeLayers * wp.expertLayerBytes) / Math.max(1, L);
  const ramOf = (n: NodeDevices): number => n.devices[0]?.freeBytes ?? 0;
  let ram = 0;
  const one = cpuNodes.length === 1;
  let last: Layout | string =
    `the ${one ? "host" : `${cpuNodes.length} hosts`} without cards on ${fabric} offer${one ? "s" : ""} ${gib1(cpuNodes.reduce((s, n) => s + ramOf(n), 0))} GiB of RAM for llama.cpp; the ${fewest} layers the cards cannot hold need about ${gib1(fewest * layerBytes)}`;
  // The fewest hosts whose RAM holds those layers, and a few more for their caches: not every host of a large fabric.
  let enough = Infinity;
  for (let h = 1; h <= Math.min(cpuNodes.length, enough + RPC_EXTRA_HOSTS); h++) {
    const chosen = cpuNodes.slice(0, h);
    ram += ramOf(chosen[h - 1] as NodeDevices);
    if (ram < fewest * layerBytes) continue;
    enough = Math.min(enough, h);
    const devices = [...chosen.flatMap((n) => n.devices), ...cardDevices];
    const nodes = [head, ...chosen, ...cardNodes.slice(1)];
    // One more layer on the CPUs until each card fits, while their RAM still holds them.
    for (let k = fewest; k < L && k * layerBytes <= ram; k++) {
      last = splitLayout(a, c, devices, nodes, fabric, 0, k);
      if (typeof last !== "string" && c.problem(last) === null) {
        push(a, c, out, last, where);
        return;
      }
    }
  }
  push(a, c, out, last, where);
}
