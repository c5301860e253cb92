/**
 * Where llama.cpp runs: the CPU, a layer split over one node's cards, and layers or experts in RAM
 * when the cards cannot hold it.
 */
import { cpuClusterOptions } from "./cpuCluster.ts";
import { layerSplitParts } from "./parts.ts";
import { mixedNodeOptions, rpcOptions } from "./targets.ts";
import type { ClassPool, EnumContext, Enumerated, HostShare, Layout, PoolNode } from "../../layout.ts";
import { basePlacement, layoutId, where } from "../../placement.ts";
import { hostShare, singleNodeHosts } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { Artifact, Placement } from "../../types.ts";
import { weightParts } from "../../weights.ts";

/** llama.cpp: the CPU, a layer split over one node's cards, and layers or experts in RAM when the cards cannot hold it. */
export function llamacppOptions(a: Artifact, c: EnumContext, out: Enumerated): void {
  if (a.format !== "gguf") {
    const cpuOnly = c.allHostUsable.length > 0 && c.pools.every((p) => p.memoryBytes === null);
    if (cpuOnly)
      out.refused.push({
        artifact: a.name,
        engine: "llamacpp",
        where: "CPU",
        reason: needsGguf(a),
        kind: "needs-gguf",
      });
    return;
  }
  const shape = c.shape;
  // The CPU option when the largest node's RAM does not hold it: what to buy sizes the RAM, when llama.cpp has nothing else.
  let cpuShort: Layout | null = null;
  if (c.allHostUsable.length > 0) {
    const placement: Placement = {
      cpu: true,
      gpuClass: "",
      fabric: "",
      gpusPerNode: 0,
      nodes: 1,
      tensorParallel: 1,
      pipelineParallel: 1,
      expertParallel: false,
      cpuMoeLayers: 0,
      gpuLayers: 0,
      nodeIds: [],
    };
    const layout: Layout = {
      id: layoutId(a, "llamacpp", placement, "cpu"),
      artifact: a,
      engine: "llamacpp",
      placement,
      bitsPerWeight: bitsOf(a),
      parts: [],
      host: hostShare("cpu", c, null, 0),
      hosts: 0,
      freeNow: false,
      cardsShort: 0,
      replicas: 0,
      replicasFreeNow: 0,
      dataParallel: 1,
    };
    const why = c.problem(layout);
    if (why === null) out.layouts.push(layout);
    else {
      out.refused.push({ artifact: a.name, engine: "llamacpp", where: "CPU", reason: why });
      cpuShort = layout;
    }
  }
  for (const pool of c.pools) {
    if (pool.memoryBytes === null) continue;
    const mem = pool.memoryBytes;
    let placed = false;
    for (let wdt = 1; wdt <= pool.maxPerNode; wdt++) {
      const { hosts, freeNow, nodeIds, replicas, replicasFreeNow } = singleNodeHosts(pool, wdt);
      const placement = basePlacement(pool.gpuClass, "", wdt, 1, 1, 1, false, nodeIds);
      const layout: Layout = {
        id: layoutId(a, "llamacpp", placement, "split"),
        artifact: a,
        engine: "llamacpp",
        placement,
        bitsPerWeight: bitsOf(a),
        parts: layerSplitParts(shape, a, pool.gpuClass, mem, wdt),
        host: null,
        hosts,
        freeNow,
        cardsShort: 0,
        replicas,
        replicasFreeNow,
        dataParallel: 1,
      };
      // More cards than the fewest that hold it buy nothing here (seed): the narrowest that fits is the option.
      const why = c.problem(layout);
      if (why === null) {
        out.layouts.push(layout);
        placed = true;
        break;
      }
      out.refused.push({ artifact: a.name, engine: "llamacpp", where: where(pool.gpuClass, wdt, 1, ""), reason: why });
    }
    if (placed) continue;
    offloadOptions(a, c, pool, mem, out);
  }
  // Devices that differ, on one node (-ts) or over several hosts (--rpc), once the classes alone are tried.
  mixedNodeOptions(a, c, out);
  rpcOptions(a, c, out);
  // No host's RAM holds it and no host has cards: the CPU hosts together over RPC.
  if (cpuShort && c.pools.every((p) => p.memoryBytes === null)) cpuClusterOptions(a, c, out);
  if (cpuShort) cpuLacksRam(a, c, cpuShort, out);
}

/**
 * The CPU option as one that lacks RAM on the roomiest node, when llama.cpp has no other layout of the
 * artifact (cards, RAM beside them, RPC: one that lacks only RAM beside cards needs less of it) and RAM
 * alone would run it: evaluate sizes the GiB at each workload ("+N GiB of RAM on node x runs it on the CPU").
 */
function cpuLacksRam(a: Artifact, c: EnumContext, cpu: Layout, out: Enumerated): void {
  const nodeId = c.roomiestHostId;
  if (nodeId === null || !cpu.host) return;
  // Any other llama.cpp layout, one that lacks RAM beside cards included, runs it or asks for less.
  if (out.layouts.some((l) => l.artifact === a && l.engine === "llamacpp")) return;
  const roomy = Number.MAX_SAFE_INTEGER;
  const host = { ...cpu.host, usableBytes: roomy, physicalBytes: roomy, freeBytes: roomy };
  if (c.problem({ ...cpu, host }) === null) out.layouts.push({ ...cpu, lacks: { kind: "host-ram", nodeId } });
}

/** Why a CPU-only cluster runs nothing of a safetensors or .bin artifact: on CPUs the plan runs llama.cpp, which loads GGUF only. */
export function needsGguf(a: Artifact): string {
  const what = a.format === "pytorch" ? "PyTorch .bin shards" : "safetensors";
  return `llama.cpp loads GGUF files only ("llama.cpp requires the model to be stored in the GGUF file format", its README), and ${a.name} is ${what}; on a cluster of CPUs llama.cpp is the only engine planned: plan one of the model's GGUF quantizations, or add GPU nodes`;
}

/** The widest node of a class, with part of the model in its RAM: experts first (--n-cpu-moe), else whole layers (-ngl). */
function offloadOptions(a: Artifact, c: EnumContext, pool: ClassPool, mem: number, out: Enumerated): void {
  const shape = c.shape;
  const wp = weightParts(shape, a);
  const wdt = pool.maxPerNode;
  let node: PoolNode | null = null;
  for (const nodes of pool.fabrics.values()) {
    for (const n of nodes) if (n.count >= wdt && (!node || n.hostMemBytes > node.hostMemBytes)) node = n;
  }
  if (!node || node.hostMemBytes <= 0) return;
  // Experts first (--n-cpu-moe) when the artifact says which bytes are experts; else whole layers (-ngl).
  const mode: HostShare["mode"] = wp.moeLayers > 0 && wp.expertLayerBytes > 0 ? "moe" : "layers";
  const placement = basePlacement(pool.gpuClass, "", wdt, 1, 1, 1, false, [node.id]);
  const { hosts, freeNow, replicas, replicasFreeNow } = singleNodeHosts(pool, wdt);
  const layout: Layout = {
    id: layoutId(a, "llamacpp", placement, mode),
    artifact: a,
    engine: "llamacpp",
    placement,
    bitsPerWeight: bitsOf(a),
    parts: layerSplitParts(shape, a, pool.gpuClass, mem, wdt),
    host: hostShare(mode, c, node, wp.embedBytes),
    hosts,
    freeNow,
    cardsShort: 0,
    replicas,
    replicasFreeNow,
    dataParallel: 1,
  };
  const why = c.problem(layout);
  if (why === null) {
    out.layouts.push(layout);
    return;
  }
  out.refused.push({
    artifact: a.name,
    engine: "llamacpp",
    where: `${where(pool.gpuClass, wdt, 1, "")} + RAM`,
    reason: why,
  });
  // Would the cards hold their share with RAM enough on the node? Then it is an option that lacks RAM
  // (what to buy sizes it at each workload; at a shorter context the slider may find it fits as it is).
  const roomy = { ...node, hostMemBytes: Number.MAX_SAFE_INTEGER, hostFreeBytes: Number.MAX_SAFE_INTEGER };
  if (c.problem({ ...layout, host: hostShare(mode, c, roomy, wp.embedBytes) }) === null)
    out.layouts.push({ ...layout, lacks: { kind: "host-ram", nodeId: node.id } });
}
