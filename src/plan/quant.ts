/**
 * Quantization names: a GGUF's from its header's `general.file_type` or its
 * file name, and how many bits a weight each nominally spends, for when the
 * parameter count is not known to work it out from the file's size.
 */
import type { Artifact, GgufHeader } from "./types.ts";

/**
 * llama.cpp's `llama_ftype` (include/llama.h LLAMA_FTYPE_MOSTLY_*), the value
 * of `general.file_type`; the same table as @huggingface/tasks 0.21.54
 * `GGMLFileQuantizationType`. 4–6 are retired Q4_2/Q4_3 and never seen now.
 */
const FILE_TYPES: Record<number, string> = {
  0: "F32",
  1: "F16",
  2: "Q4_0",
  3: "Q4_1",
  7: "Q8_0",
  8: "Q5_0",
  9: "Q5_1",
  10: "Q2_K",
  11: "Q3_K_S",
  12: "Q3_K_M",
  13: "Q3_K_L",
  14: "Q4_K_S",
  15: "Q4_K_M",
  16: "Q5_K_S",
  17: "Q5_K_M",
  18: "Q6_K",
  19: "IQ2_XXS",
  20: "IQ2_XS",
  21: "Q2_K_S",
  22: "IQ3_XS",
  23: "IQ3_XXS",
  24: "IQ1_S",
  25: "IQ4_NL",
  26: "IQ3_S",
  27: "IQ3_M",
  28: "IQ2_S",
  29: "IQ2_M",
  30: "IQ4_XS",
  31: "IQ1_M",
  32: "BF16",
  33: "Q4_0_4_4",
  34: "Q4_0_4_8",
  35: "Q4_0_8_8",
  36: "TQ1_0",
  37: "TQ2_0",
  38: "MXFP4_MOE",
  39: "NVFP4",
};

/** The file type a header declares, or "" when it declares none or one not in the table. */
export function fileTypeOf(header: GgufHeader | undefined): string {
  const id = header?.metadata["general.file_type"];
  return typeof id === "number" ? (FILE_TYPES[id] ?? "") : "";
}

/**
 * A quantization label in a file name. The last one wins ("…-Q8_0-IQ4_XS"
 * names the later), as in the seed's QuantOf and @huggingface/tasks'
 * parseGGUFQuantLabel. Unsloth's "UD-" (dynamic) prefix is dropped: the
 * quant is the part after it; the artifact keeps the full name.
 */
const NAME_QUANT =
  /(?<![A-Z0-9])(?:UD-)?(IQ\d_(?:XXS|XS|NL|S|M)|TQ\d_0|Q\d_K(?:_(?:XXL|XL|XS|L|M|S))?|Q\d_\d(?:_\d_\d)?|MXFP4(?:_MOE)?|NVFP4|BF16|FP16|F16|F32|FP8)(?![A-Z0-9])/g;

export function quantFromName(fileName: string): string {
  const base = fileName.split("/").pop() ?? fileName;
  const stem = base
    .toUpperCase()
    .replace(/\.GGUF$/, "")
    .replace(/-\d{5}-OF-\d{5}$/, "");
  const labels = [...stem.replace(/[._]/g, (c) => (c === "." ? "-" : c)).matchAll(NAME_QUANT)].map((m) => m[1] ?? "");
  const last = labels.at(-1) ?? "";
  return last === "FP16" ? "F16" : last;
}

/** "Q4_K_L" → "Q4_K": the bit family a name variant shares with the file type it refines. */
export function family(quant: string): string {
  return quant.replace(/_(XXL|XL|XS|L|M|S)$/, "");
}

/**
 * A GGUF's quantization: the header's `general.file_type` where it is known,
 * else the name. One exception keeps distinct files distinct: uploaders'
 * variants that are not file types (bartowski's Q4_K_L = Q4_K_M with Q8_0
 * embeddings, unsloth's UD-Q4_K_XL) carry the base type in the header, so a
 * name label of the same bit family that is not itself a file type wins.
 */
export function ggufQuantOf(fileName: string, header?: GgufHeader): string {
  const fromHeader = fileTypeOf(header);
  const fromName = quantFromName(fileName);
  if (fromHeader === "") return fromName;
  const nameIsVariant = fromName !== "" && !Object.values(FILE_TYPES).includes(fromName);
  if (nameIsVariant && family(fromName) === family(fromHeader)) return fromName;
  return fromHeader;
}

/**
 * Roughly what each quantization spends a weight, whole file over
 * parameters: the seed's `quantBits` table (docs/seed/options.go.txt,
 * measured against the GGUFs on its cluster), for when the parameter count is
 * unknown. Added, from block layouts (ggml `type_traits`, @huggingface/gguf
 * 0.4.6 GGML_QUANT_SIZES): MXFP4 4.25 (17 B per 32), NVFP4 4.5 (36 B per 64),
 * TQ1_0 1.69, TQ2_0 2.06; bartowski's _L / unsloth's _XL variants as their
 * base type (they differ only in embedding and output tensors); and the
 * checkpoint formats: fp8 with 128×128 fp32 block scales ≈ 8.002, NVFP4
 * safetensors 4.5 (fp8 scale per 16), MXFP4 4.25, AWQ/GPTQ int4 with an fp16
 * scale and a packed zero per 128 ≈ 4.16, int8 with a bf16 scale per 128 ≈ 8.06.
 */
const NOMINAL_BITS: Record<string, number> = {
  F32: 32,
  F16: 16,
  BF16: 16,
  FP16: 16,
  Q8_0: 8.5,
  Q6_K: 6.6,
  Q5_K_M: 5.7,
  Q5_K_S: 5.5,
  Q5_0: 5.5,
  Q5_1: 6,
  Q4_K_M: 4.8,
  Q4_K_S: 4.6,
  Q4_0: 4.5,
  Q4_1: 5,
  IQ4_XS: 4.3,
  IQ4_NL: 4.5,
  Q3_K_L: 4.3,
  Q3_K_M: 3.9,
  Q3_K_S: 3.5,
  IQ3_M: 3.7,
  IQ3_XS: 3.3,
  IQ3_XXS: 3.1,
  Q2_K: 3.0,
  IQ2_M: 2.7,
  IQ2_XS: 2.3,
  IQ2_XXS: 2.1,
  IQ1_M: 1.8,
  IQ1_S: 1.6,
  MXFP4: 4.25,
  MXFP4_MOE: 4.25,
  NVFP4: 4.5,
  TQ1_0: 1.69,
  TQ2_0: 2.06,
  FP8: 8.002,
  AWQ: 4.16,
  GPTQ: 4.16,
  INT4: 4.16,
  INT8: 8.06,
};

const VARIANT_BASE: Record<string, string> = {
  Q8_K_XL: "Q8_0",
  Q6_K_L: "Q6_K",
  Q6_K_XL: "Q6_K",
  Q5_K_L: "Q5_K_M",
  Q5_K_XL: "Q5_K_M",
  Q4_K_L: "Q4_K_M",
  Q4_K_XL: "Q4_K_M",
  Q3_K_XL: "Q3_K_L",
  Q2_K_L: "Q2_K",
  Q2_K_XS: "Q2_K",
  Q2_K_XL: "Q2_K",
  Q4_0_4_4: "Q4_0",
  Q4_0_4_8: "Q4_0",
  Q4_0_8_8: "Q4_0",
};

/** Nominal bits a weight of a quantization (case-insensitive); 0 when unknown. */
export function nominalBitsOf(quant: string): number {
  const q = quant.toUpperCase();
  return NOMINAL_BITS[q] ?? NOMINAL_BITS[VARIANT_BASE[q] ?? ""] ?? 0;
}

/** An artifact's bits per weight: measured from its bytes when the parameters are known, else the quant's usual figure. */
export function bitsOf(a: Artifact): number {
  if (a.bitsPerWeight > 0) return a.bitsPerWeight;
  return nominalBitsOf(a.quant);
}
