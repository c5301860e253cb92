/**
 * A cluster with no cards at all, over RPC: rpc-server on every worker serves its CPU (tools/rpc/rpc-server.cpp
 * `get_devices`: "If there are no accelerators, fallback to CPU device"), and llama-server --rpc on the head,
 * whose own CPU keeps the first layers (-ngl below all layers: src/llama-model.cpp puts the layers below
 * n_layer + 1 − ngl on the CPU) while the workers' devices take the rest by --tensor-split, the last the output.
 * Planned when no one host's RAM holds the model (the CPU option is refused), layers over the hosts' RAM by what
 * each offers.
 */
import { cpuWorkers, elsewhereRefusal, noFabricRefusal, type NodeDevices, push, splitLayout } from "./targets.ts";
import type { EnumContext, Enumerated, Layout } from "../../layout.ts";
import { gib1 } from "../../placement.ts";
import type { Artifact } from "../../types.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import { moeLayersIn, weightParts, type WeightParts } from "../../weights.ts";

/** Hosts past the fewest whose RAM holds the weights that are still tried (the caches, buffers and margins need a little more). */
const EXTRA_HOSTS = 3;

/** Head layers tried around the RAM-proportional estimate, each way: the mean layer the estimate uses is not every layer. */
const HEAD_LAYER_TRIES = 6;

/** The CPU-only hosts of each named fabric over RPC, when no single host holds the model; what cannot is refused in words. */
export function cpuClusterOptions(a: Artifact, c: EnumContext, out: Enumerated): void {
  const hosts = cpuWorkers(c);
  if (hosts.length < 2) return;
  const byFabric = new Map<string, NodeDevices[]>();
  for (const n of hosts) byFabric.set(n.fabric, [...(byFabric.get(n.fabric) ?? []), n]);
  const named = [...byFabric].filter(([fabric, members]) => fabric !== "" && members.length >= 2);
  if (named.length === 0) {
    out.refused.push(noFabricRefusal(a, hosts.length));
    return;
  }
  for (const [fabric, members] of named) {
    const where = `${members.length} CPU hosts on ${fabric} over RPC`;
    fabricOption(a, c, out, members, fabric, where);
    // A host elsewhere cannot lend its RAM: rpc-server is reached over the head's network.
    for (const other of hosts)
      if (other.fabric !== fabric) out.refused.push(elsewhereRefusal(a, other, fabric, "CPU and RAM"));
  }
}

/** The weights of layers 0..n−1: their dense part and the experts of the MoE layers among them. */
function layersBytes(shape: ModelShape, wp: WeightParts, n: number): number {
  return n * wp.layerBytes + moeLayersIn(shape, 0, n) * wp.expertLayerBytes;
}

/** The RAM one host offers llama.cpp (cpuWorkers: its share, or the free RAM when less). */
function ramOf(n: NodeDevices): number {
  return n.devices[0]?.freeBytes ?? 0;
}

/**
 * The fewest of a fabric's hosts (the most RAM first, the roomiest the head) whose RAM holds the model; the head's
 * layers start at its share of the hosts' RAM and move until every host fits. Pushes the option or why not.
 */
function fabricOption(
  a: Artifact,
  c: EnumContext,
  out: Enumerated,
  members: readonly NodeDevices[],
  fabric: string,
  where: string,
): void {
  const L = c.shape.layers;
  const wp = weightParts(c.shape, a);
  let offered = 0;
  const first = Math.max(2, members.findIndex((n) => (offered += ramOf(n)) >= a.bytes) + 1);
  if (offered < a.bytes) {
    push(
      a,
      c,
      out,
      `the ${members.length} hosts on ${fabric} offer ${gib1(offered)} GiB of RAM for llama.cpp in all; the weights alone are ${gib1(a.bytes)}`,
      where,
    );
    return;
  }
  let last: Layout | string = "";
  for (let k = first; k <= Math.min(members.length, first + EXTRA_HOSTS); k++) {
    const chosen = members.slice(0, k);
    // The head's CPU is llama-server's own, no rpc-server device: its layers are the host share (-ngl).
    const head: NodeDevices = { ...(chosen[0] as NodeDevices), devices: [] };
    const workers = chosen.slice(1);
    const total = chosen.reduce((s, n) => s + ramOf(n), 0);
    // The head's layers by its share of the RAM, in bytes (a mixture's dense first layers are light), beside the
    // token embedding it also keeps.
    const headBytes = (a.bytes * ramOf(chosen[0] as NodeDevices)) / total;
    let estimate = 0;
    while (estimate < L && wp.embedBytes + layersBytes(c.shape, wp, estimate + 1) <= headBytes) estimate++;
    for (let step = 0; step <= 2 * HEAD_LAYER_TRIES; step++) {
      const offset = step % 2 === 0 ? step / 2 : -(step + 1) / 2;
      const h = estimate + offset;
      if (h < 1 || h >= L) continue;
      last = splitLayout(
        a,
        c,
        workers.flatMap((n) => n.devices),
        [head, ...workers],
        fabric,
        h,
      );
      if (typeof last !== "string" && c.problem(last) === null) {
        push(a, c, out, last, where);
        return;
      }
    }
  }
  push(a, c, out, last === "" ? `no split of ${L} layers over the hosts on ${fabric} fits` : last, where);
}
