/**
 * The plan link: the user's choices in the URL fragment, versioned and
 * compressed (docs/STYLE.md habit 5).
 *
 * Wire format v2: `v2.` + checksum + `.` + base64url(deflate-raw(JSON)),
 * where the JSON uses short keys and arrays for the bulky parts (the
 * cluster's nodes), so a 10-node cluster stays well under 2 KB, and the
 * checksum is FNV-1a (32 bits, 8 hex digits) of the base64url text: one
 * character changed in copying (which could still decode, and silently turn
 * a model into full multi-head attention, issue 20) is reported instead of
 * planned. v1 (the same without the checksum) still opens. Every choice is
 * written, defaults included: a link opened after the page's defaults change
 * still reproduces the plan it was made from.
 *
 * Decoding never throws. Each field is checked on its own; a bad one falls
 * back to the default and is named in `ignored`, so a hand-edited or
 * truncated link still opens on a page that says what it could not use
 * (excalidraw's `restoreAppState`).
 */
import { inflateSync, strFromU8 } from "fflate";
import { z } from "zod";
import type { Cluster, DeviceGroup, EngineSettings, Workload } from "../plan/index.ts";
import { KV_DTYPES, MAX_REQUEST_TOKENS, RANK_BYS, RUN_DTYPES, vllmProfileFor } from "../plan/index.ts";
import {
  cardBf16Tflops,
  cardClass,
  cardMemGbps,
  cardMemKind,
  cpuCores,
  deviceCount,
  deviceMemGib,
  fabricGbps,
  fabricName,
  hostMemGbps,
  hostMemGib,
  MAX_DEVICE_MEM_GIB,
  MAX_DEVICES_PER_GROUP,
  MAX_GROUPS_PER_NODE,
  MAX_NODES,
  nodeId,
} from "../cluster/schema.ts";
import { configCeilingError } from "../hub/limits.ts";
import { parseRepoInput } from "../hub/repoId.ts";
import { ENGINES, FIT_FILTERS, GROUP_BYS, type Choices, type Filters } from "./choices.ts";
import { checksum, LINK_VERSION, PREFIX } from "./linkWire.ts";

// The writer is apart (linkWire.ts: the page writes links with no zod loaded); its names are this module's too.
export { checksum, encodeLink, LINK_VERSION, linkCarriesManual, MAX_SHARED_LINK_CHARS } from "./linkWire.ts";
/** The formats this page opens: v1 (no checksum) and v2. */
const READ_VERSIONS = new Set(["1", "2"]);

/**
 * Links longer than this are refused before decompression: a real plan link
 * is a few hundred bytes, and a pasted multi-megabyte fragment should not
 * stall the page.
 */
const MAX_LINK_CHARS = 64 * 1024;
/** The JSON inside a link may not inflate past this (a deflate bomb would otherwise fill memory). */
const MAX_JSON_BYTES = 512 * 1024;
/**
 * Upper bounds that keep a tampered number from reaching the engine as
 * nonsense. The cluster's are the cluster validation's own (src/cluster/validate.ts),
 * so a link cannot carry a cluster the cluster panel would refuse.
 */
const MAX_CONTEXT_TOKENS = 100_000_000;
const MAX_SEQUENCES = 1_000_000;
const MAX_MEM_GIB = 1_000_000;
const MAX_TEXT_CHARS = 300;
/** Notices shown for one link: past these, one line counts the rest (a link of 50,000 bad settings is one message, not 50,000). */
const MAX_NOTICES = 10;
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
  /** A link pasted over a plan on screen: a link that cannot be read at all leaves that plan, and says so. */
  keepsPlan?: boolean;
}

/** A request length, order and prices from a link: each checked apart, a bad one named and dropped. */
function readRequest(raw: unknown, ignored: string[]): Partial<Workload> {
  if (raw === null) return {};
  const parsed = z.tuple([z.unknown(), z.unknown(), z.unknown(), z.unknown()]).safeParse(raw);
  if (!parsed.success) {
    ignored.push("the request and ranking: not the four fields this page writes; the defaults are used.");
    return {};
  }
  const [input, output, by, prices] = parsed.data;
  const out: Partial<Workload> = {};
  const tokens = z.number().int().min(1).max(MAX_REQUEST_TOKENS);
  const inputOk = tokens.safeParse(input);
  if (inputOk.success) out.inputTokens = inputOk.data;
  else if (input !== null) ignored.push("the input tokens: not a whole number from 1 up; the default 1,024 is used.");
  const outputOk = tokens.safeParse(output);
  if (outputOk.success) out.outputTokens = outputOk.data;
  else if (output !== null) ignored.push("the output tokens: not a whole number from 1 up; the default 256 is used.");
  const byOk = z.enum(RANK_BYS).safeParse(by);
  if (byOk.success) out.rankBy = byOk.data;
  else if (by !== "") ignored.push(`the ranking: not one of ${RANK_BYS.join(", ")}; fewest-cards is used.`);
  const pricesOk = z
    .record(z.string().min(1).max(64), z.number().min(0).max(MAX_PRICE))
    .refine((p) => Object.keys(p).length <= MAX_PRICES)
    .safeParse(prices);
  if (pricesOk.success) {
    if (Object.keys(pricesOk.data).length > 0) out.pricesPerCardHour = pricesOk.data;
  } else ignored.push("the prices per card-hour: not class → dollars (0 or more); the defaults are used.");
  return out;
}

// ---------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------

const text = z.string().max(MAX_TEXT_CHARS);
/** Memory of one device, GiB: no card holds more than MAX_DEVICE_MEM_GIB. */
const gib = z.number().min(0).max(MAX_DEVICE_MEM_GIB);

/** An array whose length is checked before any of its entries is (zod walks every entry first, then counts). */
function boundedArray<T extends z.ZodType>(item: T, max: number, what: string) {
  return z
    .unknown()
    .superRefine((v, ctx) => {
      if (!Array.isArray(v)) ctx.addIssue({ code: "custom", message: `${what} is not a list` });
      else if (v.length > max)
        ctx.addIssue({
          code: "custom",
          message: `${v.length.toLocaleString("en-US")} ${what}, more than the ${max.toLocaleString("en-US")} any real one has`,
        });
    })
    .pipe(z.array(item));
}

// The cluster's fields and bounds are the cluster schema's (src/cluster/schema.ts), as validation holds them;
// a group's inventory names (free memory, free cards, GFD product, GRES type) ride in an optional fifth field.
const wireNames = z
  .object({
    fm: gib.optional(),
    fi: z.array(text.min(1)).max(MAX_DEVICES_PER_GROUP).optional(),
    gp: text.min(1).optional(),
    gt: text.optional(),
    bw: cardMemGbps.optional(),
    tf: cardBf16Tflops.optional(),
    mk: cardMemKind.optional(),
  })
  .strict();
// One tuple with optional tail elements, not a union of three: a bad figure is then named ("the card's memory
// bandwidth … must be above 0"), where a union said only "Invalid input".
const wireDeviceSchema = z.tuple([
  cardClass,
  deviceCount("count"),
  deviceCount("free"),
  deviceMemGib.nullable().optional(),
  wireNames.optional(),
]);
// Links made before the wires were carried have five elements: they still open, on the assumed fabric.
const wireNode = z.tuple([
  nodeId,
  fabricName,
  hostMemGib("host_mem_gib"),
  hostMemGib("host_free_gib"),
  boundedArray(wireDeviceSchema, MAX_GROUPS_PER_NODE, "device groups on a node"),
  z.object({ fg: fabricGbps.optional(), hb: hostMemGbps.optional(), cc: cpuCores.optional() }).strict().optional(),
]);
const wireCluster = boundedArray(wireNode, MAX_NODES, "nodes").refine((nodes) => nodes.length > 0, "no nodes");

/**
 * A repo id in a link follows the repo field's rule (hub/repoId.ts): a link
 * naming "../.." or "x/.." would send requests, token attached, to another
 * path of the Hub (issue 20), and "" one to `/api/models//revision/main`.
 */
const repoId = text.superRefine((v, ctx) => {
  const parsed = parseRepoInput(v);
  if ("error" in parsed) ctx.addIssue({ code: "custom", message: `not an owner/name repo id (${parsed.error})` });
  else if (parsed.repo !== v || parsed.revision !== null)
    ctx.addIssue({ code: "custom", message: "not an owner/name repo id" });
});
/** A branch, tag or commit: git's ref rules in short (no "..", no leading or trailing "/" or "."), or "" for main. */
const revisionId = text.regex(/^$|^(?![./])(?!.*\.\.)(?!.*[./]$)[\w./-]+$/, "not a commit, branch or tag");

/** Bounds a link's request fields are held to before use (a request's tokens: the engine's MAX_REQUEST_TOKENS): no card costs $1,000 an hour, no cluster has 256 classes. */
const MAX_PRICE = 1000;
const MAX_PRICES = 256;
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
  vllmVersion: z
    .string()
    .max(48)
    .superRefine((v, ctx) => {
      const profile = vllmProfileFor(v);
      if ("error" in profile) ctx.addIssue({ code: "custom", message: profile.error });
    }),
  memFractionStatic: z.number().gt(0).max(1),
  ubatch: z.number().int().min(1).max(MAX_CONTEXT_TOKENS),
  batch: z.number().int().min(1).max(MAX_CONTEXT_TOKENS),
  parallel: z.number().int().min(1).max(MAX_SEQUENCES),
  flashAttn: z.enum(["on", "off", "auto"]),
  kvUnified: z.boolean(),
  measuredOverheadGib: z.partialRecord(z.enum(ENGINES), z.number().min(0).max(MAX_MEM_GIB)),
  // Added with issue 17: a link made before it has no such key and decodes as it did.
  ropeScaling: z.literal("yarn"),
};

/** Reads a fragment (with or without "#"); never throws. An empty fragment is the defaults, silently. */
export function decodeLink(fragment: string, defaults: Choices, options: DecodeOptions = {}): DecodedLink {
  const raw = fragment.startsWith("#") ? fragment.slice(1) : fragment;
  if (raw === "") return { choices: defaults, ignored: [] };
  const wire = readWire(raw, options.keepsPlan === true);
  if (typeof wire === "string") return { choices: defaults, ignored: [wire] };
  return readChoices(wire, defaults, options);
}

/** The JSON object inside a link, or why there is none. */
function readWire(raw: string, keepsPlan: boolean): Record<string, unknown> | string {
  const whole = `The link could not be read, so ${keepsPlan ? "the plan on screen stays" : "the page opened on its example plan"}`;
  if (raw.length > MAX_LINK_CHARS)
    return `${whole}: it is ${raw.length.toLocaleString("en-US")} characters long, far more than any plan needs.`;
  const version = /^v(\d{1,6})\./.exec(raw);
  if (!version) return `${whole}: it is not a Modelplan plan link (it should start with #${PREFIX}).`;
  const v = version[1] ?? "";
  if (!READ_VERSIONS.has(v)) {
    return `${whole}: it was made by another version of Modelplan (link format v${v}; this page reads v1 and v${LINK_VERSION}).`;
  }
  let payload = raw.slice(version[0].length);
  if (v === "2") {
    const sum = /^([0-9a-f]{8})\./.exec(payload);
    if (!sum) return `${whole}: its checksum is missing (was it cut or edited?).`;
    payload = payload.slice(sum[0].length);
    if (checksum(payload) !== sum[1])
      return `${whole}: it is damaged: its checksum does not match, so some characters changed when it was copied; copy the whole link again.`;
  }
  const bytes = fromBase64Url(payload);
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

  const repo = take("r", "the repo", repoId, defaults.repo);
  const revision = take("v", "the revision", revisionId, defaults.revision);
  const cluster = readCluster(take("c", "the cluster", wireCluster, null), defaults.cluster, options, ignored);
  const [context, seqs, kv] = take("w", "the context", z.tuple([z.unknown(), z.unknown(), z.unknown()]), [
    defaults.workload.contextTokens,
    defaults.workload.sequences,
    defaults.workload.kvDtype,
  ]);
  const workload: Workload = {
    contextTokens: field(contextTokens, context, "the context length", defaults.workload.contextTokens, ignored),
    sequences: field(sequences, seqs, "the concurrent sequences", defaults.workload.sequences, ignored),
    kvDtype: field(kvDtype, kv, "the KV cache dtype", defaults.workload.kvDtype, ignored),
    settings: readSettings(
      take("e", "the engine settings", z.record(z.string(), z.unknown()), {}),
      defaults.workload.settings,
      ignored,
    ),
  };
  const filters = readFilters(
    take("f", "the filters", z.tuple([z.unknown(), z.unknown(), z.unknown(), z.unknown()]), null),
    defaults.filters,
    ignored,
  );
  const selectedOptionId = take("o", "the selected option", text, defaults.selectedOptionId);
  const commandIndex = take("m", "the chosen command", z.number().int().min(0).max(64), defaults.commandIndex);
  const manual =
    "x" in wire
      ? take(
          "x",
          "the manual model",
          z.tuple([
            text.min(1),
            z.string().min(2).max(MAX_MANUAL_CONFIG_CHARS),
            z
              .number()
              .positive()
              .max(MAX_MEM_GIB * 2 ** 30),
            // Older links have three fields; the fourth, hf_quant_config.json, is optional.
            z.string().min(2).max(MAX_MANUAL_CONFIG_CHARS).optional(),
          ]),
          null,
        )
      : null;
  Object.assign(
    workload,
    readRequest("q" in wire ? take("q", "the request and ranking", z.unknown(), null) : null, ignored),
  );
  const known = new Set(["r", "v", "c", "w", "e", "f", "o", "m", "x", "q"]);
  const extra = Object.keys(wire).filter((k) => !known.has(k));
  if (extra.length > 0)
    ignored.push(
      `Fields this page does not know: ${extra
        .slice(0, 5)
        .map((k) => JSON.stringify(k.slice(0, 20)))
        .join(", ")}.`,
    );
  const choices: Choices = { repo, revision, cluster, workload, filters, selectedOptionId, commandIndex };
  const manualProblem = manual ? manualShapeError(manual[1]) : null;
  if (manual && manualProblem) ignored.push(`the manual model: ${manualProblem}; the page opened without it.`);
  else if (manual) {
    choices.manual = { name: manual[0], configJson: manual[1], weightsBytes: manual[2] };
    const quant = manual[3];
    const quantProblem = quant === undefined ? null : jsonObjectError(quant);
    if (quantProblem !== null)
      ignored.push(`the manual model's hf_quant_config.json ${quantProblem}; the model is planned without it.`);
    else if (quant !== undefined) choices.manual.quantConfigJson = quant;
  }
  return { choices, ignored: boundedNotices(ignored) };
}

/** Why a link's manual config.json cannot be planned at all (not JSON, not an object, a shape past any real model's), or null. */
function manualShapeError(configJson: string): string | null {
  let config: unknown;
  try {
    // The page writes it with JSON.stringify (manual mode minifies it), so it is plain JSON.
    config = JSON.parse(configJson);
  } catch {
    return "its config.json is not JSON";
  }
  if (typeof config !== "object" || config === null || Array.isArray(config))
    return "its config.json is not a JSON object";
  return configCeilingError(config as Record<string, unknown>);
}

/** Why a link's JSON file is not a JSON object ("is not JSON", "is not a JSON object"), or null. */
function jsonObjectError(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? null : "is not a JSON object";
  } catch {
    return "is not JSON";
  }
}

function boundedNotices(ignored: string[]): string[] {
  if (ignored.length <= MAX_NOTICES) return ignored;
  return [
    ...ignored.slice(0, MAX_NOTICES - 1),
    `… and ${(ignored.length - MAX_NOTICES + 1).toLocaleString("en-US")} more parts of the link that could not be used.`,
  ];
}

function field<T>(schema: z.ZodType<T>, value: unknown, label: string, fallback: T, ignored: string[]): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  ignored.push(`${label}: ${describeIssue(parsed.error)}; using the default.`);
  return fallback;
}

function readCluster(
  nodes: z.infer<typeof wireCluster> | null,
  fallback: Cluster,
  options: DecodeOptions,
  ignored: string[],
): Cluster {
  if (nodes === null) return fallback;
  const cluster: Cluster = {
    nodes: nodes.map(([id, fabric, hostMemGib, hostFreeGib, devices, links]) => ({
      id,
      fabric,
      hostMemGib,
      hostFreeGib,
      ...(links?.fg !== undefined ? { fabricGbps: links.fg } : {}),
      ...(links?.hb !== undefined ? { hostMemGBps: links.hb } : {}),
      ...(links?.cc !== undefined ? { cpuCores: links.cc } : {}),
      devices: devices.map(([cls, total, free, memGib, names]): DeviceGroup => {
        const d: DeviceGroup = { class: cls, count: total, free };
        if (memGib !== undefined && memGib !== null) d.memGib = memGib;
        if (names?.fm !== undefined) d.freeMemGib = names.fm;
        // Names that do not give each free card once would pin the wrong cards: dropped with the rest kept.
        if (names?.fi !== undefined && names.fi.length === free && new Set(names.fi).size === free)
          d.freeIndices = names.fi;
        if (names?.gp !== undefined) d.gpuProduct = names.gp;
        if (names?.gt !== undefined) d.gresType = names.gt;
        if (names?.bw !== undefined) d.memGBps = names.bw;
        if (names?.tf !== undefined) d.bf16Tflops = names.tf;
        if (names?.mk !== undefined) d.memKind = names.mk;
        return d;
      }),
    })),
  };
  const problems = options.checkCluster?.(cluster) ?? [];
  if (problems.length === 0) return cluster;
  const shown = problems.slice(0, 3).join("; ");
  ignored.push(
    `the cluster: ${shown}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""}; using the example cluster.`,
  );
  return fallback;
}

/** More keys than this in the settings is not a hand-edit but junk: named once, not key by key. */
const MAX_SETTING_KEYS = 64;

function readSettings(wire: Record<string, unknown>, fallback: EngineSettings, ignored: string[]): EngineSettings {
  const settings: Record<string, unknown> = {};
  const keys = Object.keys(wire);
  if (keys.length > MAX_SETTING_KEYS) {
    ignored.push(
      `the engine settings: ${keys.length.toLocaleString("en-US")} of them, more than the ${Object.keys(settingSchemas).length} there are; using the engines' defaults.`,
    );
    return fallback;
  }
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
