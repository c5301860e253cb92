/**
 * Time on the wires: tensor-parallel all-reduces and pipeline hops. Both
 * carry activations (tokens × hidden × 2 bytes in bf16), not weights, so
 * they are small per token but paid many times: two all-reduces per layer
 * (after attention and after the MLP, Megatron-style TP as vLLM and SGLang
 * run it), one hop per stage boundary.
 */
import type { SpeedLinks } from "./types.ts";

/** Bytes of one activation element on the wire: engines all-reduce in bf16. */
const ACTIVATION_BYTES = 2;

/**
 * When the fabric's speed is unknown: 25 GB/s per card one way, a 200 Gb/s
 * NIC per card (ConnectX-6/7 class, RoCE or InfiniBand HDR). Flagged in the
 * basis whenever it is used.
 */
export const DEFAULT_FABRIC_GBPS = 25;

/** When a node's own link is unknown: PCIe 4.0 x16, 32 GB/s one way (PCI-SIG: 16 GT/s × 16 lanes, 128b/130b). */
export const DEFAULT_INTRA_NODE_GBPS = 32;

/**
 * One all-reduce when tensor parallel spans nodes, µs, in place of the fitted terms' `allReduceLatencyUs`: vLLM's
 * and SGLang's custom all-reduce runs within one node only ("Custom allreduce is disabled because this process group
 * spans across nodes", vLLM custom_all_reduce.py; SGLang's logs print the same), so across nodes each one is NCCL's,
 * over the fabric. Fitted apart (test/plan/crossNodeSpeed.test.ts, `fitCrossNodeLatencyUs`) on the one measured TPOT
 * of TP across nodes the corpora hold: SGLang DeepSeek-R1-0528 FP8 on 16 H100 over InfiniBand, one request, 23.1 ms
 * (tenstorrent/tt-inference-server#356), where the TP-fitted terms alone put 5.5 ms. It carries whatever else a
 * step across nodes costs; checked only on the same table's other lengths (no second source was found).
 */
export const CROSS_NODE_ALL_REDUCE_US = 155;

/**
 * One all-reduce between cards of one node that have no peer access, µs, in place of the fitted terms'
 * `allReduceLatencyUs`: NVIDIA's GeForce driver gives its cards no peer-to-peer over PCIe ("peer access is not
 * supported between these two devices" on 8 × RTX 4090, sgl-project/sglang#4814), so vLLM's and SGLang's custom
 * all-reduce is off (vLLM: "Custom allreduce is disabled because your platform lacks GPU P2P capability") and each
 * one is NCCL's, staged through host memory. Fitted apart (test/plan/noPeerSpeed.test.ts, `fitNoPeerLatencyUs`) on
 * half of the vLLM TP 2–8 rows over RTX 4090s (IOG-Foundation/llm-inference-benchmarks), the other half checking.
 */
export const NO_PEER_ALL_REDUCE_US = 70;

export interface WireTerms {
  /** Fixed cost of one all-reduce (launch + synchronisation), µs. */
  allReduceLatencyUs: number;
  /** The same when tensor parallel spans nodes; absent, CROSS_NODE_ALL_REDUCE_US (fitted apart; the fit varies it). */
  crossNodeAllReduceUs?: number;
  /** The same between cards without peer access; absent, NO_PEER_ALL_REDUCE_US (fitted apart; the fit varies it). */
  noPeerAllReduceUs?: number;
  /** Fixed cost of one pipeline hop (send, receive, the next stage's launch), ms. */
  hopMs: number;
}

export interface WireTime {
  ms: number;
  /** The default a figure assumed, for the basis; "" when none was. */
  assumed: string;
}

/** No wire crossed: one shared answer, not an object a step (every option's speed asks of each wire). */
export const NO_WIRE: Readonly<WireTime> = Object.freeze({ ms: 0, assumed: "" });

/** Two assumptions in one phrase, the empty left out (as filtering and joining them, without the arrays). */
export function bothSaid(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a}; ${b}`;
}

/** `said` added to a step's assumptions unless it is empty. */
export function addSaid(assumed: string[], said: string): void {
  if (said !== "") assumed.push(said);
}

export function linkGBps(links: SpeedLinks, crossesNodes: boolean): { gbps: number; assumed: string } {
  if (crossesNodes) {
    return links.fabricGBps === null
      ? { gbps: DEFAULT_FABRIC_GBPS, assumed: `fabric speed unknown: ${DEFAULT_FABRIC_GBPS} GB/s per card assumed` }
      : { gbps: links.fabricGBps, assumed: "" };
  }
  return links.intraNodeGBps === null
    ? {
        gbps: DEFAULT_INTRA_NODE_GBPS,
        assumed: `card link unknown: PCIe 4.0 x16 (${DEFAULT_INTRA_NODE_GBPS} GB/s) assumed`,
      }
    : { gbps: links.intraNodeGBps, assumed: "" };
}

/**
 * The all-reduces of one forward pass over `tokens` tokens: 2 × layers of
 * them, each a ring all-reduce moving 2(tp − 1)/tp of the message per card.
 */
export function allReduceMs(
  tensorParallel: number,
  layers: number,
  hiddenSize: number,
  tokens: number,
  links: SpeedLinks,
  terms: WireTerms,
): WireTime {
  if (tensorParallel <= 1) return NO_WIRE;
  const { gbps: linkRate, assumed } = linkGBps(links, links.tensorParallelCrossesNodes);
  // Staged through the host, each byte crosses PCIe twice (card to host, host to card): half the link's rate.
  const noPeer = links.peerToPeer === false && !links.tensorParallelCrossesNodes;
  const gbps = noPeer ? linkRate / 2 : linkRate;
  const messageBytes = tokens * hiddenSize * ACTIVATION_BYTES;
  const latencyUs = links.tensorParallelCrossesNodes
    ? (terms.crossNodeAllReduceUs ?? CROSS_NODE_ALL_REDUCE_US)
    : noPeer
      ? Math.max(terms.allReduceLatencyUs, terms.noPeerAllReduceUs ?? NO_PEER_ALL_REDUCE_US)
      : terms.allReduceLatencyUs;
  const perReduceMs = latencyUs / 1000 + (((2 * (tensorParallel - 1)) / tensorParallel) * messageBytes) / (gbps * 1e6);
  return { ms: 2 * layers * perReduceMs, assumed };
}

/** The hops between `stages` pipeline stages for one pass of `tokens` tokens; the cross-node ones go over the fabric. */
export function pipelineHopsMs(
  stages: number,
  hiddenSize: number,
  tokens: number,
  links: SpeedLinks,
  terms: WireTerms,
): WireTime {
  const hops = Math.max(0, stages - 1);
  if (hops === 0) return NO_WIRE;
  const bytes = tokens * hiddenSize * ACTIVATION_BYTES;
  const crossing = Math.min(hops, links.crossNodeHops);
  const local = linkGBps(links, false);
  const fabric = crossing > 0 ? linkGBps(links, true) : { gbps: 1, assumed: "" };
  const ms =
    hops * terms.hopMs + (hops - crossing) * (bytes / (local.gbps * 1e6)) + crossing * (bytes / (fabric.gbps * 1e6));
  const assumed = bothSaid(crossing < hops ? local.assumed : "", fabric.assumed);
  return { ms, assumed };
}
