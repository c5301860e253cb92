/**
 * The plan link's writer: the user's choices as the fragment's text (the
 * format is described in link.ts, which reads it back). Apart from the
 * reader so the page writes its link with no validation code loaded: zod
 * and the cluster schema come in only when a link is opened (issue 19).
 */
import { deflateSync, strToU8 } from "fflate";
import type { ClusterNode, DeviceGroup, EngineSettings, Workload } from "../plan/index.ts";
import type { Choices } from "./choices.ts";

export const LINK_VERSION = 2;
export const PREFIX = `v${LINK_VERSION}.`;
/**
 * A shared link stays under 8 KB: the length that chat tools, issue trackers
 * and older proxies keep whole (RFC 9110 §4.1 recommends senders and
 * recipients support at least 8000 octets in a URI). A manual model's
 * config.json is left out of a link it would push past this.
 */
export const MAX_SHARED_LINK_CHARS = 8000;

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

/**
 * What the inventory said of a device group beyond its counts, in a fifth
 * element present only when any is known: free memory (fm), the free cards'
 * names (fi), GFD's product label (gp), Slurm's GRES type (gt), and the speed
 * figures a user gave the card (bw, tf, mk). Without it a shared plan of a
 * half-busy node reopens as all free (issue 16), and a custom card's speed as unknown.
 */
export interface WireDeviceNames {
  fm?: number;
  fi?: string[];
  gp?: string;
  gt?: string;
  /** The card's own speed figures, where the user gave them: memory GB/s, dense BF16 TFLOPS, memory kind. */
  bw?: number;
  tf?: number;
  mk?: string;
}
export type WireDevice = [cls: string, count: number, free: number, memGib?: number | null, names?: WireDeviceNames];
/**
 * What a node says of its wires, in a sixth element present only when it says
 * any: the fabric's line rate in Gbit/s (fg), the host memory bandwidth in GB/s
 * (hb). Without it a shared plan of a 400G cluster reopens on the assumed fabric.
 */
export interface WireNodeLinks {
  fg?: number;
  hb?: number;
  /** CPU cores (cpu_cores). */
  cc?: number;
}
export type WireNode = [
  id: string,
  fabric: string,
  hostMemGib: number,
  hostFreeGib: number,
  devices: WireDevice[],
  links?: WireNodeLinks,
];

export interface WireV1 {
  r: string;
  v: string;
  c: WireNode[];
  /** contextTokens, sequences, kvDtype */
  w: [number, number, string];
  e: EngineSettings;
  /** artifact, engine, fit, groupBy */
  f: [string, string, string, string];
  o: string;
  m: number;
  /** A manual model: name, minified config.json, weights' bytes, and its hf_quant_config.json when it has one. */
  x?: [name: string, configJson: string, weightsBytes: number, quantConfigJson?: string];
  /** The request and the order, when not the defaults: input tokens, output tokens, rank-by, prices per card-hour ({} for none). */
  q?: [inputTokens: number | null, outputTokens: number | null, rankBy: string, prices: Record<string, number>];
}

function toWire(choices: Choices): WireV1 {
  const { workload, filters } = choices;
  return {
    r: choices.repo,
    v: choices.revision,
    c: choices.cluster.nodes.map((node): WireNode => {
      const head = [node.id, node.fabric, node.hostMemGib, node.hostFreeGib, node.devices.map(wireDevice)] as const;
      const links = wireLinks(node);
      return links === null ? [...head] : [...head, links];
    }),
    w: [workload.contextTokens, workload.sequences, workload.kvDtype],
    e: workload.settings,
    f: [filters.artifact, filters.engine, filters.fit, filters.groupBy],
    o: choices.selectedOptionId,
    m: choices.commandIndex,
    ...(choices.manual ? { x: manualWire(choices.manual) } : {}),
    ...(requestChanged(workload)
      ? {
          q: [
            workload.inputTokens ?? null,
            workload.outputTokens ?? null,
            workload.rankBy ?? "",
            workload.pricesPerCardHour ?? {},
          ],
        }
      : {}),
  };
}

/** A node's wires as the link carries them, or null when it says none (the link stays as short as before). */
function wireLinks(node: ClusterNode): WireNodeLinks | null {
  if (node.fabricGbps === undefined && node.hostMemGBps === undefined && node.cpuCores === undefined) return null;
  return {
    ...(node.fabricGbps !== undefined ? { fg: node.fabricGbps } : {}),
    ...(node.hostMemGBps !== undefined ? { hb: node.hostMemGBps } : {}),
    ...(node.cpuCores !== undefined ? { cc: node.cpuCores } : {}),
  };
}

/** Whether the workload names a request length, an order or a price: only then does the link carry them. */
function requestChanged(w: Workload): boolean {
  return (
    w.inputTokens !== undefined ||
    w.outputTokens !== undefined ||
    w.rankBy !== undefined ||
    w.pricesPerCardHour !== undefined
  );
}

function wireDevice(d: DeviceGroup): WireDevice {
  const names: WireDeviceNames = {};
  if (d.freeMemGib !== undefined) names.fm = d.freeMemGib;
  if (d.freeIndices !== undefined) names.fi = d.freeIndices;
  if (d.gpuProduct !== undefined) names.gp = d.gpuProduct;
  if (d.gresType !== undefined) names.gt = d.gresType;
  if (d.memGBps !== undefined) names.bw = d.memGBps;
  if (d.bf16Tflops !== undefined) names.tf = d.bf16Tflops;
  if (d.memKind !== undefined) names.mk = d.memKind;
  if (Object.keys(names).length > 0) return [d.class, d.count, d.free, d.memGib ?? null, names];
  return d.memGib === undefined ? [d.class, d.count, d.free] : [d.class, d.count, d.free, d.memGib];
}

function encodeWire(wire: WireV1): string {
  const payload = toBase64Url(deflateSync(strToU8(JSON.stringify(wire)), { level: 9 }));
  return `${PREFIX}${checksum(payload)}.${payload}`;
}

/**
 * FNV-1a, 32 bits, as 8 hex digits (http://www.isthe.com/chongo/tech/comp/fnv/).
 * Each step is a bijection of the hash for a fixed next byte, so any single
 * changed character always changes it; anything else slips through 1 time in 2^32.
 */
export function checksum(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function manualWire(m: NonNullable<Choices["manual"]>): NonNullable<WireV1["x"]> {
  return m.quantConfigJson === undefined
    ? [m.name, m.configJson, m.weightsBytes]
    : [m.name, m.configJson, m.weightsBytes, m.quantConfigJson];
}

/**
 * The fragment (without "#") that reproduces these choices. A manual model
 * that would make it longer than MAX_SHARED_LINK_CHARS is left out (see
 * linkCarriesManual), so the rest of the plan still travels.
 */
export function encodeLink(choices: Choices): string {
  const wire = toWire(choices);
  const full = encodeWire(wire);
  if (wire.x === undefined || full.length <= MAX_SHARED_LINK_CHARS) return full;
  delete wire.x;
  return encodeWire(wire);
}

/** Whether the link carries the manual model (true when there is none to carry). */
export function linkCarriesManual(choices: Choices): boolean {
  return choices.manual === undefined || encodeWire(toWire(choices)).length <= MAX_SHARED_LINK_CHARS;
}

// ---------------------------------------------------------------------------
// base64url without padding (RFC 4648 §5): safe in a fragment, no escaping.
// ---------------------------------------------------------------------------

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
