/**
 * Read a pasted engine startup log into the figures the engine measured
 * ("Calibrate from a log"): weights, KV cache and the engine's own
 * overhead per card, the KV tokens and the concurrency, and any failure it
 * printed. What the log does not say is listed in words, never guessed.
 *
 * Lines as the engines print them (each pattern below was checked against the
 * real lines in test/fixtures/calibration/measured.jsonl, copied to
 * test/fixtures/logs/calibration-quotes.json):
 *
 * - vLLM V1 (0.9–0.19): "Model loading took X GiB", "Available KV cache
 *   memory: X GiB", "GPU KV cache size: N tokens", "Maximum concurrency for N
 *   tokens per request: Xx", "Total non KV cache memory: …; torch peak memory
 *   increase: …; non-torch forward increase memory: …; weights memory: …",
 *   "worker init memory snapshot: … free_memory=…, total_memory=…,
 *   non_torch_memory=…", "Graph capturing finished in …, took X GiB".
 * - vLLM V0 (0.4–0.7): "Loading model weights took X GB", "Memory profiling
 *   results: total_gpu_memory=… peak_torch_memory=… non_torch_memory=…
 *   kv_cache_size=… gpu_memory_utilization=…", "# GPU blocks: N, # CPU blocks:
 *   M", and 0.7's "model weights take …; non_torch_memory takes …; PyTorch
 *   activation peak memory takes …; the rest of the memory reserved for KV
 *   Cache is …". V0 says "GB" but means GiB (docs/calibration-sources.md:
 *   Llama-3.1-8B's 16.06e9 bytes print as "14.9888 GB").
 * - Failures: "The model's max seq len (L) is larger than the maximum number of
 *   tokens that can be stored in KV cache (N)", "No available memory for the
 *   cache blocks", V1's "To serve at least one request with the models's max
 *   seq len (L), (X GiB KV cache is needed, which is larger than the available
 *   KV cache memory (Y GiB)", CUDA out of memory.
 * - llama.cpp and ik_llama.cpp: "<dev> buffer size" / "<dev> model buffer size"
 *   (load_tensors), "<dev> KV buffer size", "KV self size = X MiB, K (t): …, V
 *   (t): …" or, since mid-2025, one "llama_kv_cache: size = X MiB (…)" per
 *   cache, "<dev> compute buffer size", "<dev> RS buffer size", "<dev> output
 *   buffer size", "n_ctx = N", "n_ubatch = N", "n_seq_max = N". MiB = 2^20.
 *   Checked also on ggml-org/llama.cpp#8035 and #27680 logs
 *   (test/fixtures/logs/llamacpp-mainline.json).
 * - SGLang: "Load weight end. … avail mem=X GB, mem usage=Y GB", "KV Cache is
 *   allocated. #tokens: N, KV size: X GB" (or "K size: …, V size: …", added:
 *   vllm#21348 and sglang#18039 logs in test/fixtures/logs/sglang-kv.json),
 *   "Memory pool end. avail mem=X GB". SGLang's "GB" divides by 2^30
 *   (docs/calibration-sources.md, checked on Qwen3-235B TP4).
 * - TensorRT-LLM: "Allocate N bytes for k/v cache.", "Using N tokens in paged
 *   KV cache.", "… now: CPU …, GPU N (MiB)".
 *
 * When several workers print the same line (tensor or pipeline parallel), the
 * first one counts: vLLM prints "Available KV cache memory" for stage 0 only,
 * and the calibration records quote the first worker's lines.
 */

/** Engines whose startup logs are read. */
export type LogEngine = "vllm" | "sglang" | "llamacpp" | "tensorrt-llm";

/** One llama.cpp device's buffers, as its log prints them (MiB, summed when printed twice). */
export interface DeviceBuffersMib {
  model: number;
  kv: number;
  compute: number;
  recurrentState: number;
  output: number;
}

/**
 * Every figure read, by name, in the unit its name carries. Absent means the
 * log did not print it.
 */
export interface LogFigures {
  // vLLM V1
  weightsGib?: number;
  kvAvailableGib?: number;
  kvTokens?: number;
  maxConcurrency?: number;
  /** The context the concurrency line is for ("Maximum concurrency for N tokens per request"). */
  concurrencyContextTokens?: number;
  totalNonKvGib?: number;
  torchPeakIncreaseGib?: number;
  nonTorchIncreaseGib?: number;
  gpuTotalGib?: number;
  initFreeGib?: number;
  initNonTorchGib?: number;
  cudaGraphGib?: number;
  /** 0.21+: "Estimated CUDA graph memory: X GiB total", the estimate profiled before the KV cache is sized. */
  cudaGraphEstimateGib?: number;
  /**
   * 0.21+: "The current --gpu-memory-utilization=U is equivalent to --gpu-memory-utilization=V without CUDA
   * graph memory profiling": printed only when the estimate is taken out of the KV budget (the default since
   * 0.21.0; with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 vLLM says "disabled" instead).
   */
  utilizationWithoutGraphEstimate?: number;
  /** 0.21+: "CUDA graph pool memory: X GiB (actual), Y GiB (estimated)", after capture. */
  cudaGraphActualGib?: number;
  /** 0.2x: "Desired GPU memory utilization is (U, X GiB)": util × total, the budget. */
  requestedGib?: number;
  /** ≤ 0.26 and early 0.23 dev: "Actual usage is W GiB for weight, P GiB for peak activation, N GiB for non-torch memory, and C GiB for CUDAGraph memory". */
  usageWeightsGib?: number;
  /** The usage line's peak activation: the torch transient (≤ 0.26), or the transient plus the graph estimate (0.27+). */
  peakActivationGib?: number;
  usageNonTorchGib?: number;
  /** 0.27+ (and main from 0.23.1rc1.dev1327): "X GiB for consumed memory (weights + non-torch)". */
  consumedGib?: number;
  /** The usage line's "C GiB for CUDAGraph memory": the pool actually captured, outside the formula. */
  usageCudaGraphGib?: number;
  /** "Current kv cache memory in use is K GiB". */
  kvInUseGib?: number;
  /** "Checkpoint size: X GiB" (weight_utils, 0.23+). */
  checkpointGib?: number;
  // vLLM V0
  initialMemoryUsageGib?: number;
  peakTorchGib?: number;
  memoryUsagePostProfileGib?: number;
  nonTorchGib?: number;
  kvCacheSizeGib?: number;
  gpuMemoryUtilization?: number;
  budgetGib?: number;
  activationPeakGib?: number;
  kvReservedGib?: number;
  numGpuBlocks?: number;
  numCpuBlocks?: number;
  // failures
  maxSeqLenInError?: number;
  kvTokensInError?: number;
  kvNeededGibInError?: number;
  /** V1's own estimate of the longest context that would fit ("the estimated maximum model length is N"). */
  maxModelLenEstimate?: number;
  // SGLang
  kvSizeGib?: number;
  kSizeGib?: number;
  vSizeGib?: number;
  availAfterWeightsGib?: number;
  availAfterPoolGib?: number;
  /** SGLang: "Capture cuda graph end. … mem usage=X GB" (decode graphs). */
  graphGib?: number;
  /** SGLang 2026: "Capture piecewise CUDA graph end. … mem usage=X GB" (prefill graphs, captured after the pool). */
  piecewiseGraphGib?: number;
  /** SGLang: the free memory the last graph capture leaves ("… avail mem=X GB."). */
  availAfterGraphsGib?: number;
  // llama.cpp
  nCtx?: number;
  nUbatch?: number;
  nSeqMax?: number;
  kvSelfMib?: number;
  kSelfMib?: number;
  vSelfMib?: number;
  // TensorRT-LLM
  kvAllocBytes?: number;
  gpuMibAfterContext?: number;
}

/** The measured figures a plan is compared with, per card; null when the log does not say. */
export interface LogSummary {
  /** Weights on one card, GiB. */
  weightsGib: number | null;
  /** The KV cache pool on one card, GiB. */
  kvGib: number | null;
  /**
   * The engine's own memory on one card beyond weights and KV, GiB. vLLM:
   * inside the utilization budget (activation peak + non-torch memory), which
   * is what decides the KV pool; llama.cpp: the card's compute buffers.
   */
  overheadGib: number | null;
  /** KV tokens the pool holds (vLLM's "GPU KV cache size", SGLang's "#tokens"). */
  kvTokens: number | null;
  /** Sequences of the logged context that fit at once (vLLM's "Maximum concurrency"). */
  maxConcurrency: number | null;
  /** The context the log was for: vLLM's tokens per request, llama.cpp's n_ctx. */
  contextTokens: number | null;
}

export interface StartupLogReading extends LogSummary {
  /** Which engine printed it; null when no line looks like any engine's. */
  engine: LogEngine | null;
  /** The failure the engine printed, in its own words; null when none. */
  failure: string | null;
  /** What the log did not say, in words: "weights", "KV cache", … */
  unread: string[];
  figures: LogFigures;
  /** llama.cpp's buffers by device ("CUDA0", "CPU", "CUDA_Host"). */
  devices: Record<string, DeviceBuffersMib>;
  /** The engine's release when the log names it (vLLM: "vLLM API server version 0.13.0", "V1 LLM engine (v0.19.0)"); else null. */
  engineVersion: string | null;
  /**
   * The release range the log's own lines belong to, in words, from the formats it printed (the version line
   * can be missing from a paste): "vLLM 0.27 or later (consumed/peak/CUDAGraph line)", "SGLang 2026 (piecewise
   * prefill CUDA graph)"; null when no line tells.
   */
  formatRead: string | null;
}

/** The lines vLLM names its release on: the API server's first line, and the engine's "Initializing a V1 LLM engine (v…)". */
const VLLM_VERSION = [
  /vLLM API server version v?(\d+\.\d+[\w.+-]*)/i,
  /LLM engine \(v(\d+\.\d+[\w.+-]*)\)/i,
  /(?:^|\]\s|\s)version v?(\d+\.\d+\.\d+[\w.+-]*)\s*$/i,
];

function vllmVersionOf(lines: string[]): string | null {
  for (const line of lines) {
    for (const re of VLLM_VERSION) {
      const m = re.exec(line);
      if (m?.[1]) return m[1];
    }
  }
  return null;
}

const MIB_PER_GIB = 1024;
const BYTES_PER_GIB = 2 ** 30;

/** A number as logs print it: "126,256", "-1.44", "15.41". */
const NUM = String.raw`(-?\d[\d,]*(?:\.\d+)?)`;

function toNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.replaceAll(",", ""));
  return Number.isFinite(n) ? n : undefined;
}

type FigureName = keyof LogFigures;

/** A line pattern and the figures its groups hold, in order. */
interface Rule {
  pattern: RegExp;
  figures: FigureName[];
}

function rule(source: string, ...figures: FigureName[]): Rule {
  return { pattern: new RegExp(source.replaceAll("NUM", NUM), "i"), figures };
}

/** vLLM V0 and V1. The markdown some people paste ("**Model loading took:**") is allowed for. */
const VLLM_RULES: Rule[] = [
  rule(String.raw`Model loading took[^\w-]*NUM\s*GiB`, "weightsGib"),
  rule(String.raw`Loading model weights took[^\w-]*NUM\s*GB`, "weightsGib"),
  rule(String.raw`Available KV cache memory[^\w-]*NUM\s*GiB`, "kvAvailableGib"),
  rule(String.raw`GPU KV cache size[^\w-]*NUM\s*tokens`, "kvTokens"),
  rule(
    String.raw`Maximum concurrency for NUM tokens per request[^\w-]*NUM\s*x`,
    "concurrencyContextTokens",
    "maxConcurrency",
  ),
  rule(String.raw`Total non KV cache memory[^\w-]*NUM\s*GiB`, "totalNonKvGib"),
  rule(String.raw`torch peak memory increase[^\w-]*NUM\s*GiB`, "torchPeakIncreaseGib"),
  rule(String.raw`non-torch forward increase memory[^\w-]*NUM\s*GiB`, "nonTorchIncreaseGib"),
  rule(String.raw`memory snapshot:.*?free_memory=NUM\s*GiB`, "initFreeGib"),
  rule(String.raw`memory snapshot:.*?total_memory=NUM\s*GiB`, "gpuTotalGib"),
  rule(String.raw`memory snapshot:.*?[^_]non_torch_memory=NUM\s*GiB`, "initNonTorchGib"),
  rule(String.raw`Free memory on device(?: [\w:]+)?[^\w-]*NUM\s*/\s*NUM\s*GiB`, "initFreeGib", "gpuTotalGib"),
  rule(String.raw`Desired GPU memory utilization is \(NUM,\s*NUM\s*GiB\)`, "gpuMemoryUtilization", "requestedGib"),
  rule(
    String.raw`less than desired GPU memory utilization \(NUM,\s*NUM\s*GiB\)`,
    "gpuMemoryUtilization",
    "requestedGib",
  ),
  rule(
    String.raw`Actual usage is NUM\s*GiB for weight, NUM\s*GiB for peak activation, NUM\s*GiB for non-torch memory, and NUM\s*GiB for CUDAGraph memory`,
    "usageWeightsGib",
    "peakActivationGib",
    "usageNonTorchGib",
    "usageCudaGraphGib",
  ),
  rule(
    String.raw`Actual usage is NUM\s*GiB for consumed memory \(weights \+ non-torch\), NUM\s*GiB for peak activation, and NUM\s*GiB for CUDAGraph memory`,
    "consumedGib",
    "peakActivationGib",
    "usageCudaGraphGib",
  ),
  rule(String.raw`Current kv cache memory in use is NUM\s*GiB`, "kvInUseGib"),
  rule(
    String.raw`CUDA graph pool memory: NUM\s*GiB \(actual\), NUM\s*GiB \(estimated\)`,
    "cudaGraphActualGib",
    "cudaGraphEstimateGib",
  ),
  rule(String.raw`Checkpoint size: NUM\s*GiB`, "checkpointGib"),
  rule(String.raw`Graph capturing finished in .*?took\s*NUM\s*GiB`, "cudaGraphGib"),
  rule(String.raw`Estimated CUDA graph memory[^\w-]*NUM\s*GiB`, "cudaGraphEstimateGib"),
  rule(
    String.raw`The current --gpu-memory-utilization=NUM is equivalent to --gpu-memory-utilization=NUM without CUDA graph memory profiling`,
    "gpuMemoryUtilization",
    "utilizationWithoutGraphEstimate",
  ),
  rule(String.raw`total_gpu_memory\s*[=(]\s*NUM\s*GiB`, "gpuTotalGib"),
  rule(String.raw`initial_memory_usage=NUM\s*GiB`, "initialMemoryUsageGib"),
  rule(String.raw`peak_torch_memory=NUM\s*GiB`, "peakTorchGib"),
  rule(String.raw`memory_usage_post_profile=NUM\s*GiB`, "memoryUsagePostProfileGib"),
  rule(String.raw`profiling results:.*?non_torch_memory=NUM\s*GiB`, "nonTorchGib"),
  rule(String.raw`non_torch_memory takes\s*NUM\s*GiB`, "nonTorchGib"),
  rule(String.raw`kv_cache_size=NUM\s*GiB`, "kvCacheSizeGib"),
  rule(String.raw`gpu_memory_utilization\s*[=(]\s*NUM`, "gpuMemoryUtilization"),
  rule(String.raw`x gpu_memory_utilization \(NUM\)\s*=\s*NUM\s*GiB`, "gpuMemoryUtilization", "budgetGib"),
  rule(String.raw`model weights take\s*NUM\s*GiB`, "weightsGib"),
  rule(String.raw`activation peak memory takes\s*NUM\s*GiB`, "activationPeakGib"),
  rule(String.raw`reserved for KV Cache is\s*NUM\s*GiB`, "kvReservedGib"),
  rule(String.raw`#?\s*(?:GPU|cuda) blocks:\s*NUM,\s*#?\s*CPU blocks:\s*NUM`, "numGpuBlocks", "numCpuBlocks"),
  rule(
    String.raw`max seq len \(NUM\) is larger than the maximum number of tokens that can be stored in KV cache \(NUM\)`,
    "maxSeqLenInError",
    "kvTokensInError",
  ),
  rule(String.raw`max seq len \(NUM\), \(NUM\s*GiB KV cache is needed`, "maxSeqLenInError", "kvNeededGibInError"),
  rule(String.raw`larger than the available KV cache memory \(NUM\s*GiB\)`, "kvAvailableGib"),
  rule(String.raw`estimated maximum model length is NUM`, "maxModelLenEstimate"),
];

const SGLANG_RULES: Rule[] = [
  rule(String.raw`Load weight end\..*?avail mem=NUM\s*GB,\s*mem usage=NUM\s*GB`, "availAfterWeightsGib", "weightsGib"),
  rule(String.raw`KV Cache is allocated\.\s*#tokens:\s*NUM`, "kvTokens"),
  rule(String.raw`KV Cache is allocated\..*?[^VK]KV size:\s*NUM\s*GB`, "kvSizeGib"),
  rule(String.raw`KV Cache is allocated\..*?K size:\s*NUM\s*GB`, "kSizeGib"),
  rule(String.raw`KV Cache is allocated\..*?(?<!K)V size:\s*NUM\s*GB`, "vSizeGib"),
  rule(String.raw`Memory pool end\.\s*avail mem=NUM\s*GB`, "availAfterPoolGib"),
  rule(String.raw`Capture cuda graph end\..*?mem usage=NUM\s*GB`, "graphGib"),
  rule(
    String.raw`Capture piecewise CUDA graph end\..*?mem usage=NUM\s*GB\.\s*avail mem=NUM\s*GB`,
    "piecewiseGraphGib",
    "availAfterGraphsGib",
  ),
];

const LLAMACPP_RULES: Rule[] = [
  rule(String.raw`\bn_ctx\s*=\s*NUM`, "nCtx"),
  rule(String.raw`\bn_ubatch\s*=\s*NUM`, "nUbatch"),
  rule(String.raw`\bn_seq_max\s*=\s*NUM`, "nSeqMax"),
];

/**
 * The whole cache's size line: ik_llama.cpp and 2024 builds print one "KV self
 * size = X MiB, K (f16): …, V (f16): …"; builds since mid-2025 print
 * "llama_kv_cache[_unified]: size = X MiB (N cells, …), K (…): …, V (…): …"
 * once per cache, and a sliding-window model has two (ggml-org/llama.cpp
 * #27680: a 0.00 MiB full cache and a 182.75 MiB SWA one), so they add up.
 */
const KV_SIZE_LINE = new RegExp(String.raw`(?:KV self size|llama_kv_cache\w*: size)\s*=\s*${NUM}\s*MiB`);
const K_PART = new RegExp(String.raw`\bK \([^)]*\):\s*${NUM}\s*MiB`);
const V_PART = new RegExp(String.raw`\bV \([^)]*\):\s*${NUM}\s*MiB`);

function readKvSizes(lines: string[], figures: LogFigures): void {
  for (const line of lines) {
    const total = toNumber(KV_SIZE_LINE.exec(line)?.[1]);
    if (total === undefined) continue;
    figures.kvSelfMib = (figures.kvSelfMib ?? 0) + total;
    const k = toNumber(K_PART.exec(line)?.[1]);
    const v = toNumber(V_PART.exec(line)?.[1]);
    if (k !== undefined) figures.kSelfMib = (figures.kSelfMib ?? 0) + k;
    if (v !== undefined) figures.vSelfMib = (figures.vSelfMib ?? 0) + v;
  }
}

const TRTLLM_RULES: Rule[] = [
  rule(String.raw`Allocate NUM bytes for k/v cache`, "kvAllocBytes"),
  rule(String.raw`Using NUM tokens in paged KV cache`, "kvTokens"),
  rule(String.raw`now: CPU [\d,]+, GPU NUM \(MiB\)`, "gpuMibAfterContext"),
];

/**
 * A llama.cpp buffer line: "<device> [model|KV|compute|RS|output] buffer size = X MiB".
 * The old load_tensors line has no kind word ("CUDA0 buffer size"): that is the model.
 * A remote device is named with its endpoint: "RPC[172.31.27.42:50052] KV buffer size".
 */
const LLAMACPP_BUFFER = new RegExp(
  String.raw`(?:^|[\s:])((?!(?:model|KV|compute|RS|output)\s)[A-Za-z]\w*(?:\[[^\]]*\])?)\s+(?:(model|KV|compute|RS|output)\s+)?buffer size\s*=\s*${NUM}\s*MiB`,
);

const BUFFER_KIND: Record<string, keyof DeviceBuffersMib> = {
  model: "model",
  KV: "kv",
  compute: "compute",
  RS: "recurrentState",
  output: "output",
};

/** Lines that only one engine prints: enough to tell who wrote the log. */
const ENGINE_MARKS: [LogEngine, RegExp][] = [
  ["tensorrt-llm", /\[TensorRT-LLM\]/],
  ["sglang", /KV Cache is allocated|Load weight end|Memory pool end|sglang/i],
  ["llamacpp", /llama_|load_tensors|ggml_|llm_load|KV self size|buffer size\s*=.*MiB/],
  [
    "vllm",
    /Model loading took|Loading model weights took|GPU KV cache size|Available KV cache memory|Maximum concurrency for|Memory profiling results|GPU blocks:|vllm|max seq len \(/i,
  ],
];

/** Failures as the engines word them; the first line matching is kept verbatim. */
const FAILURE =
  /on startup is less than desired GPU memory utilization|is larger than the maximum number of tokens that can be stored in KV cache|No available memory for the cache blocks|KV cache is needed, which is larger than|out of memory|OutOfMemoryError|Not enough memory|failed to allocate|cudaMalloc failed/i;

/** Strip what terminals and chat tools add: ANSI colours, markdown emphasis. */
function cleanLine(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const noColours = raw.replace(/\u001b\[[0-9;]*[A-Za-z]/g, "");
  return noColours.replaceAll("**", "").replace(/\r$/, "");
}

function detectEngine(lines: string[]): LogEngine | null {
  for (const [engine, mark] of ENGINE_MARKS) {
    if (lines.some((l) => mark.test(l))) return engine;
  }
  return null;
}

/** Apply rules line by line; the first value of each figure wins. */
function readFigures(lines: string[], rules: Rule[], figures: LogFigures): void {
  for (const line of lines) {
    for (const { pattern, figures: names } of rules) {
      const m = pattern.exec(line);
      if (!m) continue;
      names.forEach((name, i) => {
        const value = toNumber(m[i + 1]);
        if (value !== undefined && figures[name] === undefined) figures[name] = value;
      });
    }
  }
}

function readDevices(lines: string[]): Record<string, DeviceBuffersMib> {
  const devices: Record<string, DeviceBuffersMib> = {};
  for (const line of lines) {
    const m = LLAMACPP_BUFFER.exec(line);
    const value = toNumber(m?.[3]);
    if (!m || value === undefined) continue;
    const device = m[1] as string;
    const kind = BUFFER_KIND[m[2] ?? "model"] ?? "model";
    const buffers = (devices[device] ??= { model: 0, kv: 0, compute: 0, recurrentState: 0, output: 0 });
    buffers[kind] += value;
  }
  return devices;
}

/** Host-side buffers: not a card's memory. */
function isHostDevice(name: string): boolean {
  return /^CPU|_Host$|Host$/i.test(name);
}

function deviceTotalMib(b: DeviceBuffersMib): number {
  return b.model + b.kv + b.compute + b.recurrentState + b.output;
}

/** The card that holds the most: a plan is as good as its worst card. */
function worstCard(devices: Record<string, DeviceBuffersMib>): DeviceBuffersMib | null {
  let worst: DeviceBuffersMib | null = null;
  for (const [name, buffers] of Object.entries(devices)) {
    if (isHostDevice(name)) continue;
    if (!worst || deviceTotalMib(buffers) > deviceTotalMib(worst)) worst = buffers;
  }
  return worst;
}

/** Past float noise (13.57 − 12.56 = 1.0100000000000016), not past what the log printed. */
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

type Summary = LogSummary;

function vllmOverhead(f: LogFigures): number | null {
  // V1 (0.19): "Total non KV cache memory" is weights + activation peak + non-torch. From 0.21 the
  // KV budget also leaves out the CUDA-graph estimate (gpu_worker.determine_available_memory:
  // requested − non_kv_cache_memory − cudagraph_memory_estimate_applied), so it is the engine's too.
  const graphs = f.utilizationWithoutGraphEstimate !== undefined ? (f.cudaGraphEstimateGib ?? 0) : 0;
  // 0.27+: KV = requested − consumed − peak activation, the peak holding the graph estimate (docs/vllm-releases.md §1).
  if (f.consumedGib !== undefined && f.weightsGib !== undefined && f.peakActivationGib !== undefined)
    return round(f.consumedGib - f.weightsGib + f.peakActivationGib);
  // ≤ 0.26: weights, peak and non-torch by name; the estimate beside them where the V1 runner applied it.
  if (f.usageNonTorchGib !== undefined && f.peakActivationGib !== undefined)
    return round(f.peakActivationGib + f.usageNonTorchGib + graphs);
  if (f.totalNonKvGib !== undefined && f.weightsGib !== undefined)
    return round(f.totalNonKvGib - f.weightsGib + graphs);
  if (f.torchPeakIncreaseGib !== undefined && f.nonTorchIncreaseGib !== undefined)
    return round(f.torchPeakIncreaseGib + f.nonTorchIncreaseGib + graphs);
  // V0 0.7: the two parts are printed by name.
  if (f.activationPeakGib !== undefined && f.nonTorchGib !== undefined)
    return round(f.activationPeakGib + f.nonTorchGib);
  // V0 0.6: the torch peak includes the weights.
  if (f.peakTorchGib !== undefined && f.weightsGib !== undefined && f.nonTorchGib !== undefined)
    return round(f.peakTorchGib - f.weightsGib + f.nonTorchGib);
  return null;
}

function vllmSummary(f: LogFigures): Summary {
  return {
    weightsGib: f.weightsGib ?? f.usageWeightsGib ?? null,
    kvGib: f.kvAvailableGib ?? f.kvInUseGib ?? f.kvCacheSizeGib ?? f.kvReservedGib ?? null,
    overheadGib: vllmOverhead(f),
    kvTokens: f.kvTokens ?? f.kvTokensInError ?? null,
    maxConcurrency: f.maxConcurrency ?? null,
    contextTokens: f.concurrencyContextTokens ?? f.maxSeqLenInError ?? null,
  };
}

function sglangSummary(f: LogFigures): Summary {
  const kSplit = f.kSizeGib !== undefined && f.vSizeGib !== undefined ? round(f.kSizeGib + f.vSizeGib) : undefined;
  return {
    weightsGib: f.weightsGib ?? null,
    kvGib: f.kvSizeGib ?? kSplit ?? null,
    overheadGib: null,
    kvTokens: f.kvTokens ?? null,
    maxConcurrency: null,
    contextTokens: null,
  };
}

function llamacppSummary(f: LogFigures, devices: Record<string, DeviceBuffersMib>): Summary {
  const card = worstCard(devices) ?? devices["CPU"] ?? null;
  const gib = (mib: number | undefined): number | null =>
    mib === undefined || mib === 0 ? null : round(mib / MIB_PER_GIB);
  const kvMib = card && card.kv > 0 ? card.kv : f.kvSelfMib;
  return {
    weightsGib: gib(card?.model),
    kvGib: gib(kvMib),
    overheadGib: card && card.compute + card.output > 0 ? gib(card.compute + card.output) : null,
    kvTokens: null,
    maxConcurrency: null,
    contextTokens: f.nCtx ?? null,
  };
}

function trtllmSummary(f: LogFigures): Summary {
  return {
    weightsGib: null,
    kvGib: f.kvAllocBytes !== undefined ? round(f.kvAllocBytes / BYTES_PER_GIB) : null,
    overheadGib: null,
    kvTokens: f.kvTokens ?? null,
    maxConcurrency: null,
    contextTokens: null,
  };
}

const EMPTY_SUMMARY: Summary = {
  weightsGib: null,
  kvGib: null,
  overheadGib: null,
  kvTokens: null,
  maxConcurrency: null,
  contextTokens: null,
};

const SUMMARY_WORDS: [keyof Summary, string][] = [
  ["weightsGib", "weights"],
  ["kvGib", "KV cache"],
  ["overheadGib", "engine overhead"],
  ["kvTokens", "KV tokens"],
  ["maxConcurrency", "concurrency"],
  ["contextTokens", "context"],
];

/**
 * Which vLLM accounting a log's lines show (docs/vllm-releases.md §1): 0.27's consumed/peak line, the V2
 * runner (0.26+: "Using V2 Model Runner"; its estimate is applied from 0.29, seen as a graph capture before
 * the KV line), 0.21's estimate line, or 0.19's "Total non KV cache memory".
 */
function vllmFormat(lines: string[], f: LogFigures): string | null {
  const v2 = lines.some((l) => /Using V2 Model Runner/.test(l));
  const consumed = f.consumedGib !== undefined ? " with the consumed/peak/CUDAGraph line" : "";
  if (v2) {
    const kvAt = lines.findIndex((l) => /Available KV cache memory/.test(l));
    const capturedBefore = kvAt > 0 && lines.slice(0, kvAt).some((l) => /Graph capturing finished/.test(l));
    if (capturedBefore)
      return `vLLM 0.29 or later (V2 model runner, graphs captured and reserved in profiling)${consumed}`;
    return consumed
      ? `vLLM 0.27 or later (V2 model runner${consumed})`
      : "vLLM 0.26 (V2 model runner: no CUDA-graph estimate inside the budget)";
  }
  if (consumed) return "vLLM 0.27 or later (consumed/peak/CUDAGraph line; main since 0.23.1rc1.dev1327)";
  if (f.cudaGraphEstimateGib !== undefined && f.utilizationWithoutGraphEstimate !== undefined)
    return "vLLM 0.21 to 0.26 (CUDA-graph estimate inside the budget)";
  if (f.usageWeightsGib !== undefined) return "vLLM 0.21 to 0.26 (weight/peak/non-torch/CUDAGraph line)";
  if (f.totalNonKvGib !== undefined) return "vLLM 0.19 to 0.20 (Total non KV cache memory line)";
  return null;
}

/**
 * Read a pasted startup log. Never throws: text that is not a log, or a log
 * of an engine it does not know, comes back with `engine: null` and every
 * figure listed as unread.
 */
export function parseStartupLog(text: string): StartupLogReading {
  const lines = (typeof text === "string" ? text : "").split("\n").map(cleanLine);
  const engine = detectEngine(lines);
  const figures: LogFigures = {};
  let devices: Record<string, DeviceBuffersMib> = {};
  let summary = EMPTY_SUMMARY;
  switch (engine) {
    case "vllm":
      readFigures(lines, VLLM_RULES, figures);
      summary = vllmSummary(figures);
      break;
    case "sglang":
      readFigures(lines, SGLANG_RULES, figures);
      summary = sglangSummary(figures);
      break;
    case "llamacpp":
      readFigures(lines, LLAMACPP_RULES, figures);
      readKvSizes(lines, figures);
      devices = readDevices(lines);
      summary = llamacppSummary(figures, devices);
      break;
    case "tensorrt-llm":
      readFigures(lines, TRTLLM_RULES, figures);
      summary = trtllmSummary(figures);
      break;
    case null:
      break;
  }
  const failure = lines.find((l) => FAILURE.test(l))?.trim() ?? null;
  const unread = SUMMARY_WORDS.filter(([key]) => summary[key] === null).map(([, words]) => words);
  const engineVersion = engine === "vllm" ? vllmVersionOf(lines) : null;
  const formatRead =
    engine === "vllm"
      ? vllmFormat(lines, figures)
      : engine === "sglang" && figures.piecewiseGraphGib !== undefined
        ? "SGLang 2026 (piecewise prefill CUDA graph)"
        : null;
  return { engine, ...summary, failure, unread, figures, devices, engineVersion, formatRead };
}
