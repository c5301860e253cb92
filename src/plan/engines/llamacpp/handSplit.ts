/**
 * A --tensor-split typed by hand, checked like the context: read as llama.cpp reads it, each
 * device's layers placed by llama.cpp's own rule (split.ts), and the option evaluated again.
 */
import { LLAMACPP_FIT_MARGIN_BYTES } from "./memory.ts";
import { type SplitDevice, splitParts } from "./split.ts";
import { evaluate } from "../../evaluate.ts";
import type { HostShare, Layout } from "../../layout.ts";
import { gib1 } from "../../placement.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Artifact, CardLoad, PlanOption, Workload } from "../../types.ts";
import { weightParts } from "../../weights.ts";

export type HandSplit = { ok: true; option: PlanOption } | { ok: false; words: string };

/** What the plan knew when it made the option: the model, its artifacts and the workload. */
export interface HandSplitContext {
  repo: string;
  revision: string;
  shape: ModelShape;
  artifacts: readonly Artifact[];
  workload: Workload;
}

/** llama.cpp's reading of -ts (common/arg.cpp: values split on "," or "/", each a float). */
function parseSplit(text: string, devices: number): number[] | string {
  const words = text
    .trim()
    .split(/[,/]+/)
    .filter((w) => w !== "");
  if (words.length === 0) return "give one share a device, e.g. 41,40";
  if (words.length > devices)
    return `${words.length} shares for ${devices} devices: llama.cpp takes one a device, in its device order`;
  const values = words.map(Number);
  const bad = words.find((_, i) => !Number.isFinite(values[i]) || (values[i] ?? -1) < 0);
  if (bad !== undefined) return `"${bad}" is not a share: each is a number of 0 or more`;
  // llama.cpp gives the devices it is not told about nothing (their split stays 0).
  while (values.length < devices) values.push(0);
  if (values.every((v) => v === 0)) return "every share is 0: at least one device must take the layers";
  return values;
}

/** Each slot 0..n_layer to its device, as src/llama-model.cpp does it in 32-bit floats (upper_bound over the cumulative fractions). */
export function llamacppSlotDevices(split: readonly number[], layers: number): number[] {
  const f = Math.fround;
  let sum = f(0);
  const cum = split.map((v) => (sum = f(sum + f(v))));
  const fractions = cum.map((c) => f(c / sum));
  const out: number[] = [];
  for (let il = 0; il <= layers; il++) {
    const at = fractions.findIndex((x) => x > f(il / (layers + 1)));
    out.push(at < 0 ? split.length - 1 : at);
  }
  return out;
}

/** The head's own CPU row of a split that keeps the first layers in its RAM ("b1 CPU: layers 0–9", offload.ts headCpuSplit): no device. */
const HEAD_CPU_ROW = /^\S+ CPU: layers 0–(\d+)$/;

/** The head's CPU row and the layers it keeps (-ngl below all), or null when every layer is on the split's devices. */
function headCpuRow(option: PlanOption): { row: CardLoad; layers: number } | null {
  for (const c of option.cards) {
    const m = c.gpuClass === "" ? HEAD_CPU_ROW.exec(c.role) : null;
    if (m) return { row: c, layers: Number(m[1]) + 1 };
  }
  return null;
}

/** The devices of a split option, back from its card rows ("box/0: layers 0–40" and what each offers). */
function devicesOf(option: PlanOption): SplitDevice[] {
  const head = headCpuRow(option)?.row;
  return option.cards
    .filter((c) => c !== head)
    .map((c, i) => {
      // An rpc-server's CPU ("c1/CPU: layers 0–30") is a device too, its RAM share what it offers.
      if (c.cpuNode !== undefined)
        return {
          nodeId: c.cpuNode,
          gpuClass: "",
          index: 0,
          physicalBytes: c.physicalBytes,
          freeBytes: c.usableBytes + LLAMACPP_FIT_MARGIN_BYTES,
          cpu: true,
        };
      const [nodeId = "", index = String(i)] = (c.role.split(":")[0] ?? "").split("/");
      return {
        nodeId,
        gpuClass: c.gpuClass,
        index: Number(index),
        physicalBytes: c.physicalBytes,
        freeBytes: c.usableBytes + LLAMACPP_FIT_MARGIN_BYTES,
      };
    });
}

/** The option again with the user's -ts, or why that split cannot be read or does not fit, naming the card. */
export function checkTensorSplit(p: HandSplitContext, option: PlanOption, text: string): HandSplit {
  if (option.engine !== "llamacpp" || option.placement.tensorSplit === undefined)
    return { ok: false, words: "this option has no --tensor-split to set" };
  const artifact = p.artifacts.find((a) => a.name === option.artifact);
  if (!artifact) return { ok: false, words: `the plan has no artifact ${option.artifact}` };
  const devices = devicesOf(option);
  const split = parseSplit(text, devices.length);
  if (typeof split === "string") return { ok: false, words: split };
  // Layers the head's CPU keeps stay there: the devices share the other slots (-ngl = n_layer + 1 − those).
  const head = headCpuRow(option);
  const first = head?.layers ?? 0;
  const L = p.shape.layers - first;
  const slots = llamacppSlotDevices(split, L);
  const layers = devices.map((_, d) => slots.slice(0, L).filter((x) => x === d).length);
  const parts = splitParts(p.shape, artifact, devices, layers, slots[L] ?? devices.length - 1, first);
  const host: HostShare | null = head && {
    usableBytes: head.row.usableBytes,
    physicalBytes: head.row.physicalBytes,
    freeBytes: head.row.physicalBytes,
    fixedBytes: weightParts(p.shape, artifact).embedBytes,
    mode: "layers",
    splitCpuLayers: first,
    nodeUsableBytes: [],
    nodeFreeBytes: [],
  };
  const layout: Layout = {
    id: option.id,
    artifact,
    engine: "llamacpp",
    placement: { ...option.placement, tensorSplit: split },
    bitsPerWeight: option.bitsPerWeight,
    parts,
    host,
    hosts: option.hosts,
    freeNow: option.freeNow,
    cardsShort: 0,
    replicas: option.replicas ?? 1,
    replicasFreeNow: option.replicasFreeNow ?? 0,
    dataParallel: 1,
  };
  const again = evaluate(layout, { repo: p.repo, revision: p.revision, shape: p.shape }, p.workload);
  const over = again.cards.find((c) => c.overBytes > 0);
  if (over) {
    return {
      ok: false,
      words: `${over.role.split(":")[0] ?? ""}${over.gpuClass === "" ? "" : ` ${over.gpuClass}`} would hold ${over.role.split(": ")[1] ?? ""}: it needs ${gib1(over.usedBytes)} GiB and offers ${gib1(over.usableBytes)}`,
    };
  }
  if (!again.fits)
    return {
      ok: false,
      words: `with this split it does not fit: the worst card needs ${gib1(again.needBytes)} GiB and offers ${gib1(again.haveBytes)}`,
    };
  return { ok: true, option: again };
}
