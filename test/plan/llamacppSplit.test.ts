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
  cardsPerReplica,
  checkTensorSplit,
  CUDA_CONTEXT_BYTES,
  DEFAULT_WORKLOAD,
  llamacppSlotDevices,
  placementLabel,
  plan,
  splitArgv,
} from "../../src/plan/index.ts";
import { optionJson } from "../../src/report/json.ts";
import type { Artifact, Cluster, ClusterNode, ModelShape, PlanOption } from "../../src/plan/index.ts";
import { snapshotOf } from "./fixture.ts";
import { llamacppSlots, rangeOf } from "./llamacppSlots.ts";
import { LLAMA70_Q4KM } from "./splitFixture.ts";
import { GIB, cards, node, shapeOf } from "./planning-fixtures.ts";

function tensorSplitOf(o: PlanOption): string | undefined {
  const words = splitArgv(o.commands[o.commands.length - 1] ?? "");
  const i = words.indexOf("--tensor-split");
  return i < 0 ? undefined : words[i + 1];
}

// Llama-3.3-70B-Instruct Q4_K_M at 42.5 GB as the Hub prints the file (splitFixture.ts cites it), so ±0.05e9
// bytes; nothing below depends on the last 0.1 GB.
const LLAMA70 = LLAMA70_Q4KM.repo;
const Q4KM: Artifact = LLAMA70_Q4KM.artifacts[0] as Artifact;

function plan70(cluster: Cluster) {
  return plan({ repo: LLAMA70, revision: "", shape: shapeOf(LLAMA70), artifacts: [Q4KM] }, cluster, DEFAULT_WORKLOAD);
}

function splitOption(options: PlanOption[]): PlanOption | undefined {
  return options.find((o) => o.engine === "llamacpp" && o.placement.tensorSplit !== undefined);
}

/** What checkTensorSplit is told of a DeepSeek-R1 plan: the model, its artifact and the workload. */
function r1Context(shape: ModelShape, a: Artifact) {
  return { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape, artifacts: [a], workload: DEFAULT_WORKLOAD };
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

  test("its own -ts typed back by hand fits again with the head's CPU layers kept (they were taken for a device)", () => {
    const ctx = r1Context(shape, iq1s);
    const again = checkTensorSplit(ctx, o as PlanOption, (o?.placement.tensorSplit ?? []).join(","));
    expect(again.ok).toBe(true);
    if (again.ok) expect(again.option.cards.map((c) => c.role)).toEqual(o?.cards.map((c) => c.role));
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

/**
 * Hosts without cards as RPC workers (issue 14: "every device of every host is a target"): rpc-server
 * serves its host's CPU when it finds no accelerator (tools/rpc/rpc-server.cpp `get_devices`, "If there
 * are no accelerators, fallback to CPU device", https://github.com/ggml-org/llama.cpp/blob/075f1e0a936523f06b33173238f4c31b75bcb103/tools/rpc/rpc-server.cpp),
 * whose memory is ggml's CPU device's, the host's RAM.
 */
describe("one 2 × RTX 4090 head and two CPU-only 256 GB boxes on eth0 run DeepSeek-R1 UD-IQ1_S over RPC", () => {
  const cpuBox = (id: string, fabric = "eth0") => node(id, fabric, [], 256);
  const { shape, iq1s, p } = planR1([
    node("head", "eth0", [cards("rtx4090-24g", 2)], 64),
    cpuBox("c1"),
    cpuBox("c2"),
    cpuBox("c9", "wifi"),
  ]);
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.nodes > 1);
  const L = shape.layers;

  test("neither the cards alone nor the head's 64 GB beside them hold 131 GiB: one CPU box joins, the fewest", () => {
    expect(p.refused.some((r) => r.engine === "llamacpp" && r.where === "2 × rtx4090-24g")).toBe(true);
    expect(p.refused.some((r) => r.engine === "llamacpp" && r.where === "2 × rtx4090-24g + RAM")).toBe(true);
    expect(o?.fits).toBe(true);
    expect(o?.placement.nodeIds).toEqual(["head", "c1"]);
    expect(o?.placement.gpuClass).toBe("rtx4090-24g");
    // Two cards, not two hosts of two: the CPU box lends no card to the count, the price or the label.
    expect(cardsPerReplica(o?.placement as PlanOption["placement"])).toBe(2);
    expect(placementLabel(o?.placement as PlanOption["placement"])).toBe("2 × rtx4090-24g + 1 CPU host on eth0");
    const json = optionJson(o as PlanOption);
    expect(json["cpu_hosts"]).toBe(1);
    expect((json["cards"] as Record<string, unknown>[])[0]?.["cpu_node"]).toBe("c1");
  });

  test("the CPU worker comes first in the device order, named and drawn as RAM; the head's cards last with the output", () => {
    const [cpu, ...cardRows] = o?.cards ?? [];
    expect(cpu?.role).toMatch(/^c1\/CPU: layers 0–\d+$/);
    expect(cpu?.gpuClass).toBe("");
    expect(cpu?.cpuNode).toBe("c1");
    expect(cardRows.map((c) => c.role.split(":")[0])).toEqual(["head/0", "head/1"]);
    expect(cardRows.at(-1)?.role.endsWith("+ output")).toBe(true);
    // Its share is the plan's for llama.cpp in a host's RAM (256 GiB × 0.85), less --fit's 1 GiB margin.
    expect(cpu?.physicalBytes).toBe(256 * GIB);
    expect(cpu?.usableBytes).toBeCloseTo(256 * GIB * 0.85 - GIB, -3);
    for (const c of o?.cards ?? [])
      expect(c.weightsBytes + c.kvBytes + c.engineBytes).toBeLessThanOrEqual(c.usableBytes);
  });

  test("the -ts printed places exactly the layers each row says, by llama.cpp's own rule, the cards kept full", () => {
    const ts = tensorSplitOf(o as PlanOption);
    expect(ts).toBe(o?.placement.tensorSplit?.join(","));
    const split = (ts ?? "").split(",").map(Number);
    expect(split).toHaveLength(3);
    expect(split.reduce((a, b) => a + b, 0)).toBe(L + 1);
    const slots = llamacppSlots(split, L);
    (o?.cards ?? []).forEach((c, d) => {
      const [s, e] = rangeOf(c.role);
      expect(slots.slice(s, e + 1).every((x) => x === d)).toBe(true);
    });
    expect(slots[L]).toBe(2);
    // The cards run faster than the CPU: the CPU takes only what they cannot (under 2.5 GiB of each card left).
    for (const c of (o?.cards ?? []).slice(1))
      expect(c.usableBytes - c.weightsBytes - c.kvBytes - c.engineBytes).toBeLessThan(2.5 * GIB);
  });

  test("no CUDA context on the CPU device: its engine bytes are the CPU backend's compute buffer alone", () => {
    const [cpu, first] = o?.cards ?? [];
    // One ubatch of 512 × 3 rows × 7,168 × 4 B (memory.ts CPU_ACTIVATION_ROWS); a card adds its context, and 2 rows.
    expect(cpu?.engineBytes).toBe(512 * 3 * 7168 * 4);
    expect(first?.engineBytes).toBe(CUDA_CONTEXT_BYTES + 512 * 2 * 7168 * 4);
  });

  test("one rpc-server line on the CPU box, as on a worker with cards; the note says it must be built with RPC and serves its CPU", () => {
    expect(o?.commands).toHaveLength(2);
    expect(o?.commands[0]).toMatch(/^# c1 \(rpc worker\)\n/);
    expect(splitArgv(o?.commands[0] ?? "")).toEqual(["rpc-server", "-H", "0.0.0.0", "-p", "50052", "-c"]);
    const head = splitArgv(o?.commands[1] ?? "");
    expect(head[head.indexOf("--rpc") + 1]).toBe("<node-2-ip>:50052");
    expect(head[head.indexOf("--n-gpu-layers") + 1]).toBe("999");
    expect(o?.notes?.some((n) => n.startsWith("c1 has no cards: rpc-server, built with -DGGML_RPC=ON"))).toBe(true);
    expect(o?.notes?.some((n) => n.includes("the plan assumes c1/CPU, head/0 rtx4090-24g, head/1 rtx4090-24g"))).toBe(
      true,
    );
  });

  test("its own -ts typed back by hand fits again; all layers on the cards is refused naming a card", () => {
    const ctx = r1Context(shape, iq1s);
    const again = checkTensorSplit(ctx, o as PlanOption, (o?.placement.tensorSplit ?? []).join(","));
    expect(again.ok).toBe(true);
    // Read back from its row, the CPU device is still no card: the same name, no CUDA context.
    if (again.ok)
      expect(again.option.cards[0]).toMatchObject({ role: o?.cards[0]?.role, engineBytes: 512 * 3 * 7168 * 4 });
    const r = checkTensorSplit(ctx, o as PlanOption, "0,1,1");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.words).toMatch(/^head\/\d rtx4090-24g would hold layers/);
  });

  test("the CPU box on another fabric is refused in words", () => {
    expect(p.refused.find((x) => x.where === "c9 over RPC")?.reason).toBe(
      "c9 is on wifi, not on eth0 with the other hosts: llama.cpp's --rpc reaches each rpc-server over the head's network, so its CPU and RAM are left out; give it fabric \"eth0\" if it is on that network",
    );
  });
});

test("two 2 × RTX 4090 hosts and a CPU box: the box's CPU first, then the worker's cards, then the head's; 4 crossings a token", () => {
  const { shape, p } = planR1([
    node("b1", "eth0", [cards("rtx4090-24g", 2)], 64),
    node("b2", "eth0", [cards("rtx4090-24g", 2)], 64),
    node("c1", "eth0", [], 256),
  ]);
  // 96 GB of cards for 131 GiB: the head's own RAM takes the first layers in one option, the box's in another.
  expect(p.options.some((x) => x.id.endsWith("|rpc-cpu") && x.fits)).toBe(true);
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.cpuHosts === 1);
  expect(o?.fits).toBe(true);
  expect(o?.placement.nodeIds).toEqual(["b1", "c1", "b2"]);
  expect(o?.cards.map((c) => c.role.split(":")[0])).toEqual(["c1/CPU", "b2/0", "b2/1", "b1/0", "b1/1"]);
  const head = splitArgv(o?.commands.at(-1) ?? "");
  expect(head[head.indexOf("--rpc") + 1]).toBe("<node-2-ip>:50052,<node-3-ip>:50052");
  const slots = llamacppSlots(o?.placement.tensorSplit ?? [], shape.layers);
  (o?.cards ?? []).forEach((c, d) => {
    const [s, e] = rangeOf(c.role);
    expect(slots.slice(s, e + 1).every((x) => x === d)).toBe(true);
  });
  expect(o?.notes?.some((n) => n.includes("4 crossings a token here"))).toBe(true);
});

test("two 64 GB CPU boxes when one cannot hold the ~42 layers the cards cannot", () => {
  // 64 GiB × 0.85 = 54.4 GiB a box against ~88 GiB of layers: both join, the head's cards last.
  const box = (id: string, gbps: number): ClusterNode => ({ ...node(id, "eth0", [], 64), hostMemGBps: gbps });
  const { shape, p } = planR1([
    node("head", "eth0", [cards("rtx4090-24g", 2)], 64),
    box("c1", 204.8),
    box("c2", 102.4),
  ]);
  const o = p.options.find((x) => x.engine === "llamacpp" && (x.placement.cpuHosts ?? 0) > 0);
  expect(o?.fits).toBe(true);
  expect(o?.placement.cpuHosts).toBe(2);
  expect(o?.cards.map((c) => c.role.split(":")[0])).toEqual(["c1/CPU", "c2/CPU", "head/0", "head/1"]);
  const slots = llamacppSlots(o?.placement.tensorSplit ?? [], shape.layers);
  (o?.cards ?? []).forEach((c, d) => {
    const [s, e] = rangeOf(c.role);
    expect(slots.slice(s, e + 1).every((x) => x === d)).toBe(true);
  });
  for (const c of o?.cards ?? []) expect(c.weightsBytes + c.kvBytes + c.engineBytes).toBeLessThanOrEqual(c.usableBytes);
  expect(o?.notes?.some((n) => n.startsWith("c1, c2 have no cards: rpc-server"))).toBe(true);
  expect(o?.notes?.some((n) => n.includes("4 crossings a token here"))).toBe(true);
});

test("a CPU box whose RAM cannot take the layers the cards cannot is refused in words", () => {
  const { p } = planR1([node("head", "eth0", [cards("rtx4090-24g", 2)], 64), node("c1", "eth0", [], 64)]);
  expect(p.options.some((o) => o.engine === "llamacpp" && o.placement.nodes > 1)).toBe(false);
  // 64 GiB × 0.85 = 54.4 GiB against the ~42 layers of ~2.1 GiB the cards cannot hold.
  expect(p.refused.find((r) => r.where === "1 host with cards on eth0 over RPC + hosts without cards")?.reason).toMatch(
    /^the host without cards on eth0 offers 54\.4 GiB of RAM for llama\.cpp; the \d+ layers the cards cannot hold need about \d+\.\d$/,
  );
});

/**
 * Llama-3.3-70B-Instruct Q8_0: 74.98 GB as bartowski's table prints it
 * (https://huggingface.co/bartowski/Llama-3.3-70B-Instruct-GGUF, "Llama-3.3-70B-Instruct-Q8_0.gguf | Q8_0 | 74.98GB";
 * ggml's Q8_0 is 34 bytes per 32 weights, 70.55e9 × 8.5 ÷ 8 = 74.96e9), so ±0.05e9.
 */
const Q80: Artifact = {
  ...Q4KM,
  name: "Llama-3.3-70B-Instruct-Q8_0",
  files: ["Llama-3.3-70B-Instruct-Q8_0/Llama-3.3-70B-Instruct-Q8_0-00001-of-00002.gguf"],
  bytes: 74.98e9,
  quant: "Q8_0",
};

function plan70q8(nodes: ClusterNode[]) {
  return plan({ repo: LLAMA70, revision: "", shape: shapeOf(LLAMA70), artifacts: [Q80] }, { nodes }, DEFAULT_WORKLOAD);
}

describe("the speed of Llama-3.3-70B Q8_0 on a 2 × RTX 4090 head with a CPU box over RPC", () => {
  // 8 channels of DDR4-3200: 204.8 GB/s (speed/host.ts ddrChannelGBps).
  const box = (gbps?: number): ClusterNode => ({
    ...node("c1", "eth0", [], 256),
    ...(gbps ? { hostMemGBps: gbps } : {}),
  });
  const head = node("head", "eth0", [cards("rtx4090-24g", 2)], 64);
  const rpcOf = (nodes: ClusterNode[]) =>
    plan70q8(nodes).options.find((o) => o.engine === "llamacpp" && o.placement.nodes > 1);
  const withCpu = rpcOf([head, box(204.8)]);
  const onCpuRam = (withCpu?.cards[0]?.weightsBytes ?? 0) / 1e9;
  // The same model over the cards of two such heads: all on GPUs.
  const allGpu = rpcOf([head, node("b2", "eth0", [cards("rtx4090-24g", 2)], 64)]);
  const cpuAlone = plan70q8([box(204.8)]).options.find((o) => o.placement.cpu);

  test("the CPU box holds what the 48 GB of cards cannot", () => {
    expect(withCpu?.fits).toBe(true);
    expect(withCpu?.cards[0]?.cpuNode).toBe("c1");
    expect(onCpuRam).toBeGreaterThan(74.98 - 48);
    expect(allGpu?.fits).toBe(true);
  });

  test("it decodes slower than all on cards, faster than all on the CPU, and no faster than its RAM reads its layers", () => {
    const tps = withCpu?.speed?.decodeTps ?? NaN;
    expect(tps).toBeLessThan(allGpu?.speed?.decodeTps ?? NaN);
    expect(tps).toBeGreaterThan(cpuAlone?.speed?.decodeTps ?? NaN);
    // A token reads every byte in c1's RAM at 204.8 GB/s at best, one host after another with the cards.
    expect(tps).toBeLessThan(204.8 / onCpuRam);
  });

  test("the basis says the host's bandwidth; unknown, the default is assumed and said", () => {
    expect(withCpu?.speed?.basis).toContain("GiB of weights in host RAM, read at 204.8 GB/s");
    const unknown = rpcOf([head, box()]);
    expect(unknown?.speed?.basis).toContain("host bandwidth unknown: 51.2 GB/s (2 × DDR4-3200) assumed");
    // Said once: decode and prefill each assume it, and worded it apart, so the basis said it twice.
    expect(unknown?.speed?.basis.match(/host bandwidth unknown/g)).toHaveLength(1);
    expect(unknown?.speed?.decodeTps).toBeLessThan(withCpu?.speed?.decodeTps ?? NaN);
  });

  test("over two 32 GB boxes (neither alone holds the ~27 GiB the cards cannot), the slower box's bandwidth prices their layers", () => {
    const small = (id: string, gbps: number): ClusterNode => ({ ...node(id, "eth0", [], 32), hostMemGBps: gbps });
    const two = rpcOf([head, small("c1", 204.8), small("c2", 102.4)]);
    expect(two?.placement.cpuHosts).toBe(2);
    expect(two?.speed?.basis).toContain("GiB of weights in host RAM, read at 102.4 GB/s");
    expect(two?.speed?.decodeTps).toBeLessThan(withCpu?.speed?.decodeTps ?? NaN);
  });

  test("a token crosses the network twice: one CPU host beside the head", () => {
    expect(withCpu?.notes?.some((n) => n.includes("2 crossings a token here"))).toBe(true);
  });
});
