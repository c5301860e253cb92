/**
 * The engine's one barrel: everything the Hub reader, the cluster panel, the
 * page, the terminal commands, the calibration views and the tests take from
 * src/plan. Outside code imports the engine from here only (a lint rule holds it).
 */
export type * from "./types.ts";
export type * from "./shapeTypes.ts";
export { CARD_MEMORY_KINDS, ENGINES, KV_DTYPES, RUN_DTYPES, RANK_BYS } from "./types.ts";
export { DEFAULT_PRICES_PER_CARD_HOUR, pricePerCardHour, costPerMillionTokens } from "./prices.ts";
export { withPurchases } from "./buy.ts";

// Planning: enumerate once, evaluate again for every workload (the slider's path).
export { plan, withWorkload, type WithWorkloadOptions } from "./plan.ts";
// A context past the model's own: planned at its limit with one message, or stretched by YaRN when asked.
export { contextFit, workloadPoolTokens, yarnFlagWords, type ContextFit } from "./contextFit.ts";
export { enumerate } from "./enumerate.ts";
export { evaluate, largestFitting } from "./evaluate.ts";
export { fewestFitting } from "./search.ts";
export { tensorParallelProblem, placementLabel, offloadWords, cardsPerReplica, paretoFront } from "./placement.ts";
export { rank, rankInOrder, compareOptions, quality, QUALITY_CAP_BITS, CPU_QUALITY_CAP_BITS } from "./rank.ts";
export { shortfallOf, type Shortfall } from "./shortfall.ts";
export { settingDefaultsOf, shareDefaultOf } from "./settingDefaults.ts";
export type { Layout, Part } from "./layout.ts";
export { cardLoad, type CardLoadParts } from "./cardLoad.ts";

// The engines, and their settings.
export {
  ENGINE_MODELS,
  ENGINE_ORDER,
  engineModel,
  engineDefaults,
  kvDtypeAllowed,
  kvElementBytes,
  commandsFor,
  pastModelContext,
  type EngineModel,
  type SettingDefault,
} from "./engines/index.ts";
export {
  DEFAULT_WORKLOAD,
  DEFAULT_INPUT_TOKENS,
  DEFAULT_OUTPUT_TOKENS,
  MAX_REQUEST_TOKENS,
  requestTokensOf,
  resolveSettings,
  type ResolvedSettings,
} from "./settings.ts";
export { clusterLinks, fabricGbpsOfLabel, type ClusterLinks } from "./links.ts";
export { vllmUtilizationDefaults } from "./engines/vllm/settings.ts";
export {
  VLLM_PROFILES,
  VLLM_VERSION_FORMS,
  assumedVllmRelease,
  vllmProfileFor,
  vllmReleaseFor,
  vllmReleaseChoices,
  vllmReleaseChoiceOf,
  type VllmMemoryProfile,
  type VllmRelease,
} from "./engines/vllm/releases.ts";
export {
  vllmActivationBytes,
  vllmCapturedGraphs,
  vllmGraphEstimateBytes,
  vllmNonTorchBytes,
  vllmOutsideBudgetBytes,
  vllmOutsideFloorBytes,
  VLLM_MOE_GRAPH_BYTES_PER_LAYER_EXPERT_PICK,
} from "./engines/vllm/memory.ts";
export {
  vllmMxfp4HopperExpertGrowthBytes,
  vllmMxfp4MarlinExpertGrowthBytes,
  vllmMxfp4MarlinGrowthBytes,
} from "./engines/vllm/mxfp4.ts";
export {
  vllmBlockTokens,
  vllmCachedGeometry,
  vllmCapacity,
  vllmSequenceBytes,
  VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT,
} from "./engines/vllm/kv.ts";
export { vllmDsv4SequenceBytes } from "./engines/vllm/dsv4.ts";
export { sglangCapacity, sglangStateSlotsPerRequest } from "./engines/sglang/kv.ts";
export { sglangMemFraction, sglangPiecewiseGraphSizes } from "./engines/sglang/settings.ts";
export { llamacppCacheBytes } from "./engines/llamacpp/kv.ts";
export { llamacppComputeBytes, LLAMACPP_CUDA_UNACCOUNTED_BYTES } from "./engines/llamacpp/memory.ts";
export { layerSplitParts } from "./engines/llamacpp/parts.ts";
export {
  freetokenDsv4Args,
  freetokenDsv4CachePerPage,
  freetokenDsv4KvUnitBytes,
  freetokenDsv4Reserve,
} from "./engines/freetoken/dsv4.ts";

// The model: config.json or a GGUF header to a shape; a snapshot to artifacts.
export { readModel } from "./model.ts";
export { shapeFromConfig, kvCacheLabel } from "./config/shape.ts";
export { ModelError } from "./config/fields.ts";
export { shapeFromGguf } from "./config/gguf.ts";
export { ggmlTypeBytes } from "./config/ggml.ts";
export {
  artifactsOf,
  artifactTotalBytes,
  ggufSets,
  isProjector,
  needsPytorchIndex,
  pytorchWeightFiles,
  PYTORCH_INDEX,
} from "./artifacts.ts";
export { ggufQuantOf, quantFromName, nominalBitsOf, bitsOf } from "./quant.ts";
export { computeDtypeBytes } from "./dtype.ts";
export { servingParts, weightParts } from "./weights.ts";

// The cache and the cards.
export { kvGeometry, kvHeadsPerCard, type KvGeometry } from "./kv.ts";
export { kvBytesPerToken, geometryBytesPerToken } from "./kvPerToken.ts";
export {
  CARDS,
  DRIVER_RESERVED_BYTES,
  cardOf,
  cardMemoryBytes,
  cudaTotalBytes,
  isMigClass,
  largestCardBytes,
  CUDA_CONTEXT_BYTES,
  type Card,
  type MigProfile,
} from "./cards.ts";
export { GIB, MIB } from "./units.ts";

// Commands.
export { splitArgv, shellWord, type CommandContext, type CommandOption } from "./commands.ts";

// Speed: what each way delivers (speed/README.md), and the cards' bandwidth and compute.
export {
  CPU_SPEED_CARD,
  optionSpeed,
  speedInputOf,
  speedModelOf,
  computeFormatOf,
  type SpeedContext,
} from "./speed/option.ts";
export { estimateSpeed } from "./speed/estimate.ts";
export { cardExpertShare, expectedDistinctExperts, expectedMaxBinomial } from "./speed/experts.ts";
export { EXCHANGE_TERMS, expertExchangeMs } from "./speed/expertGroup.ts";
export { deepEpBufferBytes } from "./engines/sglang/deepep.ts";
export { CROSS_NODE_ALL_REDUCE_US, DEFAULT_FABRIC_GBPS, NO_PEER_ALL_REDUCE_US } from "./speed/links.ts";
export { CPU_PREFILL_GFLOPS_PER_CORE, DEFAULT_CPU_CORES, DEFAULT_HOST_GBPS, ddrChannelGBps } from "./speed/host.ts";
export { speedTerms, SPEED_PRIORS, type SpeedTerms, type SpeedTermValues, type FittedKey } from "./speed/terms.ts";
export type {
  SpeedInput,
  SpeedEstimate,
  SpeedEngine,
  SpeedCard,
  SpeedModel,
  CardKind,
  CardVendor,
  ComputeFormat,
} from "./speed/types.ts";
export {
  CARD_SPECS,
  BENCHMARK_GPU_KEYS,
  HOST_MEMORY,
  VENDOR_CHECKED_LABELS,
  cardSpecOf,
  hasPeerAccess,
  speedCardOf,
  type CardSpec,
} from "./cardSpecs.ts";
export {
  cardSpecCheck,
  cardSpecsWithChecks,
  fieldValue,
  isVendorHosted,
  printedAgrees,
  type CardSpecCheck,
} from "./cardSpecChecks.ts";
export { VENDOR_READS, type CheckedField, type PrintedFigure, type VendorRead } from "./cardSpecReads.ts";
export { appleGpuWorkingSetBytes, engineRunsOn, UNIFIED_MEMORY, type UnifiedMemory } from "./unifiedMemory.ts";
export {
  checkTensorSplit,
  llamacppSlotDevices,
  type HandSplit,
  type HandSplitContext,
} from "./engines/llamacpp/handSplit.ts";
export { mtpParamsOf, mtpWeightBytes } from "./config/mtp.ts";
