/**
 * What a repository offers to serve, from its file list with real sizes:
 * each GGUF (a split set as one), and the original safetensors, or, in a
 * repository without them, its PyTorch `pytorch_model*.bin`. Bytes are the
 * files' own (or, for .bin shards, their index's tensor bytes), never
 * parameters × a nominal width: a file is what a card has to hold.
 */
import { isRecord } from "./config/fields.ts";
import { isExpertTensor, isWholeModel, tensorBytes, tensorElements } from "./config/ggml.ts";
import { dtypeBytes } from "./dtype.ts";
import { llamaGraphDimsOf } from "./engines/llamacpp/graphDims.ts";
import { cpuRepackOf } from "./engines/llamacpp/repack.ts";
import { ggufQuantOf, nominalBitsOf, quantFromName } from "./quant.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact, GgufHeader, RepoFile, RepoSnapshot } from "./types.ts";

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function dirName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function sumBytes(files: RepoFile[]): number {
  return files.reduce((sum, f) => sum + f.sizeBytes, 0);
}

/**
 * Widest a weight can be in a quantized checkpoint: bf16, plus headroom for
 * scales. Past it the parameter count is counting packed storage, not
 * weights: the Hub's safetensors.total counts an AWQ/GPTQ int32 that holds
 * eight int4 weights as one parameter (hub-api.md §1a: counts are keyed by
 * storage dtype), which would make a 4-bit checkpoint look 27-bit.
 */
const MAX_QUANTIZED_BITS = 16.5;

const UNQUANTIZED = new Set(["bf16", "fp16", "fp32", "F32", "F16", "BF16"]);

/** File bits over parameters; without a believable parameter count, the quant's nominal bits (the seed's fallback). */
function bitsPerWeightOf(bytes: number, paramsTotal: number | null, quant: string): number {
  if (paramsTotal === null || paramsTotal <= 0) return nominalBitsOf(quant);
  const bits = (bytes * 8) / paramsTotal;
  return bits > MAX_QUANTIZED_BITS && !UNQUANTIZED.has(quant) ? nominalBitsOf(quant) : bits;
}

// ---------------------------------------------------------------------------
// GGUF.
// ---------------------------------------------------------------------------

/**
 * llama.cpp's split naming, `<prefix>-00001-of-00003.gguf` (gguf-split,
 * @huggingface/gguf RE_GGUF_SHARD_FILE); the prefix may sit in a folder and
 * use dots (unsloth's `DeepSeek-R1-BF16/DeepSeek-R1.BF16-00001-of-00030.gguf`).
 */
const SPLIT_PART = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

/** An artifact's files and its projector together: what a download fetches and the page names it by. */
export function artifactTotalBytes(a: Artifact): number {
  return a.bytes + a.projectorBytes;
}

/** A picture model's projector: loaded beside the model with --mmproj, never served alone. */
export function isProjector(path: string): boolean {
  return /mmproj/i.test(baseName(path));
}

/** One loadable GGUF model: a single file, or a split set with its parts in order. */
export interface GgufSet {
  name: string;
  parts: RepoFile[];
}

/**
 * GGUF files grouped into what llama.cpp loads as one model. A split set
 * missing a part cannot load and is left out rather than under-counted.
 */
export function ggufSets(files: RepoFile[]): GgufSet[] {
  const singles: GgufSet[] = [];
  const splits = new Map<string, { total: number; parts: Map<number, RepoFile> }>();
  for (const f of files) {
    if (!f.path.toLowerCase().endsWith(".gguf") || isProjector(f.path)) continue;
    const m = SPLIT_PART.exec(f.path);
    if (m === null) {
      singles.push({ name: f.path, parts: [f] });
      continue;
    }
    const [, prefix = "", part = "", total = ""] = m;
    const key = `${prefix}\u0000${total}`;
    const set = splits.get(key) ?? { total: Number(total), parts: new Map<number, RepoFile>() };
    set.parts.set(Number(part), f);
    splits.set(key, set);
  }
  const sets = [...singles];
  for (const [key, set] of splits) {
    const ordered = Array.from({ length: set.total }, (_, i) => set.parts.get(i + 1));
    if (ordered.every((p): p is RepoFile => p !== undefined))
      sets.push({ name: key.split("\u0000")[0] ?? "", parts: ordered });
  }
  return sets;
}

/** The projector to load with a GGUF: one in its own folder first, F16 by preference (what llama.cpp's docs load). */
function projectorBytesFor(set: GgufSet, files: RepoFile[]): number {
  const projectors = files.filter((f) => f.path.toLowerCase().endsWith(".gguf") && isProjector(f.path));
  if (projectors.length === 0) return 0;
  const dir = dirName(set.parts[0]?.path ?? "");
  const near = projectors.filter((p) => dirName(p.path) === dir);
  const pool = near.length > 0 ? near : projectors;
  for (const quant of ["F16", "BF16", "F32", "Q8_0"]) {
    const hit = pool.find((p) => quantFromName(p.path) === quant);
    if (hit) return hit.sizeBytes;
  }
  return pool[0]?.sizeBytes ?? 0;
}

/**
 * The routed experts' bytes in a GGUF. Exact from the tensor index when the
 * header is the whole model's; from a split set's first part, the experts'
 * own bits per weight times their parameter count; else the file's average
 * bytes per parameter times the experts' parameters (gpt-oss keeps MXFP4
 * experts in every quant, so the tensor index is worth having).
 */
function ggufExpertBytes(header: GgufHeader | undefined, bytes: number, shape: ModelShape, quant: string): number {
  if (shape.moe === null) return 0;
  const experts = header?.tensors?.filter((t) => isExpertTensor(t.name)) ?? [];
  const tensorBytesSum = experts.reduce((sum, t) => sum + tensorBytes(t), 0);
  if (header !== undefined && experts.length > 0 && isWholeModel(header)) return tensorBytesSum;
  const params = shape.moe.routedExpertParams;
  if (params === undefined) return 0;
  if (experts.length > 0) {
    const bytesPerParam = tensorBytesSum / experts.reduce((sum, t) => sum + tensorElements(t), 0);
    return Math.min(bytes, Math.round(params * bytesPerParam));
  }
  const perParam = shape.paramsTotal ? bytes / shape.paramsTotal : nominalBitsOf(quant) / 8;
  return Math.min(bytes, Math.round(params * perParam));
}

function ggufArtifacts(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  return ggufSets(snapshot.files).map((set) => {
    const first = set.parts[0]?.path ?? set.name;
    const header = snapshot.ggufHeaders[first];
    const bytes = sumBytes(set.parts);
    const quant = ggufQuantOf(first, header);
    const repack = cpuRepackOf(header, bytes, header !== undefined && isWholeModel(header));
    const graph = llamaGraphDimsOf(header, shape.vocabSize);
    return {
      name: set.name,
      format: "gguf",
      files: set.parts.map((p) => p.path),
      bytes,
      projectorBytes: projectorBytesFor(set, snapshot.files),
      quant,
      bitsPerWeight: bitsPerWeightOf(bytes, shape.paramsTotal, quant),
      expertBytes: ggufExpertBytes(header, bytes, shape, quant),
      ...(repack ? { cpuRepack: repack } : {}),
      ...(graph ? { llamaGraph: graph } : {}),
    };
  });
}

// ---------------------------------------------------------------------------
// Safetensors.
// ---------------------------------------------------------------------------

/**
 * The safetensors vLLM loads: the repository's top level (0-indexed or
 * 6-digit shard names included, whatever their count says). Left out as
 * second copies of the same weights: `original/` (gpt-oss, Llama's own
 * format), `metal/`, and Mistral's `consolidated*.safetensors` when the
 * Hugging Face shards are there too. `.pt`/`.pth` are never summed, and
 * `.bin` only where there is no safetensors (pytorchWeightFiles).
 */
function weightFiles(files: RepoFile[]): RepoFile[] {
  const top = files.filter((f) => f.path.endsWith(".safetensors") && !f.path.includes("/"));
  const hfFormat = top.filter((f) => !f.path.startsWith("consolidated"));
  return hfFormat.length > 0 ? hfFormat : top;
}

interface CheckpointQuant {
  /** "bf16", "fp8", "nvfp4", "mxfp4", "int4", "awq", … */
  quant: string;
  /** What one routed-expert parameter weighs in this scheme, or null when the scheme does not say. */
  expertBytesPerParam: number | null;
}

type Json = Record<string, unknown>;

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && value > 0 ? value : fallback;
}

/** The quantization_config, at the root or in text_config (vLLM reads both). */
function quantConfigOf(config: Json | null): Json | null {
  if (config === null) return null;
  const text = config["text_config"];
  const q = config["quantization_config"] ?? (isRecord(text) ? text["quantization_config"] : undefined);
  return isRecord(q) ? q : null;
}

/**
 * ModelOpt's algorithm: quant_algo in config.json, else hf_quant_config.json.
 * MIXED_PRECISION lists per-layer algos (FP8 attention, NVFP4 experts); it
 * counts as NVFP4 when any layer is, since the experts are what weigh.
 */
function modeloptQuant(q: Json | null, hf: unknown): CheckpointQuant {
  const hfQ = isRecord(hf) && isRecord(hf["quantization"]) ? hf["quantization"] : null;
  const algo = String(q?.["quant_algo"] ?? hfQ?.["quant_algo"] ?? "").toUpperCase();
  const layers = hfQ?.["quantized_layers"];
  const layerAlgos = isRecord(layers)
    ? Object.values(layers).map((l) => (isRecord(l) ? String(l["quant_algo"] ?? "") : ""))
    : [];
  const nvfp4 =
    algo.includes("NVFP4") ||
    (algo === "MIXED_PRECISION" && (layerAlgos.length === 0 || layerAlgos.some((a) => a.includes("NVFP4"))));
  // NVFP4: e2m1 nibbles plus one fp8 scale per 16 (NVIDIA ModelOpt docs); FP8: one byte.
  if (nvfp4) return { quant: "nvfp4", expertBytesPerParam: 0.5 + 1 / 16 };
  if (algo.includes("FP8")) return { quant: "fp8", expertBytesPerParam: 1 };
  return { quant: "modelopt", expertBytesPerParam: null };
}

/** compressed-tensors: the first config group's format and weights (docs/notes/architectures.md §1b). */
function compressedTensorsQuant(q: Json): CheckpointQuant {
  const groups = isRecord(q["config_groups"]) ? Object.values(q["config_groups"]) : [];
  const group = groups.find(isRecord);
  const weights = group && isRecord(group["weights"]) ? group["weights"] : {};
  const format = String((group?.["format"] ?? q["format"]) || "");
  const bits = numberOr(weights["num_bits"], 8);
  const groupSize = numberOr(weights["group_size"], 128);
  if (format.startsWith("nvfp4")) return { quant: "nvfp4", expertBytesPerParam: 0.5 + 1 / 16 };
  // MXFP4: one ue8m0 scale byte per 32 (OCP MX spec).
  if (format.startsWith("mxfp4")) return { quant: "mxfp4", expertBytesPerParam: 0.5 + 1 / 32 };
  if (format === "float-quantized") return { quant: "fp8", expertBytesPerParam: 1 };
  // pack-quantized INT4/INT8 (Kimi-K2.5): packed ints plus a bf16 scale per group.
  if (format === "pack-quantized" || format === "int-quantized") {
    return { quant: `int${bits}`, expertBytesPerParam: bits / 8 + 2 / groupSize };
  }
  return { quant: "compressed-tensors", expertBytesPerParam: null };
}

/**
 * DeepSeek-V4's routed experts are FP4 although quantization_config says fp8
 * (which covers the rest): `expert_dtype: "fp4"` at the root, e2m1 values with
 * a ue8m0 scale per 32 (docs/notes/architectures.md §1b), 0.5 + 1/32 B a weight; NVIDIA's NVFP4 copy
 * says `moe_quant_algo: "NVFP4"` (an fp8 scale per 16: 0.5 + 1/16). Null for
 * any other fp8 checkpoint, whose experts are fp8 like the rest.
 */
function fp4ExpertBytesPerParam(config: Json | null, q: Json | null): number | null {
  if (q?.["moe_quant_algo"] === "NVFP4") return 0.5 + 1 / 16;
  if (config?.["expert_dtype"] === "fp4") return 0.5 + 1 / 32;
  return null;
}

function checkpointQuantOf(snapshot: RepoSnapshot, shape: ModelShape): CheckpointQuant {
  const q = quantConfigOf(snapshot.config);
  switch (shape.quantMethod) {
    case "":
      return { quant: shortDtype(shape.dtype), expertBytesPerParam: dtypeBytes(shape.dtype) };
    case "fp8": {
      const fp4Experts = fp4ExpertBytesPerParam(snapshot.config, q);
      if (fp4Experts !== null) return { quant: "fp8", expertBytesPerParam: fp4Experts };
      // One byte a weight plus an fp32 scale per block (weight_block_size, [128, 128] in every 2026 fp8 config).
      const block = Array.isArray(q?.["weight_block_size"]) ? (q["weight_block_size"] as unknown[]) : [];
      const area = block.reduce<number>((a, b) => a * numberOr(b, 1), 1);
      return { quant: "fp8", expertBytesPerParam: 1 + (area > 1 ? 4 / area : 0) };
    }
    case "mxfp4":
      return { quant: "mxfp4", expertBytesPerParam: 0.5 + 1 / 32 };
    case "modelopt":
      return modeloptQuant(q, snapshot.extraJson?.["hf_quant_config.json"]);
    case "compressed-tensors":
      return q ? compressedTensorsQuant(q) : { quant: "compressed-tensors", expertBytesPerParam: null };
    case "awq":
    case "gptq": {
      // Packed ints plus an fp16 scale and a packed zero point per group (AutoAWQ / GPTQ layouts).
      const bits = numberOr(q?.["bits"], 4);
      const group = numberOr(q?.["group_size"], 128);
      return { quant: shape.quantMethod, expertBytesPerParam: bits / 8 + (2 + bits / 8) / group };
    }
    default:
      return { quant: shape.quantMethod, expertBytesPerParam: null };
  }
}

function shortDtype(dtype: string): string {
  const names: Record<string, string> = { bfloat16: "bf16", float16: "fp16", float32: "fp32" };
  return names[dtype] ?? dtype;
}

/** An original checkpoint (safetensors or PyTorch .bin) as an artifact: its quant, bits and experts from the config. */
function checkpointArtifact(
  snapshot: RepoSnapshot,
  shape: ModelShape,
  made: Pick<Artifact, "name" | "format" | "files" | "bytes">,
): Artifact {
  const bytes = made.bytes;
  const { quant, expertBytesPerParam } = checkpointQuantOf(snapshot, shape);
  const params = shape.moe?.routedExpertParams;
  let expertBytes = 0;
  if (shape.moe !== null && params !== undefined) {
    const perParam = expertBytesPerParam ?? (shape.paramsTotal ? bytes / shape.paramsTotal : 0);
    expertBytes = Math.min(bytes, Math.round(params * perParam));
  }
  return {
    ...made,
    projectorBytes: 0,
    quant,
    bitsPerWeight: bitsPerWeightOf(bytes, shape.paramsTotal, quant),
    expertBytes,
  };
}

function safetensorsArtifact(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  const files = weightFiles(snapshot.files);
  if (files.length === 0) return [];
  return [
    checkpointArtifact(snapshot, shape, {
      name: "original",
      format: "safetensors",
      files: files.map((f) => f.path),
      bytes: sumBytes(files),
    }),
  ];
}

// ---------------------------------------------------------------------------
// PyTorch .bin, only where there is no safetensors.
// ---------------------------------------------------------------------------

/**
 * transformers' names for a PyTorch checkpoint (modeling_utils WEIGHTS_NAME,
 * WEIGHTS_INDEX_NAME and save_pretrained's shard names). Nothing else ending
 * in .bin is the model: `training_args.bin` (the Trainer's arguments),
 * `optimizer.bin`, `adapter_model.bin` (a LoRA, loaded with --lora-modules),
 * `mm_projector.bin`/`non_lora_trainables.bin` (LLaVA training parts),
 * CTranslate2's `model.bin`; nor is any `.pt`/`.pth`.
 */
const PYTORCH_SINGLE = "pytorch_model.bin";
const PYTORCH_SHARD = /^pytorch_model-(\d+)-of-(\d+)\.bin$/;
export const PYTORCH_INDEX = "pytorch_model.bin.index.json";

/**
 * The .bin files vLLM and SGLang load, or none. Their default `--load-format
 * auto` globs the top level for `*.safetensors` and only when there are none
 * for `*.bin` (`_prepare_weights`: allow_patterns ["*.safetensors", "*.bin"],
 * the first pattern that matches wins; vLLM's
 * vllm/model_executor/model_loader/default_loader.py @ 00b5ad07, SGLang's
 * python/sglang/srt/model_loader/loader.py @ 005cbe0e), so a repository
 * with both serves safetensors and its .bin are a second copy. Only the top level (the loader's glob is
 * not recursive: `checkpoint-500/` and `original/` are not loaded). A shard
 * set missing a part cannot load and gives nothing rather than too little;
 * a lone `pytorch_model.bin` is preferred to shards beside it, as
 * transformers' from_pretrained looks for it first.
 */
export function pytorchWeightFiles(files: readonly RepoFile[]): RepoFile[] {
  if (weightFiles([...files]).length > 0) return [];
  const top = files.filter((f) => !f.path.includes("/"));
  const single = top.find((f) => f.path === PYTORCH_SINGLE);
  if (single) return [single];
  const sets = new Map<number, Map<number, RepoFile>>();
  for (const f of top) {
    const m = PYTORCH_SHARD.exec(f.path);
    if (m === null) continue;
    const total = Number(m[2]);
    const set = sets.get(total) ?? new Map<number, RepoFile>();
    set.set(Number(m[1]), f);
    sets.set(total, set);
  }
  for (const [total, parts] of [...sets].sort(([x], [y]) => x - y)) {
    const ordered = Array.from({ length: total }, (_, i) => parts.get(i + 1));
    if (ordered.every((p): p is RepoFile => p !== undefined)) return ordered;
  }
  return [];
}

/** Whether the Hub reader should fetch pytorch_model.bin.index.json: the repo is served from its .bin shards and has one. */
export function needsPytorchIndex(paths: readonly string[]): boolean {
  if (!paths.includes(PYTORCH_INDEX)) return false;
  const files = pytorchWeightFiles(paths.map((path) => ({ path, sizeBytes: 0 })));
  return files.length > 0 && files[0]?.path !== PYTORCH_SINGLE;
}

/** `metadata.total_size` of a pytorch_model.bin.index.json (transformers writes it as a float at times: 13731385408.0), or null. */
function indexTotalBytes(index: unknown): number | null {
  const metadata = isRecord(index) ? index["metadata"] : undefined;
  const total = isRecord(metadata) ? metadata["total_size"] : undefined;
  return typeof total === "number" && Number.isFinite(total) && total > 0 ? total : null;
}

/**
 * What .bin shards weigh on a card. The index's total_size is the tensors'
 * bytes (transformers sums numel × element size when it shards); the files
 * add torch.save's zip container and keep buffers whole that are not weights
 * (GPT-NeoX's causal-mask `attention.bias`, 4 MiB a layer of bools that
 * total_size counts at 1/8 byte an element and vLLM never loads:
 * RedPajama-INCITE-7B's two files are 0.86 % over its total_size). So the
 * index when read, unless it says more than the files hold (then it does not
 * describe them: an index left from another upload, or an old transformers
 * counting tied weights twice), else the files' sizes from the listing. A
 * lone pytorch_model.bin has no index: its file size, which for a model
 * without such buffers is its tensors within the container's share
 * (Wizard-Vicuna-30B's 14 shards: 206,219 B over 130,115,789,824, 0.0002 %).
 */
function pytorchBytes(files: RepoFile[], snapshot: RepoSnapshot): number {
  const fileBytes = sumBytes(files);
  if (files.length < 2) return fileBytes;
  const total = indexTotalBytes(snapshot.extraJson?.[PYTORCH_INDEX]);
  return total !== null && total <= fileBytes ? total : fileBytes;
}

/**
 * The .bin checkpoint as one artifact. Its dtype is config.json's
 * torch_dtype, as for safetensors (a pickle names no dtype the listing can
 * show), so the parameters are bytes ÷ that width and engines cost it like
 * the safetensors they would have been. Only vLLM and SGLang load it:
 * llama.cpp needs a GGUF.
 */
function pytorchArtifact(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  const files = pytorchWeightFiles(snapshot.files);
  if (files.length === 0) return [];
  return [
    checkpointArtifact(snapshot, shape, {
      name: "original .bin",
      format: "pytorch",
      files: files.map((f) => f.path),
      bytes: pytorchBytes(files, snapshot),
    }),
  ];
}

/** Every artifact of a repository: its original safetensors (else its .bin) first, then each GGUF. */
export function artifactsOf(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  return [
    ...safetensorsArtifact(snapshot, shape),
    ...pytorchArtifact(snapshot, shape),
    ...ggufArtifacts(snapshot, shape),
  ];
}
