/**
 * Issue 20's attack on plan links, as a generator and a check: bit flips,
 * truncations, huge numbers, NaN, deep nesting, long strings, __proto__,
 * wrong versions and 1 MB fragments, each made from a real link. Shared by
 * the bounded property test (test/state/linkFuzz.test.ts) and the 10,000-case
 * run (scripts/fuzz-links.ts).
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { deflateSync, strToU8 } from "fflate";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { PlanPage } from "../../src/app/App.tsx";
import { configCeilingError } from "../../src/hub/limits.ts";
import { tokenStore } from "../../src/hub/settings.ts";
import { createAppStore } from "../../src/state/appStore.ts";
import type { Choices } from "../../src/state/choices.ts";
import { checksum, decodeLink, encodeLink } from "../../src/state/link.ts";

export const SHAPES = [
  "bit-flip",
  "truncate",
  "huge-number",
  "nan",
  "deep-nesting",
  "long-string",
  "proto",
  "wrong-version",
  "megabyte",
] as const;
export type Shape = (typeof SHAPES)[number];

/** xorshift32: the same cases for the same seed, on every machine. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A v2 link of this JSON text, with a correct checksum: it reaches the field checks. */
export function linkOfText(json: string): string {
  const payload = base64Url(deflateSync(strToU8(json)));
  return `v2.${checksum(payload)}.${payload}`;
}

const HUGE = [1e9, 2 ** 32, 2 ** 53, 1e12, 1e308, -1e308, -1, 0.5, 1e6];
/** Where a number sits in the wire JSON (see link.ts WireV1). */
const NUMBER_PATHS: (string | number)[][] = [
  ["w", 0],
  ["w", 1],
  ["m"],
  ["c", 0, 2],
  ["c", 0, 3],
  ["c", 0, 4, 0, 1],
  ["c", 0, 4, 0, 2],
  ["e", "maxNumSeqs"],
  ["e", "ubatch"],
  ["x", 2],
];
const CONFIG_FIELDS = [
  "num_hidden_layers",
  "num_attention_heads",
  "num_key_value_heads",
  "hidden_size",
  "vocab_size",
  "num_local_experts",
  "intermediate_size",
  "max_position_embeddings",
];

function setPath(root: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== "object" || node === null) return;
    node = (node as Record<string | number, unknown>)[key];
  }
  const last = path[path.length - 1];
  if (typeof node === "object" && node !== null && last !== undefined)
    (node as Record<string | number, unknown>)[last] = value;
}

/** The wire JSON of a link made by this page (v2): decoded by hand, as an attacker would. */
function wireOf(choices: Choices, manualConfig: Record<string, unknown>): Record<string, unknown> {
  const withManual: Choices = {
    ...choices,
    manual: { name: "m", configJson: JSON.stringify(manualConfig), weightsBytes: 16e9 },
  };
  const { workload, filters } = withManual;
  return {
    r: withManual.repo,
    v: withManual.revision,
    c: withManual.cluster.nodes.map((n) => [
      n.id,
      n.fabric,
      n.hostMemGib,
      n.hostFreeGib,
      n.devices.map((d) =>
        d.memGib === undefined ? [d.class, d.count, d.free] : [d.class, d.count, d.free, d.memGib],
      ),
    ]),
    w: [workload.contextTokens, workload.sequences, workload.kvDtype],
    e: { ...workload.settings },
    f: [filters.artifact, filters.engine, filters.fit, filters.groupBy],
    o: withManual.selectedOptionId,
    m: withManual.commandIndex,
    x: [withManual.manual?.name, withManual.manual?.configJson, withManual.manual?.weightsBytes],
  };
}

/** One attacked link of the given shape (a fragment without "#"). */
export function attack(
  shape: Shape,
  random: () => number,
  base: Choices,
  manualConfig: Record<string, unknown>,
): string {
  const valid = encodeLink(base);
  switch (shape) {
    case "bit-flip": {
      let s = valid;
      const flips = 1 + Math.floor(random() * 4);
      for (let i = 0; i < flips; i++) {
        const at = Math.floor(random() * s.length);
        s = s.slice(0, at) + String.fromCharCode(s.charCodeAt(at) ^ (1 << Math.floor(random() * 7))) + s.slice(at + 1);
      }
      return s;
    }
    case "truncate":
      return valid.slice(0, Math.floor(random() * valid.length));
    case "huge-number": {
      const wire = wireOf(base, manualConfig);
      if (random() < 0.5) setPath(wire, pick(random, NUMBER_PATHS), pick(random, HUGE));
      else
        setPath(wire, ["x", 1], JSON.stringify({ ...manualConfig, [pick(random, CONFIG_FIELDS)]: pick(random, HUGE) }));
      return linkOfText(JSON.stringify(wire));
    }
    case "nan": {
      const text = JSON.stringify(wireOf(base, manualConfig));
      // NaN and Infinity as a Python json.dumps writes them: in the wire, or inside the manual config's text.
      const token = pick(random, ["NaN", "Infinity", "-Infinity"]);
      return linkOfText(
        random() < 0.5
          ? text.replace(/"w":\[\d+/, `"w":[${token}`)
          : text.replace(/\\"num_hidden_layers\\":\d+/, `\\"num_hidden_layers\\":${token}`),
      );
    }
    case "deep-nesting": {
      const depth = pick(random, [100, 1000, 10_000, 100_000]);
      const nested = "[".repeat(depth) + "]".repeat(depth);
      const key = pick(random, ["r", "c", "w", "e", "f", "x", "zz"]);
      return linkOfText(JSON.stringify({ ...wireOf(base, manualConfig), [key]: "@@" }).replace('"@@"', nested));
    }
    case "long-string": {
      const long = "x".repeat(pick(random, [301, 10_000, 100_000, 400_000]));
      const wire = wireOf(base, manualConfig);
      setPath(
        wire,
        pick(random, [["r"], ["v"], ["o"], ["c", 0, 0], ["c", 0, 4, 0, 0], ["x", 0], ["x", 1], ["e", "vllmVersion"]]),
        long,
      );
      return linkOfText(JSON.stringify(wire));
    }
    case "proto": {
      const key = pick(random, ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]);
      const where = pick(random, ["top", "settings", "config", "filters"]);
      const wire = wireOf(base, manualConfig);
      let text = JSON.stringify(wire);
      if (where === "top") text = text.replace(/^\{/, `{"${key}":{"polluted":1},`);
      else if (where === "settings") text = text.replace(/"e":\{/, `"e":{"${key}":{"polluted":1},`);
      else if (where === "config")
        text = text.replace(/\["m","\{/, `["m","{\\"${key}\\":{\\"num_hidden_layers\\":4294967296},`);
      else text = text.replace(/"f":\[/, `"f":{"${key}":1},"ff":[`);
      return linkOfText(text);
    }
    case "wrong-version": {
      const body = valid.replace(/^v2\.[0-9a-f]{8}\./, "");
      return pick(random, [
        `v0.${body}`,
        `v3.${body}`,
        `v99999999.${body}`,
        `V2.${body}`,
        `v2.${body}`,
        `v1.${valid}`,
        `v2.00000000.${body}`,
        `v-1.${body}`,
        `v2..${body}`,
        `v${"9".repeat(400)}.${body}`,
      ]);
    }
    case "megabyte": {
      const n = 2 ** 20;
      return pick(random, [
        `v2.${"A".repeat(n)}`,
        `v2.00000000.${"A".repeat(n)}`,
        "x".repeat(n),
        `${valid}${"B".repeat(n)}`,
      ]);
    }
  }
}

export interface CaseResult {
  shape: Shape;
  chars: number;
  /** An exception out of decodeLink (never expected: it must never throw). */
  decodeError: string | null;
  /** What the decoded choices break of the page's rules, or null when they are sound. */
  unsound: string | null;
  decodeMs: number;
  /** An exception out of drawing the page (server render: no boundary catches it there). */
  renderError: string | null;
  renderMs: number;
  /** The page drew nothing a person could use (no heading, no options panel). */
  blank: boolean;
  notices: number;
}

function soundness(choices: Choices, notices: string[]): string | null {
  const w = choices.workload;
  if (!(Number.isInteger(w.contextTokens) && w.contextTokens >= 1)) return `context ${w.contextTokens}`;
  if (!(Number.isInteger(w.sequences) && w.sequences >= 1)) return `sequences ${w.sequences}`;
  if (choices.cluster.nodes.length === 0) return "no nodes";
  if (notices.length > 10) return `${notices.length} notices`;
  if (({} as Record<string, unknown>)["polluted"] !== undefined) return "Object.prototype polluted";
  if (choices.manual) {
    let config: unknown;
    try {
      config = JSON.parse(choices.manual.configJson);
    } catch {
      return null;
    }
    if (
      typeof config === "object" &&
      config !== null &&
      !Array.isArray(config) &&
      configCeilingError(config as Record<string, unknown>)
    )
      return "manual model past the ceilings";
  }
  return null;
}

/** Decodes (and, when asked, draws) one link, timing each. */
export function runCase(shape: Shape, fragment: string, defaults: Choices, render: boolean): CaseResult {
  const result: CaseResult = {
    shape,
    chars: fragment.length,
    decodeError: null,
    unsound: null,
    decodeMs: 0,
    renderError: null,
    renderMs: 0,
    blank: false,
    notices: 0,
  };
  let t = performance.now();
  let decoded;
  try {
    decoded = decodeLink(`#${fragment}`, defaults);
  } catch (err) {
    result.decodeError = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return result;
  } finally {
    result.decodeMs = performance.now() - t;
  }
  result.notices = decoded.ignored.length;
  result.unsound = soundness(decoded.choices, decoded.ignored);
  if (!render) return result;
  t = performance.now();
  try {
    const store = createAppStore({
      choices: decoded.choices,
      linkNotices: decoded.ignored,
      hubUrl: "https://huggingface.co",
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const html = renderToStaticMarkup(
      createElement(QueryClientProvider, { client }, createElement(PlanPage, { store, tokens: tokenStore(null) })),
    );
    result.blank = !html.includes("Modelplan") || !html.includes("Ways to run it");
  } catch (err) {
    result.renderError = err instanceof Error ? `${err.name}: ${err.message.slice(0, 200)}` : String(err);
  }
  result.renderMs = performance.now() - t;
  return result;
}
