/**
 * The splits TP alone does not say: pipeline stages within a node, pipelines over nodes at a narrower
 * width, and a node's replicas as one data-parallel engine. Real configs and file sizes from the
 * bundled catalog and test/fixtures; the pipelines' memory is vLLM's own partition
 * (`get_pp_indices`), checked against vLLM 0.19's PP startup logs in calibration.test.ts
 * (llm-d-planner PR #205: Llama-3.1-8B tp1pp2 / tp1pp4 on one H100 node).
 */
import { describe, expect, test } from "vitest";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import {
  DEFAULT_WORKLOAD,
  estimateSpeed,
  evaluate,
  plan,
  readModel,
  servingParts,
  type Cluster,
  type PlanOption,
  type SpeedInput,
} from "../../src/plan/index.ts";
import { servingLayoutOf } from "../../src/calibration/cases.ts";
import { deploy } from "../../src/deploy/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { originalOf, shapeOf } from "./planning-fixtures.ts";

const dgx = (nodes: number, cls = "h100-80g", count = 8): Cluster => ({
  nodes: Array.from({ length: nodes }, (_, i) => ({
    id: `dgx-${i + 1}`,
    fabric: "ib0",
    hostMemGib: 2048,
    hostFreeGib: 2048,
    devices: [{ class: cls, count, free: count }],
  })),
});

function planned(repo: string, cluster: Cluster, sequences = 1) {
  const s = catalogSnapshot(repo);
  if (!s) throw new Error(`${repo} is not in the catalog`);
  const { shape, artifacts } = readModel(s);
  return plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, { ...DEFAULT_WORKLOAD, sequences });
}

describe("pipeline stages within one node", () => {
  const mixtral = planned("mistralai/Mixtral-8x7B-Instruct-v0.1", dgx(1));
  const staged = (engine: string) =>
    mixtral.options.find((o) => o.engine === engine && o.placement.nodes === 1 && o.placement.pipelineParallel > 1);

  test("Mixtral (93 GB of bf16) does not fit one H100, so two one-card stages are offered beside TP 2", () => {
    for (const engine of ["vllm", "sglang"]) {
      const o = staged(engine);
      expect(o?.placement).toMatchObject({ gpusPerNode: 2, tensorParallel: 1, pipelineParallel: 2 });
      expect(o?.fits).toBe(true);
      expect(o?.commands).toHaveLength(1);
    }
    expect(staged("vllm")?.commands[0]).toMatch(/--tensor-parallel-size 1 --pipeline-parallel-size 2/);
    expect(staged("sglang")?.commands[0]).toMatch(/--tp-size 1 --pp-size 2/);
    // Never at a width that fits alone: TP 2 holds it, so no TP 2 × PP 2.
    expect(mixtral.options.some((o) => o.placement.tensorParallel === 2 && o.placement.pipelineParallel > 1)).toBe(
      false,
    );
  });

  test("every layer is placed once: the stages' bodies, embedding and lm_head add up to the checkpoint", () => {
    const repo = "Qwen/Qwen2.5-Coder-32B-Instruct";
    const a = originalOf(repo);
    const parts = servingParts(shapeOf(repo), a, "h100-80g", 80 * 2 ** 30, 1, 3, false);
    expect(parts).toHaveLength(3);
    const total = parts.reduce((s, p) => s + p.bodyBytes + p.embedBytes, 0);
    expect(total).toBeCloseTo(a.bytes, -3);
    // The first stage holds the embedding, the last the lm_head (untied: as large), the middle neither.
    const [first, middle, last] = parts;
    expect(first?.embedBytes).toBeGreaterThan(0);
    expect(middle?.embedBytes).toBe(0);
    expect(last?.embedBytes).toBeCloseTo(first?.embedBytes ?? 0, -3);
    expect(last?.holdsOutput).toBe(true);
    expect(first?.holdsOutput).toBe(false);
  });

  test("what the plan offers is the layout the calibration checks against vLLM's PP logs: the same cards, the same loads", () => {
    const o = staged("vllm") as PlanOption;
    const s = catalogSnapshot("mistralai/Mixtral-8x7B-Instruct-v0.1");
    if (!s) throw new Error("catalog");
    const { shape, artifacts } = readModel(s);
    const a = artifacts.find((x) => x.name === o.artifact);
    if (!a) throw new Error("artifact");
    const same = evaluate(
      servingLayoutOf("pp2", a, "vllm", shape, "h100-80g", 81559 * 2 ** 20, 1, 2),
      { repo: s.repo, revision: s.sha, shape },
      mixtral.workload,
    );
    expect(o.cards.map((c) => c.weightsBytes)).toEqual(same.cards.map((c) => c.weightsBytes));
    expect(o.maxConcurrency).toBe(same.maxConcurrency);
  });

  test("Mixtral's 32 layers split 16 and 16: the embedding on the first card weighs what the lm_head does on the last", () => {
    const o = staged("vllm") as PlanOption;
    expect(o.cards).toHaveLength(2);
    expect(o.cards[0]?.weightsBytes).toBeCloseTo(o.cards[1]?.weightsBytes ?? 0, -6);
    expect(o.cards[0]?.role).toBe("stage 1");
  });
});

describe("pipelines over nodes at every width", () => {
  test("DeepSeek-R1 (FP8) on four nodes of 8 A100s: 2 nodes × TP 8, and 3 nodes × TP 4 on fewer cards, whose stages leave room for a second pipeline", () => {
    const p = planned("deepseek-ai/DeepSeek-R1", dgx(4, "a100-80g"));
    const vllm = p.options.filter((o) => o.engine === "vllm" && o.placement.nodes > 1);
    const shapes = vllm.map((o) => `${o.placement.nodes}x${o.placement.tensorParallel}`).sort();
    expect(shapes).toContain("2x8");
    const narrow = vllm.find((o) => o.placement.tensorParallel === 4);
    expect(narrow?.placement).toMatchObject({ nodes: 3, gpusPerNode: 4, pipelineParallel: 3 });
    // Four nodes hold one 3-stage pipeline of 4 cards a node, twice over (each node has room for two stages).
    expect(narrow?.replicas).toBe(2);
    expect(narrow?.commands).toHaveLength(3);
    // It comes first by fewest cards: 12 against 16.
    expect(vllm[0]?.placement.tensorParallel).toBe(4);
  });
});

describe("stages within nodes and a pipeline across them", () => {
  // Qwen2.5-72B-Instruct (bf16, 135 GiB; 64 heads, 8 KV heads) on rigs of 6 × RTX 3090 24 GB: TP 6 does
  // not divide the heads, so TP 4 × PP 2 over two rigs leaves two cards of each idle.
  const repo = "Qwen/Qwen2.5-72B-Instruct";
  const rigs = (n: number): Cluster => ({
    nodes: Array.from({ length: n }, (_, i) => ({
      id: `rig-${i + 1}`,
      fabric: "eth0",
      hostMemGib: 256,
      hostFreeGib: 256,
      devices: [{ class: "rtx3090-24g", count: 6, free: 6 }],
    })),
  });
  const a = originalOf(repo);
  const p = plan({ repo, revision: "", shape: shapeOf(repo), artifacts: [a] }, rigs(3), DEFAULT_WORKLOAD);
  const of = (engine: string, pp: number) =>
    p.options.find((o) => o.engine === engine && o.placement.nodes === 2 && o.placement.pipelineParallel === pp);

  test("TP 2 × PP 6 over two rigs uses all twelve cards and holds about four times the sequences of TP 4 × PP 2", () => {
    for (const engine of ["vllm", "sglang"]) {
      const staged = of(engine, 6);
      const plain = of(engine, 2);
      expect(staged?.placement).toMatchObject({ gpusPerNode: 6, tensorParallel: 2 });
      expect(plain?.placement).toMatchObject({ gpusPerNode: 4, tensorParallel: 4 });
      expect(staged?.fits).toBe(true);
      expect(staged?.maxConcurrency ?? 0).toBeGreaterThan(3 * (plain?.maxConcurrency ?? Infinity));
    }
  });

  test("no layer left out: the twelve cards' weights are the checkpoint, the middle stages shown at their heaviest", () => {
    const staged = of("vllm", 6) as PlanOption;
    const total = staged.cards.reduce((sum, c) => sum + c.weightsBytes * c.cards, 0);
    expect(staged.cards.reduce((n, c) => n + c.cards, 0)).toBe(12);
    // get_pp_indices gives 80 layers as 13, 13, 13, 14, 14, 13: stages 2–5 are one row at 14 layers,
    // 2 of 80 layers more than they hold; each rank's rotary cache adds a few MiB.
    expect(total).toBeGreaterThan(a.bytes);
    expect((total - a.bytes) / a.bytes).toBeLessThan(2 / 80 + 0.005);
  });

  test("each rig its command: six ranks a node, --nnodes 2, as vLLM and SGLang start a pipeline over nodes", () => {
    const v = of("vllm", 6) as PlanOption;
    expect(v.commands).toHaveLength(2);
    for (const c of v.commands) expect(c).toMatch(/--tensor-parallel-size 2 --pipeline-parallel-size 6 .*--nnodes 2 /);
    expect(of("sglang", 6)?.commands[1]).toMatch(/--tp-size 2 --pp-size 6 .*--nnodes 2 --node-rank 1 /);
  });

  test("on nodes of 8, which TP 8 fills, none is tried", () => {
    const r1 = planned("deepseek-ai/DeepSeek-R1", dgx(2));
    expect(r1.options.some((o) => o.placement.nodes > 1 && o.placement.pipelineParallel > o.placement.nodes)).toBe(
      false,
    );
  });
});

describe("one data-parallel engine over a node", () => {
  const p = planned("meta-llama/Llama-3.1-8B-Instruct", dgx(1), 64);
  const one = p.options.find(
    (o) => o.engine === "vllm" && o.placement.gpusPerNode === 1 && (o.placement.dataParallel ?? 1) === 1,
  ) as PlanOption;
  const dp8 = p.options.find((o) => o.engine === "vllm" && o.placement.dataParallel === 8) as PlanOption;

  test("vLLM DP 8 × TP 1: eight ranks' pools, one endpoint, --data-parallel-size 8", () => {
    expect(dp8.placement).toMatchObject({ gpusPerNode: 8, tensorParallel: 1, pipelineParallel: 1 });
    expect(dp8.maxConcurrency).toBeCloseTo(8 * one.maxConcurrency, 6);
    expect(dp8.commands[0]).toMatch(/--tensor-parallel-size 1 --data-parallel-size 8/);
    expect(dp8.replicas).toBe(1);
    // Its one load is on all eight cards.
    expect(dp8.cards.map((c) => c.cards)).toEqual([8]);
    const json = optionJson(dp8);
    expect(json.data_parallel).toBe(8);
    expect(json.gpus_per_node).toBe(8);
    // The ranks share the sequences: together they deliver more than one rank, as much as eight at 64 sequences.
    expect(dp8.speed?.throughputTps ?? 0).toBeGreaterThan(7 * (one.speed?.throughputTps ?? Infinity) * (8 / 64));
    expect(optionJson(one).data_parallel).toBe(1);
  });

  test("SGLang's is --dp-size, its TP groups each what one replica holds", () => {
    const s = p.options.find((o) => o.engine === "sglang" && o.placement.dataParallel === 8);
    expect(s?.commands[0]).toMatch(/--tp-size 1 --dp-size 8/);
  });

  test("vLLM spreads a mixture of experts' experts over DP × TP: Mixtral runs as DP 8 × TP 1, where one card alone does not hold it", () => {
    const m = planned("mistralai/Mixtral-8x7B-Instruct-v0.1", dgx(1));
    const dp = m.options.find((o) => o.engine === "vllm" && o.placement.dataParallel === 8);
    expect(dp?.fits).toBe(true);
    expect(dp?.placement.tensorParallel).toBe(1);
    // SGLang's ranks are whole replicas: one card does not hold Mixtral, so no SGLang DP 8 × TP 1 (and its DP
    // attention, which would spread the experts, is not offered for Mixtral: server_args names DeepSeek and Qwen MoE).
    expect(m.options.some((o) => o.engine === "sglang" && o.placement.dataParallel === 8)).toBe(false);
  });
});

describe("speed of a pipeline", () => {
  const base: SpeedInput = {
    card: {
      label: "h100-80g",
      kind: "hbm",
      vendor: "nvidia",
      memBandwidthGBps: 3350,
      tflops: { bf16: 989, fp16: 989, fp8: 1979, fp4: null, int8: 1979 },
      vendorChecked: true,
    },
    model: {
      weightsBytes: 16e9,
      routedExpertBytes: 0,
      routedExperts: 0,
      expertsPerToken: 0,
      activeParams: 8e9,
      layers: 32,
      hiddenSize: 4096,
      kvBytesPerToken: 131072,
      kvSplitByTensorParallel: true,
      attentionFlopsPerContextToken: 4 * 32 * 32 * 128,
      computeFormat: "bf16",
    },
    layout: {
      engine: "vllm",
      tensorParallel: 1,
      pipelineStages: 4,
      expertParallel: 1,
      hostWeightsBytes: 0,
      hostExpertBytes: 0,
      hostBandwidthGBps: null,
      cpuOnly: false,
    },
    links: { intraNodeGBps: 450, fabricGBps: null, crossNodeHops: 0, tensorParallelCrossesNodes: false },
    workload: { inputTokens: 1024, outputTokens: 256, sequences: 1, sequencesTheKvHolds: null },
  };
  const at = (sequences: number, engine: "vllm" | "llamacpp" = "vllm") =>
    estimateSpeed({ ...base, layout: { ...base.layout, engine }, workload: { ...base.workload, sequences } });

  test("one sequence visits the stages one after another: decode is no faster than one card's", () => {
    const one = estimateSpeed({ ...base, layout: { ...base.layout, pipelineStages: 1 } });
    expect(at(1).decodeTps ?? 0).toBeLessThanOrEqual(one.decodeTps ?? 0);
  });

  test("more sequences fill the pipeline: each stage works on its own micro-batch, so the step is a micro-batch's", () => {
    // 256 sequences in 4 micro-batches of 64: a round is one 64-sequence step, not one 256-sequence step.
    expect(at(256).tpotMs ?? Infinity).toBeLessThan(at(256, "llamacpp").tpotMs ?? 0);
    expect(at(256).basis).toMatch(/4 pipeline micro-batches/);
  });
});

describe("what to buy, across card classes", () => {
  const cluster: Cluster = {
    nodes: [
      { id: "a", fabric: "", hostMemGib: 128, hostFreeGib: 120, devices: [{ class: "l40s-48g", count: 2, free: 2 }] },
    ],
  };
  const s = catalogSnapshot("Qwen/Qwen2.5-Coder-32B-Instruct");
  if (!s) throw new Error("catalog");
  const { shape, artifacts } = readModel(s);
  // 32 sequences of 32k at 256 KiB a token is 256 GiB of KV: two L40S start it but hold a few.
  const p = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, {
    ...DEFAULT_WORKLOAD,
    sequences: 32,
    contextTokens: 32768,
  });
  const tp2 = p.options.find((o) => o.engine === "vllm" && o.placement.tensorParallel === 2) as PlanOption;

  test("an option that starts but holds too few is told the smallest change in any class, smallest first", () => {
    expect(tp2.fits).toBe(true);
    expect(tp2.fitsWorkload).toBe(false);
    const buys = tp2.whatToBuy ?? [];
    expect(buys.length).toBeGreaterThan(1);
    const added = buys.map((b) => b.cardsAdded);
    expect(added).toEqual([...added].sort((x, y) => x - y));
    expect(buys.some((b) => b.gpuClass !== "l40s-48g" && b.gpuClass !== "")).toBe(true);
    // Each is what the plan would list on such a node: it names the layout that runs it.
    expect(buys[0]?.change).toMatch(/^\+\d+ [a-z0-9-]+ .*runs it$/);
  });

  test("it is what planning on that node gives: the first change's cards meet the workload there", () => {
    const first = (tp2.whatToBuy ?? [])[0];
    if (!first) throw new Error("no change");
    const node: Cluster = {
      nodes: [
        {
          id: "new",
          fabric: "",
          hostMemGib: 128,
          hostFreeGib: 120,
          devices: [{ class: first.gpuClass, count: first.cardsAdded, free: first.cardsAdded }],
        },
      ],
    };
    const there = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, node, p.workload);
    expect(there.options.some((o) => o.engine === "vllm" && o.fitsWorkload === true)).toBe(true);
  });

  test("one L40S on a node of no fabric, which holds no width of a 32B model in bf16: the option that would, and the cards to add on the node, which then run it", () => {
    const lone: Cluster = {
      nodes: [
        { ...(cluster.nodes[0] as Cluster["nodes"][number]), devices: [{ class: "l40s-48g", count: 1, free: 1 }] },
      ],
    };
    const w = { ...DEFAULT_WORKLOAD, sequences: 8 };
    const p1 = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, lone, w);
    const vllm = p1.options.find((o) => o.engine === "vllm");
    // 65.5 GB of weights against 41 GiB a card: it starts on none of one node's widths, so nothing fits.
    expect(vllm?.fits).toBe(false);
    const own = vllm?.whatToBuy?.find((b) => b.gpuClass === "l40s-48g");
    expect(own?.change).toMatch(/^\+\d+ l40s-48g/);
    const more: Cluster = {
      nodes: [
        {
          ...(lone.nodes[0] as Cluster["nodes"][number]),
          devices: [{ class: "l40s-48g", count: 1 + (own?.cardsAdded ?? 0), free: 1 + (own?.cardsAdded ?? 0) }],
        },
      ],
    };
    const there = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, more, w);
    expect(there.options.some((o) => o.engine === "vllm" && o.fits)).toBe(true);
  });

  test("new nodes of other cards do not hide the cluster's own: 8 L40S short of 32 sequences of 32k keep an L40S change, which runs", () => {
    // vLLM TP 4 holds about 12 of the 32 (256 KiB a token, 41 GiB a card less 16 of weights): two copies on 8
    // cards, three needed. Four other classes need only +2 cards (a node of 180-256 GiB cards), which came first.
    const eight: Cluster = {
      nodes: [
        { ...(cluster.nodes[0] as Cluster["nodes"][number]), devices: [{ class: "l40s-48g", count: 8, free: 8 }] },
      ],
    };
    const short = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, eight, p.workload);
    const tp4 = short.options.find(
      (o) =>
        o.engine === "vllm" &&
        o.placement.tensorParallel === 4 &&
        o.placement.pipelineParallel === 1 &&
        (o.placement.dataParallel ?? 1) === 1,
    );
    expect(tp4?.fitsWorkload).toBe(false);
    const own = tp4?.whatToBuy?.find((b) => b.gpuClass === "l40s-48g");
    expect(own).toBeDefined();
    // Those cards on node a: the plan then holds enough copies of TP 4 for the 32.
    const bought: Cluster = {
      nodes: [
        {
          ...(eight.nodes[0] as Cluster["nodes"][number]),
          devices: [{ class: "l40s-48g", count: 8 + (own?.cardsAdded ?? 0), free: 8 + (own?.cardsAdded ?? 0) }],
        },
      ],
    };
    const after = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, bought, p.workload).options.find(
      (o) => o.id === tp4?.id,
    );
    expect((after?.replicas ?? 0) * (after?.maxConcurrency ?? 0)).toBeGreaterThanOrEqual(32);
  });
});

describe("the deployments of the new splits", () => {
  test("a DP 8 × TP 1 engine and a TP 1 × PP 2 pipeline each ask Kubernetes for all their cards on one node, and serve the command planned", () => {
    const p = planned("mistralai/Mixtral-8x7B-Instruct-v0.1", dgx(1));
    for (const o of [
      p.options.find((x) => x.engine === "vllm" && x.placement.dataParallel === 8),
      p.options.find((x) => x.engine === "vllm" && x.placement.nodes === 1 && x.placement.pipelineParallel === 2),
    ]) {
      if (!o) throw new Error("option missing");
      const text = deploy("kubernetes", { option: o, plan: p }).text;
      expect(text).toMatch(new RegExp(`nvidia\\.com/gpu: "?${o.placement.gpusPerNode}"?`));
      expect(text).toContain(o.placement.dataParallel === 8 ? "--data-parallel-size" : "--pipeline-parallel-size");
      // One node: a Deployment, not a LeaderWorkerSet.
      expect(text).toMatch(/kind: Deployment/);
    }
  });
});

describe("a pipeline within one node against vLLM's own log", () => {
  // llm-d-incubation/llm-d-planner PR #205, vLLM 0.19.0 on one H100 node, Llama-3.1-8B at TP 1 × PP 2, util 0.95, 8,192 tokens:
  // https://github.com/llm-d-incubation/llm-d-planner/blob/d3121e059da88662db39a926a3ead964be97359b/accuracy/results/v0.19.0/logs/meta-llama-llama-3-1-8b---h100-80gb--tp1pp2dp1--8192.log
  // "Model loading took 7.51 GiB memory", "Maximum concurrency for 8,192 tokens per request: 131.26x".
  const repo = "meta-llama/Llama-3.1-8B-Instruct";
  const cluster: Cluster = {
    nodes: [
      { id: "h", fabric: "", hostMemGib: 2048, hostFreeGib: 2048, devices: [{ class: "h100-80g", count: 2, free: 2 }] },
    ],
  };
  // The option the plan offers for two stages on one node is the layout the calibration checks (one node, 2 cards, TP 1, PP 2).
  const p = plan({ repo, revision: "", shape: shapeOf(repo), artifacts: [originalOf(repo)] }, cluster, {
    ...DEFAULT_WORKLOAD,
    contextTokens: 8192,
    settings: { gpuMemoryUtilization: 0.95, vllmVersion: "0.19.0" },
  });

  test("TP 1 fits alone, so the plan offers no pipeline of it: replicas of TP 1 hold as much", () => {
    expect(p.options.some((o) => o.engine === "vllm" && o.placement.pipelineParallel > 1)).toBe(false);
  });

  test("the same split evaluated as the plan would: 7.51 GiB of weights on the first stage within 2%, 131.26 sequences within 5%", () => {
    const shape = shapeOf(repo);
    const a = originalOf(repo);
    // One node, 2 cards, TP 1, PP 2: the placement the enumerator builds for two stages in a node.
    const layout = servingLayoutOf("tp1pp2", a, "vllm", shape, "h100-80g", 81559 * 2 ** 20, 1, 2);
    expect(layout.placement).toMatchObject({ gpusPerNode: 2, nodes: 1, tensorParallel: 1, pipelineParallel: 2 });
    const o = evaluate(layout, { repo, revision: "", shape }, p.workload);
    expect((o.cards[0]?.weightsBytes ?? 0) / 2 ** 30).toBeCloseTo(7.51, 0);
    expect(Math.abs((o.cards[0]?.weightsBytes ?? 0) / 2 ** 30 / 7.51 - 1)).toBeLessThan(0.02);
    expect(Math.abs(o.maxConcurrency / 131.26 - 1)).toBeLessThan(0.05);
    expect(o.commands[0]).toMatch(/--tensor-parallel-size 1 --pipeline-parallel-size 2/);
  });
});
