/**
 * What the speed model reads and what it gives back. Self-contained on
 * purpose: src/plan's lint zone forbids `../` imports, so the folder names its
 * own inputs and the caller (src/plan/speedInput.ts) translates a plan's
 * option into them.
 *
 * Units: bytes are bytes; bandwidths are decimal GB/s (1e9 bytes/s, as the
 * vendors print them); compute is dense TFLOPS (1e12 FLOP/s, no 2:4
 * sparsity); times are milliseconds; rates are tokens per second.
 */

/** The engines the planner offers (the same union as src/plan/types.ts's Engine). */
export type SpeedEngine = "vllm" | "sglang" | "llamacpp" | "freetoken";

/**
 * How a card's memory behaves under decode, the key the fitted terms are
 * filed under: "hbm" datacenter cards (H100, MI300X…), "gddr" discrete
 * cards (RTX, L40S, A40…), "unified" SoC memory (Apple M-series, DGX Spark,
 * Strix Halo), "cpu" a host's DDR.
 */
export type CardKind = "hbm" | "gddr" | "unified" | "cpu";

/** Who made the card: kernels differ by vendor (ROCm vs CUDA), so the fitted terms may too. */
export type CardVendor = "nvidia" | "amd" | "apple" | "intel" | "other";

/**
 * The number formats a card's matrix units run, for picking its TFLOPS row.
 * "bf16" is BF16/FP16 with FP32 accumulate (what vendors headline); "fp16"
 * is FP16 with FP16 accumulate, twice as fast on GeForce cards and the same
 * elsewhere (llama.cpp's F16 cuBLAS path runs it); "int8" is what llama.cpp's
 * quantized kernels (MMQ) run on.
 */
export type ComputeFormat = "bf16" | "fp16" | "fp8" | "fp4" | "int8";

/** One card's speed figures, from src/plan/cardSpecs.ts or a user's entry. */
export interface SpeedCard {
  /** Class label, e.g. "h100-80g"; only for the basis line. */
  label: string;
  kind: CardKind;
  vendor: CardVendor;
  /** Memory bandwidth, decimal GB/s; null when unknown (speeds then come back null, never guessed). */
  memBandwidthGBps: number | null;
  /** Dense matrix TFLOPS per format; null where the card has none or none is published. */
  tflops: Record<ComputeFormat, number | null>;
  /**
   * Every figure above was read on the vendor's own page (cardSpecChecks.ts); false: as third parties
   * print them; null: not the card table's (a CPU's host RAM, whose figure the basis names).
   */
  vendorChecked: boolean | null;
  /** Set where the cluster gave the figures (a custom card's, cardSpecs.ts speedCardWith); kindAssumed: it named no memory kind and the table none. */
  givenInCluster?: { kindAssumed: boolean };
}

/** The model as speed sees it: what one decoded token reads and multiplies. */
export interface SpeedModel {
  /** All weight bytes of one replica (dense + every routed expert), as the artifact's files hold them. */
  weightsBytes: number;
  /** Of weightsBytes, the routed experts' share (Artifact.expertBytes); 0 for a dense model. */
  routedExpertBytes: number;
  /** Routed experts per MoE layer (E); 0 for a dense model. */
  routedExperts: number;
  /** Experts each token picks (k); 0 for a dense model. */
  expertsPerToken: number;
  /** Parameters one token multiplies (dense + shared + k routed): FLOPs per token ≈ 2 × this. */
  activeParams: number;
  /** Decoder layers: how many TP all-reduces a step makes (two per layer). */
  layers: number;
  /** Hidden size: the width of the activations an all-reduce or a pipeline hop carries. */
  hiddenSize: number;
  /** KV bytes per token of context over all layers at the KV dtype, whole model (not per card). */
  kvBytesPerToken: number;
  /** Whether tensor parallel splits the KV (heads); false for MLA, whose latent every rank holds whole. */
  kvSplitByTensorParallel: boolean;
  /** Attention FLOPs per token per token of context (QKᵀ and AV over all layers: 4 × layers × heads × headDim). */
  attentionFlopsPerContextToken: number;
  /** Which TFLOPS row the matmuls run at (fp8 for an FP8 checkpoint on a card with FP8, else bf16…). */
  computeFormat: ComputeFormat;
  /** Decoder layers with routed experts: how many dispatch/combine exchanges an expert group makes a pass; absent: none. */
  moeLayers?: number;
}

/**
 * Routed experts spread over the ranks of a data-parallel engine (vLLM --data-parallel-size with a MoE, SGLang
 * --enable-dp-attention): every card holds its share of the experts and runs its own rank's tokens; each MoE
 * layer sends the tokens to the experts' cards and back (expertGroup.ts).
 */
export interface ExpertGroup {
  /** Cards the experts spread over (DP × TP). */
  ranks: number;
  /** Of them, on one node (the rest are over the fabric). */
  ranksPerNode: number;
  /** Data-parallel ranks, each running its own batch. */
  dataParallel: number;
  /** Ranks that have a sequence at the workload (at most dataParallel): a step carries busyRanks × a rank's tokens. */
  busyRanks: number;
  /**
   * How tokens reach the experts: "all-to-all" sends each token to its k experts' cards and back (DeepEP's
   * dispatch and combine); "gather" all-gathers every rank's tokens and reduce-scatters the results
   * (SGLang's DP attention without an a2a backend, vLLM's default all2all over the group).
   */
  exchange: "all-to-all" | "gather";
  /** Weight bytes on one card that every step reads whatever the routing: attention, dense, shared, vocab. */
  cardDenseBytes: number;
  /** Routed-expert bytes on one card (its E ÷ ranks experts of every MoE layer). */
  cardExpertBytes: number;
  /**
   * SGLang DP attention at dp < tp: the cards of one DP rank (attn_tp_size), among which its tokens are scattered
   * before the exchange, so a card sends a 1/attentionTp share of its rank's tokens. Absent: 1.
   */
  attentionTp?: number;
  /**
   * vLLM DP × TP (tensor-parallel-size > 1): the cards one card's all-gather and reduce-scatter span, the DP
   * group's dp ranks (`AgRsAll2AllManager._get_comm_group`: `get_dp_group()`), or under sequence-parallel MoE
   * (expert parallel on) the EP group's dp × tp. Absent: every rank of the group.
   */
  gatherRanks?: number;
  /**
   * vLLM's sequence-parallel MoE (`ParallelConfig.use_sequence_parallel_moe`): the TP cards a DP rank's tokens are
   * chunked over before the exchange (`sequence_parallel_chunk`), so a card sends 1/tp of them. Absent: 1.
   */
  sequenceSplit?: number;
}

/** How the replica is laid out. */
export interface SpeedLayout {
  engine: SpeedEngine;
  /** Cards one tensor-parallel group spans (1 = none). */
  tensorParallel: number;
  /**
   * Pipeline stages run one after the other for each token: vLLM/SGLang
   * --pipeline-parallel-size, or the cards llama.cpp's default layer split
   * spreads the layers over (-sm layer on N cards).
   */
  pipelineStages: number;
  /**
   * The cards a MoE layer's experts are spread over whole (SGLang --ep-size, vLLM's EP group within one DP rank:
   * the TP in the plan's options); 1 = each expert sharded by TP like every other matrix.
   */
  expertParallel: number;
  /** Weight bytes that live in host RAM and are read from there each token (llama.cpp -ngl below all, --n-cpu-moe's experts). */
  hostWeightsBytes: number;
  /** Of hostWeightsBytes, routed-expert bytes: only the experts a step touches are read. */
  hostExpertBytes: number;
  /** Host memory bandwidth, GB/s; null: the stated default of cardSpecs' HOST_MEMORY is used and flagged. */
  hostBandwidthGBps: number | null;
  /** The whole model runs on the CPU (llama.cpp without a GPU, on one host or over RPC): every byte at host bandwidth. */
  cpuOnly: boolean;
  /** A data-parallel engine's experts spread over its ranks; absent: the replica's experts are its own. */
  expertGroup?: ExpertGroup;
  /**
   * Of hostWeightsBytes, the bytes whose layers a CPU computes itself, prompt included (an RPC split's CPU
   * devices); absent or 0 where llama.cpp's op offload runs the RAM-resident layers' prompt matmuls on the card.
   */
  cpuComputedWeightsBytes?: number;
  /** CPU cores that run the host's layers (llama.cpp's threads); absent or null: host.ts DEFAULT_CPU_CORES, flagged. */
  cpuCores?: number | null;
}

/** The wires between the replica's cards. */
export interface SpeedLinks {
  /** One direction of the node's own link per card, GB/s (NVLink 4: 450; PCIe 4.0 x16: 32); null: unknown. */
  intraNodeGBps: number | null;
  /** One direction of the fabric between nodes per card, GB/s (400 Gb/s InfiniBand: 50); null: unknown. */
  fabricGBps: number | null;
  /** Pipeline hops that cross nodes (0 when the replica sits in one node). */
  crossNodeHops: number;
  /** Whether the tensor-parallel group spans nodes (its all-reduces then run over the fabric). */
  tensorParallelCrossesNodes: boolean;
  /** Network crossings a token makes between llama.cpp's RPC hosts (rpc.ts); absent or 0: no RPC. */
  rpcCrossings?: number;
  /** False where the node's cards cannot reach each other's memory (GeForce over PCIe): each all-reduce is NCCL's through the host. */
  peerToPeer?: boolean;
}

/** What is asked of the replica. */
export interface SpeedWorkload {
  /** Prompt tokens of one request (`--input-tokens`). */
  inputTokens: number;
  /** Tokens generated per request (`--output-tokens`). */
  outputTokens: number;
  /** Sequences the user wants running at once (`--sequences`). */
  sequences: number;
  /** Sequences of input + output tokens the KV pool holds at once; null: no cap known. */
  sequencesTheKvHolds: number | null;
}

export interface SpeedInput {
  /** Cards of one pipeline stage / TP group; all of a replica's cards are taken to be this card. */
  card: SpeedCard;
  model: SpeedModel;
  layout: SpeedLayout;
  links: SpeedLinks;
  workload: SpeedWorkload;
}

/** What one option delivers. Null means "cannot be estimated"; `basis` says why. Never 0 for unknown. */
export interface SpeedEstimate {
  /** Tokens/s of one sequence decoding alone (llama-bench tg, vLLM at concurrency 1). */
  decodeTps: number | null;
  /** Prompt tokens/s for one request of inputTokens, alone (llama-bench pp at that length). */
  prefillTps: number | null;
  /** Time to the first token of that request, alone: its prefill plus one decode step. */
  ttftMs: number | null;
  /** Time per output token of each sequence while the workload's sequences run at once (vLLM bench's TPOT). */
  tpotMs: number | null;
  /** Output tokens/s of all those sequences together, for the replica. */
  throughputTps: number | null;
  /** Sequences the figures were computed for: min(sequences, what the KV pool holds). */
  sequencesRun: number;
  /** One line: what the figures rest on, what was assumed, why any is null. */
  basis: string;
}
