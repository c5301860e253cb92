/**
 * `ray status`: the autoscaler's Usage block ("4.0/4.0 GPU", "0.0/2.0
 * accelerator_type:P100", "0.00/341.044 GiB memory"). Ray counts logical
 * resources for the whole cluster, not per node, and accelerator_type counts
 * nodes (one per node whatever its GPUs, ray#32921). So the nodes are the
 * healthy ones listed, or the accelerator_type count, and the GPUs and memory
 * are shared out evenly among them; the review says it is an estimate.
 */
import { draftNode, finishNode } from "./draft.ts";
import { identifyCard } from "./identify.ts";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";
import { MAX_DEVICES_PER_GROUP, MAX_NODES } from "./validate.ts";

export function detectRay(text: string): boolean {
  return /^[^\S\n]*[\d.]+\/[\d.]+\s+GPU\b/m.test(text) && /Usage:|accelerator_type|Autoscaler status/.test(text);
}

function bytesGib(v: string): number | undefined {
  const m = /^([\d.]+)\s*(B|KiB|MiB|GiB|TiB)?$/.exec(v.trim());
  if (!m) return undefined;
  const scale: Record<string, number> = { B: 2 ** -30, KiB: 2 ** -20, MiB: 2 ** -10, GiB: 1, TiB: 1024 };
  return Number(m[1]) * (scale[m[2] ?? "GiB"] ?? 1);
}

export function readRay(text: string): Reading {
  const warnings: ImportMessage[] = [];
  const gpu = /^[^\S\n]*([\d.]+)\/([\d.]+)\s+GPU\b/m.exec(text);
  const accel = /^[^\S\n]*[\d.]+\/([\d.]+)\s+accelerator_type:(\S+)/m.exec(text);
  const memory = /^[^\S\n]*([\d.]+\s*[KMGT]?i?B?)\s*\/\s*([\d.]+\s*[KMGT]?i?B?)\s+memory\b/m.exec(text);
  const healthy = [...text.matchAll(/^[^\S\n]*\d+\s+(node_[0-9a-f]+)/gm)].map((m) => m[1]!);
  if (!gpu)
    return {
      nodes: [],
      warnings: [],
      errors: [note("read as ray status, but no GPU line was found")],
      format: "ray status",
    };
  const total = Number(gpu[2]);
  const used = Number(gpu[1]);
  const nodeCount = healthy.length || (accel ? Math.round(Number(accel[1])) : 1);
  if (!accel)
    return {
      nodes: [],
      warnings: [],
      errors: [note("ray status does not say which card: no accelerator_type line; add the nodes by hand")],
      format: "ray status",
    };
  const id = identifyCard(accel[2]!);
  if (!id?.card) {
    return {
      nodes: [],
      warnings: [],
      errors: [
        note(
          `accelerator_type:${accel[2]} is not a card Modelplan knows (Ray does not print its memory): add the nodes by hand`,
        ),
      ],
      format: "ray status",
    };
  }
  if (!(nodeCount >= 1 && nodeCount <= MAX_NODES) || !(total >= 0 && total <= MAX_NODES * MAX_DEVICES_PER_GROUP)) {
    return {
      nodes: [],
      warnings: [],
      errors: [note(`${nodeCount} nodes with ${total} GPUs is not a real cluster: check the paste`)],
      format: "ray status",
    };
  }
  const perNode = total / nodeCount;
  if (!Number.isInteger(perNode) || perNode > MAX_DEVICES_PER_GROUP) {
    return {
      nodes: [],
      warnings: [],
      errors: [
        note(
          `${total} GPUs over ${nodeCount} nodes does not share out evenly: ray status does not say which node has which; add them by hand`,
        ),
      ],
      format: "ray status",
    };
  }
  let freeLeft = Math.floor(total - used);
  const memGib = memory ? bytesGib(memory[2]!.replace(/\s+/g, "")) : undefined;
  const memUsedGib = memory ? bytesGib(memory[1]!.replace(/\s+/g, "")) : undefined;
  const nodes = Array.from({ length: nodeCount }, (_, i) => {
    const node = draftNode(healthy[i] ?? `ray-node-${i + 1}`);
    if (memGib !== undefined) {
      node.hostMemGib = Math.round((memGib / nodeCount) * 100) / 100;
      node.hostFreeGib = Math.round(((memGib - (memUsedGib ?? 0)) / nodeCount) * 100) / 100;
    }
    for (let g = 0; g < perNode; g++) {
      node.devices.push({ class: id.class, free: freeLeft > 0 });
      freeLeft -= 1;
    }
    return finishNode(node);
  });
  warnings.push(
    note(
      `ray status counts the whole cluster: ${total} ${accel[2]} GPUs shared out as ${perNode} on each of ${nodeCount} node(s), and Ray's logical memory pool as their RAM; check both`,
    ),
  );
  if (/A100|V100/i.test(accel[2]!))
    warnings.push(note(`accelerator_type:${accel[2]} does not say its memory: taken as ${id.class}`));
  return { nodes, warnings, errors: [], format: "ray status" };
}

export const RAY_READER: Reader = { format: "ray status", detect: detectRay, read: readRay };
