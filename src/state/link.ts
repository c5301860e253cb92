/**
 * The plan link: the user's choices in the URL fragment, versioned and
 * compressed (docs/STYLE.md habit 5).
 *
 * Wire format v1: `v1.` + base64url(deflate-raw(JSON)), where the JSON uses
 * short keys and arrays for the bulky parts (the cluster's nodes), so a
 * 10-node cluster stays well under 2 KB. Every choice is written, defaults
 * included: a link opened after the page's defaults change still reproduces
 * the plan it was made from.
 *
 * Decoding never throws. Each field is checked on its own; a bad one falls
 * back to the default and is named in `ignored`, so a hand-edited or
 * truncated link still opens on a page that says what it could not use
 * (excalidraw's `restoreAppState`).
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";
import { z } from "zod";
import type { Cluster, EngineSettings, Workload } from "../plan/index.ts";
import { KV_DTYPES, RUN_DTYPES, vllmProfileFor } from "../plan/index.ts";
import { ENGINES, FIT_FILTERS, GROUP_BYS, type Choices, type Filters } from "./choices.ts";

export const LINK_VERSION = 1;
const PREFIX = `v${LINK_VERSION}.`;

/**
 * Links longer than this are refused before decompression: a real plan link
 * is a few hundred bytes, and a pasted multi-megabyte fragment should not
 * stall the page.
 */
const MAX_LINK_CHARS = 64 * 1024;
/** The JSON inside a link may not inflate past this (a deflate bomb would otherwise fill memory). */
const MAX_JSON_BYTES = 512 * 1024;
/** Upper bounds that keep a tampered number from reaching the engine as nonsense. */
const MAX_CONTEXT_TOKENS = 100_000_000;
const MAX_SEQUENCES = 1_000_000;
const MAX_NODES = 10_000;
const MAX_DEVICES_PER_GROUP = 10_000;
const MAX_MEM_GIB = 1_000_000;
const MAX_TEXT_CHARS = 300;
/**
 * A shared link stays under 8 KB: the length that chat tools, issue trackers
 * and older proxies keep whole (RFC 9110 §4.1 recommends senders and
 * recipients support at least 8000 octets in a URI). A manual model's
 * config.json is left out of a link it would push past this.
 */
export const MAX_SHARED_LINK_CHARS = 8000;
/** A minified config.json is a few kB; more than this was never a config. */
const MAX_MANUAL_CONFIG_CHARS = 64 * 1024;

export interface DecodedLink {
  choices: Choices;
  /** One sentence per part of the link that could not be used; empty when all of it was. */
  ignored: string[];
}

export interface DecodeOptions {
  /**
   * The cluster's own checks (free above total, duplicate ids, unknown class
   * without memory), as the cluster panel applies them: their messages, or
   * none when the cluster is sound.
   */
  checkCluster?: (cluster: Cluster) => string[];
}

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

type WireDevice = [cls: string, count: number, free: number, memGib?: number];
type WireNode = [id: string, fabric: string, hostMemGib: number, hostFreeGib: number, devices: WireDevice[]];

interface WireV1 {
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
  /** A manual model: name, minified config.json, weights' bytes. */
  x?: [name: string, configJson: string, weightsBytes: number];
}

function toWire(choices: Choices): WireV1 {
  const { workload, filters } = choices;
  return {
    r: choices.repo,
    v: choices.revision,
    c: choices.cluster.nodes.map((node): WireNode => [
      node.id,
      node.fabric,
      node.hostMemGib,
      node.hostFreeGib,
      node.devices.map((d): WireDevice => (d.memGib === undefined ? [d.class, d.count, d.free] : [d.class, d.count, d.free, d.memGib])),
    ]),
    w: [workload.contextTokens, workload.sequences, workload.kvDtype],
    e: workload.settings,
    f: [filters.artifact, filters.engine, filters.fit, filters.groupBy],
    o: choices.selectedOptionId,
    m: choices.commandIndex,
    ...(choices.manual ? { x: [choices.manual.name, choices.manual.configJson, choices.manual.weightsBytes] } : {}),
  };
}

function encodeWire(wire: WireV1): string {
  return PREFIX + toBase64Url(deflateSync(strToU8(JSON.stringify(wire)), { level: 9 }));
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
// Decoding
// ---------------------------------------------------------------------------

const text = z.string().max(MAX_TEXT_CHARS);
const count = z.number().int().min(0).max(MAX_DEVICES_PER_GROUP);
const gib = z.number().min(0).max(MAX_MEM_GIB);

const wireDevice = z.union([
  z.tuple([text.min(1), count, count]),
  z.tuple([text.min(1), count, count, gib.positive()]),
]);
const wireNode = z.tuple([text.min(1), text, gib, gib, z.array(wireDevice).max(64)]);
const wireCluster = z.array(wireNode).min(1).max(MAX_NODES);

const kvDtype = z.enum(KV_DTYPES);
const contextTokens = z.number().int().min(1).max(MAX_CONTEXT_TOKENS);
const sequences = z.number().int().min(1).max(MAX_SEQUENCES);

/** Each setting with the range its engine accepts; a field outside it is dropped alone. */
const settingSchemas: { [K in keyof Required<EngineSettings>]: z.ZodType<NonNullable<EngineSettings[K]>> } = {
  speculativeMtpTokens: z.number().int().min(1).max(16),
  gpuMemoryUtilization: z.number().gt(0).max(1),
  maxNumSeqs: z.number().int().min(1).max(MAX_SEQUENCES),
  maxNumBatchedTokens: z.number().int().min(1).max(MAX_CONTEXT_TOKENS),
  dtype: z.enum(RUN_DTYPES),
  quantization: z.literal("fp8"),
  enforceEager: z.boolean(),
  vllmChunkedLocalHybridKv: z.boolean(),
  // A release the engine has a profile for ("0.15", "0.10.1.1", "0.29.1rc1.dev17+gd2d649e67.d20260913"); anything else is named and dropped.
  vllmVersion: z.string().max(48).superRefine((v, ctx) => {
    const profile = vllmProfileFor(v);
    if ("error" in profile) ctx.addIssue({ code: "custom", message: profile.error });
  }),
  memFractionStatic: z.number().gt(0).max(1),
  ubatch: z.number().int().min(1).max(MAX_CONTEXT_TOKENS),
  batch: z.number().int().min(1).max(MAX_CONTEXT_TOKENS),
  parallel: z.number().int().min(1).max(MAX_SEQUENCES),
  measuredOverheadGib: z.partialRecord(z.enum(ENGINES), z.number().min(0).max(MAX_MEM_GIB)),
};

/** Reads a fragment (with or without "#"); never throws. An empty fragment is the defaults, silently. */
export function decodeLink(fragment: string, defaults: Choices, options: DecodeOptions = {}): DecodedLink {
  const raw = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (raw === "") return { choices: defaults, ignored: [] };
  const wire = readWire(raw);
  if (typeof wire === "string") return { choices: defaults, ignored: [wire] };
  return readChoices(wire, defaults, options);
}

/** The JSON object inside a link, or why there is none. */
function readWire(raw: string): Record<string, unknown> | string {
  const whole = "The link could not be read, so the page opened on its example plan";
  if (raw.length > MAX_LINK_CHARS) return `${whole}: it is ${raw.length.toLocaleString("en-US")} characters long, far more than any plan needs.`;
  const version = /^v(\d+)\./.exec(raw);
  if (!version) return `${whole}: it is not a Modelplan plan link (it should start with #${PREFIX}).`;
  if (version[1] !== String(LINK_VERSION)) {
    return `${whole}: it was made by another version of Modelplan (link format v${version[1]}; this page reads v${LINK_VERSION}).`;
  }
  const bytes = fromBase64Url(raw.slice(PREFIX.length));
  if (!bytes) return `${whole}: it has characters a plan link never has (was it cut or edited?).`;
  let json: string;
  try {
    const out = inflateSync(bytes, { out: new Uint8Array(MAX_JSON_BYTES + 1) });
    if (out.length > MAX_JSON_BYTES) return `${whole}: it unpacks to more than ${MAX_JSON_BYTES / 1024} KB.`;
    json = strFromU8(out);
  } catch {
    return `${whole}: its compressed data is damaged (was it cut short when copied?).`;
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return `${whole}: its data is damaged (was it cut short when copied?).`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `${whole}: it holds no plan.`;
  return value as Record<string, unknown>;
}

function readChoices(wire: Record<string, unknown>, defaults: Choices, options: DecodeOptions): DecodedLink {
  const ignored: string[] = [];
  /** Takes a field when its schema accepts it, else notes why and keeps the default. */
  function take<T>(key: string, label: string, schema: z.ZodType<T>, fallback: T): T {
    if (!(key in wire)) {
      ignored.push(`${label}: missing from the link; using the default.`);
      return fallback;
    }
    const parsed = schema.safeParse(wire[key]);
    if (parsed.success) return parsed.data;
    ignored.push(`${label}: ${describeIssue(parsed.error)}; using the default.`);
    return fallback;
  }

  const repo = take("r", "the repo", text.regex(/^$|^[\w.-]+\/[\w.-]+$/, "not an owner/name repo id"), defaults.repo);
  const revision = take("v", "the revision", text.regex(/^[\w./-]*$/, "not a commit, branch or tag"), defaults.revision);
  const cluster = readCluster(take("c", "the cluster", wireCluster, null), defaults.cluster, options, ignored);
  const [context, seqs, kv] = take(
    "w",
    "the context",
    z.tuple([z.unknown(), z.unknown(), z.unknown()]),
    [defaults.workload.contextTokens, defaults.workload.sequences, defaults.workload.kvDtype],
  );
  const workload: Workload = {
    contextTokens: field(contextTokens, context, "the context length", defaults.workload.contextTokens, ignored),
    sequences: field(sequences, seqs, "the concurrent sequences", defaults.workload.sequences, ignored),
    kvDtype: field(kvDtype, kv, "the KV cache dtype", defaults.workload.kvDtype, ignored),
    settings: readSettings(take("e", "the engine settings", z.record(z.string(), z.unknown()), {}), defaults.workload.settings, ignored),
  };
  const filters = readFilters(take("f", "the filters", z.tuple([z.unknown(), z.unknown(), z.unknown(), z.unknown()]), null), defaults.filters, ignored);
  const selectedOptionId = take("o", "the selected option", text, defaults.selectedOptionId);
  const commandIndex = take("m", "the chosen command", z.number().int().min(0).max(64), defaults.commandIndex);
  const manual = "x" in wire ? take("x", "the manual model", z.tuple([text.min(1), z.string().min(2).max(MAX_MANUAL_CONFIG_CHARS), z.number().positive().max(MAX_MEM_GIB * 2 ** 30)]), null) : null;
  const known = new Set(["r", "v", "c", "w", "e", "f", "o", "m", "x"]);
  const extra = Object.keys(wire).filter((k) => !known.has(k));
  if (extra.length > 0) ignored.push(`Fields this page does not know: ${extra.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 20))).join(", ")}.`);
  const choices: Choices = { repo, revision, cluster, workload, filters, selectedOptionId, commandIndex };
  if (manual) choices.manual = { name: manual[0], configJson: manual[1], weightsBytes: manual[2] };
  return { choices, ignored };
}

function field<T>(schema: z.ZodType<T>, value: unknown, label: string, fallback: T, ignored: string[]): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  ignored.push(`${label}: ${describeIssue(parsed.error)}; using the default.`);
  return fallback;
}

function readCluster(nodes: z.infer<typeof wireCluster> | null, fallback: Cluster, options: DecodeOptions, ignored: string[]): Cluster {
  if (nodes === null) return fallback;
  const cluster: Cluster = {
    nodes: nodes.map(([id, fabric, hostMemGib, hostFreeGib, devices]) => ({
      id,
      fabric,
      hostMemGib,
      hostFreeGib,
      devices: devices.map(([cls, total, free, memGib]) => (memGib === undefined ? { class: cls, count: total, free } : { class: cls, count: total, free, memGib })),
    })),
  };
  const problems = options.checkCluster?.(cluster) ?? [];
  if (problems.length === 0) return cluster;
  const shown = problems.slice(0, 3).join("; ");
  ignored.push(`the cluster: ${shown}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""}; using the example cluster.`);
  return fallback;
}

function readSettings(wire: Record<string, unknown>, fallback: EngineSettings, ignored: string[]): EngineSettings {
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) {
    const schema = (settingSchemas as Record<string, z.ZodType | undefined>)[key];
    if (!Object.hasOwn(settingSchemas, key) || !schema) {
      ignored.push(`the engine setting ${JSON.stringify(key.slice(0, 40))}: this page does not know it.`);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) settings[key] = parsed.data;
    else ignored.push(`the engine setting ${key}: ${describeIssue(parsed.error)}; using the engine's default.`);
  }
  return Object.keys(wire).length === 0 ? fallback : (settings as EngineSettings);
}

function readFilters(wire: [unknown, unknown, unknown, unknown] | null, fallback: Filters, ignored: string[]): Filters {
  if (wire === null) return fallback;
  const [artifact, engine, fit, groupBy] = wire;
  return {
    artifact: field(text, artifact, "the artifact filter", fallback.artifact, ignored),
    engine: field(z.enum(["", ...ENGINES] as const), engine, "the engine filter", fallback.engine, ignored),
    fit: field(z.enum(FIT_FILTERS), fit, "the fit filter", fallback.fit, ignored),
    groupBy: field(z.enum(GROUP_BYS), groupBy, "the grouping", fallback.groupBy, ignored),
  };
}

/** The first problem zod found, in words a user can act on. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "not valid";
  const where = issue.path.length > 0 ? ` (at ${issue.path.join(".")})` : "";
  return `${issue.message.replace(/^Invalid input: /, "")}${where}`.slice(0, 160);
}

// ---------------------------------------------------------------------------
// base64url without padding (RFC 4648 §5): safe in a fragment, no escaping.
// ---------------------------------------------------------------------------

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes, or null when the text is not base64url. */
function fromBase64Url(textIn: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(textIn) || textIn.length % 4 === 1) return null;
  const base64 = textIn.replace(/-/g, "+").replace(/_/g, "/");
  let binary: string;
  try {
    binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
