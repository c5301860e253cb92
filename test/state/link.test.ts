import fc from "fast-check";
import { readFileSync } from "node:fs";
import { deflateSync, strToU8 } from "fflate";
import { describe, expect, test } from "vitest";
import type { Cluster } from "../../src/plan/index.ts";
import type { Choices } from "../../src/state/choices.ts";
import { checksum, decodeLink, encodeLink, linkCarriesManual, MAX_SHARED_LINK_CHARS } from "../../src/state/link.ts";
import { importCluster } from "../../src/cluster/import.ts";
import { sample } from "../cluster/inventory.ts";
import { LINK_DEFAULTS } from "./linkDefaults.ts";

/** The page's defaults as the codec sees them: a repo, a small cluster, a workload. */
const DEFAULTS: Choices = LINK_DEFAULTS;

/** Ten nodes as a real cluster has them: 8-GPU nodes on two fabrics, a MIG node, a custom class and a CPU server. */
function tenNodeCluster(): Cluster {
  const nodes: Cluster["nodes"] = [];
  for (let i = 1; i <= 6; i++) {
    nodes.push({
      id: `dgx-h100-${String(i).padStart(2, "0")}.cluster.internal`,
      fabric: "ib0",
      hostMemGib: 2015.6,
      hostFreeGib: 1740.2,
      devices: [{ class: "h100-80g", count: 8, free: i % 3 === 0 ? 2 : 8 }],
    });
  }
  nodes.push({
    id: "a100-mig-01.cluster.internal",
    fabric: "roce",
    hostMemGib: 1007.5,
    hostFreeGib: 880,
    devices: [
      { class: "a100-80g-mig-3g.40gb", count: 1, free: 1 },
      { class: "a100-80g-mig-2g.20gb", count: 2, free: 1 },
      { class: "a100-80g", count: 7, free: 7 },
    ],
  });
  nodes.push({
    id: "l40s-01.cluster.internal",
    fabric: "roce",
    hostMemGib: 503.7,
    hostFreeGib: 400,
    devices: [{ class: "l40s-48g", count: 4, free: 4 }],
  });
  nodes.push({
    id: "lab-box",
    fabric: "",
    hostMemGib: 125.7,
    hostFreeGib: 100,
    devices: [{ class: "custom-gpu", count: 2, free: 2, memGib: 44.5 }],
  });
  nodes.push({ id: "cpu-big-01.cluster.internal", fabric: "", hostMemGib: 512, hostFreeGib: 480, devices: [] });
  return { nodes };
}

function wire(json: unknown): string {
  const bytes = deflateSync(strToU8(JSON.stringify(json)));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return "v1." + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const FULL: Choices = {
  repo: "meta-llama/Llama-3.3-70B-Instruct",
  revision: "6f6073b423013f6a7d4d9f39144961bfbfbc386b",
  cluster: tenNodeCluster(),
  workload: {
    contextTokens: 131072,
    sequences: 8,
    kvDtype: "fp8",
    settings: {
      gpuMemoryUtilization: 0.95,
      maxNumSeqs: 64,
      maxNumBatchedTokens: 8192,
      enforceEager: true,
      vllmChunkedLocalHybridKv: false,
      vllmVersion: "0.15.0",
      measuredOverheadGib: { vllm: 3.2 },
    },
  },
  filters: { artifact: "original", engine: "vllm", fit: "fits", groupBy: "engine" },
  selectedOptionId: "original|vllm|h100-80g|tp4",
  commandIndex: 1,
};

describe("plan links: exact strings (a link made today must open tomorrow)", () => {
  // A change to the wire format breaks every link already shared: these strings are pinned on purpose.
  test.each([
    [
      "the defaults",
      DEFAULTS,
      "v2.ec49c59f.JY1LDsIwDETvMmtHOAmCkCU3YF2xKBA-Ukmkqp9F1bt3olrWWJ7nz4IeEbc55UMVb7y7QjDRZHkiNg1yeSVj2f4eCnF6DGIvqkL0taom6AcSJNwZgpk73p1PHBK041BAMyEuq-BNVu8y266j5pJT5WX_90fUdQM",
    ],
  ])("encodeLink(%s)", (_name, choices, expected) => {
    expect(encodeLink(choices)).toBe(expected);
  });

  test("a v1 link (made before the checksum) still opens, to the same plan", () => {
    const v1 =
      "v1.JY1LDsIwDETvMmtHOAmCkCU3YF2xKBA-Ukmkqp9F1bt3olrWWJ7nz4IeEbc55UMVb7y7QjDRZHkiNg1yeSVj2f4eCnF6DGIvqkL0taom6AcSJNwZgpk73p1PHBK041BAMyEuq-BNVu8y266j5pJT5WX_90fUdQM";
    const decoded = decodeLink(v1, { ...DEFAULTS, repo: "x/y" });
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices).toEqual(DEFAULTS);
  });

  test("FNV-1a matches its published test vectors", () => {
    // From the FNV reference's test suite (http://www.isthe.com/chongo/src/fnv/test_fnv.c): "" and "a" and "foobar".
    expect(checksum("")).toBe("811c9dc5");
    expect(checksum("a")).toBe("e40c292c");
    expect(checksum("foobar")).toBe("bf9cf968");
  });

  test.each([
    ["one character changed", (l: string) => l.slice(0, 40) + (l[40] === "A" ? "B" : "A") + l.slice(41)],
    ["the last character cut", (l: string) => l.slice(0, -1)],
    ["half the link cut", (l: string) => l.slice(0, Math.floor(l.length / 2))],
    ["the checksum edited", (l: string) => l.replace(/^v2\.[0-9a-f]/, (m) => `v2.${m.endsWith("0") ? "1" : "0"}`)],
  ])("a v2 link with %s is reported as damaged, not planned", (_name, damage) => {
    const decoded = decodeLink(damage(encodeLink(FULL)), DEFAULTS);
    expect(decoded.choices).toEqual(DEFAULTS);
    expect(decoded.ignored).toHaveLength(1);
    expect(decoded.ignored[0]).toMatch(/checksum/);
  });
  test.each([
    ["an empty fragment is the defaults, with nothing to report", "", DEFAULTS, 0],
    ["a bare #", "#", DEFAULTS, 0],
  ])("%s", (_name, fragment, expected, ignoredCount) => {
    const decoded = decodeLink(fragment, DEFAULTS);
    expect(decoded.choices).toEqual(expected);
    expect(decoded.ignored).toHaveLength(ignoredCount);
  });

  test.each([
    ["text that is not a plan link", "#hello-world", /not a Modelplan plan link/],
    ["a link from a newer format", "#v3.AAAA", /link format v3; this page reads v1 and v2/],
    ["characters base64url never has", "#v1.abc$def", /characters a plan link never has/],
    [
      "a link cut in the middle of its data",
      "#v1.JY1LDsIwDETvMmtHOAmCkCU3YF2xKBA-Ukmkqp9F1bt3olrWWJ7nz4IeEbc55UMV",
      /damaged/,
    ],
    ["a compressed array, not a plan", `#${wire([1, 2, 3])}`, /holds no plan/],
    ["a compressed number", `#${wire(42)}`, /holds no plan/],
  ])("%s opens the example plan and says why", (_name, fragment, message) => {
    const decoded = decodeLink(fragment, DEFAULTS);
    expect(decoded.choices).toEqual(DEFAULTS);
    expect(decoded.ignored).toHaveLength(1);
    expect(decoded.ignored[0]).toMatch(message);
  });
});

describe("plan links: round trips", () => {
  test.each([
    ["the defaults", DEFAULTS],
    ["every field set, a 10-node cluster", FULL],
    [
      "a GGUF repo on llama.cpp with a quantized cache",
      {
        ...DEFAULTS,
        repo: "bartowski/Qwen2.5-72B-Instruct-GGUF",
        workload: {
          contextTokens: 512,
          sequences: 4,
          kvDtype: "q8_0" as const,
          settings: { ubatch: 512, batch: 2048, parallel: 4 },
        },
      },
    ],
    [
      "llama.cpp with flash attention off (-fa off)",
      { ...DEFAULTS, workload: { ...DEFAULTS.workload, settings: { flashAttn: "off" as const } } },
    ],
    [
      "llama.cpp with one KV pool the slots share (--kv-unified)",
      { ...DEFAULTS, workload: { ...DEFAULTS.workload, sequences: 4, settings: { parallel: 4, kvUnified: true } } },
    ],
    [
      "a context past the model's, stretched with YaRN (issue 17)",
      {
        ...DEFAULTS,
        workload: { ...DEFAULTS.workload, contextTokens: 200_000, settings: { ropeScaling: "yarn" as const } },
      },
    ],
  ])("%s", (_name, choices) => {
    const decoded = decodeLink("#" + encodeLink(choices), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices).toEqual(choices);
  });

  test("a 10-node cluster with every setting fits in 2 KB", () => {
    const link = encodeLink(FULL);
    expect(tenNodeCluster().nodes).toHaveLength(10);
    expect(link.length).toBeLessThanOrEqual(2048);
  });
});

describe("plan links: tampered fields fall back one by one and are named", () => {
  const good = {
    r: "Qwen/Qwen3-8B",
    v: "main",
    c: [["n1", "ib0", 512, 500, [["h100-80g", 8, 4]]]],
    w: [8192, 2, "fp8"],
    e: {},
    f: ["", "", "all", "none"],
    o: "",
    m: 0,
  };

  test("an empty repo id is refused, and the page's own repo read instead", () => {
    const decoded = decodeLink(wire({ ...good, r: "" }), DEFAULTS);
    expect(decoded.ignored.join(" ")).toMatch(/the repo: not an owner\/name repo id/);
    expect(decoded.choices.repo).toBe(DEFAULTS.repo);
  });

  test("a link with 2,000 unknown settings is a handful of notices, not 2,000", () => {
    const e = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 1]));
    const decoded = decodeLink(wire({ ...good, e, z1: 1, z2: 2, z3: 3 }), DEFAULTS);
    expect(decoded.ignored.length).toBeLessThanOrEqual(10);
    expect(decoded.ignored.join(" ")).toMatch(/2,000 of them/);
    expect(decoded.choices.workload.settings).toEqual({});
  });

  test("a good hand-made link is read whole", () => {
    const decoded = decodeLink(wire(good), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.repo).toBe("Qwen/Qwen3-8B");
    expect(decoded.choices.workload).toEqual({ contextTokens: 8192, sequences: 2, kvDtype: "fp8", settings: {} });
    expect(decoded.choices.cluster.nodes[0]?.devices).toEqual([{ class: "h100-80g", count: 8, free: 4 }]);
  });

  test.each([
    [
      "a negative context",
      { w: [-5, 2, "fp8"] },
      "the context length",
      (c: Choices) => c.workload.contextTokens === DEFAULTS.workload.contextTokens && c.workload.sequences === 2,
    ],
    [
      "a fractional sequence count",
      { w: [8192, 1.5, "fp8"] },
      "the concurrent sequences",
      (c: Choices) => c.workload.sequences === 1 && c.workload.contextTokens === 8192,
    ],
    [
      "an unknown KV dtype",
      { w: [8192, 2, "int3"] },
      "the KV cache dtype",
      (c: Choices) => c.workload.kvDtype === "auto",
    ],
    [
      "a utilization above 1",
      { e: { gpuMemoryUtilization: 1.5, maxNumSeqs: 32 } },
      "gpuMemoryUtilization",
      (c: Choices) => c.workload.settings.gpuMemoryUtilization === undefined && c.workload.settings.maxNumSeqs === 32,
    ],
    [
      "a flash-attention mode llama.cpp has not",
      { e: { flashAttn: "yes", ubatch: 256 } },
      "flashAttn",
      (c: Choices) => c.workload.settings.flashAttn === undefined && c.workload.settings.ubatch === 256,
    ],
    [
      "a --kv-unified that is neither on nor off",
      { e: { kvUnified: "yes", ubatch: 256 } },
      "kvUnified",
      (c: Choices) => c.workload.settings.kvUnified === undefined && c.workload.settings.ubatch === 256,
    ],
    [
      "an engine setting no engine has",
      { e: { turbo: true } },
      "turbo",
      (c: Choices) => Object.keys(c.workload.settings).length === 0,
    ],
    [
      "a vLLM release before the V1 engine",
      { e: { vllmVersion: "0.9.2", maxNumSeqs: 32 } },
      "vllmVersion: vLLM 0.9.2 is older than the V1 engine",
      (c: Choices) => c.workload.settings.vllmVersion === undefined && c.workload.settings.maxNumSeqs === 32,
    ],
    [
      "a vLLM release that is no release",
      { e: { vllmVersion: "latest" } },
      'vllmVersion: "latest" is not a vLLM release',
      (c: Choices) => !("vllmVersion" in c.workload.settings),
    ],
    [
      "a vLLM release as a number",
      { e: { vllmVersion: 0.15 } },
      "vllmVersion",
      (c: Choices) => !("vllmVersion" in c.workload.settings),
    ],
    [
      "a cluster with a fractional GPU count",
      { c: [["n1", "ib0", 512, 500, [["h100-80g", 7.5, 4]]]] },
      "the cluster",
      (c: Choices) => c.cluster === DEFAULTS.cluster,
    ],
    ["a repo id with a path in it", { r: "../../etc/passwd" }, "the repo", (c: Choices) => c.repo === DEFAULTS.repo],
    ["a repo id that climbs out", { r: "../.." }, "the repo", (c: Choices) => c.repo === DEFAULTS.repo],
    ["a repo id ending in ..", { r: "x/.." }, "the repo", (c: Choices) => c.repo === DEFAULTS.repo],
    ["a repo id with a space", { r: "a /b" }, "the repo", (c: Choices) => c.repo === DEFAULTS.repo],
    ["a repo id with three parts", { r: "a/b/c" }, "the repo", (c: Choices) => c.repo === DEFAULTS.repo],
    [
      "a repo name past the Hub's 96 characters",
      { r: `a/${"b".repeat(97)}` },
      "the repo",
      (c: Choices) => c.repo === DEFAULTS.repo,
    ],
    ["a revision that climbs out", { v: "../../x" }, "the revision", (c: Choices) => c.revision === DEFAULTS.revision],
    ["a revision ending in /", { v: "main/" }, "the revision", (c: Choices) => c.revision === DEFAULTS.revision],
    [
      "10⁹ devices in a group",
      { c: [["n1", "ib0", 512, 500, [["h100-80g", 1e9, 1e9]]]] },
      "the cluster",
      (c: Choices) => c.cluster === DEFAULTS.cluster,
    ],
    [
      "1,025 devices in a group (the cluster panel's limit is 1,024)",
      { c: [["n1", "ib0", 512, 500, [["h100-80g", 1025, 4]]]] },
      "the cluster",
      (c: Choices) => c.cluster === DEFAULTS.cluster,
    ],
    ["an empty cluster", { c: [] }, "no nodes", (c: Choices) => c.cluster === DEFAULTS.cluster],
    [
      "20,000 nodes",
      { c: Array.from({ length: 20_000 }, (_, i) => [`n${i}`, "", 1, 1, []]) },
      "20,000 nodes, more than the 10,000",
      (c: Choices) => c.cluster === DEFAULTS.cluster,
    ],
    [
      "an unknown engine filter",
      { f: ["", "tensorrt", "fits", "none"] },
      "the engine filter",
      (c: Choices) => c.filters.engine === "" && c.filters.fit === "fits",
    ],
    ["a missing field", { m: undefined }, "the chosen command", (c: Choices) => c.commandIndex === 0],
    [
      "a field this version does not know",
      { z: 1 },
      "Fields this page does not know",
      (c: Choices) => c.repo === "Qwen/Qwen3-8B",
    ],
  ])("%s", (_name, patch, named, holds) => {
    const decoded = decodeLink(wire({ ...good, ...patch }), DEFAULTS);
    expect(decoded.ignored.join(" ")).toContain(named);
    expect(holds(decoded.choices)).toBe(true);
  });

  test("a link made before the vLLM release setting opens as it did: no release named, as before", () => {
    const decoded = decodeLink(wire({ ...good, e: { maxNumSeqs: 8, enforceEager: true } }), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.workload.settings).toStrictEqual({ maxNumSeqs: 8, enforceEager: true });
  });

  test("a vLLM release in a link is read back as written", () => {
    const decoded = decodeLink(wire({ ...good, e: { vllmVersion: "0.10.1.1" } }), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.workload.settings).toEqual({ vllmVersion: "0.10.1.1" });
  });

  test("a __proto__ key in a link's settings is dropped and pollutes nothing", () => {
    const decoded = decodeLink(
      wire({ ...good, e: JSON.parse('{"__proto__":{"polluted":1},"maxNumSeqs":8}') as object }),
      DEFAULTS,
    );
    expect(decoded.choices.workload.settings).toEqual({ maxNumSeqs: 8 });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  test("the cluster's own checks can turn a link's cluster down, and say why", () => {
    const decoded = decodeLink(wire({ ...good, c: [["n1", "ib0", 512, 500, [["h100-80g", 2, 4]]]] }), DEFAULTS, {
      checkCluster: (cluster) =>
        cluster.nodes.flatMap((n) =>
          n.devices
            .filter((d) => d.free > d.count)
            .map((d) => `node ${n.id}: ${d.class} free ${d.free} is above its count ${d.count}`),
        ),
    });
    expect(decoded.choices.cluster).toBe(DEFAULTS.cluster);
    expect(decoded.ignored).toEqual([
      "the cluster: node n1: h100-80g free 4 is above its count 2; using the example cluster.",
    ]);
  });

  test("a deflate bomb is refused, not inflated", () => {
    const decoded = decodeLink(wire({ r: "a/b", pad: "x".repeat(2_000_000) }), DEFAULTS);
    expect(decoded.choices).toEqual(DEFAULTS);
    expect(decoded.ignored[0]).toMatch(/unpacks to more than/);
  });
});

describe("plan links: decoding never throws (property)", () => {
  const valid = "#" + encodeLink(FULL);

  function assertSound(fragment: string): void {
    const decoded = decodeLink(fragment, DEFAULTS);
    const { choices } = decoded;
    // Whatever came in, what comes out is a plan the page can draw.
    expect(Number.isInteger(choices.workload.contextTokens) && choices.workload.contextTokens >= 1).toBe(true);
    expect(Number.isInteger(choices.workload.sequences) && choices.workload.sequences >= 1).toBe(true);
    expect(choices.cluster.nodes.length).toBeGreaterThan(0);
    expect(Array.isArray(decoded.ignored)).toBe(true);
  }

  test("random text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => assertSound(s)),
      { numRuns: 4000 },
    );
  });

  test("random text after a valid prefix", () => {
    fc.assert(
      fc.property(fc.base64String({ maxLength: 400 }), (s) => assertSound("#v1." + s.replace(/=/g, ""))),
      { numRuns: 2000 },
    );
  });

  test("a valid link with characters flipped, cut or inserted", () => {
    const mutation = fc.record({
      at: fc.nat({ max: valid.length - 1 }),
      kind: fc.constantFrom("flip", "cut", "insert", "truncate"),
      char: fc.constantFrom(..."ABCxyz019-_.$%=+/"),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let s = valid;
        for (const m of mutations) {
          const at = Math.min(m.at, s.length);
          if (m.kind === "flip") s = s.slice(0, at) + m.char + s.slice(at + 1);
          else if (m.kind === "cut") s = s.slice(0, at) + s.slice(at + 1);
          else if (m.kind === "insert") s = s.slice(0, at) + m.char + s.slice(at);
          else s = s.slice(0, at);
        }
        assertSound(s);
      }),
      { numRuns: 2000 },
    );
  });

  test("well-compressed JSON of any shape in every field", () => {
    const anyField = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("r", "v", "c", "w", "e", "f", "o", "m", "x"), anyField), (fields) =>
        assertSound(wire(fields)),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("a manual model in the link", () => {
  // A real config.json (shared/fixtures/configs, copied into test/fixtures/configs/), minified as the page stores it.
  const config = JSON.parse(
    readFileSync(new URL("../fixtures/configs/deepseek-ai__DeepSeek-R1.config.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  /** The sum of the repo's 163 shards (test/fixtures/models/deepseek-ai__DeepSeek-R1.json, weights_total_bytes). */
  const R1_WEIGHTS_BYTES = (
    JSON.parse(readFileSync(new URL("../fixtures/models/deepseek-ai__DeepSeek-R1.json", import.meta.url), "utf8")) as {
      weights_total_bytes: number;
    }
  ).weights_total_bytes;

  test("a real config.json travels in the link and comes back as it went, under 8 KB", () => {
    const manual = {
      name: "deepseek-ai/DeepSeek-R1",
      configJson: JSON.stringify(config),
      weightsBytes: R1_WEIGHTS_BYTES,
    };
    const choices: Choices = { ...DEFAULTS, manual };
    expect(linkCarriesManual(choices)).toBe(true);
    const fragment = encodeLink(choices);
    expect(fragment.length).toBeLessThanOrEqual(MAX_SHARED_LINK_CHARS);
    const back = decodeLink(fragment, DEFAULTS);
    expect(back.ignored).toEqual([]);
    expect(back.choices.manual).toEqual(manual);
  });

  test("a config that would push the link past 8 KB is left out, and the rest of the plan still travels", () => {
    // Incompressible text (a xorshift stream as hex) stands in for a config bloated past what a link keeps.
    let x = 2463534242;
    const noise = Array.from({ length: 12_000 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return ((x >>> 0) % 16).toString(16);
    }).join("");
    const choices: Choices = {
      ...DEFAULTS,
      commandIndex: 2,
      manual: { name: "big", configJson: JSON.stringify({ ...config, _note: noise }), weightsBytes: 1e9 },
    };
    expect(linkCarriesManual(choices)).toBe(false);
    const fragment = encodeLink(choices);
    expect(fragment.length).toBeLessThanOrEqual(MAX_SHARED_LINK_CHARS);
    const back = decodeLink(fragment, DEFAULTS);
    expect(back.choices.manual).toBeUndefined();
    expect(back.choices.commandIndex).toBe(2);
  });

  test.each([2 ** 32, 1e12, 2 ** 53, 1e308, 1e6])(
    "a manual model with %d layers is refused at the link, with the field named",
    (layers) => {
      const back = decodeLink(
        wire({ r: "a/b", x: ["huge", JSON.stringify({ ...config, num_hidden_layers: layers }), 1e12] }),
        DEFAULTS,
      );
      expect(back.choices.manual).toBeUndefined();
      expect(back.ignored.join(" ")).toMatch(
        /the manual model: config\.json's num_hidden_layers is .*no real model has more than 1,024.*the page opened without it/,
      );
    },
  );

  test("its hf_quant_config.json travels beside the config; a link without one reads as before, a broken one is named", () => {
    const manual = {
      name: "nvidia/DeepSeek-V3.1-NVFP4",
      configJson: JSON.stringify(config),
      weightsBytes: R1_WEIGHTS_BYTES,
      quantConfigJson: JSON.stringify({
        quantization: { quant_algo: "NVFP4", kv_cache_quant_algo: "FP8", group_size: 16 },
      }),
    };
    const choices: Choices = { ...DEFAULTS, manual };
    expect(linkCarriesManual(choices)).toBe(true);
    const back = decodeLink(encodeLink(choices), DEFAULTS);
    expect(back.ignored).toEqual([]);
    expect(back.choices.manual).toEqual(manual);
    const old = decodeLink(wire({ r: "a/b", x: ["name", JSON.stringify(config), 1e9] }), DEFAULTS);
    expect(old.choices.manual?.quantConfigJson).toBeUndefined();
    const broken = decodeLink(wire({ r: "a/b", x: ["name", JSON.stringify(config), 1e9, "[1]"] }), DEFAULTS);
    expect(broken.choices.manual?.configJson).toBe(JSON.stringify(config));
    expect(broken.choices.manual?.quantConfigJson).toBeUndefined();
    expect(broken.ignored.join(" ")).toMatch(
      /hf_quant_config\.json is not a JSON object; the model is planned without it/,
    );
  });

  test("a manual model's entry that is not name, config and size is named and dropped", () => {
    const back = decodeLink(wire({ r: "a/b", x: ["name", "{}", -5] }), DEFAULTS);
    expect(back.choices.manual).toBeUndefined();
    expect(back.ignored.join(" ")).toMatch(/the manual model/);
  });
});

describe("the request and the ranking in a link", () => {
  test("input and output tokens, the order and the prices round-trip; without them the link is as before", () => {
    const chosen = {
      ...DEFAULTS,
      workload: {
        ...DEFAULTS.workload,
        inputTokens: 8192,
        outputTokens: 1024,
        rankBy: "throughput" as const,
        pricesPerCardHour: { "h100-80g": 2.5 },
      },
    };
    const decoded = decodeLink(encodeLink(chosen), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.workload).toMatchObject({
      inputTokens: 8192,
      outputTokens: 1024,
      rankBy: "throughput",
      pricesPerCardHour: { "h100-80g": 2.5 },
    });
    expect(decodeLink(encodeLink(DEFAULTS), DEFAULTS).choices.workload.rankBy).toBeUndefined();
  });
});

// A shared plan keeps what the inventory said of each card group (issue 16): free memory, the free cards'
// names, GFD's product label and Slurm's GRES type; groups without them are written as before (the exact strings above).
describe("the link keeps each card group's inventory names", () => {
  test.each([
    "nvidia-smi-query-csv-v100-1.txt",
    "nvidia-smi-L-a100-sxm-80g-mig-1.txt",
    "k8s-describe-node-labels-h100-pcie-1.txt",
    "scontrol-show-node-a100-8gpu-idle-1.txt",
  ])("%s round-trips unchanged", (name) => {
    const cluster = importCluster(sample(name), name).cluster;
    if (!cluster) throw new Error(name);
    const choices: Choices = { ...DEFAULTS, cluster };
    const decoded = decodeLink(encodeLink(choices), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.cluster).toEqual(cluster);
  });

  test("the half-busy V100 host reopens half-busy: GPU 6 still not among the free", () => {
    const cluster = importCluster(sample("nvidia-smi-query-csv-v100-1.txt")).cluster;
    if (!cluster) throw new Error("no cluster");
    const group = decodeLink(encodeLink({ ...DEFAULTS, cluster }), DEFAULTS).choices.cluster.nodes[0]?.devices[0];
    expect(group).toMatchObject({ free: 7, freeMemGib: 31.992, freeIndices: ["0", "1", "2", "3", "4", "5", "7"] });
  });
});

describe("plan links: what a node says of its wires (issue 12)", () => {
  const wired: Choices = {
    ...DEFAULTS,
    cluster: {
      nodes: [
        { ...DEFAULTS.cluster.nodes[0]!, id: "dgx-1", fabricGbps: 400, hostMemGBps: 460.8 },
        { ...DEFAULTS.cluster.nodes[0]!, id: "dgx-2", fabricGbps: 400 },
        { id: "epyc-1", fabric: "", hostMemGib: 768, hostFreeGib: 700, devices: [], hostMemGBps: 614.4 },
      ],
    },
  };
  const node = (links: unknown) => ({
    r: "Qwen/Qwen3-8B",
    v: "main",
    c: [["n1", "ib0", 512, 500, [["h100-80g", 8, 4]], links]],
    w: [8192, 2, "fp8"],
    e: {},
    f: ["", "", "all", "none"],
    o: "",
    m: 0,
  });

  test("a fabric's Gbit/s and a host's GB/s survive the round trip", () => {
    const decoded = decodeLink("#" + encodeLink(wired), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices).toEqual(wired);
  });

  test("a cluster that says neither keeps the link it had: the pinned default string above is unchanged", () => {
    expect(encodeLink(DEFAULTS)).toBe(encodeLink({ ...DEFAULTS }));
    const decoded = decodeLink("#" + encodeLink(DEFAULTS), DEFAULTS);
    expect(decoded.choices.cluster.nodes[0]).not.toHaveProperty("fabricGbps");
  });

  test("a hand-made link with the wires is read", () => {
    const decoded = decodeLink(wire(node({ fg: 200, hb: 307.2 })), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.cluster.nodes[0]).toMatchObject({ fabricGbps: 200, hostMemGBps: 307.2 });
  });

  test("a host's CPU cores survive the round trip as cc", () => {
    const cored = {
      ...DEFAULTS,
      cluster: {
        nodes: [{ id: "epyc-1", fabric: "eth-25g", hostMemGib: 768, hostFreeGib: 700, devices: [], cpuCores: 32 }],
      },
    };
    const decoded = decodeLink("#" + encodeLink(cored), DEFAULTS);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.cluster.nodes[0]).toMatchObject({ cpuCores: 32 });
    expect(decodeLink(wire(node({ cc: 64 })), DEFAULTS).choices.cluster.nodes[0]).toMatchObject({ cpuCores: 64 });
  });

  test.each([
    ["a fabric of 0 Gbit/s", { fg: 0 }, /fabric's speed \(fabric_gbps\) must be above 0/],
    ["a negative fabric", { fg: -400 }, /fabric's speed \(fabric_gbps\) must be above 0/],
    ["a fabric as text", { fg: "fast" }, /fabric's speed \(fabric_gbps\) must be a number above 0/],
    ["a fabric of 400,000 Gbit/s", { fg: 400_000 }, /fabric's speed \(fabric_gbps\) is absurd/],
    ["a host bandwidth of -1", { hb: -1 }, /host memory bandwidth \(host_mem_gbps\) must be above 0/],
    ["half a CPU core", { cc: 0.5 }, /CPU cores \(cpu_cores\) must be a whole number/],
    ["an unknown wire field", { zz: 1 }, /the cluster/],
  ])("%s is refused in words, and the last good cluster kept", (_name, links, message) => {
    const decoded = decodeLink(wire(node(links)), DEFAULTS);
    expect(decoded.choices.cluster).toBe(DEFAULTS.cluster);
    expect(decoded.ignored.join(" ")).toMatch(message);
  });
});
