/**
 * Every way to run it: every tensor-parallel width the heads allow that fits,
 * expert parallel on and off, replicas, the workload as a requirement, the
 * rankings a user chooses, and what to buy. Real configs and file sizes from
 * the bundled catalog's snapshots; the users' cases are the ones the issue met.
 */
import { describe, expect, test } from "vitest";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import {
  DEFAULT_WORKLOAD,
  placementLabel,
  plan,
  readModel,
  withWorkload,
  type Cluster,
  type PlanOption,
  type RepoSnapshot,
  type Workload,
} from "../../src/plan/index.ts";

function snapshot(repo: string): RepoSnapshot {
  const s = catalogSnapshot(repo);
  if (!s) throw new Error(`${repo} is not in the catalog`);
  return s;
}

function planned(repo: string, cluster: Cluster, w: Partial<Workload> = {}) {
  const s = snapshot(repo);
  const { shape, artifacts } = readModel(s);
  return plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, { ...DEFAULT_WORKLOAD, ...w });
}

const dgx = (nodes: number): Cluster => ({
  nodes: Array.from({ length: nodes }, (_, i) => ({
    id: `dgx-${i + 1}`,
    fabric: "ib0",
    hostMemGib: 2048,
    hostFreeGib: 2048,
    devices: [{ class: "h100-80g", count: 8, free: 8 }],
  })),
});

/** Tensor parallel alone on one node: no pipeline stages, one data-parallel rank. */
const plainTp = (o: PlanOption): boolean =>
  o.placement.nodes === 1 && o.placement.pipelineParallel === 1 && (o.placement.dataParallel ?? 1) === 1;

const widths = (options: readonly PlanOption[], engine: string): number[] =>
  options
    .filter((o) => o.engine === engine && plainTp(o))
    .map((o) => o.placement.tensorParallel)
    .sort((a, b) => a - b);

describe("every layout", () => {
  test("Qwen2.5-Coder-32B on two DGX H100: TP1, TP2, TP4 and TP8 each (40 heads, 8 KV heads), with replicas counted", () => {
    const p = planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(2));
    expect(widths(p.options, "vllm")).toEqual([1, 2, 4, 8]);
    const tp2 = p.options.find((o) => o.engine === "vllm" && o.placement.tensorParallel === 2);
    expect(tp2?.replicas).toBe(8);
    expect(tp2?.replicasFreeNow).toBe(8);
    expect(tp2?.dataParallel).toBe(1);
  });

  test("a busy node counts its replicas but not as free now", () => {
    const cluster = dgx(2);
    const first = cluster.nodes[0]?.devices[0];
    if (first) first.free = 3;
    const tp2 = planned("Qwen/Qwen2.5-Coder-32B-Instruct", cluster).options.find(
      (o) => o.engine === "vllm" && o.placement.tensorParallel === 2 && plainTp(o),
    );
    expect(tp2?.replicas).toBe(8);
    expect(tp2?.replicasFreeNow).toBe(5);
  });

  test("Mixtral at TP2 is offered with and without expert parallel", () => {
    const tp2 = planned("mistralai/Mixtral-8x7B-Instruct-v0.1", dgx(1)).options.filter(
      (o) => o.engine === "vllm" && o.placement.tensorParallel === 2 && plainTp(o),
    );
    expect(tp2.map((o) => o.placement.expertParallel).sort()).toEqual([false, true]);
    // The two are told apart where they are listed: the terminal's line, what-to-buy's words.
    const labels = tp2.map((o) => placementLabel(o.placement, o.engine));
    expect(new Set(labels).size).toBe(2);
    expect(labels).toContain("2 × h100-80g (EP 2)");
    expect(labels).toContain("2 × h100-80g");
    // EP decodes one sequence slower: its 2 experts fall on the same card of the two 3 times in 7, where TP splits each
    // over both (speed/experts.ts); the EP option says what its figure rests on (epPairs.test.ts checks it).
    const [ep, tpOnly] = [tp2.find((o) => o.placement.expertParallel), tp2.find((o) => !o.placement.expertParallel)];
    expect(ep?.speed?.decodeTps).toBeLessThan(tpOnly?.speed?.decodeTps ?? 0);
    expect(ep?.speed?.basis).toMatch(/each MoE layer waits for the card holding the most/);
    expect(tpOnly?.speed?.basis).not.toMatch(/expert parallel/);
  });
});

test("DeepSeek-R1 on two DGX H100 nodes: the pipeline across them is offered with expert parallel and without (vLLM's default)", () => {
  const p = planned("deepseek-ai/DeepSeek-R1", dgx(2));
  for (const engine of ["vllm", "sglang"]) {
    const pp2 = p.options.filter(
      (o) =>
        o.engine === engine &&
        o.placement.nodes === 2 &&
        o.placement.pipelineParallel === 2 &&
        o.placement.tensorParallel === 8 &&
        (o.placement.dataParallel ?? 1) === 1,
    );
    expect(pp2.map((o) => o.placement.expertParallel).sort()).toEqual([false, true]);
    const tpOnly = pp2.find((o) => !o.placement.expertParallel);
    expect(tpOnly?.fits).toBe(true);
    // Without the flag vLLM splits every expert over the TP group (FusedMoE's default); SGLang runs --ep-size 1.
    const head = tpOnly?.commands[0] ?? "";
    expect(head).not.toMatch(engine === "vllm" ? /--enable-expert-parallel/ : /--ep-size [2-9]/);
    // 256 experts divide over 8 ranks evenly: whole experts or an eighth of each weigh the same a card (within 1%).
    const ep = pp2.find((o) => o.placement.expertParallel);
    const w = (o: PlanOption | undefined) => o?.cards[0]?.weightsBytes ?? 0;
    expect(Math.abs(w(tpOnly) / w(ep) - 1)).toBeLessThan(0.01);
  }
});

describe("the workload is a requirement", () => {
  test("32 sequences of 8,192 tokens: one card starts but holds a few of them; TP2 holds them all and ranks first", () => {
    const p = planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(2), { sequences: 32 });
    const one = p.options.find((o) => o.engine === "vllm" && o.placement.tensorParallel === 1 && plainTp(o));
    expect(one?.fits).toBe(true);
    expect(one?.fitsWorkload).toBe(false);
    // 64 layers × 8 KV heads × 128 × 2 × 2 B = 256 KiB a token: one H100 less 65 GB of weights holds ~4-5 sequences of 8k.
    expect(one?.maxConcurrency).toBeLessThan(8);
    expect(one?.whatToBuy?.some((b) => b.cardsAdded === 0 && /2 × h100-80g/.test(b.change))).toBe(true);
    expect(p.options[0]?.fitsWorkload).toBe(true);
    expect(p.options[0]?.placement.tensorParallel).toBe(2);
    expect(p.options[0]?.maxConcurrency).toBeGreaterThanOrEqual(32);
  });

  test("more replicas of a short layout add only the cards the cluster lacks: none where its 16 H100s hold them, and the rest run them once bought", () => {
    const replicaChange = (o: PlanOption | undefined) =>
      o?.whatToBuy?.find((b) => /replicas of this layout/.test(b.change));
    const tp1 = (p: ReturnType<typeof planned>, engine: string) =>
      p.options.find((o) => o.engine === engine && o.placement.tensorParallel === 1 && plainTp(o));
    // vLLM TP 1 holds 4-5 of the 32: 7 or 8 copies of one card each, and the two nodes hold 16 of them.
    const two = tp1(planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(2), { sequences: 32 }), "vllm");
    const copies = Math.ceil(32 / (two?.maxConcurrency ?? 1));
    expect(copies).toBeLessThanOrEqual(two?.replicas ?? 0);
    expect(replicaChange(two)?.cardsAdded).toBe(0);
    // On one node of 8, SGLang TP 1 (about 2 of the 32 a card) needs 16 copies: 8 more cards, and with them
    // (the second node) the plan counts at least that many copies.
    const one = tp1(planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(1), { sequences: 32 }), "sglang");
    const needed = Math.ceil(32 / (one?.maxConcurrency ?? 1));
    const added = replicaChange(one)?.cardsAdded ?? -1;
    expect(added).toBe(needed - (one?.replicas ?? 0));
    const more = tp1(planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(1 + added / 8), { sequences: 32 }), "sglang");
    expect(more?.replicas ?? 0).toBeGreaterThanOrEqual(needed);
  });

  test("one sequence: fits_workload is fits", () => {
    for (const o of planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(1)).options) expect(o.fitsWorkload).toBe(o.fits);
  });
});

describe("a ranking the user chooses", () => {
  const p = planned("Qwen/Qwen2.5-Coder-32B-Instruct", dgx(2), { sequences: 8 });
  const by = (rankBy: NonNullable<Workload["rankBy"]>) =>
    withWorkload(p, { ...p.workload, rankBy }).options.filter((o) => o.fitsWorkload);

  test("fewest-cards puts the fewest cards that hold the workload first; latency the fastest; context the longest", () => {
    const fewest = by("fewest-cards");
    const cards = (o: PlanOption) => o.placement.gpusPerNode * o.placement.nodes;
    expect(cards(fewest[0] as PlanOption)).toBe(Math.min(...fewest.map(cards)));
    // On as many cards, plain tensor parallel before stages or data-parallel ranks: it answers one user sooner.
    expect(plainTp(fewest[0] as PlanOption)).toBe(true);
    const latency = by("latency");
    expect(latency[0]?.speed?.tpotMs).toBe(Math.min(...latency.map((o) => o.speed?.tpotMs ?? Infinity)));
    const context = by("context");
    expect(context[0]?.maxContextTokens).toBe(Math.max(...context.map((o) => o.maxContextTokens)));
  });

  test("throughput is per card, cost per million tokens from the card-hour price", () => {
    const t = by("throughput");
    const perCard = (o: PlanOption) => (o.speed?.throughputTps ?? 0) / (o.placement.gpusPerNode * o.placement.nodes);
    expect(perCard(t[0] as PlanOption)).toBe(Math.max(...t.map(perCard)));
    const c = by("cost");
    expect(c[0]?.costPerMtok).toBe(Math.min(...c.map((o) => o.costPerMtok ?? Infinity)));
    const priced = withWorkload(p, { ...p.workload, pricesPerCardHour: { "h100-80g": 6 } }).options.find(
      (o) => o.id === c[0]?.id,
    );
    expect(priced?.costPerMtok).toBeCloseTo(2 * (c[0]?.costPerMtok ?? 0), 6);
  });

  test("quality orders DeepSeek-R1-GGUF's quants by bits a weight, up to 16 (BF16 and Q8_0 before Q4_K_M before IQ1_S)", () => {
    const r1 = planned("unsloth/DeepSeek-R1-GGUF", dgx(2));
    const q = withWorkload(r1, { ...r1.workload, rankBy: "quality" }).options.filter((o) => o.fitsWorkload);
    const bits = q.map((o) => Math.min(16, o.bitsPerWeight));
    expect(bits.length).toBeGreaterThan(3);
    expect(bits).toEqual([...bits].sort((a, b) => b - a));
    // The repo's own spread: a 16-bit file first and a below-2-bit one last.
    expect(bits[0]).toBeGreaterThanOrEqual(8);
    expect(bits[bits.length - 1]).toBeLessThan(2);
  });

  test("DeepSeek-R1-GGUF on two DGX nodes: fewest-cards no longer recommends the 1.58-bit quant over a Q4 or Q8 that fits, and says why", () => {
    const r1 = planned("unsloth/DeepSeek-R1-GGUF", dgx(2));
    const fitting = r1.options.filter((o) => o.fits);
    const firstLow = fitting.findIndex((o) => o.bitsPerWeight > 0 && o.bitsPerWeight < 3);
    const lastGood = fitting.map((o) => o.bitsPerWeight >= 4).lastIndexOf(true);
    expect(lastGood).toBeGreaterThanOrEqual(0);
    expect(firstLow === -1 || firstLow > lastGood).toBe(true);
    if (firstLow !== -1) expect(fitting[firstLow]?.notes?.some((n) => /below 3 bits a weight/.test(n))).toBe(true);
  });
});
