/**
 * The one cluster schema: the bounds of every cluster field and the zod
 * schemas that hold them, used by validation (Modelplan's JSON, the page's
 * object, every importer) and by the plan link's codec, so a link cannot
 * carry a cluster that validation refuses, nor the other way round.
 */
import { z } from "zod";
import { CARD_MEMORY_KINDS } from "../plan/index.ts";

// The bounds live apart, with no zod, so the page's first screen can hold them without the schemas (issue 19).
import {
  MAX_DEVICE_MEM_GIB,
  MAX_DEVICES_PER_GROUP,
  MAX_FABRIC_GBPS,
  MAX_GROUPS_PER_NODE,
  MAX_CARD_GBPS,
  MAX_CARD_TFLOPS,
  MAX_CPU_CORES,
  MAX_HOST_GBPS,
  MAX_HOST_MEM_CHANNELS,
  MAX_HOST_MEM_MTS,
  MAX_HOST_MEM_GIB,
  MAX_NODES,
  MAX_TEXT_CHARS,
} from "./bounds.ts";

export * from "./bounds.ts";

/** zod's message for a missing or mistyped value, in words that name the field (and, missing, the key a file gives it by). */
export const typed = (what: string, expected: string, key?: string) => (issue: { input: unknown }) =>
  issue.input === undefined
    ? `${what} is missing${key === undefined ? "" : `: give ${key}, ${expected}`}`
    : `${what} must be ${expected}, not ${shown(issue.input)}`;

/** A value as a message shows it: JSON, cut to 40 characters. */
function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** −0 (a "-0" cell) is 0: JSON writes it as 0, and a cluster must equal its own link's round trip. */
const positiveZero = (n: number): number => (n === 0 ? 0 : n);

/** A whole number of cards, 0 to MAX_DEVICES_PER_GROUP. */
export const deviceCount = (what: string, key?: string) =>
  z
    .number({ error: typed(what, "a whole number of cards", key) })
    .refine(Number.isFinite, { message: `${what} must be a finite number`, abort: true })
    .refine((n) => n >= 0, { message: `${what} is negative: give 0 or more`, abort: true })
    .refine(Number.isInteger, { message: `${what} must be a whole number of cards, not a fraction`, abort: true })
    .refine((n) => n <= MAX_DEVICES_PER_GROUP, {
      message: `${what} is absurd (over ${MAX_DEVICES_PER_GROUP} on one node): check the number`,
    })
    .transform(positiveZero);

/** GiB, 0 to `max`. */
export const gibAmount = (what: string, max: number, key?: string) =>
  z
    .number({ error: typed(what, "a number of GiB", key) })
    .refine(Number.isFinite, { message: `${what} must be a finite number`, abort: true })
    .refine((n) => n >= 0, { message: `${what} is negative: give 0 or more GiB`, abort: true })
    .refine((n) => n <= max, { message: `${what} is absurd (over ${max} GiB): is it in MB? give GiB` })
    .transform(positiveZero);

/**
 * Control characters no host name or card class has: in an id they would
 * break the commands the plan prints for that node, or retitle the terminal
 * that prints them (issue 20).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** An id, class or fabric: trimmed text of at most MAX_TEXT_CHARS, with no control character. */
export const clusterText = (what: string, expected: string) =>
  z
    .string({ error: typed(what, expected) })
    .trim()
    .max(MAX_TEXT_CHARS, { message: `${what} is longer than ${MAX_TEXT_CHARS} characters` })
    .refine((s) => !CONTROL.test(s), {
      message: `${what} holds a control character (a tab, newline or escape): give plain text`,
    });

export const cardClass = clusterText("the class", 'text such as "h100-80g"').min(1, {
  message: "the class is empty: pick a card from the catalog, or type a class with its memory",
});
export const nodeId = clusterText("the id", "text").min(1, { message: "the id is empty: give the node a name" });
export const fabricName = clusterText("the fabric", 'text such as "ib0", or ""');
export const deviceMemGib = gibAmount("the memory a card", MAX_DEVICE_MEM_GIB).refine((n) => n > 0, {
  message: "the memory a card must be more than 0 GiB",
});
export const hostMemGib = (what: string, key?: string) => gibAmount(what, MAX_HOST_MEM_GIB, key);

/** A positive figure: a card's own, a link's speed, a DIMM's rate; 0, negative or text is refused at the field. */
const positiveFigure = (what: string, max: number) =>
  z
    .number({ error: typed(what, "a number above 0") })
    .refine(Number.isFinite, { message: `${what} must be a finite number`, abort: true })
    .refine((n) => n > 0, { message: `${what} must be above 0: leave it out when unknown`, abort: true })
    .refine((n) => n <= max, { message: `${what} is absurd (over ${max}): check the unit` });

/** A card's memory bandwidth, decimal GB/s, for a class the card table lacks (or to replace the table's). */
export const cardMemGbps = positiveFigure("the card's memory bandwidth (mem_gbps, GB/s)", MAX_CARD_GBPS);
/** A card's dense BF16 TFLOPS. */
export const cardBf16Tflops = positiveFigure("the card's dense BF16 TFLOPS (bf16_tflops)", MAX_CARD_TFLOPS);
/** How a card's memory behaves, for the speed model's fitted terms. */
export const cardMemKind = z.enum(CARD_MEMORY_KINDS, {
  error: typed("the card's memory kind (mem_kind)", `one of ${CARD_MEMORY_KINDS.map((k) => `"${k}"`).join(", ")}`),
});

/** A device group in Modelplan's JSON (snake_case). */
export const deviceSchema = z.object(
  {
    class: cardClass,
    count: deviceCount("the card count", "count"),
    free: deviceCount("the free count").optional(),
    mem_gib: deviceMemGib.optional(),
    /** Memory free now on each free device (nvidia-smi's total − used), for vLLM's start-up check. */
    free_mem_gib: gibAmount("the free memory a card", MAX_DEVICE_MEM_GIB).optional(),
    /** The free cards by the inventory's names (nvidia-smi indices, MIG UUIDs, GRES indices), for deployments that pin them. */
    free_indices: z
      .array(clusterText("a free card's name", "text").min(1), {
        error: typed("the free card names (free_indices)", 'a list of card names such as ["0", "3"]'),
      })
      .max(MAX_DEVICES_PER_GROUP)
      .optional(),
    gpu_product: clusterText("the GPU product label", "text").min(1).optional(),
    gres_type: clusterText("the GRES type", "text").optional(),
    /** The card's speed figures, for a class the card table lacks: without them its speed is null, never guessed. */
    mem_gbps: cardMemGbps.optional(),
    bf16_tflops: cardBf16Tflops.optional(),
    mem_kind: cardMemKind.optional(),
  },
  { error: typed("the card group", "an object with class, count and free") },
);

/** A fabric's line rate per card, Gbit/s; the cluster file, the panel and the link hold it to the same bounds. */
export const fabricGbps = positiveFigure("the fabric's speed (fabric_gbps)", MAX_FABRIC_GBPS);
/** A host's memory bandwidth, GB/s. */
export const hostMemGbps = positiveFigure("the host memory bandwidth (host_mem_gbps)", MAX_HOST_GBPS);

/** A count a node says of itself: a whole number above 0, at most `max`; 0, a fraction or text is refused in words. */
const wholeCount = (what: string, max: number) =>
  z
    .number({ error: typed(what, "a whole number above 0") })
    .refine(Number.isFinite, { message: `${what} must be a finite number`, abort: true })
    .refine((n) => n > 0, { message: `${what} must be above 0: leave it out when unknown`, abort: true })
    .refine(Number.isInteger, { message: `${what} must be a whole number`, abort: true })
    .refine((n) => n <= max, { message: `${what} is absurd (over ${max}): check the number` });

/** A host's memory channels (all sockets), for its bandwidth as channels × MT/s × 8 ÷ 1000. */
export const hostMemChannels = wholeCount("the memory channels (host_mem_channels)", MAX_HOST_MEM_CHANNELS);
/** The DIMMs' transfer rate, MT/s (4800 for DDR5-4800). */
export const hostMemMts = positiveFigure("the memory's transfer rate (host_mem_mts, MT/s)", MAX_HOST_MEM_MTS);

/** The CPU cores a host gives llama.cpp (its threads). */
export const cpuCores = wholeCount("the CPU cores (cpu_cores)", MAX_CPU_CORES);

export const nodeSchema = z.object(
  {
    id: nodeId,
    fabric: fabricName.optional(),
    host_mem_gib: hostMemGib("the RAM", "host_mem_gib"),
    host_free_gib: hostMemGib("the free RAM").optional(),
    /** The fabric's line rate per card in Gbit/s (400 for a DGX H100's ConnectX-7): what a replica across nodes pays per hop. */
    fabric_gbps: fabricGbps.optional(),
    /** Host memory bandwidth in GB/s (channels × transfer rate × 8 B): CPU decode and experts in RAM run at it. */
    host_mem_gbps: hostMemGbps.optional(),
    /** Or the same as its channels and their MT/s (12 and 4800: 460.8 GB/s), the figures a spec sheet or dmidecode gives. */
    host_mem_channels: hostMemChannels.optional(),
    host_mem_mts: hostMemMts.optional(),
    /** CPU cores llama.cpp's threads run on: a prompt on the CPU multiplies at them (speed/host.ts). */
    cpu_cores: cpuCores.optional(),
    devices: z
      .array(deviceSchema, { error: typed("the card list (devices)", "a list (empty for a CPU-only node)") })
      .max(MAX_GROUPS_PER_NODE, { message: `the card list has more than ${MAX_GROUPS_PER_NODE} classes` })
      .optional(),
  },
  { error: typed("the node", "an object with id, fabric, host_mem_gib, host_free_gib and devices") },
);

export const clusterSchema = z.object(
  {
    nodes: z
      .array(nodeSchema, { error: typed("the node list (nodes)", "a list of nodes") })
      .min(1, { message: "the cluster has no nodes: add one" })
      .max(MAX_NODES, { message: `more than ${MAX_NODES} nodes` }),
  },
  { error: typed("the cluster", 'an object with a "nodes" list') },
);

export type SnakeCluster = z.infer<typeof clusterSchema>;
export type SnakeNode = SnakeCluster["nodes"][number];
