/**
 * What an option is before a workload is applied (its parts, cards and host share), and what
 * evaluating it gives per card.
 */
import type { KvGeometry } from "./kv.ts";
import type { ClusterLinks } from "./links.ts";
import type { ResolvedSettings } from "./settings.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact, CardLoad, Engine, Placement, Refusal, Workload } from "./types.ts";

/** One kind of card in a replica (or a pipeline stage), fixed across workloads. */
export interface Part {
  gpuClass: string;
  cards: number;
  role: string;
  physicalBytes: number;
  /** Layer-body bytes on this card at the checkpoint's precision (what runtime settings may rescale). */
  bodyBytes: number;
  /** Embedding / lm_head bytes on this card (kept at 16 bits by runtime quantization). */
  embedBytes: number;
  tensorParallel: number;
  pipelineParallel: number;
  /** It runs the sampler / holds the output layer. */
  holdsOutput: boolean;
  kv: KvGeometry;
  /** The routed experts this card holds (vLLM/SGLang parts of a MoE model), for engine-specific layouts. */
  routedExperts?: RoutedExpertsOnCard;
  /**
   * A llama.cpp split's CPU device, not a card: the node whose rpc-server has no accelerator and serves its CPU
   * (tools/rpc/rpc-server.cpp `get_devices`). It holds no CUDA context, its compute buffer is the CPU backend's,
   * its memory the host's RAM.
   */
  cpuNode?: string;
}

/** A card's routed experts: what an engine may lay out otherwise than the checkpoint. */
export interface RoutedExpertsOnCard {
  /** MoE layers whose experts are on this card. */
  moeLayers: number;
  /** Experts per layer on this card (all of them, or ceil(E ÷ ep) under expert parallel). */
  experts: number;
  /** Each expert's FFN width on this card (split by tensor parallel unless expert parallel). */
  intermediatePerCard: number;
}

/** What an option is, fixed by enumeration; `evaluate` adds what the workload decides. */
export interface Layout {
  id: string;
  artifact: Artifact;
  engine: Engine;
  placement: Placement;
  bitsPerWeight: number;
  parts: Part[];
  /** llama.cpp on the CPU or with part of the model in RAM: the host's share. */
  host: HostShare | null;
  hosts: number;
  freeNow: boolean;
  /**
   * The free memory a card of the free nodes has (the least among the nodes a
   * replica would take), or null when the inventory does not say: vLLM's
   * start-up check compares it with utilization × total.
   */
  freeMemBytes?: number | null;
  /** Cards short of what the cluster has, for a placement it cannot host (0 when it can). */
  cardsShort: number;
  /** A placement the cluster could host with more RAM on `nodeId`, or with one fabric for `nodeIds` (evaluate sizes the RAM). */
  lacks?: { kind: "host-ram"; nodeId: string } | { kind: "fabric"; nodeIds: string[] };
  /** Copies of it the cluster holds at once, and on the cards free now (the CPU option's are counted per workload). */
  replicas: number;
  replicasFreeNow: number;
  /** The data-parallel ranks its one engine runs (placement.dataParallel: vLLM --data-parallel-size, SGLang --dp-size); 1 otherwise. */
  dataParallel: number;
}

/** A replica's share in a node's RAM. */
export interface HostShare {
  /** What the planned node offers (RAM × HOST_SHARE), and the node's free RAM. */
  usableBytes: number;
  physicalBytes: number;
  freeBytes: number;
  /** Weights that always stay in RAM (llama.cpp's token embedding, or all on the CPU). */
  fixedBytes: number;
  /** Offload mode: the whole model (CPU), experts of some layers (--n-cpu-moe), whole layers (-ngl), or FreeToken's expert store. */
  mode: "cpu" | "moe" | "layers" | "freetoken";
  /** For "layers" under a --tensor-split (llama.cpp over RPC with the head's CPU): the first layers, fixed, that stay in this RAM. */
  splitCpuLayers?: number;
  /** Every node's RAM share, ascending: counts hosts for the CPU option. */
  nodeUsableBytes: number[];
  nodeFreeBytes: number[];
}

// ---------------------------------------------------------------------------
// Evaluation: what a layout holds for a workload

export interface CardEval {
  load: CardLoad;
  /** Bytes this card can still give the KV pool after weights and engine. */
  poolBytes: number;
  /** KV bytes of one sequence (vLLM/SGLang) or of the whole llama.cpp cache, at the workload. */
  needKvBytes: number;
  outsideOk: boolean;
  /** vLLM: the most any release the plan holds for requests at start-up (util × total), which free memory must cover. */
  requestedBytes?: number;
  /** The same KV need at another context: what the longest-context search asks. */
  kvAt: (contextTokens: number) => number;
  /** The engine's settings on this card, and its KV element's bytes. */
  settings: ResolvedSettings;
  elementBytes: number;
  /**
   * How the need grows once the context is long: `stepBytes` more for every
   * `stepTokens` more (a 16-token vLLM block, 256 llama.cpp cells over the
   * slots, one SGLang token). Lets the longest context be solved, not searched.
   */
  stepTokens: number;
  stepBytes: number;
}

/** The shared facts evaluation needs. */
export interface EvalContext {
  repo: string;
  revision: string;
  modelPath?: string;
  shape: ModelShape;
  /** The cluster's wires, for the speed figures; absent, every wire is unknown and a default is assumed. */
  links?: ClusterLinks;
  /** The options whose commands are made (WithWorkloadOptions.commandsFor); absent, every option's. */
  commandsFor?: ReadonlySet<string>;
}

export function fitsEval(e: CardEval): boolean {
  return e.outsideOk && e.needKvBytes <= e.poolBytes;
}

export function needOf(e: CardEval): number {
  return e.load.weightsBytes + e.load.engineBytes + e.needKvBytes;
}

export interface Enumerated {
  layouts: Layout[];
  refused: Refusal[];
  /** What the fit check worked out for a layout at the plan's workload and context, for evaluate to reuse. */
  evals?: Map<Layout, LayoutEval>;
}

/** What an engine's placements are enumerated against: the cluster's pools, the workload, and the fit check. */
export interface EnumContext extends EvalContext {
  workload: Workload;
  pools: ClassPool[];
  allHostUsable: number[];
  allHostFree: number[];
  /** The node with the most RAM, which the CPU option is sized on (what to buy names it); null when none says its RAM. */
  roomiestHostId: string | null;
  /** Why a layout does not fit at the plan's workload, in words; null when it fits (enumerate.ts). */
  problem: (layout: Layout) => string | null;
  /** The nodes with no cards, by their RAM: llama.cpp's rpc-server serves such a host's CPU (targets.ts). */
  cpuOnlyNodes?: CpuOnlyNode[];
}

/** A node without cards, as an RPC worker sees it: its fabric and RAM. */
export interface CpuOnlyNode {
  id: string;
  fabric: string;
  hostMemBytes: number;
  hostFreeBytes: number;
}

/** A layout evaluated at a context: each part's card, the host where one is used, and for llama.cpp's offload the layers (or experts) in RAM. */
export interface LayoutEval {
  evals: CardEval[];
  host: CardEval | null;
  cpuLayers: number;
}

export interface PoolNode {
  id: string;
  fabric: string;
  count: number;
  free: number;
  /** How many replicas the node's devices of this class hold at once: its MIG instances (each runs one replica alone), else 1 per card. */
  instances: number;
  instancesFree: number;
  /** Free memory per free device, when the inventory says. */
  freeMemBytes: number | null;
  hostMemBytes: number;
  hostFreeBytes: number;
}

export interface ClassPool {
  gpuClass: string;
  memoryBytes: number | null;
  computeCapability: number;
  mig: boolean;
  maxPerNode: number;
  /** Nodes by fabric; a replica spans nodes only within one. */
  fabrics: Map<string, PoolNode[]>;
  /** singleNodeHosts by width: the same for every artifact and engine, asked for each. */
  hostsByWidth: Map<number, SingleNodeHosts>;
}

export interface SingleNodeHosts {
  hosts: number;
  freeNow: boolean;
  /** Copies of a replica of this width the class's nodes hold at once, and on their free cards now. */
  replicas: number;
  replicasFreeNow: number;
  freeMemBytes: number | null;
  /** The node a replica would take (shared: never modified). */
  nodeIds: string[];
}

/** A fabric's nodes in the order a replica takes them, and what the free ones offer: worked out once per fabric, not per node count. */
export interface FabricOrder {
  able: PoolNode[];
  freeCount: number;
  /** Ids, free nodes first (the most free memory first), then busy ones. */
  ids: string[];
  /** Free memory of the free nodes, most first; null when the inventory does not say for all of them. */
  freeMem: number[] | null;
}
