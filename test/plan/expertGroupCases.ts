/**
 * The expert exchange of a data-parallel MoE engine (src/plan/speed/expertGroup.ts) against measured figures:
 * SGLang's disaggregated DeepSeek-R1 decode with DP attention and expert parallel from InferenceX (rows of
 * test/fixtures/speed/measured.jsonl, each with its source_url: SemiAnalysisAI/InferenceX-app
 * packages/app/cypress/fixtures/api/benchmarks.json @ 528c4146). A decode worker runs only decode, so its TPOT is
 * one decode step with no prefill beside it: `decode.tp` cards, DP attention over all of them (dp = tp), the
 * row's concurrency spread over `decode.workers` workers and their ranks, at 1,024 + 512 tokens of context.
 *
 * Only rows whose worker is one DP-attention group (decode tp = its cards ÷ workers, ep = tp): the
 * `d1ep1xN` rows say tp 1 with dp attention over 4 cards a worker, which names no layout. GB200/GB300
 * workers sit in one NVL72 rack, one NVLink domain; H200 and MI355X workers are one node of 8. Weights as the
 * serving cases take them (speedCases.ts): FP8 one byte a parameter, FP4 experts 4.5 bits.
 */
import {
  BENCHMARK_GPU_KEYS,
  cardSpecOf,
  estimateSpeed,
  shapeFromConfig,
  speedCardOf,
  speedTerms,
  type SpeedInput,
  type SpeedTerms,
} from "../../src/plan/index.ts";
import { loadConfig } from "./fixture.ts";
import { absQuantile, measuredRows } from "./speedCases.ts";

interface DecodeSide {
  tp: number;
  ep: number;
  dp_attention: boolean;
  num_gpu: number;
  workers: number;
}

export interface ExchangeCase {
  id: string;
  half: "fitted" | "checking";
  gpuClass: string;
  ranks: number;
  perRank: number;
  measuredTpotMs: number;
  input: SpeedInput;
}

/** DeepSeek-R1's shape (its config.json) with the benchmark's 671 B parameters. */
const R1 = shapeFromConfig(loadConfig("deepseek-ai__DeepSeek-R1"), 671e9);

export function exchangeCases(): ExchangeCase[] {
  const rows = measuredRows()
    .filter((r) => r.engine === "sglang" && r.group === "multinode")
    .map((r) => ({ r, d: (r as unknown as { decode?: DecodeSide }).decode }))
    .filter(
      (x): x is { r: (typeof x)["r"]; d: DecodeSide } =>
        x.d !== undefined &&
        x.d.dp_attention &&
        x.d.ep > 1 &&
        x.d.ep === x.d.tp &&
        x.d.tp * x.d.workers === x.d.num_gpu &&
        x.r.tpot_ms_median !== undefined,
    )
    .sort((a, b) => (a.r.id < b.r.id ? -1 : 1));
  return rows.map(({ r, d }, i) => {
    const gpuClass = BENCHMARK_GPU_KEYS[r.gpu_key];
    const spec = gpuClass ? cardSpecOf(gpuClass) : undefined;
    if (!gpuClass || !spec) throw new Error(`${r.id}: card ${r.gpu_key} not in cardSpecs`);
    const moe = R1.moe;
    if (!moe?.routedExpertParams) throw new Error("DeepSeek-R1's config gives no expert width");
    const fp4 = r.artifact.startsWith("FP4");
    const total = r.params_b * 1e9;
    const expertBytes = moe.routedExpertParams * (fp4 ? 4.5 / 8 : 1);
    const denseBytes = total - moe.routedExpertParams;
    const ranks = d.tp;
    // As the plan's DP-attention card (dpAttention.ts): attention and the embedding whole, the rest a 1/ranks share.
    const attention = R1.layers * (R1.attentionParamsPerLayer ?? 0);
    const embed = R1.vocabSize * R1.hiddenSize * 2;
    const cardDenseBytes = attention + embed + (denseBytes - attention - embed) / ranks;
    const perRank = (r.concurrency ?? 1) / (d.workers * ranks);
    const input: SpeedInput = {
      card: speedCardOf(gpuClass),
      model: {
        weightsBytes: expertBytes + denseBytes,
        routedExpertBytes: expertBytes,
        routedExperts: moe.routedExperts,
        expertsPerToken: moe.expertsPerToken,
        activeParams: 37e9,
        layers: R1.layers,
        hiddenSize: R1.hiddenSize,
        kvBytesPerToken: R1.layers * 576 * 2,
        kvSplitByTensorParallel: false,
        attentionFlopsPerContextToken: 4 * R1.layers * R1.attentionHeads * 576,
        computeFormat: fp4 ? "fp4" : "fp8",
        moeLayers: R1.layers - moe.denseFirstLayers,
      },
      layout: {
        engine: "sglang",
        tensorParallel: 1,
        pipelineStages: 1,
        expertParallel: ranks,
        hostWeightsBytes: 0,
        hostExpertBytes: 0,
        hostBandwidthGBps: null,
        cpuOnly: false,
        expertGroup: {
          ranks,
          ranksPerNode: ranks,
          dataParallel: ranks,
          busyRanks: ranks,
          exchange: "all-to-all",
          cardDenseBytes,
          cardExpertBytes: expertBytes / ranks,
        },
      },
      links: {
        intraNodeGBps: spec.link.gbpsPerDirection,
        fabricGBps: null,
        crossNodeHops: 0,
        tensorParallelCrossesNodes: false,
      },
      workload: {
        inputTokens: r.input_tokens ?? 1024,
        outputTokens: r.output_tokens ?? 1024,
        sequences: Math.max(1, Math.round(perRank)),
        sequencesTheKvHolds: null,
      },
    };
    return {
      id: r.id,
      half: i % 2 === 0 ? "fitted" : "checking",
      gpuClass,
      ranks,
      perRank,
      measuredTpotMs: r.tpot_ms_median ?? 0,
      input,
    };
  });
}

/** The case's TPOT at exchange terms: the engine's fitted terms, no prefill beside the decode (a decode worker). */
export function predictTpot(c: ExchangeCase, latencyUs?: number, linkShare?: number): number | null {
  const t = speedTerms("sglang", c.input.card.kind, c.input.card.vendor);
  const terms: SpeedTerms = { ...t, prefillInterference: 0 };
  if (latencyUs !== undefined) terms.exchangeLatencyUs = latencyUs;
  if (linkShare !== undefined) terms.exchangeLinkShare = linkShare;
  return estimateSpeed(c.input, terms).tpotMs;
}

function loss(cases: readonly ExchangeCase[], latencyUs: number, linkShare: number): number {
  const errs = cases.map((c) => Math.abs(Math.log((predictTpot(c, latencyUs, linkShare) ?? 1e9) / c.measuredTpotMs)));
  return absQuantile(errs, 0.5) + 0.5 * (errs.reduce((a, b) => a + b, 0) / errs.length);
}

/** The grid fit of the exchange terms: latency 0–300 µs by 5, link share 0.05–1 by 0.05; ties keep the first. */
export function fitExchange(cases: readonly ExchangeCase[]): { latencyUs: number; linkShare: number } {
  let best = { latencyUs: 0, linkShare: 1, loss: Infinity };
  for (let l = 0; l <= 300; l += 5)
    for (let k = 1; k <= 20; k++) {
      const share = k / 20;
      const v = loss(cases, l, share);
      if (v < best.loss - 1e-12) best = { latencyUs: l, linkShare: share, loss: v };
    }
  return { latencyUs: best.latencyUs, linkShare: best.linkShare };
}
