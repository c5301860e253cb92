/**
 * What to buy when the change is not a card: more RAM for the experts llama.cpp keeps in it
 * (`--n-cpu-moe`), and one fabric named for nodes a pipeline would span. Real repositories (recorded
 * file lists with their sizes, test/fixtures/models); each change is applied to the cluster and the
 * plan run again, so the engine is checked against itself, not against a string.
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_WORKLOAD,
  plan,
  readModel,
  type Cluster,
  type ClusterNode,
  type PlanOption,
  withWorkload,
} from "../../src/plan/index.ts";
import { snapshotOf } from "./fixture.ts";
import { ggufOf, shapeOf } from "./planning-fixtures.ts";

function planned(name: string, cluster: Cluster): PlanOption[] {
  const s = snapshotOf(name);
  const { shape, artifacts } = readModel(s);
  return plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, DEFAULT_WORKLOAD).options;
}

const h100s = (id: string, fabric: string, count: number, ramGib: number): ClusterNode => ({
  id,
  fabric,
  hostMemGib: ramGib,
  hostFreeGib: ramGib,
  devices: [{ class: "h100-80g", count, free: count }],
});

/** Qwen2.5-14B-Instruct Q8_0 (bartowski, 15,701,598,336 B). */
const QWEN14 = "Qwen/Qwen2.5-14B-Instruct";
const QWEN14_Q8 = {
  repo: QWEN14,
  revision: "",
  shape: shapeOf(QWEN14),
  artifacts: [ggufOf(QWEN14, "Qwen2.5-14B-Instruct-Q8_0.gguf", "Q8_0")],
};

describe("more RAM for the experts llama.cpp keeps there", () => {
  // DeepSeek-R1 Q4_K_M (unsloth, 9 shards of its recorded sizes) on 2 × H100 and 256 GiB: 36 layers'
  // experts must stay in RAM, more than 0.85 × 256 GiB holds.
  const q4 = (o: PlanOption) =>
    o.artifact.endsWith("Q4_K_M") && o.engine === "llamacpp" && o.placement.cpuMoeLayers > 0;
  const withRam = (gib: number) => planned("unsloth__DeepSeek-R1-GGUF", { nodes: [h100s("a", "", 2, gib)] });

  test("the option that lacks RAM says how much, and that much more makes it run", () => {
    const short = withRam(256).find(q4);
    expect(short?.fits).toBe(false);
    expect(short?.lacks?.kind).toBe("host-ram");
    const buy = short?.whatToBuy?.[0];
    expect(buy?.cardsAdded).toBe(0);
    const m = /^\+(\d+) GiB of RAM on node a lets `--n-cpu-moe 36` run it$/.exec(buy?.change ?? "");
    expect(m).not.toBeNull();
    const gib = Number(m?.[1]);
    expect(gib).toBeGreaterThan(0);
    // Applied: the same layout now fits with 36 layers' experts in RAM; a GiB less still does not.
    const after = withRam(256 + gib).find(q4);
    expect(after?.fits).toBe(true);
    expect(after?.placement.cpuMoeLayers).toBe(36);
    expect(after?.lacks).toBeUndefined();
    expect(withRam(256 + gib - 1).find(q4)?.fits).toBe(false);
  });

  test("the CPU option is not listed as lacking RAM beside it: the cards' offload asks for less", () => {
    const all = withRam(256).filter((o) => o.artifact.endsWith("Q4_K_M"));
    expect(all.some((o) => o.placement.cpu)).toBe(false);
  });

  test("a node with RAM enough lists no RAM to buy", () => {
    const fits = withRam(512).find(q4);
    expect(fits?.fits).toBe(true);
    expect(fits?.whatToBuy).toEqual([]);
  });
});

describe("more RAM for the layers llama.cpp keeps there (-ngl)", () => {
  // Qwen2.5-14B-Instruct Q8_0 (bartowski, 15,701,598,336 B) on one T4 (16 GB) at 32,768 tokens: the
  // card holds 31 of 48 layers, the rest in RAM, more than 0.85 × 2 GiB.
  const input = QWEN14_Q8;
  const t4 = (gib: number): Cluster => ({
    nodes: [
      { id: "a", fabric: "", hostMemGib: gib, hostFreeGib: gib, devices: [{ class: "t4-16g", count: 1, free: 1 }] },
    ],
  });
  const long = { ...DEFAULT_WORKLOAD, contextTokens: 32768 };
  const gpu = (o: PlanOption) => !o.placement.cpu;

  test("the RAM it lacks at 32k, and that much more runs it with the same -ngl", () => {
    const short = plan(input, t4(2), long).options.find(gpu);
    expect(short?.fits).toBe(false);
    const m = /^\+(\d+) GiB of RAM on node a lets `-ngl 31` run it$/.exec(short?.whatToBuy?.[0]?.change ?? "");
    expect(m).not.toBeNull();
    const gib = Number(m?.[1]);
    const after = plan(input, t4(2 + gib), long).options.find(gpu);
    expect(after?.fits).toBe(true);
    expect(after?.placement.gpuLayers).toBe(31);
    expect(plan(input, t4(2 + gib - 1), long).options.find(gpu)?.fits).toBe(false);
  });

  test("the slider sizes it again: at 8k more layers stay on the card and less RAM is missing", () => {
    const moved = withWorkload(plan(input, t4(2), long), DEFAULT_WORKLOAD).options.find(gpu);
    expect(moved?.whatToBuy?.[0]?.change).toMatch(/^\+\d+ GiB of RAM on node a lets `-ngl 40` run it$/);
    const gib = Number(/^\+(\d+)/.exec(moved?.whatToBuy?.[0]?.change ?? "")?.[1]);
    expect(plan(input, t4(2 + gib), DEFAULT_WORKLOAD).options.find(gpu)?.fits).toBe(true);
  });
});

describe("a fabric for nodes that no one fabric joins", () => {
  // DeepSeek-R1 (FP8, 163 shards, 642 GiB) does not fit one node of 8 × H100 80 GB; PP 2 over two does.
  const r1 = (fabricA: string, fabricB: string) =>
    planned("deepseek-ai__DeepSeek-R1", { nodes: [h100s("a", fabricA, 8, 2048), h100s("b", fabricB, 8, 2048)] });
  const across = (o: PlanOption) => o.engine === "vllm" && o.placement.nodes === 2;

  for (const [fa, fb] of [
    ["ib-a", "ib-b"],
    ["", ""],
  ] as const) {
    test(`fabrics "${fa}" and "${fb}": name one for a and b, and PP 2 runs it`, () => {
      const unjoined = r1(fa, fb).find(across);
      expect(unjoined?.fits).toBe(false);
      expect(unjoined?.moreCardsNeeded).toBe(0);
      expect(unjoined?.lacks).toEqual({ kind: "fabric", nodeIds: ["a", "b"] });
      expect(unjoined?.whatToBuy?.[0]).toEqual({
        change: "name a fabric for a and b, and PP 2 × TP 8 across them (8 h100-80g each) runs it",
        cardsAdded: 0,
        gpuClass: "",
      });
      // Applied: one fabric for both, and vLLM's pipeline over them fits the cluster as it is.
      const joined = r1("ib0", "ib0").find(across);
      expect(joined?.fits).toBe(true);
      expect(joined?.placement.pipelineParallel).toBe(2);
      expect(joined?.placement.tensorParallel).toBe(8);
      expect(joined?.lacks).toBeUndefined();
    });
  }
});

describe("a fabric for llama.cpp's RPC hosts", () => {
  // Qwen2.5-14B-Instruct Q8_0 (bartowski, 15,701,598,336 B) on two hosts of one T4 (16 GB) each: one card
  // does not hold it, the two together do over RPC, once one network joins them.
  const input = QWEN14_Q8;
  const t4 = (id: string, fabric: string): ClusterNode => ({
    id,
    fabric,
    hostMemGib: 4,
    hostFreeGib: 4,
    devices: [{ class: "t4-16g", count: 1, free: 1 }],
  });
  const rpc = (fa: string, fb: string) =>
    plan(input, { nodes: [t4("a", fa), t4("b", fb)] }, DEFAULT_WORKLOAD).options.find((o) => o.placement.nodes === 2);

  for (const [fa, fb] of [
    ["", ""],
    ["eth-a", "eth-b"],
  ] as const) {
    test(`fabrics "${fa}" and "${fb}": name one for a and b, and llama.cpp over RPC runs it`, () => {
      const unjoined = rpc(fa, fb);
      expect(unjoined?.engine).toBe("llamacpp");
      expect(unjoined?.fits).toBe(false);
      expect(unjoined?.replicas).toBe(0);
      expect(unjoined?.lacks).toEqual({ kind: "fabric", nodeIds: ["a", "b"] });
      expect(unjoined?.whatToBuy?.[0]).toEqual({
        change:
          "name a fabric for a and b, and llama.cpp over RPC across them runs it (rpc-server on b, llama-server --rpc on a)",
        cardsAdded: 0,
        gpuClass: "",
      });
      // Applied: the same two hosts on one fabric run it.
      const joined = rpc("eth0", "eth0");
      expect(joined?.fits).toBe(true);
      expect(joined?.lacks).toBeUndefined();
      expect(joined?.commands.some((c) => c.includes("--rpc"))).toBe(true);
    });
  }
});

describe("more RAM for the CPU option", () => {
  // The same Q8_0 on a node of CPUs only, 16 GiB of RAM: llama.cpp needs 16.4 GiB of the 0.85 × 16 = 13.6 it plans on.
  const input = QWEN14_Q8;
  const cpuOn = (gib: number) =>
    plan(
      input,
      { nodes: [{ id: "box", fabric: "", hostMemGib: gib, hostFreeGib: gib, devices: [] }] },
      DEFAULT_WORKLOAD,
    ).options.find((o) => o.placement.cpu);

  test("the CPU option that lacks RAM says how much, and that much more runs it; a GiB less does not", () => {
    const short = cpuOn(16);
    expect(short?.fits).toBe(false);
    const m = /^\+(\d+) GiB of RAM on node box runs it on the CPU$/.exec(short?.whatToBuy?.[0]?.change ?? "");
    expect(m).not.toBeNull();
    const gib = Number(m?.[1]);
    expect(cpuOn(16 + gib)?.fits).toBe(true);
    expect(cpuOn(16 + gib)?.lacks).toBeUndefined();
    expect(cpuOn(16 + gib - 1)?.fits).toBe(false);
  });

  test("with cards that run it, the CPU option that lacks RAM is not listed: the cards are the answer", () => {
    const withCard = plan(
      input,
      {
        nodes: [
          {
            id: "box",
            fabric: "",
            hostMemGib: 16,
            hostFreeGib: 16,
            devices: [{ class: "l40s-48g", count: 1, free: 1 }],
          },
        ],
      },
      DEFAULT_WORKLOAD,
    ).options;
    expect(withCard.some((o) => o.placement.cpu)).toBe(false);
    expect(withCard.some((o) => o.fits)).toBe(true);
  });
});

describe("one box that names no fabric, too small for the model (DeepSeek-R1 on 8 × L40S)", () => {
  const l40s = (id: string, fabric: string): ClusterNode => ({
    id,
    fabric,
    hostMemGib: 512,
    hostFreeGib: 512,
    devices: [{ class: "l40s-48g", count: 8, free: 8 }],
  });
  const onBox = planned("deepseek-ai__DeepSeek-R1", { nodes: [l40s("a", "")] });
  const vllm = onBox.find((o) => o.engine === "vllm" && o.placement.gpuClass === "l40s-48g");

  test("it lists the pipeline that more nodes on one fabric would run, and what to buy says both: nothing was said before", () => {
    expect(vllm?.fits).toBe(false);
    const change = vllm?.whatToBuy?.find((b) => b.gpuClass === "l40s-48g");
    expect(change?.change).toMatch(
      /^\+16 l40s-48g as 2 more nodes of 8, on one fabric with a: PP 3 × TP 8 over 3 nodes/,
    );
    expect(change?.cardsAdded).toBe(16);
  });

  test("the change applied, the plan runs it, and one node fewer does not", () => {
    const three = planned("deepseek-ai__DeepSeek-R1", {
      nodes: [l40s("a", "ib0"), l40s("n2", "ib0"), l40s("n3", "ib0")],
    });
    const run = three.find((o) => o.engine === "vllm" && o.placement.pipelineParallel === 3 && o.fits);
    expect(run?.placement.tensorParallel).toBe(8);
    const two = planned("deepseek-ai__DeepSeek-R1", { nodes: [l40s("a", "ib0"), l40s("n2", "ib0")] });
    expect(two.some((o) => o.engine === "vllm" && o.fits)).toBe(false);
  });
});
