/** What a llama.cpp option must tell the user beyond its figures: the device order its -ts assumes, what RPC costs, and the CPU's repacked copy. */
import type { Layout } from "../../layout.ts";
import { gib1 } from "../../placement.ts";
import { CPU_PREFILL_GFLOPS_PER_CORE } from "../../speed/host.ts";
import { RPC_CROSSING_MS, rpcCrossings } from "../../speed/rpc.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import { resolveSettings } from "../../settings.ts";
import type { Workload } from "../../types.ts";

/** Bytes of one token's activations between layers: n_embd floats (ggml's f32 hidden state). */
const ACTIVATION_ELEMENT_BYTES = 4;

export function llamacppNotes(layout: Layout, shape: ModelShape, w?: Workload): string[] {
  // Most plans ask for no unified cache: no copy then (the slider asks this of every llama.cpp option at every move).
  const unified = w ? unifiedNotes(w) : NO_NOTES;
  const placed = placedNotesOf(layout, shape);
  return unified.length === 0 ? placed : [...unified, ...placed];
}

/** Nothing to say, shared: evaluate keeps no empty list of notes. */
const NO_NOTES: string[] = Object.freeze([]) as unknown as string[];

/**
 * A layout's placement notes, written once: they read the layout and the model alone, and the slider asks at
 * every move. Only the CPU option and a --tensor-split have any (placementNotes): the rest take no memo entry,
 * since a full plan's new layouts made ~300 WeakMap insertions, a thirtieth of its time.
 */
function placedNotesOf(layout: Layout, shape: ModelShape): string[] {
  const p = layout.placement;
  if (!p.cpu && p.tensorSplit === undefined) return NO_NOTES;
  let placed = placedNotes.get(layout);
  if (placed === undefined) {
    placed = Object.freeze(placementNotes(layout, shape)) as string[];
    placedNotes.set(layout, placed);
  }
  return placed;
}

const placedNotes = new WeakMap<Layout, string[]>();

/**
 * What --kv-unified means for the workload: the pool is context × slots cells either way (kv.ts
 * llamacppCells); with it one stream the slots share, and llama-server lets a slot run to the whole pool
 * (n_ctx_slot = n_ctx_seq = n_ctx, capped at the trained context: tools/server/server-context.cpp:4011-4018).
 */
function unifiedNotes(w: Workload): string[] {
  if (w.settings.kvUnified !== true) return NO_NOTES;
  const slots = resolveSettings("llamacpp", 0, w.settings, 1, w.sequences).parallel;
  if (slots <= 1) return NO_NOTES;
  const pool = w.contextTokens * slots;
  return [
    `--kv-unified: the ${slots} slots share one pool of ${pool} cells (${slots} × ${w.contextTokens}) instead of ${w.contextTokens} each, so ${slots} sequences of ${w.contextTokens} tokens fit together, and one may run longer while the others are shorter (up to the pool, which llama-server caps at the model's trained context); a slot that outgrows its share takes cells the others would need. Sliding-window layers keep one window × ${slots} + ubatch for all, and the attention's mask spans the whole pool (with -fa off its scores too), as planned here.`,
  ];
}

function placementNotes(layout: Layout, shape: ModelShape): string[] {
  const p = layout.placement;
  if (p.cpu) return repackNotes(layout);
  if (p.tensorSplit === undefined) return [];
  const order = layout.parts
    .map((part) => `${part.role.split(":")[0] ?? ""}${part.gpuClass === "" ? "" : ` ${part.gpuClass}`}`)
    .join(", ");
  // No host has a card (cpuCluster.ts): the workers' CPUs are the split's devices, the head's CPU the first layers.
  const cpusOnly = p.gpusPerNode === 0;
  const notes = [
    cpusOnly
      ? `--tensor-split gives its shares to the rpc-servers' CPUs in --rpc order: the plan assumes ${order}, the last holding the output layer; the first ${layout.host?.splitCpuLayers ?? 0} layers and the token embedding stay on ${p.nodeIds?.[0] ?? "the head"}'s own CPU (--n-gpu-layers counts the rest and the output). Check with llama-server --list-devices.`
      : `--tensor-split gives its shares in llama.cpp's device order${p.nodes > 1 ? " (the RPC servers' devices first, in --rpc order, then the head's own)" : ""}: the plan assumes ${order}, the last holding the output layer. Check with llama-server --list-devices and reorder the cards (CUDA_VISIBLE_DEVICES) or the shares to match.`,
  ];
  if (p.nodes > 1) {
    const kib = (shape.hiddenSize * ACTIVATION_ELEMENT_BYTES) / 1024;
    const crossings = rpcCrossings(p.nodes);
    notes.push(
      `Over RPC every token crosses the network at each host boundary: ${crossings} crossings a token here (the head sends the activations to each worker and takes them back, since rpc-servers do not pass tensors to one another), each ${kib.toFixed(0)} KiB and an RPC round trip of about ${RPC_CROSSING_MS} ms (two DGX Sparks over a direct cable; a switched network adds its own latency), so generation pays about ${(crossings * RPC_CROSSING_MS).toFixed(1)} ms a token on top of the ${cpusOnly ? "hosts'" : "cards'"} time, which the speed shown includes; prompt batches cross the same way, a ubatch at a time. Loading sends each worker its weights over the network (rpc-server -c keeps them in a local cache for the next start).`,
    );
  }
  const cpuHosts = [...new Set(layout.parts.flatMap((part) => (part.cpuNode === undefined ? [] : [part.cpuNode])))];
  if (cpuHosts.length > 0) {
    notes.push(
      `${cpuHosts.join(", ")} ${cpuHosts.length === 1 ? "has" : "have"} no cards: rpc-server, built with -DGGML_RPC=ON (tools/rpc/README.md), serves a host's CPU when it finds no accelerator, so the same rpc-server line runs there and its layers sit in that host's RAM, read at its memory bandwidth one host after another${cpusOnly ? "" : " with the cards' layers"} (the speed shown counts them so). A prompt's pass over those layers runs on that CPU's cores (rpc-server -t, half the logical CPUs by default): the prefill shown counts them at ${CPU_PREFILL_GFLOPS_PER_CORE} GFLOPS a core (llama-bench CPU pp512 rows), which differs by a factor 2 between CPUs.`,
    );
  }
  return notes;
}

/** The CPU option's second copy of its repacked matrices (repack.ts), which its host RAM counts. */
function repackNotes(layout: Layout): string[] {
  const copy = layout.artifact.cpuRepack?.copyBytes ?? 0;
  if (copy <= 0) return [];
  return [
    `llama.cpp's CPU build repacks this file's Q4_0/Q4_K/IQ4_NL/MXFP4 matrices for AVX2 into a second buffer (CPU_REPACK) while the file stays mapped: ${gib1(copy)} GiB more host RAM, counted here. -nr (--no-repack) saves it, at a cost in speed.`,
  ];
}
