/**
 * What a repository offers to serve, from its file list with real sizes:
 * each GGUF (a split set as one), and the original safetensors. Bytes are
 * the files' own, never parameters × a nominal width: a file is what a card
 * has to hold.
 */

import { ggufQuantOf, nominalBitsOf, quantFromName } from "./quant.ts";
import { isExpertTensor, isWholeModel, tensorBytes, tensorElements } from "./gguf.ts";
import { dtypeBytes, isRecord } from "./shape.ts";
import type { Artifact, GgufHeader, ModelShape, RepoFile, RepoSnapshot } from "./types.ts";

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
    if (ordered.every((p): p is RepoFile => p !== undefined)) sets.push({ name: key.split("\u0000")[0] ?? "", parts: ordered });
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
    return {
      name: set.name,
      format: "gguf",
      files: set.parts.map((p) => p.path),
      bytes,
      projectorBytes: projectorBytesFor(set, snapshot.files),
      quant,
      bitsPerWeight: bitsPerWeightOf(bytes, shape.paramsTotal, quant),
      expertBytes: ggufExpertBytes(header, bytes, shape, quant),
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
 * Hugging Face shards are there too. `.bin`/`.pt`/`.pth` are never summed.
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
  const layerAlgos = isRecord(layers) ? Object.values(layers).map((l) => (isRecord(l) ? String(l["quant_algo"] ?? "") : "")) : [];
  const nvfp4 = algo.includes("NVFP4") || (algo === "MIXED_PRECISION" && (layerAlgos.length === 0 || layerAlgos.some((a) => a.includes("NVFP4"))));
  // NVFP4: e2m1 nibbles plus one fp8 scale per 16 (NVIDIA ModelOpt docs); FP8: one byte.
  if (nvfp4) return { quant: "nvfp4", expertBytesPerParam: 0.5 + 1 / 16 };
  if (algo.includes("FP8")) return { quant: "fp8", expertBytesPerParam: 1 };
  return { quant: "modelopt", expertBytesPerParam: null };
}

/** compressed-tensors: the first config group's format and weights (notes §1b). */
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

function checkpointQuantOf(snapshot: RepoSnapshot, shape: ModelShape): CheckpointQuant {
  const q = quantConfigOf(snapshot.config);
  switch (shape.quantMethod) {
    case "":
      return { quant: shortDtype(shape.dtype), expertBytesPerParam: dtypeBytes(shape.dtype) };
    case "fp8": {
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

function safetensorsArtifact(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  const files = weightFiles(snapshot.files);
  if (files.length === 0) return [];
  const bytes = sumBytes(files);
  const { quant, expertBytesPerParam } = checkpointQuantOf(snapshot, shape);
  const params = shape.moe?.routedExpertParams;
  let expertBytes = 0;
  if (shape.moe !== null && params !== undefined) {
    const perParam = expertBytesPerParam ?? (shape.paramsTotal ? bytes / shape.paramsTotal : 0);
    expertBytes = Math.min(bytes, Math.round(params * perParam));
  }
  return [
    {
      name: "original",
      format: "safetensors",
      files: files.map((f) => f.path),
      bytes,
      projectorBytes: 0,
      quant,
      bitsPerWeight: bitsPerWeightOf(bytes, shape.paramsTotal, quant),
      expertBytes,
    },
  ];
}

/** Every artifact of a repository: its original safetensors first, then each GGUF. */
export function artifactsOf(snapshot: RepoSnapshot, shape: ModelShape): Artifact[] {
  return [...safetensorsArtifact(snapshot, shape), ...ggufArtifacts(snapshot, shape)];
}
