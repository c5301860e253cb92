/**
 * The speed of one option for one workload: the entry point. Pure and
 * loop-free over tokens (a handful of closed-form steps), so a plan of
 * thousands of options stays inside the engine benchmark's budget.
 */
import { decodeStepMs } from "./decode.ts";
import { CPU_PREFILL_GFLOPS_PER_CORE } from "./host.ts";
import { CROSS_NODE_ALL_REDUCE_US, NO_PEER_ALL_REDUCE_US } from "./links.ts";
import { prefillMs } from "./prefill.ts";
import { speedTerms, type SpeedTerms } from "./terms.ts";
import type { SpeedCard, SpeedEstimate, SpeedInput } from "./types.ts";

function nulls(sequencesRun: number, basis: string): SpeedEstimate {
  return { decodeTps: null, prefillTps: null, ttftMs: null, tpotMs: null, throughputTps: null, sequencesRun, basis };
}

/** What is wrong with the input, in words, or "" when nothing is. */
function inputProblem(input: SpeedInput): string {
  const { workload, layout, model } = input;
  if (!Number.isInteger(workload.inputTokens) || workload.inputTokens < 1)
    return `input tokens must be a whole number ≥ 1 (got ${workload.inputTokens})`;
  if (!Number.isInteger(workload.outputTokens) || workload.outputTokens < 1)
    return `output tokens must be a whole number ≥ 1 (got ${workload.outputTokens})`;
  if (!Number.isInteger(workload.sequences) || workload.sequences < 1)
    return `sequences must be a whole number ≥ 1 (got ${workload.sequences})`;
  if (layout.tensorParallel < 1 || layout.pipelineStages < 1) return "tensor parallel and pipeline stages must be ≥ 1";
  if (!(model.weightsBytes > 0)) return "the artifact's weight bytes are unknown";
  return "";
}

/** The workload's sequences that run at once: all of them, or as many as the KV pool holds. */
export function sequencesRunOf(sequences: number, sequencesTheKvHolds: number | null): number {
  return sequencesTheKvHolds === null ? sequences : Math.min(sequences, Math.max(0, Math.floor(sequencesTheKvHolds)));
}

/**
 * The terms line, written once for each card, engine and terms: every option on one card class says the same
 * line, and a plan writes ~400 speeds (the line was most of their garbage). Keyed by the card's label, each
 * entry holding everything else the line reads (a split over several classes is a new card object each time,
 * option.ts splitCardOf); only the fitted terms,
 * module constants, are kept (an override may be any object), and the whole is cleared past a bound.
 */
interface TermsLine {
  engine: string;
  cpuOnly: boolean;
  kind: string;
  gbps: number | null;
  /** The host's GB/s, which the CPU path's line names. */
  hostGbps: number | null;
  vendorChecked: boolean | null;
  given: SpeedCard["givenInCluster"];
  terms: SpeedTerms;
  line: string;
}
const termsLines = new Map<string, TermsLine[]>();
let termsLineCount = 0;

function termsLineOf(input: SpeedInput, terms: SpeedTerms): string {
  const { card, layout } = input;
  let known = termsLines.get(card.label);
  if (known === undefined) {
    known = [];
    termsLines.set(card.label, known);
  }
  for (const k of known)
    if (
      k.terms === terms &&
      k.engine === layout.engine &&
      k.cpuOnly === layout.cpuOnly &&
      k.kind === card.kind &&
      k.gbps === card.memBandwidthGBps &&
      k.hostGbps === layout.hostBandwidthGBps &&
      k.vendorChecked === card.vendorChecked &&
      k.given === card.givenInCluster
    )
      return k.line;
  if (termsLineCount >= 1024) {
    termsLines.clear();
    termsLineCount = 0;
    known = [];
    termsLines.set(card.label, known);
  }
  const line = termsLine(input, terms);
  known.push({
    engine: layout.engine,
    cpuOnly: layout.cpuOnly,
    kind: card.kind,
    gbps: card.memBandwidthGBps,
    hostGbps: layout.hostBandwidthGBps,
    vendorChecked: card.vendorChecked,
    given: card.givenInCluster,
    terms,
    line,
  });
  termsLineCount++;
  return line;
}

function termsLine(input: SpeedInput, terms: SpeedTerms): string {
  const gbps = input.card.memBandwidthGBps;
  // A split over several classes reads at a weighted mean (option.ts splitCardOf): said whole.
  // The CPU path names the host's bandwidth when the node says it (an unknown one is the assumed note's).
  const host = input.layout.hostBandwidthGBps;
  const bw = input.layout.cpuOnly
    ? host === null
      ? "host RAM"
      : `host RAM, ${host} GB/s`
    : `${gbps !== null && !Number.isInteger(gbps) ? Math.round(gbps) : gbps} GB/s`;
  const fit = terms.fitted ? `fitted on ${terms.fittedOn}` : terms.fittedOn;
  // Said where a card's figures are third parties' reprints: the vendor's own page was not read for them.
  const given = input.card.givenInCluster;
  const read =
    input.card.vendorChecked === false
      ? ", figures not read on the vendor's own page"
      : given
        ? `, figures as the cluster gives them${given.kindAssumed ? ", its memory taken as GDDR (no mem_kind given)" : ""}`
        : "";
  const prefill = input.layout.cpuOnly
    ? `prefill at ${CPU_PREFILL_GFLOPS_PER_CORE} GFLOPS a core`
    : `prefill at ${Math.round(terms.prefillComputeEfficiency * 100)}% of dense TFLOPS`;
  return `${input.layout.engine} on ${input.card.label} (${input.card.kind}, ${bw}${read}): reads at ${Math.round(terms.bandwidthEfficiency * 100)}% of bandwidth + ${terms.stepFixedMs} ms per step, ${prefill} (${fit})`;
}

/**
 * The wires the figures crossed, at the rate they were priced at: the cards' own link for a tensor-parallel group
 * or a pipeline within a node, the fabric for hops, all-reduces or RPC across nodes. Issue 12's speed_basis names
 * "the link"; before, a known one went unsaid (only an assumed default was), so "TP 8 on ib-400g" read the same as
 * TP 1. A wire whose rate is unknown is left to the assumed note that prices it; "" when none is crossed.
 */
function wiresLine({ layout, links }: SpeedInput): string {
  const hops = layout.pipelineStages - 1;
  const rpc = links.rpcCrossings ?? 0;
  const group = layout.expertGroup;
  // Most options cross no wire: nothing to say, nothing built (the basis is made for every option of a plan).
  if (layout.tensorParallel <= 1 && hops <= 0 && rpc <= 0 && !group) return "";
  const crossing = Math.min(hops, links.crossNodeHops);
  const localHops = layout.engine === "llamacpp" ? 0 : hops - crossing;
  const tpOnFabric = links.tensorParallelCrossesNodes;
  const groupOnFabric = group !== undefined && group.ranks > group.ranksPerNode;
  let onLink = "";
  let onFabric = "";
  const add = (line: string, part: string) => (line === "" ? part : `${line} and ${part}`);
  if (layout.tensorParallel > 1) {
    const part = `TP ${layout.tensorParallel} all-reduces`;
    if (tpOnFabric) onFabric = add(onFabric, part);
    // GeForce cards have no peer access: NCCL stages each through the host (speed/links.ts NO_PEER_ALL_REDUCE_US).
    else if (links.peerToPeer === false)
      onLink = add(
        onLink,
        `${part} through the host (the cards have no peer access; ${NO_PEER_ALL_REDUCE_US} µs each)`,
      );
    else onLink = add(onLink, part);
  }
  if (localHops > 0) onLink = add(onLink, `${localHops} pipeline hop${localHops > 1 ? "s" : ""}`);
  if (crossing > 0) onFabric = add(onFabric, `${crossing} pipeline hop${crossing > 1 ? "s" : ""}`);
  if (group) {
    if (groupOnFabric) onFabric = add(onFabric, "the experts' exchange");
    else onLink = add(onLink, "the experts' exchange");
  }
  if (rpc > 0) onFabric = add(onFabric, `${rpc} RPC crossings a token`);
  const link = links.intraNodeGBps;
  const fabric = links.fabricGBps;
  const saidLink =
    onLink !== "" && link !== null ? `${onLink} over the cards' link at ${tenths(link)} GB/s a card` : "";
  const saidFabric =
    onFabric !== "" && fabric !== null ? `${onFabric} over the fabric at ${tenths(fabric)} GB/s a card` : "";
  return saidLink === "" ? saidFabric : saidFabric === "" ? saidLink : `${saidLink}; ${saidFabric}`;
}

/** A rate to a tenth, whole where it is whole (3.125 → 3.1, 450 → 450). */
function tenths(gbps: number): number {
  return Number.isInteger(gbps) ? gbps : Math.round(gbps * 10) / 10;
}

/**
 * decodeTps: one sequence alone at the context it reaches halfway through
 * its answer (inputTokens + outputTokens ÷ 2). tpotMs / throughputTps: the
 * workload's sequences (capped by the KV pool) decoding together, each
 * step also carrying its share of the others' prefills. `termsOverride`
 * replaces the fitted terms (the fit in scripts/speed-accuracy.ts uses it).
 */
export function estimateSpeed(input: SpeedInput, termsOverride?: SpeedTerms): SpeedEstimate {
  const { workload, layout, card } = input;
  const sequencesRun = sequencesRunOf(workload.sequences, workload.sequencesTheKvHolds);
  const problem = inputProblem(input);
  if (problem !== "") return nulls(sequencesRun, `speed not estimated: ${problem}`);
  if (!layout.cpuOnly && (card.memBandwidthGBps === null || !(card.memBandwidthGBps > 0))) {
    // A class the card table lacks (a custom one): its speed is not guessed, and the message says where to give it.
    return nulls(
      sequencesRun,
      `speed not estimated: ${card.label} has no memory bandwidth known (Modelplan's card table does not hold this class, and its speed is not guessed): give the card's GB/s (mem_gbps in the cluster file, the custom card's GB/s field in the panel)`,
    );
  }

  const terms = termsOverride ?? speedTerms(layout.engine, card.kind, card.vendor, input.model.routedExperts === 0);
  const notes: string[] = [termsOverride ? termsLine(input, terms) : termsLineOf(input, terms)];
  const wires = wiresLine(input);
  if (wires !== "") notes.push(wires);
  // Weights in RAM (-ngl below all, --n-cpu-moe, a split's CPU hosts) read at the host's bandwidth: said when known (unknown is flagged as assumed).
  if (!layout.cpuOnly && layout.hostWeightsBytes > 0 && layout.hostBandwidthGBps !== null)
    notes.push(
      `${(layout.hostWeightsBytes / 2 ** 30).toFixed(1)} GiB of weights in host RAM, read at ${layout.hostBandwidthGBps} GB/s after the cards' layers`,
    );
  const decodeContext = workload.inputTokens + workload.outputTokens / 2;

  const alone = decodeStepMs(input, terms, 1, decodeContext, true);
  const decodeTps = 1000 / alone.ms;

  const prefill = prefillMs(input, terms, workload.inputTokens);
  const prefillTps = prefill.ms === null ? null : (workload.inputTokens * 1000) / prefill.ms;
  const ttftMs =
    prefill.ms === null
      ? null
      : terms.requestOverheadMs + prefill.ms + decodeStepMs(input, terms, 1, workload.inputTokens, true).ms;
  if (prefill.ms === null)
    notes.push(
      `prefill: ${card.label} has no dense TFLOPS known: give its BF16 TFLOPS (bf16_tflops in the cluster file, the custom card's TFLOPS field in the panel)`,
    );

  let tpotMs: number | null = null;
  let throughputTps: number | null = null;
  if (sequencesRun < 1) {
    notes.push("tpot/throughput: the KV pool holds no whole sequence of input + output tokens");
  } else if (sequencesRun > 1 && prefill.ms === null) {
    notes.push("tpot/throughput: several sequences need the card's compute, which is not known");
  } else {
    // vLLM/SGLang pipelines keep one batch in flight per stage (vLLM's `max_concurrent_batches`: "PP
    // requires PP-size concurrent batches to fill the pipeline"; SGLang's PP micro-batches): the
    // sequences split into min(N, stages) micro-batches, and one round, every micro-batch a token, takes
    // a whole-model step of one micro-batch (each stage is busy for its share of every one). Fewer
    // sequences than stages leave stages idle: the bubble. llama.cpp's layer split runs one batch.
    const microBatches = layout.engine === "llamacpp" ? 1 : Math.min(sequencesRun, layout.pipelineStages);
    const perMicroBatch = Math.ceil(sequencesRun / microBatches);
    // One sequence a micro-batch is the step the sequence alone took.
    const step =
      perMicroBatch === 1 && !layout.expertGroup ? alone : decodeStepMs(input, terms, perMicroBatch, decodeContext);
    const interferenceMs =
      sequencesRun > 1 && prefill.ms !== null
        ? (terms.prefillInterference * (sequencesRun - 1) * prefill.ms) / workload.outputTokens
        : 0;
    tpotMs = step.ms + interferenceMs;
    const ownPrefillMs = prefill.ms ?? 0;
    throughputTps = (sequencesRun * workload.outputTokens * 1000) / (workload.outputTokens * tpotMs + ownPrefillMs);
    notes.push(
      microBatches > 1
        ? `${sequencesRun} at once in ${microBatches} pipeline micro-batches: ${step.bound}-bound step`
        : `${sequencesRun} at once: ${step.bound}-bound step`,
    );
    for (const a of step.assumed) if (!notes.includes(a)) notes.push(a);
  }
  if (sequencesRun < workload.sequences)
    notes.push(`capped at ${sequencesRun} of ${workload.sequences} sequences by the KV pool`);
  for (const a of alone.assumed) if (!notes.includes(a)) notes.push(a);
  for (const a of prefill.assumed) if (!notes.includes(a)) notes.push(a);
  if (input.links.tensorParallelCrossesNodes && layout.tensorParallel > 1)
    notes.push(
      `TP across nodes: each all-reduce is NCCL's over the fabric at ${terms.crossNodeAllReduceUs ?? CROSS_NODE_ALL_REDUCE_US} µs, fitted on one measured run (SGLang DeepSeek-R1 on 2 × 8 H100, tenstorrent/tt-inference-server#356)`,
    );
  if (layout.engine === "llamacpp" && layout.pipelineStages > 1)
    notes.push(
      `layers split over ${layout.pipelineStages} cards: decode runs them one after another, no faster than one card`,
    );
  return { decodeTps, prefillTps, ttftMs, tpotMs, throughputTps, sequencesRun, basis: notes.join("; ") };
}
