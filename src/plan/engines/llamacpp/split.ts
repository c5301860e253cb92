/**
 * llama.cpp's --tensor-split over devices that differ (mixed cards, unevenly free cards, hosts over
 * RPC): how many layers each device takes, and what each then holds.
 *
 * How llama.cpp reads the split (src/llama-model.cpp `load_tensors`, ggml-org/llama.cpp at
 * https://github.com/ggml-org/llama.cpp/blob/a5410f046c01d01330c8a42f13b64a211fedf2c3/src/llama-model.cpp):
 * the values are summed into cumulative fractions; with every layer offloaded there are n_layer + 1
 * slots (the output layer is slot n_layer), and slot il goes to the first device whose cumulative
 * fraction exceeds il ÷ (n_layer + 1) (`std::upper_bound(splits, …, float(il)/act_gpu_layers)`).
 * Giving each device its whole number of slots, summing to n_layer + 1, therefore places exactly
 * those layers on it: device d holds slots [cum(d − 1), cum(d)), and the last device the output.
 */
import { deviceComputeBytes, deviceContextBytes } from "./device.ts";
import { llamacppKvElementBytes } from "./evalCard.ts";
import { setPartFree } from "./free.ts";
import { llamacppCacheBytes } from "./kv.ts";
import { LLAMACPP_FIT_MARGIN_BYTES } from "./memory.ts";
import { geometryOfFirst, geometryOfRange } from "../../geometries.ts";
import type { Part } from "../../layout.ts";
import { gib1 } from "../../placement.ts";
import { resolveSettings } from "../../settings.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Artifact, Workload } from "../../types.ts";
import { moeLayersIn, weightParts } from "../../weights.ts";

/** One device of a split, in llama.cpp's device order. */
export interface SplitDevice {
  nodeId: string;
  gpuClass: string;
  /** Its index among its node's devices (CUDA0, CUDA1, … or RPC0, … on the head). */
  index: number;
  physicalBytes: number;
  /** Free now, when the inventory says; else its total. */
  freeBytes: number;
  /** The CPU of a host without cards, served by its rpc-server: its RAM, no CUDA context (gpuClass ""). */
  cpu?: true;
}

export type SplitChoice =
  | { kind: "split"; slots: number[]; parts: Part[] }
  /** A device that cannot take even one layer beside its fixed share (CUDA context, compute buffer, output). */
  | { kind: "too-small"; device: SplitDevice; needBytes: number; offersBytes: number }
  /** The devices together hold fewer layers than the model has. */
  | { kind: "short"; layersHeld: number };

/** "box/0 rtx4090-24g": a device as refusals and card rows name it. */
export function deviceLabel(d: SplitDevice): string {
  return d.cpu ? `${d.nodeId}/CPU` : `${d.nodeId}/${d.index} ${d.gpuClass}`;
}

/** "box/0" or "c1/CPU": the device as its card row names it. */
function deviceName(d: SplitDevice): string {
  return d.cpu ? `${d.nodeId}/CPU` : `${d.nodeId}/${d.index}`;
}

/**
 * `n` layers spread over devices in proportion to the layers each can hold (`held`); the layers the
 * rounding leaves go to the devices with the most room left, one each.
 */
function spread(n: number, held: readonly number[]): number[] {
  const total = held.reduce((x, y) => x + y, 0);
  const layers = held.map((m) => (total > 0 ? Math.floor((n * m) / total) : 0));
  let left = n - layers.reduce((x, y) => x + y, 0);
  const byRoom = held
    .map((_, i) => i)
    .sort((x, y) => (held[y] ?? 0) - (layers[y] ?? 0) - ((held[x] ?? 0) - (layers[x] ?? 0)));
  for (const i of byRoom) {
    if (left <= 0) break;
    layers[i] = (layers[i] ?? 0) + 1;
    left--;
  }
  return layers;
}

/**
 * The split that gives each device layers in proportion to the layers it can hold, so every card is
 * left the same share of headroom; sized at the workload's context (the cache of every slot, as
 * llama.cpp allocates it up front). The fit check is then made per card on the parts returned.
 */
export function chooseSplit(
  shape: ModelShape,
  a: Artifact,
  devices: readonly SplitDevice[],
  w: Workload,
  firstLayer = 0,
  cpuDeviceLayers?: number,
): SplitChoice {
  // Layers before `firstLayer` stay on the head's CPU (-ngl below all of them): the devices split the rest.
  const L = shape.layers - firstLayer;
  const wp = weightParts(shape, a);
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  const s = resolveSettings("llamacpp", devices[0]?.physicalBytes ?? 0, w.settings, 1, w.sequences);
  const elem = llamacppKvElementBytes(w.kvDtype);
  const all = shape.layers;
  const kvAll = llamacppCacheBytes(
    geometryOfFirst(shape, all),
    elem,
    w.contextTokens,
    s.parallel,
    s.ubatch,
    s.kvUnified,
  );
  // A mean layer of the model: its weights, its experts, its share of the cache.
  const perLayer = wp.layerBytes + (wp.moeLayers * wp.expertLayerBytes) / Math.max(1, all) + kvAll / Math.max(1, all);
  const held: number[] = [];
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i] as SplitDevice;
    const last = i === devices.length - 1;
    const cpu = d.cpu === true;
    const fixed =
      deviceContextBytes(cpu) +
      deviceComputeBytes(shape, s.ubatch, last, cpu) +
      (last ? output + wp.projectorBytes : 0);
    const offers = Math.min(d.physicalBytes, d.freeBytes) - LLAMACPP_FIT_MARGIN_BYTES;
    const n = Math.floor((offers - fixed) / perLayer);
    if (n < 1) return { kind: "too-small", device: d, needBytes: fixed + perLayer, offersBytes: offers };
    held.push(Math.min(n, L));
  }
  const total = held.reduce((x, y) => x + y, 0);
  if (total < L) return { kind: "short", layersHeld: total };
  let layers = spread(L, held);
  if (cpuDeviceLayers !== undefined) {
    // CPU devices given their count (the fewest the cards need, targets.ts): the cards share the rest.
    const isCpu = devices.map((d) => d.cpu === true);
    const heldBy = (cpu: boolean): number[] => held.map((m, i) => (isCpu[i] === cpu ? m : 0));
    const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0);
    const onCpuHeld = Math.min(cpuDeviceLayers, sum(heldBy(true)));
    const onCardsHeld = Math.min(L - cpuDeviceLayers, sum(heldBy(false)));
    if (onCpuHeld + onCardsHeld < L) return { kind: "short", layersHeld: onCpuHeld + onCardsHeld };
    const onCpu = spread(cpuDeviceLayers, heldBy(true));
    const onCards = spread(L - cpuDeviceLayers, heldBy(false));
    layers = held.map((_, i) => (isCpu[i] ? (onCpu[i] ?? 0) : (onCards[i] ?? 0)));
  }
  const slots = layers.map((n, i) => (i === layers.length - 1 ? n + 1 : n));
  return { kind: "split", slots, parts: splitParts(shape, a, devices, layers, devices.length - 1, firstLayer) };
}

/**
 * Each device's part: its layers [start, end), their experts and cache; the device at `outputIndex`
 * (the last, unless a hand-typed split gives it no slot) also the output layer and the logits.
 */
export function splitParts(
  shape: ModelShape,
  a: Artifact,
  devices: readonly SplitDevice[],
  layers: readonly number[],
  outputIndex = devices.length - 1,
  firstLayer = 0,
): Part[] {
  const wp = weightParts(shape, a);
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  const parts: Part[] = [];
  let start = firstLayer;
  for (let i = 0; i < devices.length; i++) {
    const d = devices[i] as SplitDevice;
    const end = start + (layers[i] ?? 0);
    const last = i === outputIndex;
    const body = (end - start) * wp.layerBytes + moeLayersIn(shape, start, end) * wp.expertLayerBytes;
    const part: Part = {
      gpuClass: d.gpuClass,
      cards: 1,
      role: `${deviceName(d)}: ${end > start ? `layers ${start}–${end - 1}` : "no layers"}${last ? " + output" : ""}`,
      physicalBytes: d.physicalBytes,
      bodyBytes: body + (last ? output + wp.projectorBytes : 0),
      embedBytes: 0,
      tensorParallel: 1,
      pipelineParallel: devices.length,
      holdsOutput: last,
      kv: geometryOfRange(shape, start, end, 1),
    };
    if (d.cpu) part.cpuNode = d.nodeId;
    if (d.freeBytes < d.physicalBytes) setPartFree(part, d.freeBytes);
    parts.push(part);
    start = end;
  }
  return parts;
}

/** Why a split cannot be made, in words that name the card at fault. */
export function splitProblem(choice: Exclude<SplitChoice, { kind: "split" }>, shape: ModelShape): string {
  if (choice.kind === "too-small") {
    return `${deviceLabel(choice.device)} is too small for even one layer beside its compute buffer: it needs ${gib1(choice.needBytes)} GiB and offers ${gib1(choice.offersBytes)} (less llama.cpp's 1 GiB --fit margin); leave it out (CUDA_VISIBLE_DEVICES) or free it`;
  }
  return `the devices together hold ${choice.layersHeld} of the model's ${shape.layers} layers at this context`;
}
