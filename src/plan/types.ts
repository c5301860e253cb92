/**
 * The engine's boundary: what goes in (a repository snapshot, a cluster, the
 * user's serving settings) and what comes out (options, refusals). Every other
 * part of Modelplan — the Hub reader, the cluster importers, the page and the
 * terminal commands — speaks these types, so they change by adding fields,
 * never by renaming them.
 *
 * Units: `Bytes` are bytes; `Gib` are GiB = 2^30 bytes, everywhere.
 */
import type { LlamaGraphDims } from "./engines/llamacpp/graphTypes.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { SpeedEstimate } from "./speed/types.ts";

// ---------------------------------------------------------------------------
// In: a repository, as read from the Hub, a local directory or the catalog.
// ---------------------------------------------------------------------------
/** One file of a repository, with its real size (LFS size for LFS files). */
export interface RepoFile {
  path: string;
  sizeBytes: number;
}

/**
 * A GGUF header value, made JSON-safe: bigints become numbers, and string
 * arrays (the tokenizer's vocabulary) are dropped by the reader, which keeps
 * their length under `<key>.count` instead so the vocabulary size survives.
 */
export type GgufValue = string | number | boolean | number[] | boolean[];

/** One tensor's entry in a GGUF header: its name, shape and ggml type id. */
export interface GgufTensor {
  name: string;
  shape: number[];
  /** ggml_type id (GGMLQuantizationType): 0 F32, 1 F16, 8 Q8_0, 12 Q4_K, … */
  type: number;
}

/** What a GGUF file's header says, read by range request up to its tensor data. */
export interface GgufHeader {
  /** Every key/value pair of the header (general.*, <arch>.*, split.*, tokenizer counts). */
  metadata: Record<string, GgufValue>;
  /** The tensor index; absent when the reader was asked not to keep it. */
  tensors?: GgufTensor[];
  /** Where tensor data starts: the header's length in bytes. */
  tensorDataOffsetBytes: number;
}

/**
 * A repository as the engine takes it: the Hub reader, a local directory
 * reader and the bundled catalog all produce one.
 */
export interface RepoSnapshot {
  /** "owner/name" (or a local directory's name). */
  repo: string;
  /** The commit every file read was pinned to; "" when not from the Hub. */
  sha: string;
  /** config.json as parsed, unresolved (text_config is resolved by the engine); null when the repo has none (GGUF-only repos). */
  config: Record<string, unknown> | null;
  /** Every file in the repository, with its size. */
  files: RepoFile[];
  /** The parameter count the Hub reports (safetensors.total), or null. */
  paramsTotal: number | null;
  /** GGUF headers by the path of the file read: the first part of each artifact. */
  ggufHeaders: Record<string, GgufHeader>;
  /** Extra JSON files the engine reads when present: e.g. hf_quant_config.json. */
  extraJson?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// In: the cluster.

/** Cards of one class on one node. */
export interface DeviceGroup {
  /** A class label such as "h100-80g" or "a100-80g-mig-3g.40gb" (see cards.ts). */
  class: string;
  /** How many the node has (MIG: instances of this profile). */
  count: number;
  /** How many are free now. */
  free: number;
  /** Memory per device, for a class the catalog does not know. */
  memGib?: number;
  /**
   * Memory free now on each free device, when the inventory says (nvidia-smi's
   * total − used); absent means unknown, taken as all free. vLLM refuses to
   * start when a card has less free than utilization × total.
   */
  freeMemGib?: number;
  /**
   * Which devices are free, by the name the inventory gives them: nvidia-smi
   * indices ("0", "3"), MIG instance UUIDs ("MIG-…"), Slurm GRES indices.
   * Absent means unknown. A command or manifest that pins these
   * (CUDA_VISIBLE_DEVICES, Compose device_ids) does not land on a busy card.
   */
  freeIndices?: string[];
  /**
   * GPU Feature Discovery's `nvidia.com/gpu.product` label of these cards
   * ("NVIDIA-H100-80GB-HBM3"), when the node was read from kubectl: a
   * Kubernetes nodeSelector can repeat it. Absent when not known.
   */
  gpuProduct?: string;
  /**
   * The Slurm GRES type of these cards ("a100", "1g.23gb"; "" for an untyped
   * `gpu:N`), when the node was read from Slurm: sbatch asks `--gres=gpu:<type>:N`
   * by it. Absent: not imported from Slurm.
   */
  gresType?: string;
  /**
   * The speed figures the user gives for these cards, which replace the card table's (speed/option.ts): a
   * custom class has none in the table, so without them its speed is null, never guessed. Memory bandwidth,
   * decimal GB/s, as vendors print it.
   */
  memGBps?: number;
  /** Dense BF16 TFLOPS (no 2:4 sparsity): what a prompt multiplies at. Without it prefill and TTFT stay null. */
  bf16Tflops?: number;
  /** How the card's memory behaves (the key the fitted terms are filed under); absent for a custom class: taken as GDDR, and said. */
  memKind?: CardMemoryKind;
}

/** A card's memory as the speed model files its fitted terms (speed/types.ts CardKind, the host's "cpu" aside). */
export const CARD_MEMORY_KINDS = ["hbm", "gddr", "unified"] as const;
export type CardMemoryKind = (typeof CARD_MEMORY_KINDS)[number];

/** One node of the cluster. */
export interface ClusterNode {
  id: string;
  /** The interconnect its multi-node replicas use ("ib0", "roce"); "" when unknown or none. */
  fabric: string;
  /** Host RAM, total and free now. */
  hostMemGib: number;
  hostFreeGib: number;
  /** Devices by class; empty for a CPU-only node. */
  devices: DeviceGroup[];
  /**
   * The fabric's line rate per card in Gbit/s (a DGX H100's ConnectX-7 is 400), when the inventory
   * or the user says; absent, a fabric label such as "ib-400g" says it, else the speed model assumes a default.
   */
  fabricGbps?: number;
  /** Host memory bandwidth in GB/s (channels × transfer rate × 8 B), when known: CPU decode and experts in RAM run at it. */
  hostMemGBps?: number;
  /** CPU cores llama.cpp's threads run on, when known: a prompt on the CPU multiplies at them (speed/host.ts). */
  cpuCores?: number;
}

export interface Cluster {
  nodes: ClusterNode[];
}

// ---------------------------------------------------------------------------
// In: how the user will serve.

/** The engines Modelplan plans for: the one list the type, the link's schema, the page's filter and the terminal derive from. */
export const ENGINES = ["vllm", "sglang", "llamacpp", "freetoken"] as const;

export type Engine = (typeof ENGINES)[number];

/** KV cache element type: "auto" is the model's dtype. fp8 for vLLM/SGLang; f16/q8_0/q4_0 for llama.cpp. */
export const KV_DTYPES = ["auto", "fp8", "f16", "q8_0", "q4_0"] as const;

export type KvDtype = (typeof KV_DTYPES)[number];

/** vLLM/SGLang --dtype: "auto" is the checkpoint's (16 bits for an fp32 one). */
export const RUN_DTYPES = ["auto", "bfloat16", "float16", "float32"] as const;

/**
 * Settings that change what an engine allocates, with the engines' own
 * names. Every field is optional: absent means the engine's default (see
 * settings.ts for each default and its source).
 */
export interface EngineSettings {
  /**
   * vLLM/SGLang: speculative decoding with the checkpoint's own multi-token-prediction block, this many
   * tokens ahead (vLLM --speculative-config '{"method":"mtp","num_speculative_tokens":N}'). Absent or 0: off,
   * and the checkpoint's mtp.* weights are not loaded.
   */
  speculativeMtpTokens?: number;
  /** vLLM --gpu-memory-utilization: a fraction of the card's TOTAL memory. */
  gpuMemoryUtilization?: number;
  /** vLLM --max-num-seqs. */
  maxNumSeqs?: number;
  /** vLLM --max-num-batched-tokens: drives the activation peak and sliding-window layers' cache. */
  maxNumBatchedTokens?: number;
  /** vLLM --dtype override of the weights' dtype. */
  dtype?: (typeof RUN_DTYPES)[number];
  /** vLLM runtime --quantization (weights quantized at load). */
  quantization?: "fp8";
  /** vLLM --enforce-eager: no CUDA graphs. */
  enforceEager?: boolean;
  /** SGLang --mem-fraction-static. */
  memFractionStatic?: number;
  /** llama.cpp -ub / -b / --parallel. */
  ubatch?: number;
  batch?: number;
  parallel?: number;
  /**
   * llama.cpp -fa/--flash-attn. "auto" (llama.cpp's default) turns it on where the backend has the
   * kernel, which CUDA, Metal, Vulkan and the CPU do; "off" builds the attention as KQ matrices,
   * whose compute buffer grows with n_kv × n_ubatch × heads.
   */
  flashAttn?: "on" | "off" | "auto";
  /**
   * llama.cpp --kv-unified (-kvu): the slots share one pool of context × slots cells instead of a cache
   * each. N sequences of the context each still fit; one may run longer while others are short (up to
   * the pool, capped at the model's trained context); sliding windows are one shared window × slots +
   * ubatch, and the attention's mask (and KQ with flash attention off) spans the whole pool. Absent:
   * off, llama-server's default when --parallel is given (llama.cpp v0.4.0 common/common.h:573).
   */
  kvUnified?: boolean;
  /**
   * vLLM's VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE: whether a model
   * with chunked local attention (Llama-4) keeps the hybrid KV cache manager
   * (chunk layers hold chunk + batch tokens) or has it turned off (every layer
   * holds the whole context). Absent: the default of the vLLM the plan models (settings.ts).
   */
  vllmChunkedLocalHybridKv?: boolean;
  /**
   * The vLLM release to plan for, as `vllm --version` prints it ("0.15",
   * "0.10.1.1"): releases differ in what their profile run holds inside the
   * budget (memory.ts VLLM_PROFILES). Absent: each option is planned for 0.17–0.20 and for 0.21+, and the smaller pool kept.
   */
  vllmVersion?: string;
  /** A measured engine overhead per card (from a pasted startup log), replacing the modelled one. */
  measuredOverheadGib?: Partial<Record<Engine, number>>;
  /**
   * Stretch the model's positions with YaRN when the context is past its own (contextFit.ts): vLLM
   * --hf-overrides / SGLang --json-model-override-args rope_scaling, llama.cpp --rope-scaling yarn.
   * Absent: a context past the model's is planned at its limit, and the message says how to lift it.
   */
  ropeScaling?: "yarn";
}

/** What the user asks the plan to hold. */
export interface Workload {
  /** Tokens of one sequence: vLLM --max-model-len, llama.cpp --ctx-size per slot. */
  contextTokens: number;
  /** Sequences served at once; the token pool is contextTokens × sequences. */
  sequences: number;
  kvDtype: KvDtype;
  settings: EngineSettings;
  /** Prompt tokens of one request, for prefill and time to first token (default 1,024). */
  inputTokens?: number;
  /** Tokens each request generates, for throughput (default 256). */
  outputTokens?: number;
  /** What the options are ranked by (default fewest-cards, the seed's order). */
  rankBy?: RankBy;
  /** Dollars per card-hour by card class, over the defaults (prices.ts): what cost_per_mtok is figured from. */
  pricesPerCardHour?: Record<string, number>;
}

/** The orders a user can rank options by. */
export const RANK_BYS = ["fewest-cards", "throughput", "latency", "context", "quality", "cost"] as const;

export type RankBy = (typeof RANK_BYS)[number];

/** One change to the cluster that would make an option fit, or meet the workload. */
export interface PurchaseChange {
  /** In words: "+8 h100-80g: 2 nodes × 8 on ib0", "+8 h100-80g for 16 replicas of this layout (the cluster holds 8), …". */
  change: string;
  cardsAdded: number;
  /** The card class the change adds; "" when it adds none (a wider layout of the cards there are). */
  gpuClass: string;
}

/**
 * What an option lacks that is not a card, for what to buy to name: more RAM on the node for what
 * llama.cpp keeps there (`--n-cpu-moe`, `-ngl`), or one fabric named for nodes a pipeline would span.
 * `moreGib`: the physical RAM to add at the plan's workload, whole GiB rounded up (a tenth short still fails to load).
 */
export type ClusterLack = { kind: "host-ram"; nodeId: string; moreGib: number } | { kind: "fabric"; nodeIds: string[] };

// ---------------------------------------------------------------------------
// Out: options and refusals.

/** What one card of a replica holds, in bytes, against what it can hold. */
export interface CardLoad {
  /** The class label, e.g. "h100-80g". */
  gpuClass: string;
  /** A llama.cpp split's CPU device on this node (an rpc-server with no cards), not a card: its memory is the host's RAM. */
  cpuNode?: string;
  /** How many cards of the replica carry this load (e.g. 8, or 1 for a PP stage). */
  cards: number;
  /** Which role: "" for all alike, or e.g. "stage 1" for a pipeline stage. */
  role: string;
  weightsBytes: number;
  /** The multi-token-prediction weights among weightsBytes (speculative decoding on): the bar's own band. */
  mtpWeightsBytes?: number;
  /** weightsBytes less mtpWeightsBytes: the bar's weights band. */
  weightsBesideMtpBytes: number;
  /** The KV cache (and any per-sequence state) this card holds for the chosen workload. */
  kvBytes: number;
  /** The engine's own: CUDA context, activations, graphs, compute buffers. */
  engineBytes: number;
  /** Of engineBytes, the MoE all-to-all library's buffers (DeepEP's NVSHMEM/NVLink buffers under SGLang's deepep backend); absent: none counted. */
  commBufferBytes?: number;
  /** What the engine lets itself use of this card (e.g. utilization × total). */
  usableBytes: number;
  /** What the card really reports. */
  physicalBytes: number;
  /** weightsBytes + kvBytes + engineBytes: what the card holds at the workload. */
  usedBytes: number;
  /** What usedBytes leaves of usableBytes; 0 when the card is over it. */
  leftBytes: number;
  /** How far usedBytes goes past usableBytes; 0 when it fits. */
  overBytes: number;
}

/** Where an option runs: a node's CPU, one node's cards, or several nodes on one fabric. */
export interface Placement {
  cpu: boolean;
  gpuClass: string;
  fabric: string;
  gpusPerNode: number;
  nodes: number;
  tensorParallel: number;
  pipelineParallel: number;
  expertParallel: boolean;
  /**
   * vLLM --data-parallel-size / SGLang --dp-size: engine ranks of `tensorParallel` cards each on
   * the node, served as one endpoint (gpusPerNode = ranks × TP). Absent: 1.
   */
  dataParallel?: number;
  /**
   * SGLang --enable-dp-attention: the `dataParallel` ranks are one TP group of dataParallel × tensorParallel
   * cards whose attention runs data-parallel (each rank its own attention weights and KV pool) while the MoE
   * layers are sharded over the whole group (engines/serving/dpAttention.ts). Absent: false.
   */
  dpAttention?: boolean;
  /** llama.cpp: layers whose MoE experts stay in host RAM (--n-cpu-moe). */
  cpuMoeLayers: number;
  /** llama.cpp: layers on the cards (-ngl); -1 for all. */
  gpuLayers: number;
  /**
   * llama.cpp --tensor-split: the slots (decoder layers, the output layer
   * counted as one more on the last) each device takes, in llama.cpp's device
   * order (RPC devices in --rpc order, then the head's own). Absent: an even
   * split over one class's cards.
   */
  tensorSplit?: number[];
  /**
   * llama.cpp over RPC: how many of `nodes` are hosts without cards whose rpc-server lends its CPU
   * and RAM (never the head). Absent: none.
   */
  cpuHosts?: number;
  /**
   * The cluster's ids of the nodes one replica would run on, head first: nodes
   * with the cards free before busy ones, all on one fabric. Fewer than
   * `nodes` when the cluster lacks some (`moreCardsNeeded`); empty for the
   * CPU option (any node with the RAM), absent in options built elsewhere. Ids, not
   * addresses: commands name nodes by them and keep placeholders for IPs.
   */
  nodeIds?: string[];
}

export interface Artifact {
  /** The file, or the split set's name; "original" for the repo's own safetensors, "original .bin" for its pytorch_model*.bin. */
  name: string;
  /** "pytorch": a repo's pytorch_model*.bin where it has no safetensors; vLLM and SGLang load it, llama.cpp does not. */
  format: "gguf" | "safetensors" | "pytorch";
  /** Every file it is made of (first part first). */
  files: string[];
  /** Sum of its files' sizes. */
  bytes: number;
  /** A picture model's projector (mmproj), loaded with it. */
  projectorBytes: number;
  /** "Q4_K_M", "bf16", "fp8", "awq", "mxfp4", "nvfp4", … */
  quant: string;
  /** File bits ÷ parameters; without a parameter count the quant's nominal bits (quant.ts nominalBitsOf), 0 when that is unknown too. */
  bitsPerWeight: number;
  /**
   * Bytes of the routed experts' weights within `bytes` (0 for a dense model):
   * what expert parallel spreads whole over the cards, and what llama.cpp's
   * --n-cpu-moe leaves in host RAM.
   */
  expertBytes: number;
  /** A GGUF's weights llama.cpp's CPU build repacks into a second copy (engines/llamacpp/repack.ts); absent without a tensor index. */
  cpuRepack?: CpuRepack;
  /** The dimensions of the GGUF's llama.cpp graph where the plan places it tensor by tensor (engines/llamacpp/graphDims.ts). */
  llamaGraph?: LlamaGraphDims;
}

/** What llama.cpp's CPU repack adds to host RAM (engines/llamacpp/repack.ts): the copies, and the repacked bytes the mapping lets go. */
export interface CpuRepack {
  copyBytes: number;
  unmappedBytes: number;
}

/**
 * One way to run one artifact. The engine makes every option with the same fields in the same order, the
 * optional ones present and undefined where they say nothing (evaluate.ts): one shape, so the slider's ~400
 * options a move share V8's hidden class (−5% a move, measured), where each late-added field made another.
 */
export interface PlanOption {
  /** Stable across context changes: used to keep a selection and in links. */
  id: string;
  artifact: string;
  format: Artifact["format"];
  engine: Engine;
  placement: Placement;
  bitsPerWeight: number;
  /** Per-card loads: one entry per kind of card (or pipeline stage). */
  cards: CardLoad[];
  /** The worst card: what it needs and what it offers (GiB), or on the CPU the whole replica in RAM. */
  needBytes: number;
  haveBytes: number;
  /**
   * Which entry of `cards` is that worst card. Its need is weights + engine +
   * the KV of ONE sequence (vLLM/SGLang's startup check) or of the whole
   * llama.cpp cache; its `kvBytes` is the KV the workload's sequences use,
   * up to the pool.
   */
  worstCardIndex?: number;
  /** Nodes that could host it at all, and whether enough are free now. */
  hosts: number;
  freeNow: boolean;
  /** A single sequence of the chosen context fits (vLLM's startup check). */
  fits: boolean;
  /** Longest context that fits, capped at the model's own. */
  maxContextTokens: number;
  /** Memory left for the KV cache on each (worst) card, and the tokens it holds (a data-parallel engine: all its ranks together). */
  kvPoolBytes: number;
  kvPoolTokens: number;
  /** Sequences of the chosen context that fit at once (a data-parallel engine: over all its ranks). */
  maxConcurrency: number;
  /** Cards short, when it does not fit the cluster as it is (0 when it fits). */
  moreCardsNeeded: number;
  /** What else it lacks to run, when that alone keeps it from fitting: host RAM, or a fabric for its nodes. */
  lacks?: ClusterLack | undefined;
  /** The command(s) that start it, one entry per node/process. */
  commands: string[];
  /** What the option delivers: decode, prefill, time to first token and throughput (speed/README.md); null figures say why in `basis`. */
  speed?: SpeedEstimate;
  /** Every requested sequence of the chosen context fits at once, by the engine's own block accounting (as well as starting). */
  fitsWorkload?: boolean;
  /** Copies of this layout the cluster holds at once, and on the cards free now. */
  replicas?: number;
  replicasFreeNow?: number;
  /** The data-parallel ranks its one engine runs (vLLM --data-parallel-size, SGLang --dp-size); 1 for an engine of one rank. */
  dataParallel?: number;
  /** Dollars per million output tokens at the workload, from the card-hour price; null without a price or a throughput. */
  costPerMtok?: number | null;
  /** The smallest changes to the cluster that would make it fit or meet the workload; empty when it does. */
  whatToBuy?: PurchaseChange[];
  /**
   * What the user must know, in words, that the figures do not say: why an
   * option whose memory holds still does not run (a context past the
   * model's own, which vLLM and SGLang refuse at start-up), or what the
   * engine will do instead (llama.cpp runs past the trained context and
   * llama-server caps its slots). Absent, undefined or empty: nothing to add.
   */
  notes?: string[] | undefined;
  /**
   * Made with the commands (only for the options whose commands are made): the engine's own default for
   * the share of the card it takes, the command form's greyed value. Absent for llama.cpp, which takes none.
   */
  shareDefault?: ShareDefault | undefined;
  /** Made with the commands: by how much the option misses, in words (shortfall.ts), for the command form. */
  shortfall?: Shortfall | undefined;
}

/** The engine's default for its share of an option's card: vLLM's utilization (one release's, or "0.92 or 0.9"), SGLang's static fraction, FreeToken's ratio. */
export interface ShareDefault {
  setting: "gpuMemoryUtilization" | "memFractionStatic";
  value: number | string;
}

/** By how much an option misses (shortfall.ts). */
export interface Shortfall {
  fits: boolean;
  /** GiB more the worst card (or, on the CPU, the host) would need, rounded up to 0.1; 0 when its memory suffices. */
  moreGib: number;
  /** Cards short in the cluster as it is; 0 when there are enough. */
  moreCards: number;
  /** In words, for the form: "fits", "needs 3.2 GiB more a card", … */
  words: string;
}

/** One default as the page's "Engine settings" disclosure shows it. */
export interface SettingDefault {
  /** The engine's own flag. */
  flag: string;
  value: number | string | boolean;
  source: string;
}

/** One entry of the page's vLLM release select: the range's representative release, and the range in words. */
export interface VllmReleaseChoice {
  value: string;
  label: string;
}

/** What an engine takes and defaults to, as the page shows it. */
export interface EngineFacts {
  /** The KV cache dtypes it takes, in KV_DTYPES order. */
  kvDtypes: KvDtype[];
  /** Its defaults on the plan's card, by its own flag names, each with its source (EngineModel.defaults). */
  defaults: Record<string, SettingDefault>;
}

/**
 * The engines' defaults and facts a plan was made with, for the page's Engine settings and command form
 * (settingDefaults.ts): the engine makes them, so the page's thread runs no engine code to show them (issue 19).
 */
export interface SettingDefaults {
  /** The card they are for: the cluster's largest (vLLM's scheduler and SGLang's reserve go by its size). */
  cardMemoryBytes: number;
  engines: Record<Engine, EngineFacts>;
  vllmRelease: {
    /** The release ranges a user can plan vLLM for, newest first. */
    choices: VllmReleaseChoice[];
    /** The choice the settings' release falls in; "" when none is named. */
    chosen: string;
    /** The newest range ("0.29 and later"): what is planned when no release is named. */
    newest: string;
    /** The release planned for, in words (assumedVllmRelease's, without the terminal's advice). */
    assumption: string;
  };
}

/** A configuration considered and turned down, with its reason in words. */
export interface Refusal {
  artifact: string;
  engine: Engine;
  /** Where: "3 × h100-80g", "CPU", "2 nodes × 8 h100-80g on ib0". */
  where: string;
  /** Why, e.g. "tensor parallel 3: 40 attention heads do not divide by 3". */
  reason: string;
  /** A refusal the page acts on, not only shows: "needs-gguf" lists the repo's GGUF quantizations beside it. */
  kind?: "needs-gguf";
}

// ---------------------------------------------------------------------------
// The plan: in and out together (the model's own shape is in shapeTypes.ts).
// ---------------------------------------------------------------------------

/** A model planned on a cluster for a workload: its options best first, and what was turned down. */
export interface Plan {
  repo: string;
  revision: string;
  /** Where the engines load the weights from when not the Hub repo: a local directory's path (PlanInput.modelPath). */
  modelPath?: string;
  shape: ModelShape;
  artifacts: Artifact[];
  cluster: Cluster;
  workload: Workload;
  options: PlanOption[];
  refused: Refusal[];
  /**
   * The only options whose `commands` were made (the page's slider asks for the selected option's alone);
   * every other option's are empty. Absent: every option carries its commands.
   */
  commandsFor?: string[];
  /** The engines' defaults on the cluster's largest card and the settings' vLLM release: the page's Engine settings and command form show these. */
  settingDefaults: SettingDefaults;
}

/** What the engine plans: a model's shape and the artifacts its repository offers. */
export interface PlanInput {
  repo: string;
  revision: string;
  /**
   * A local directory the weights are in (`npm run plan ./dir`): the commands load from it rather than
   * naming `repo`, which for a download directory is only its name and would send the engine to the Hub.
   */
  modelPath?: string;
  shape: ModelShape;
  artifacts: Artifact[];
}
