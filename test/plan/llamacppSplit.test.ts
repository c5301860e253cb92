/**
 * llama.cpp over devices that differ (issue 14): one node's mixed or unevenly free cards under
 * one --tensor-split, and hosts of one fabric over RPC. The layer ranges are checked against
 * llama.cpp's own assignment rule, re-done here in 32-bit floats as its source does it
 * (src/llama-model.cpp load_tensors, https://github.com/ggml-org/llama.cpp/blob/a5410f046c01d01330c8a42f13b64a211fedf2c3/src/llama-model.cpp):
 * cumulative split fractions, and slot il to the first device whose fraction exceeds il ÷ (n_layer + 1).
 */
import { describe, expect, test } from "vitest";
import {
  artifactsOf,
  checkTensorSplit,
  DEFAULT_WORKLOAD,
  llamacppSlotDevices,
  plan,
  splitArgv,
} from "../../src/plan/index.ts";
import type { Artifact, Cluster, ClusterNode, PlanOption } from "../../src/plan/index.ts";
import { snapshotOf } from "./fixture.ts";
import { GIB, cards, node, shapeOf } from "./planning-fixtures.ts";

/** llama.cpp's device of each slot 0..n_layer for a -ts vector, in float32 as load_tensors computes it. */
function llamacppSlots(split: readonly number[], layers: number): number[] {
  const f = Math.fround;
  const cum: number[] = [];
  let sum = f(0);
  for (const s of split) {
    sum = f(sum + f(s));
    cum.push(sum);
  }
  const fractions = cum.map((c) => f(c / sum));
  const act = layers + 1;
  const out: number[] = [];
  for (let il = 0; il <= layers; il++) {
    const v = f(il / act);
    let d = fractions.findIndex((x) => x > v);
    if (d < 0) d = split.length;
    out.push(d);
  }
  return out;
}

/** The layer range a card row names ("box/0: layers 0–43"). */
function rangeOf(role: string): [number, number] {
  const m = /layers (\d+)–(\d+)/.exec(role);
  if (!m) throw new Error(`no layer range in "${role}"`);
  return [Number(m[1]), Number(m[2])];
}

function tensorSplitOf(o: PlanOption): string | undefined {
  const words = splitArgv(o.commands[o.commands.length - 1] ?? "");
  const i = words.indexOf("--tensor-split");
  return i < 0 ? undefined : words[i + 1];
}

/**
 * Llama-3.3-70B-Instruct Q4_K_M: 42.5 GB as the Hub prints the file (bartowski's Q4_K_M of the same
 * 70B geometry, https://huggingface.co/bartowski/Meta-Llama-3.1-70B-Instruct-GGUF/blob/1188ae22973458db73c69653b08c36f0aec9d463/Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf:
 * "42.5 GB"), so ±0.05e9 bytes; nothing below depends on the last 0.1 GB.
 */
const LLAMA70 = "meta-llama/Llama-3.3-70B-Instruct";
const Q4KM: Artifact = {
  name: "Llama-3.3-70B-Instruct-Q4_K_M.gguf",
  format: "gguf",
  files: ["Llama-3.3-70B-Instruct-Q4_K_M.gguf"],
  bytes: 42.5e9,
  projectorBytes: 0,
  quant: "Q4_K_M",
  bitsPerWeight: 0,
  expertBytes: 0,
};

function plan70(cluster: Cluster) {
  return plan({ repo: LLAMA70, revision: "", shape: shapeOf(LLAMA70), artifacts: [Q4KM] }, cluster, DEFAULT_WORKLOAD);
}

function splitOption(options: PlanOption[]): PlanOption | undefined {
  return options.find((o) => o.engine === "llamacpp" && o.placement.tensorSplit !== undefined);
}

/** DeepSeek-R1 UD-IQ1_S (the issue's 131 GiB over RPC) planned on `nodes`. */
function planR1(nodes: ClusterNode[]) {
  const shape = shapeOf("deepseek-ai/DeepSeek-R1");
  const iq1s = artifactsOf(snapshotOf("unsloth__DeepSeek-R1-GGUF"), shape).find(
    (a) => a.name === "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S",
  ) as Artifact;
  const p = plan(
    { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape, artifacts: [iq1s] },
    { nodes },
    DEFAULT_WORKLOAD,
  );
  return { shape, iq1s, p };
}

describe("a box with an RTX 4090 and an RTX 3090 runs Llama-3.3-70B Q4_K_M with -ts", () => {
  const p = plan70({ nodes: [node("box", "", [cards("rtx4090-24g", 1), cards("rtx3090-24g", 1)], 128)] });
  const o = splitOption(p.options);

  test("neither card alone holds it, and no other GPU-only option does", () => {
    expect(p.refused.some((r) => r.engine === "llamacpp" && r.where === "1 × rtx4090-24g")).toBe(true);
    expect(p.refused.some((r) => r.engine === "llamacpp" && r.where === "1 × rtx3090-24g")).toBe(true);
    expect(o?.fits).toBe(true);
    expect(o?.placement.nodes).toBe(1);
  });

  test("each card is its own row: its layers, their cache, its compute buffer; the 3090 (last) holds the output and the logits", () => {
    expect(o?.cards.map((c) => [c.gpuClass, c.cards])).toEqual([
      ["rtx4090-24g", 1],
      ["rtx3090-24g", 1],
    ]);
    const [first, last] = o?.cards ?? [];
    // Logits of one ubatch: 512 × 128,256 × 4 B = 250.5 MiB more on the output layer's card.
    expect((last?.engineBytes ?? 0) - (first?.engineBytes ?? 0)).toBe(512 * 128256 * 4);
    for (const c of o?.cards ?? [])
      expect(c.weightsBytes + c.kvBytes + c.engineBytes).toBeLessThanOrEqual(c.usableBytes);
    // 8 KV heads × 128 × 2 (K, V) × 2 B a layer-token, 8,192 tokens: 32 MiB a layer.
    const [s0, e0] = rangeOf(first?.role ?? "");
    expect(first?.kvBytes).toBe((e0 - s0 + 1) * 8 * 128 * 2 * 2 * 8192);
  });

  test("the -ts printed places exactly the layers each row says, by llama.cpp's own rule", () => {
    const ts = tensorSplitOf(o as PlanOption);
    expect(ts).toBe(o?.placement.tensorSplit?.join(","));
    const split = (ts ?? "").split(",").map(Number);
    expect(split.reduce((a, b) => a + b, 0)).toBe(81);
    const slots = llamacppSlots(split, 80);
    (o?.cards ?? []).forEach((c, d) => {
      const [s, e] = rangeOf(c.role);
      expect(slots.slice(s, e + 1).every((x) => x === d)).toBe(true);
    });
    // The output layer (slot 80) on the last card.
    expect(slots[80]).toBe(1);
    expect(o?.commands[0]).toMatch(/--split-mode layer --tensor-split \d+,\d+/);
  });
});

describe("the speed of a split over a 4090 and a 3090", () => {
  const mixed = splitOption(
    plan70({ nodes: [node("box", "", [cards("rtx4090-24g", 1), cards("rtx3090-24g", 1)], 128)] }).options,
  );
  // The same artifact over two cards of one class: llama.cpp's plain layer split of that class.
  const pair = (cls: string) =>
    plan70({ nodes: [node("box", "", [cards(cls, 2)], 128)] }).options.find(
      (o) => o.engine === "llamacpp" && o.placement.gpusPerNode === 2 && !o.placement.cpu,
    );

  test("it is estimated (it was null: the joined class label has no spec), and the basis names both cards", () => {
    expect(mixed?.speed?.decodeTps).toBeGreaterThan(0);
    expect(mixed?.speed?.basis).toContain("rtx4090-24g + rtx3090-24g");
  });

  // The layers run one card after the other, so a token costs each card's bytes at that card's
  // bandwidth: between two 3090s (936 GB/s) and two 4090s (1,008 GB/s) with the same layers.
  // No public llama-bench of this pair with a stated split was found to check the figure itself.
  test("it decodes between the same split on two 3090s and on two 4090s", () => {
    const slow = pair("rtx3090-24g")?.speed?.decodeTps ?? NaN;
    const fast = pair("rtx4090-24g")?.speed?.decodeTps ?? NaN;
    expect(slow).toBeLessThan(fast);
    expect(mixed?.speed?.decodeTps).toBeGreaterThan(slow);
    expect(mixed?.speed?.decodeTps).toBeLessThan(fast);
  });
});

describe("a -ts typed by hand is checked like the context", () => {
  const p = plan70({ nodes: [node("box", "", [cards("rtx4090-24g", 1), cards("rtx3090-24g", 1)], 128)] });
  const o = splitOption(p.options) as PlanOption;

  test("the engine places layers by the same rule the test re-does", () => {
    const split = o.placement.tensorSplit ?? [];
    expect(llamacppSlotDevices(split, 80)).toEqual(llamacppSlots(split, 80));
    expect(llamacppSlotDevices([3, 1], 80)).toEqual(llamacppSlots([3, 1], 80));
  });

  test("the plan's own split fits again; 41/40 with a slash, as llama.cpp also reads it, too", () => {
    const r = checkTensorSplit(p, o, (o.placement.tensorSplit ?? []).join("/"));
    expect(r.ok).toBe(true);
  });

  test.each([
    ["60,21", /^box\/0 rtx4090-24g would hold layers 0–59: it needs 3\d\.\d GiB and offers 23\.0$/],
    ["0,1", /^box\/1 rtx3090-24g would hold layers 0–79 \+ output: it needs \d\d\.\d GiB and offers 23\.0$/],
    ["1,2,3", /^3 shares for 2 devices/],
    ["41,x", /^"x" is not a share/],
    ["0,0", /^every share is 0/],
  ])("-ts %s is refused in words naming the card", (text, words) => {
    const r = checkTensorSplit(p, o, text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.words).toMatch(words);
  });
});

test("three alike boxes of a 4090 and a 3090 are one -ts option hosted on any of them", () => {
  const box = (id: string) => node(id, "", [cards("rtx4090-24g", 1), cards("rtx3090-24g", 1)], 128);
  const o = splitOption(plan70({ nodes: [box("a"), box("b"), box("c")] }).options);
  expect(o?.hosts).toBe(3);
  expect(o?.placement.nodes).toBe(1);
});

describe("one class, unevenly free", () => {
  test("three 4090s, one with 12 GiB in use elsewhere: the busier card takes fewer layers", () => {
    const whole = { class: "rtx4090-24g", count: 1, free: 1 };
    const p = plan70({ nodes: [node("box", "", [whole, { ...whole, freeMemGib: 11.9 }, whole], 128)] });
    const o = splitOption(p.options);
    expect(o?.fits).toBe(true);
    const split = o?.placement.tensorSplit ?? [];
    expect(split).toHaveLength(3);
    expect(split[0]).toBeLessThan((split[1] ?? 0) - 5);
    const busy = o?.cards[0];
    expect((busy?.weightsBytes ?? 0) + (busy?.kvBytes ?? 0) + (busy?.engineBytes ?? 0)).toBeLessThanOrEqual(11.9 * GIB);
  });
});

describe("a split that cannot fit is refused, naming the card", () => {
  test("a 1.2 GiB card beside a 4090 cannot take one layer and its compute buffer", () => {
    const p = plan70({
      nodes: [node("box", "", [cards("rtx4090-24g", 1), { class: "tiny-1g", count: 1, free: 1, memGib: 1.2 }], 128)],
    });
    expect(splitOption(p.options)).toBeUndefined();
    const r = p.refused.find((x) => x.engine === "llamacpp" && x.where.startsWith("box:"));
    expect(r?.reason).toMatch(/^box\/0 tiny-1g is too small for even one layer beside its compute buffer/);
  });
});

describe("four boxes of 2 × RTX 4090 on one fabric run DeepSeek-R1 UD-IQ1_S over RPC", () => {
  const boxes = ["b1", "b2", "b3", "b4"].map((id) => node(id, "eth0", [cards("rtx4090-24g", 2)], 128));
  const { iq1s, p } = planR1([...boxes, node("lab", "wifi", [cards("rtx4090-24g", 2)], 128)]);
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.nodes > 1);

  test("131 GiB of weights, more than one box's 48 GB of cards", () => {
    expect(iq1s.bytes / GIB).toBeCloseTo(131.0, 0);
    expect(p.refused.some((r) => r.engine === "llamacpp" && r.where === "2 × rtx4090-24g")).toBe(true);
  });

  test("an option over RPC, every card its own share, the head's cards last with the output", () => {
    expect(o?.fits).toBe(true);
    const n = o?.placement.nodes ?? 0;
    expect(o?.cards).toHaveLength(2 * n);
    expect(o?.placement.tensorSplit?.reduce((a, b) => a + b, 0)).toBe(62);
    const head = o?.placement.nodeIds?.[0] ?? "";
    expect(o?.cards.slice(-2).every((c) => c.role.startsWith(`${head}/`))).toBe(true);
    for (const c of o?.cards ?? [])
      expect(c.weightsBytes + c.kvBytes + c.engineBytes).toBeLessThanOrEqual(c.usableBytes);
    const slots = llamacppSlots(o?.placement.tensorSplit ?? [], 61);
    (o?.cards ?? []).forEach((c, d) => {
      const [s, e] = rangeOf(c.role);
      expect(slots.slice(s, e + 1).every((x) => x === d)).toBe(true);
    });
  });

  test("one line a host: rpc-server with its port and --cache on each worker, --rpc and -ts on the head", () => {
    const n = o?.placement.nodes ?? 0;
    expect(o?.commands).toHaveLength(n);
    for (const w of o?.commands.slice(0, -1) ?? [])
      expect(splitArgv(w)).toEqual(["rpc-server", "-H", "0.0.0.0", "-p", "50052", "-c"]);
    const head = splitArgv(o?.commands[n - 1] ?? "");
    const endpoints = head[head.indexOf("--rpc") + 1]?.split(",");
    expect(endpoints).toEqual(Array.from({ length: n - 1 }, (_, i) => `<node-${i + 2}-ip>:50052`));
  });

  test("the option says what RPC costs: 6 crossings a token over 4 hosts, of 28 KiB (7,168 × 4 B) and ~1.28 ms each, and the device order its -ts assumes", () => {
    // ggml-rpc passes a tensor between two servers only through the head: 2 × (hosts − 1) crossings.
    expect(o?.placement.nodes).toBe(4);
    expect(
      o?.notes?.some(
        (n) =>
          n.startsWith("Over RPC every token crosses the network at each host boundary: 6 crossings a token") &&
          n.includes("each 28 KiB") &&
          n.includes("about 7.7 ms a token"),
      ),
    ).toBe(true);
    expect(
      o?.notes?.some((n) => n.includes("the RPC servers' devices first, in --rpc order, then the head's own")),
    ).toBe(true);
  });

  test("the host on another fabric is refused in words", () => {
    const r = p.refused.find((x) => x.where === "lab over RPC");
    expect(r?.reason).toBe(
      "lab is on wifi, not on eth0 with the other hosts: llama.cpp's --rpc reaches each rpc-server over the head's network, so its cards are left out; give it fabric \"eth0\" if it is on that network",
    );
  });
});

test("hosts with no shared fabric get no RPC option that runs, are told why, and what fabric would run one", () => {
  const loose = ["b1", "b2", "b3", "b4"].map((id) => node(id, "", [cards("rtx4090-24g", 2)], 128));
  const { p } = planR1(loose);
  expect(p.options.some((o) => o.placement.nodes > 1 && o.fits)).toBe(false);
  expect(p.refused.find((r) => r.where === "4 hosts over RPC")?.reason).toMatch(
    /^no two of the hosts are on one named fabric/,
  );
  // 131 GiB of UD-IQ1_S on 24 GB cards: three hosts' six cards (134 GiB) leave no room for caches and buffers; all four would hold it.
  const unjoined = p.options.find((o) => o.placement.nodes > 1);
  expect(unjoined?.fits).toBe(false);
  expect(unjoined?.lacks).toEqual({ kind: "fabric", nodeIds: ["b1", "b2", "b3", "b4"] });
  expect(unjoined?.whatToBuy?.[0]?.change).toBe(
    "name a fabric for b1, b2, b3 and b4, and llama.cpp over RPC across them runs it (rpc-server on b2, b3 and b4, llama-server --rpc on b1)",
  );
  // Named: the same hosts over RPC run it.
  const joined = planR1(loose.map((n) => ({ ...n, fabric: "eth0" }))).p.options.find((o) => o.placement.nodes > 1);
  expect(joined?.fits).toBe(true);
  expect(joined?.placement.nodeIds).toEqual(["b1", "b2", "b3", "b4"]);
});

test("a fabric whose cards cannot hold the weights is refused without trying each host count", () => {
  const two = ["b1", "b2"].map((id) => node(id, "eth0", [cards("rtx4090-24g", 2)], 128));
  const { p } = planR1(two);
  // 4 × 24,564 MiB = 95.96 GiB against 130.6 GiB of weights.
  expect(p.refused.find((r) => r.where === "2 hosts on eth0 over RPC")?.reason).toBe(
    "the 2 hosts on eth0 offer 96.0 GiB in all; the weights alone are 130.6",
  );
});

describe("two boxes of 2 × RTX 4090 for DeepSeek-R1 UD-IQ1_S: the cards cannot hold it, the head's CPU takes the first layers", () => {
  const boxes = ["b1", "b2"].map((id) => node(id, "eth0", [cards("rtx4090-24g", 2)], 256));
  const { shape, iq1s, p } = planR1(boxes);
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.nodes > 1);
  const L = shape.layers;

  test("an RPC option whose head keeps layers 0..k−1 in its RAM, every card its share of the rest", () => {
    // 96 GB of cards for 131 GiB of weights: without the head's CPU no RPC option exists.
    expect(iq1s.bytes).toBeGreaterThan(4 * 24e9);
    expect(o?.fits).toBe(true);
    const cpuLayers = L - (o?.placement.gpuLayers ?? L);
    expect(cpuLayers).toBeGreaterThan(0);
    const hostRow = o?.cards.find((c) => c.role.startsWith("b1 CPU: layers 0–"));
    expect(hostRow?.role).toBe(`b1 CPU: layers 0–${cpuLayers - 1}`);
    expect((hostRow?.weightsBytes ?? 0) + (hostRow?.kvBytes ?? 0)).toBeLessThanOrEqual(hostRow?.usableBytes ?? 0);
    expect(o?.cards.filter((c) => c.gpuClass === "rtx4090-24g")).toHaveLength(4);
  });

  test("the command gives llama.cpp the split it places: -ngl counts the output, -ts the cards' slots", () => {
    const head = splitArgv(o?.commands.at(-1) ?? "");
    const ngl = Number(head[head.indexOf("--n-gpu-layers") + 1]);
    const ts = (head[head.indexOf("--tensor-split") + 1] ?? "").split(",").map(Number);
    // src/llama-model.cpp:1475: layers below n_layer + 1 − ngl are the CPU's; the cards share ngl slots.
    const cpuLayers = L + 1 - ngl;
    expect(cpuLayers).toBe(L - (o?.placement.gpuLayers ?? L));
    expect(ts.reduce((a, b) => a + b, 0)).toBe(ngl);
    const slots = llamacppSlots(ts, ngl - 1);
    const cardRows = (o?.cards ?? []).filter((c) => c.gpuClass !== "");
    cardRows.forEach((c, d) => {
      const [s, e] = rangeOf(c.role);
      expect(slots.slice(s - cpuLayers, e - cpuLayers + 1).every((x) => x === d)).toBe(true);
    });
  });
});

test("a head whose RAM cannot take the layers the cards cannot is refused in words, naming it", () => {
  const boxes = ["b1", "b2"].map((id) => node(id, "eth0", [cards("rtx4090-24g", 2)], 32));
  const { p } = planR1(boxes);
  expect(p.options.some((o) => o.engine === "llamacpp" && o.placement.nodes > 1)).toBe(false);
  // 32 GB × 0.85 = 27.2 GiB for llama.cpp against 21 layers of ~2.1 GiB.
  expect(p.refused.find((r) => r.where === "2 hosts on eth0 over RPC + b1's CPU")?.reason).toMatch(
    /^b1's RAM \(27\.2 GiB for llama\.cpp\) cannot hold the 21 layers the cards cannot$/,
  );
});
