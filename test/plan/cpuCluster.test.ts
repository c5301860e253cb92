/**
 * A cluster with no cards at all (issue 14): CPU hosts of one fabric over RPC, rpc-server on each worker serving
 * its CPU (tools/rpc/rpc-server.cpp `get_devices`, "If there are no accelerators, fallback to CPU device", at
 * https://github.com/ggml-org/llama.cpp/blob/075f1e0a936523f06b33173238f4c31b75bcb103/tools/rpc/rpc-server.cpp,
 * whose flags are -H, -p, -c/--cache, -d, -t, -m) and llama-server --rpc on the head, whose own CPU keeps the first
 * layers (-ngl below all of them). DeepSeek-R1 Q8_0 (664 GiB) on four 256 GiB boxes, as the example.
 */
import { describe, expect, test } from "vitest";
import {
  artifactsOf,
  cardsPerReplica,
  checkTensorSplit,
  DEFAULT_WORKLOAD,
  placementLabel,
  plan,
  shapeFromConfig,
  splitArgv,
} from "../../src/plan/index.ts";
import type { Artifact, ClusterNode, PlanOption } from "../../src/plan/index.ts";
import { deployTargets } from "../../src/deploy/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { loadConfig, snapshotOf } from "./fixture.ts";
import { llamacppSlots, rangeOf } from "./llamacppSlots.ts";
import { GIB, node } from "./planning-fixtures.ts";

/** DeepSeek-R1's 671B parameters (its model card: "671B total parameters, 37B activated"), for the speed figures. */
const SHAPE = shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-R1"), 671e9);
const ARTIFACTS = artifactsOf(snapshotOf("unsloth__DeepSeek-R1-GGUF"), SHAPE);
const byQuant = (q: string): Artifact => ARTIFACTS.find((a) => a.quant === q) as Artifact;

function planOn(nodes: ClusterNode[], a: Artifact) {
  return plan(
    { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape: SHAPE, artifacts: [a] },
    { nodes },
    DEFAULT_WORKLOAD,
  );
}

const overRpc = (options: PlanOption[]) => options.find((o) => o.engine === "llamacpp" && o.placement.nodes > 1);

describe("four 256 GiB CPU boxes on eth-25g run DeepSeek-R1 Q8_0 over RPC; a fifth on wifi is left out", () => {
  const q8 = byQuant("Q8_0");
  const boxes = ["cpu-1", "cpu-2", "cpu-3", "cpu-4"].map((id) => node(id, "eth-25g", [], 256));
  const p = planOn([...boxes, node("far", "wifi", [], 256)], q8);
  const o = overRpc(p.options);
  const L = SHAPE.layers;

  test("no one box holds 664 GiB: the CPU option is refused, and all four together run it, named as CPU hosts", () => {
    expect(q8.bytes / GIB).toBeCloseTo(664.3, 1);
    expect(p.refused.find((r) => r.engine === "llamacpp" && r.where === "CPU")?.reason).toMatch(
      /^needs \d+\.\d GiB of host RAM; the node offers 217\.6$/,
    );
    expect(o?.fits).toBe(true);
    expect(o?.placement.nodeIds).toEqual(["cpu-1", "cpu-2", "cpu-3", "cpu-4"]);
    expect(placementLabel(o?.placement as PlanOption["placement"])).toBe("4 CPU hosts on eth-25g");
    expect(cardsPerReplica(o?.placement as PlanOption["placement"])).toBe(0);
    const json = optionJson(o as PlanOption);
    expect([json["cpu_hosts"], json["gpus_per_node"], json["nodes"], json["fits"]]).toEqual([4, 0, 4, true]);
  });

  test("each host one RAM row: its layers, their cache and its CPU compute buffer, within what it offers", () => {
    const rows = o?.cards ?? [];
    expect(rows.map((c) => c.cpuNode).sort()).toEqual(["cpu-1", "cpu-2", "cpu-3", "cpu-4"]);
    for (const c of rows) {
      expect(c.gpuClass).toBe("");
      expect(c.physicalBytes).toBe(256 * GIB);
      expect(c.weightsBytes + c.kvBytes + c.engineBytes).toBeLessThanOrEqual(c.usableBytes);
      // Spread by what each offers: no host is left with more than a quarter of its share idle.
      expect(c.weightsBytes).toBeGreaterThan(0.6 * c.usableBytes);
    }
    // Every layer once: the head's 0..k−1, then the workers' in --rpc order, the last with the output.
    const ranges = rows.map((c) => rangeOf(c.role)).sort((x, y) => x[0] - y[0]);
    expect(ranges[0]?.[0]).toBe(0);
    expect(ranges.at(-1)?.[1]).toBe(L - 1);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.[0]).toBe((ranges[i - 1]?.[1] ?? 0) + 1);
    expect(rows.find((c) => c.cpuNode === "cpu-1")?.role).toMatch(/^cpu-1 CPU: layers 0–\d+$/);
    expect(rows.find((c) => c.cpuNode === "cpu-4")?.role.endsWith("+ output")).toBe(true);
  });

  test("one rpc-server line a worker with -H 0.0.0.0, its port and --cache; the head's -ngl, -ts and --rpc place the rows' layers", () => {
    const [w2, w3, w4, head] = o?.commands ?? [];
    expect([w2, w3, w4].map((w) => w?.split("\n")[0])).toEqual([
      "# cpu-2 (rpc worker)",
      "# cpu-3 (rpc worker)",
      "# cpu-4 (rpc worker)",
    ]);
    for (const w of [w2, w3, w4])
      expect(splitArgv(w ?? "")).toEqual(["rpc-server", "-H", "0.0.0.0", "-p", "50052", "-c"]);
    const argv = splitArgv(head ?? "");
    expect(argv[0]).toBe("llama-server");
    expect(argv[argv.indexOf("--rpc") + 1]).toBe("<node-2-ip>:50052,<node-3-ip>:50052,<node-4-ip>:50052");
    // src/llama-model.cpp: layers below n_layer + 1 − ngl stay on the head's CPU; the RPC devices share ngl slots.
    const ngl = Number(argv[argv.indexOf("--n-gpu-layers") + 1]);
    const [, headEnd] = rangeOf(o?.cards.find((c) => c.cpuNode === "cpu-1")?.role ?? "");
    expect(L + 1 - ngl).toBe(headEnd + 1);
    const split = (argv[argv.indexOf("--tensor-split") + 1] ?? "").split(",").map(Number);
    expect(split.reduce((x, y) => x + y, 0)).toBe(ngl);
    const slots = llamacppSlots(split, ngl - 1);
    ["cpu-2", "cpu-3", "cpu-4"].forEach((id, d) => {
      const [s, e] = rangeOf(o?.cards.find((c) => c.cpuNode === id)?.role ?? "");
      expect(slots.slice(s - (headEnd + 1), e - headEnd).every((x) => x === d)).toBe(true);
    });
  });

  test("its speed is the hosts' RAM read one after another with 6 RPC crossings a token, and the prompt at the CPUs' cores", () => {
    const s = o?.speed;
    expect(s?.decodeTps).not.toBeNull();
    expect(s?.prefillTps).not.toBeNull();
    expect(s?.basis).toMatch(/llamacpp on CPU \(cpu, host RAM\)/);
    expect(s?.basis).toMatch(/CPU cores unknown: 8 cores at 57 GFLOPS each assumed/);
    // 37B active (DeepSeek-R1's card) × 2 FLOPs a token over 8 × 57 GFLOPS: ≈ 6 prompt tokens a second at most.
    expect(s?.prefillTps ?? 0).toBeLessThan((8 * 57e9) / (2 * 37e9));
    expect(o?.notes?.some((n) => n.includes("6 crossings a token here"))).toBe(true);
    // One box's Q4_K_M figure against the same on two: the RPC boundary costs a decode step 2 crossings.
    const one = planOn([node("big", "eth-25g", [], 512)], byQuant("Q4_K_M")).options.find((x) => x.placement.cpu);
    const two = overRpc(planOn(boxes.slice(0, 2), byQuant("Q4_K_M")).options);
    expect(two?.placement.nodes).toBe(2);
    const stepMs = (x: PlanOption | undefined): number => 1000 / (x?.speed?.decodeTps ?? NaN);
    expect(stepMs(two) - stepMs(one)).toBeCloseTo(2 * 1.28, 0);
  });

  test("its own -ts typed back by hand fits again, the head's layers kept; all on the last worker is refused naming it", () => {
    const ctx = {
      repo: "unsloth/DeepSeek-R1-GGUF",
      revision: "",
      shape: SHAPE,
      artifacts: [q8],
      workload: DEFAULT_WORKLOAD,
    };
    const again = checkTensorSplit(ctx, o as PlanOption, (o?.placement.tensorSplit ?? []).join(","));
    expect(again.ok).toBe(true);
    if (again.ok) expect(again.option.cards.map((c) => c.role)).toEqual(o?.cards.map((c) => c.role));
    const all = checkTensorSplit(ctx, o as PlanOption, "0,0,1");
    expect(all.ok).toBe(false);
    if (!all.ok)
      expect(all.words).toMatch(
        /^cpu-4\/CPU would hold layers \d+–60 \+ output: it needs \d+\.\d GiB and offers 216\.6$/,
      );
  });

  test("the box on another fabric is refused in words, its CPU and RAM left out", () => {
    expect(p.refused.find((r) => r.where === "far over RPC")?.reason).toBe(
      "far is on wifi, not on eth-25g with the other hosts: llama.cpp's --rpc reaches each rpc-server over the head's network, so its CPU and RAM are left out; give it fabric \"eth-25g\" if it is on that network",
    );
  });
});

test("hosts that say their cores get them as -t: each rpc-server's CPU threads, and the head's", () => {
  const boxes = ["cpu-1", "cpu-2"].map((id, i) => ({ ...node(id, "eth-25g", [], 256), cpuCores: 32 + 16 * i }));
  const o = overRpc(planOn(boxes, byQuant("Q4_K_M")).options) as PlanOption;
  expect(splitArgv(o.commands[0] ?? "")).toEqual(["rpc-server", "-H", "0.0.0.0", "-p", "50052", "-c", "-t", "48"]);
  const head = splitArgv(o.commands[1] ?? "");
  expect(head[head.indexOf("-t") + 1]).toBe("32");
  // The prompt is planned on those cores: 48 and 32 by the bytes each holds, no default assumed.
  expect(o.speed?.basis).not.toMatch(/CPU cores unknown/);
});

test("the plain CPU option's prompt runs at its host's cpu_cores: 32 cores a quarter the time of the 8 assumed", () => {
  const prefill = (cores?: number): number => {
    const box = { ...node("box", "", [], 512), ...(cores !== undefined ? { cpuCores: cores } : {}) };
    const o = planOn([box], byQuant("Q4_K_M")).options.find((x) => x.placement.cpu);
    return o?.speed?.prefillTps ?? NaN;
  };
  // Compute-bound at 37B active × 2 FLOPs a token: the weights' read once per 512-token ubatch is far shorter.
  expect(prefill(32) / prefill()).toBeCloseTo(4, 1);
});

describe("what stays as it was, and what is refused", () => {
  test("one box that holds the model stays a plain CPU option, with no RPC one beside it", () => {
    const iq1 = byQuant("IQ1_S") ?? ARTIFACTS.find((a) => a.name.includes("UD-IQ1_S"));
    const p = planOn([node("a", "eth-25g", [], 256), node("b", "eth-25g", [], 256)], iq1 as Artifact);
    const llama = p.options.filter((o) => o.engine === "llamacpp");
    expect(llama.map((o) => [o.placement.cpu, o.placement.nodes, o.fits])).toEqual([[true, 1, true]]);
  });

  test("hosts on no shared fabric get no RPC option, told why; a lone box keeps the RAM it would need", () => {
    const q8 = byQuant("Q8_0");
    const p = planOn([node("a", "", [], 256), node("b", "lab", [], 256), node("c", "", [], 256)], q8);
    expect(overRpc(p.options)).toBeUndefined();
    expect(p.refused.find((r) => r.where === "3 hosts over RPC")?.reason).toMatch(
      /^no two of the hosts are on one named fabric/,
    );
    // What to buy on one box: RAM for the CPU option (no RPC option asks for less).
    const cpu = p.options.find((o) => o.engine === "llamacpp" && o.placement.cpu);
    expect(cpu?.lacks?.kind).toBe("host-ram");
  });

  test("all the hosts' RAM short of the weights is said in numbers", () => {
    const bf16 = ARTIFACTS.find((a) => a.quant.toUpperCase() === "BF16") as Artifact;
    const p = planOn(
      ["a", "b", "c", "d"].map((id) => node(id, "eth-25g", [], 256)),
      bf16,
    );
    expect(overRpc(p.options)).toBeUndefined();
    expect(p.refused.find((r) => r.where === "4 CPU hosts on eth-25g over RPC")?.reason).toBe(
      `the 4 hosts on eth-25g offer 870.4 GiB of RAM for llama.cpp in all; the weights alone are ${(bf16.bytes / GIB).toFixed(1)}`,
    );
  });
});

/**
 * Issue 14's second gap: in an RPC plan that mixes a card host and CPU-only hosts, the CPU hosts' layers multiply
 * the prompt on their own cores (an rpc-server's CPU device computes what it holds; no card can reach its buffer),
 * where the plan counted them at the cards' TFLOPS. The head's own RAM-resident layers are not so: llama.cpp's op
 * offload runs their prompt matmuls on its card.
 */
describe("a 2 × RTX 4090 head and CPU boxes over RPC: the boxes' layers prefill at their cores", () => {
  const iq1s = ARTIFACTS.find((a) => a.name === "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S") as Artifact;
  const nodes = (cores?: number): ClusterNode[] => [
    node("head", "eth0", [{ class: "rtx4090-24g", count: 2, free: 2 }], 64),
    { ...node("c1", "eth0", [], 256), ...(cores !== undefined ? { cpuCores: cores } : {}) },
  ];
  const o = overRpc(planOn(nodes(), iq1s).options) as PlanOption;
  const cpuBytes = o.cards.filter((c) => c.cpuNode !== undefined).reduce((s, c) => s + c.weightsBytes, 0);

  test("the prompt takes at least the CPU's share of the FLOPs at 8 × 57 GFLOPS", () => {
    expect(o.placement.cpuHosts).toBe(1);
    expect(cpuBytes / iq1s.bytes).toBeGreaterThan(0.4);
    // A token's 2 × 37B FLOPs, the CPU box's share by its bytes (a lower bound: its experts are most of them).
    const share = cpuBytes / iq1s.bytes;
    const atLeastMs = ((1024 * 2 * 37e9 * share * 0.5) / (8 * 57e9)) * 1000;
    const prefillMs = (1024 * 1000) / (o.speed?.prefillTps ?? NaN);
    expect(prefillMs).toBeGreaterThan(atLeastMs);
    expect(o.speed?.basis).toMatch(/CPU cores unknown: 8 cores at 57 GFLOPS each assumed for the prompt/);
  });

  test("a box that says its cores (cpu_cores 32) prefills faster by them; its decode, bandwidth-bound, is unchanged", () => {
    const said = overRpc(planOn(nodes(32), iq1s).options) as PlanOption;
    expect(said.speed?.basis).not.toMatch(/CPU cores unknown/);
    expect(said.speed?.prefillTps ?? 0).toBeGreaterThan(1.5 * (o.speed?.prefillTps ?? Infinity));
    expect(said.speed?.decodeTps).toBe(o.speed?.decodeTps);
  });
});

test("Kubernetes and Slurm, whose manifests ask for cards, are refused for a cluster of CPUs in words", () => {
  const boxes = ["cpu-1", "cpu-2"].map((id) => node(id, "eth-25g", [], 256));
  const o = overRpc(planOn(boxes, byQuant("Q4_K_M")).options) as PlanOption;
  const targets = deployTargets(o, { nodes: boxes });
  expect(targets.find((t) => t.kind === "kubernetes")).toEqual({
    kind: "kubernetes",
    ok: false,
    reason:
      "this RPC option runs on 2 hosts without cards, whose rpc-servers serve their CPUs, and a LeaderWorkerSet's worker pods ask for cards: run its commands on the hosts themselves",
  });
  expect(targets.find((t) => t.kind === "slurm")).toEqual({
    kind: "slurm",
    ok: false,
    reason:
      "this RPC option runs on 2 hosts without cards, whose rpc-servers serve their CPUs, and an sbatch job's nodes ask for cards: run its commands on the hosts themselves",
  });
});

test("CPU hosts over RPC rank as the CPU does, after no card and one host before several", () => {
  // A 512 GiB box holds Q4_K_M alone; Q8_0 needs it and two 256 GiB boxes over RPC.
  const boxes = [node("big", "eth-25g", [], 512), node("cpu-2", "eth-25g", [], 256), node("cpu-3", "eth-25g", [], 256)];
  const p = plan(
    { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape: SHAPE, artifacts: [byQuant("Q8_0"), byQuant("Q4_K_M")] },
    { nodes: boxes },
    DEFAULT_WORKLOAD,
  );
  expect(p.options.map((o) => [o.artifact, o.placement.cpu, o.placement.nodes])).toEqual([
    ["DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M", true, 1],
    ["DeepSeek-R1-Q8_0/DeepSeek-R1.Q8_0", false, 3],
  ]);
});
