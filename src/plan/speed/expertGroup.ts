/**
 * A data-parallel engine whose routed experts spread over its ranks (vLLM DP × EP, SGLang DP attention): what a
 * card reads a step and what its MoE layers send. Every rank decodes its own batch, but a step is the group's:
 * each MoE layer waits for every rank's tokens, so a card reads its share of the experts that the whole group's
 * tokens touch (dataParallel × batch of them), and its dense weights once.
 *
 * The exchange a MoE layer makes, per card (bf16 activations, hidden H, k experts a token, R cards, r of them
 * on the card's node):
 * - "all-to-all" (DeepEP dispatch and combine): each of the card's B tokens goes to its k experts and comes
 *   back, `B × k × (H + H/128 × 4)` B out in FP8 with its scales (DeepEP's low-latency dispatch message) and
 *   `B × k × 2H` B back in bf16, of which (R − r)/R cross the fabric and (r − 1)/R the node's link.
 * - "gather" (all-gather then reduce-scatter over the group): `2 × (R − 1) × B × 2H` B, over the fabric once
 *   the group spans nodes (a ring is as slow as its slowest hop). vLLM's default `--all2all-backend`,
 *   allgather_reducescatter (vllm/config/parallel.py @ 00193b82), gathers over the DP group, not all DP × TP
 *   cards (device_communicators/all2all.py @ 00143004 `AgRsAll2AllManager`: `get_dp_group()` unless sequence
 *   parallel, then `get_ep_group()`); with expert parallel at TP > 1 it is sequence-parallel
 *   (`use_sequence_parallel_moe`: each TP card chunks its rank's tokens, `sequence_parallel_chunk`, and gathers
 *   over the EP group), so a card moves `2 × (R − 1) × B ÷ tp × 2H` (R = dp × tp), and without it
 *   `2 × (dp − 1) × B × 2H`: R and B are the group's gatherRanks and sequenceSplit. The top-k ids and weights
 *   gathered beside the hidden states (8 B an expert a token) are not counted.
 * Each exchange pays a fixed cost and moves its bytes at a share of the line rate (EXCHANGE_TERMS). DeepEP's own
 * figures (deepseek-ai/DeepEP README: 8K tokens, H 7,168, top-8, FP8 dispatch / BF16 combine) reach 90 / 81 GB/s
 * of logical bandwidth over CX7 (50 GB/s a NIC) on EP 8 × 2 and 726 / 740 GB/s over B200's NVLink (900), at
 * prefill's 8K tokens; decode's few tokens a rank reach far less.
 */
import { touchedExpertShare } from "./experts.ts";
import { bothSaid, linkGBps, type WireTime } from "./links.ts";
import type { ExpertGroup, SpeedLinks, SpeedModel } from "./types.ts";

/**
 * The exchange's terms, fitted by test/plan/expertGroupCases.ts (`fitExchange`, a grid over both, loss median + ½
 * mean |log(predicted/measured)| of TPOT) on the fitted half of SGLang's disaggregated decode rows with DP attention
 * and EP in test/fixtures/speed/measured.jsonl (InferenceX, DeepSeek-R1 on GB200/GB300/H200/MI355X, one NVLink or
 * xGMI domain each), checked on the other half (test/plan/expertGroupSpeed.test.ts). They carry whatever else
 * DP attention costs that the TP-fitted terms do not see: padding every rank to the largest batch, uneven experts,
 * the MoE kernels at a rank's batch; no row crosses a fabric, so the fabric's share is the NVLink rows'.
 */
export const EXCHANGE_TERMS = { latencyUs: 35, linkShare: 0.2 };

/**
 * Bytes one card reads in a step of `tokens` tokens a rank: its dense weights, and its experts the group's
 * tokens touch (the busy ranks' together; a sequence `alone` in the engine touches its own k only).
 */
export function expertGroupReadBytes(group: ExpertGroup, model: SpeedModel, tokens: number, alone = false): number {
  const share = touchedExpertShare(
    model.routedExperts,
    model.expertsPerToken,
    alone ? tokens : tokens * group.busyRanks,
  );
  return group.cardDenseBytes + group.cardExpertBytes * share;
}

/**
 * The MoE layers' exchanges for one pass of `tokens` tokens a rank. A prefill chunk's (`bulk`) moves its bytes at
 * the full line rate: DeepEP's 8K-token figures reach 0.8 of NVLink's and, counting the NVLink-forwarded share,
 * more than the NIC's; the fitted share is decode's.
 */
export function expertExchangeMs(
  group: ExpertGroup,
  model: SpeedModel,
  tokens: number,
  links: SpeedLinks,
  terms: { exchangeLatencyUs?: number; exchangeLinkShare?: number },
  bulk = false,
): WireTime {
  const layers = model.moeLayers ?? 0;
  const r = Math.max(1, group.ranks);
  if (layers <= 0 || r <= 1 || tokens <= 0) return { ms: 0, assumed: "" };
  // At attention TP > 1 a DP rank's tokens are split over its cards before the exchange (SGLang's
  // LayerCommunicator scatters them, or its all-gather carries each rank's tokens once): a card's share.
  const perCard = tokens / Math.max(1, group.attentionTp ?? group.sequenceSplit ?? 1);
  const h = model.hiddenSize;
  const spans = r > group.ranksPerNode;
  const share = bulk ? 1 : (terms.exchangeLinkShare ?? EXCHANGE_TERMS.linkShare);
  const latencyUs = terms.exchangeLatencyUs ?? EXCHANGE_TERMS.latencyUs;
  const local = linkGBps(links, false);
  const fabric = spans ? linkGBps(links, true) : { gbps: 1, assumed: "" };
  let wireMs: number;
  if (group.exchange === "all-to-all") {
    const k = Math.max(1, model.expertsPerToken);
    const perToken = k * (h + (h / 128) * 4 + 2 * h);
    const crossBytes = (perCard * perToken * (r - group.ranksPerNode)) / r;
    const nodeBytes = (perCard * perToken * (Math.min(r, group.ranksPerNode) - 1)) / r;
    wireMs = Math.max(nodeBytes / (local.gbps * 1e6), spans ? crossBytes / (fabric.gbps * 1e6) : 0) / share;
  } else {
    const g = Math.max(1, group.gatherRanks ?? r);
    const bytes = 2 * (g - 1) * perCard * 2 * h;
    wireMs = bytes / ((g > group.ranksPerNode ? fabric.gbps : local.gbps) * 1e6) / share;
  }
  const ms = layers * (2 * (latencyUs / 1000) + wireMs);
  return { ms, assumed: bothSaid(local.assumed, fabric.assumed) };
}

/**
 * The layers whose two all-reduces (allReduceMs: attention's and the MLP's) a TP group makes, for one whose MLP
 * side is DP attention's exchange: SGLang's attention-TP group reduces its attention once a layer (LayerCommunicator:
 * a reduce-scatter and an all-gather inside the group), so half the layers' worth.
 */
export function tensorReduceLayers(group: ExpertGroup | undefined, layers: number): number {
  return group?.attentionTp !== undefined ? layers / 2 : layers;
}
