/**
 * ggml's tensor types (block sizes in bytes) and what a GGUF's tensor index says about experts and
 * split files.
 */
import { ModelError } from "./fields.ts";
import type { GgufHeader, GgufTensor } from "../types.ts";

/** One ggml type's storage: `typeBytes` bytes hold `blockSize` weights. */
interface GgmlType {
  name: string;
  blockSize: number;
  typeBytes: number;
}

/**
 * ggml's type_traits (ggml/src/ggml.c: blck_size, type_size) by ggml_type
 * id, as @huggingface/gguf 0.4.6 GGML_QUANT_SIZES also gives them. Ids 31–33
 * and 36–38 are the retired repacked Q4_0_x_x / IQ4_NL_x_x types.
 */
const GGML_TYPES: Record<number, GgmlType> = {
  0: { name: "F32", blockSize: 1, typeBytes: 4 },
  1: { name: "F16", blockSize: 1, typeBytes: 2 },
  2: { name: "Q4_0", blockSize: 32, typeBytes: 18 },
  3: { name: "Q4_1", blockSize: 32, typeBytes: 20 },
  6: { name: "Q5_0", blockSize: 32, typeBytes: 22 },
  7: { name: "Q5_1", blockSize: 32, typeBytes: 24 },
  8: { name: "Q8_0", blockSize: 32, typeBytes: 34 },
  9: { name: "Q8_1", blockSize: 32, typeBytes: 40 },
  10: { name: "Q2_K", blockSize: 256, typeBytes: 84 },
  11: { name: "Q3_K", blockSize: 256, typeBytes: 110 },
  12: { name: "Q4_K", blockSize: 256, typeBytes: 144 },
  13: { name: "Q5_K", blockSize: 256, typeBytes: 176 },
  14: { name: "Q6_K", blockSize: 256, typeBytes: 210 },
  15: { name: "Q8_K", blockSize: 256, typeBytes: 292 },
  16: { name: "IQ2_XXS", blockSize: 256, typeBytes: 66 },
  17: { name: "IQ2_XS", blockSize: 256, typeBytes: 74 },
  18: { name: "IQ3_XXS", blockSize: 256, typeBytes: 98 },
  19: { name: "IQ1_S", blockSize: 256, typeBytes: 50 },
  20: { name: "IQ4_NL", blockSize: 32, typeBytes: 18 },
  21: { name: "IQ3_S", blockSize: 256, typeBytes: 110 },
  22: { name: "IQ2_S", blockSize: 256, typeBytes: 82 },
  23: { name: "IQ4_XS", blockSize: 256, typeBytes: 136 },
  24: { name: "I8", blockSize: 1, typeBytes: 1 },
  25: { name: "I16", blockSize: 1, typeBytes: 2 },
  26: { name: "I32", blockSize: 1, typeBytes: 4 },
  27: { name: "I64", blockSize: 1, typeBytes: 8 },
  28: { name: "F64", blockSize: 1, typeBytes: 8 },
  29: { name: "IQ1_M", blockSize: 256, typeBytes: 56 },
  30: { name: "BF16", blockSize: 1, typeBytes: 2 },
  31: { name: "Q4_0_4_4", blockSize: 32, typeBytes: 18 },
  32: { name: "Q4_0_4_8", blockSize: 32, typeBytes: 18 },
  33: { name: "Q4_0_8_8", blockSize: 32, typeBytes: 18 },
  34: { name: "TQ1_0", blockSize: 256, typeBytes: 54 },
  35: { name: "TQ2_0", blockSize: 256, typeBytes: 66 },
  36: { name: "IQ4_NL_4_4", blockSize: 32, typeBytes: 18 },
  37: { name: "IQ4_NL_4_8", blockSize: 32, typeBytes: 18 },
  38: { name: "IQ4_NL_8_8", blockSize: 32, typeBytes: 18 },
  39: { name: "MXFP4", blockSize: 32, typeBytes: 17 },
  40: { name: "NVFP4", blockSize: 64, typeBytes: 36 },
  41: { name: "Q1_0", blockSize: 128, typeBytes: 18 },
  42: { name: "Q2_0", blockSize: 64, typeBytes: 18 },
};

/** Bytes that `elements` weights of ggml type `typeId` take (whole blocks). */
export function ggmlTypeBytes(typeId: number, elements: number): number {
  const t = GGML_TYPES[typeId];
  if (t === undefined) {
    throw new ModelError(
      `GGUF tensor type ${typeId} is not one Modelplan knows (ggml types 0–42); its size cannot be counted.`,
      "tensors.type",
    );
  }
  return Math.ceil(elements / t.blockSize) * t.typeBytes;
}

export function tensorElements(tensor: GgufTensor): number {
  return tensor.shape.reduce((a, b) => a * b, 1);
}

export function tensorBytes(tensor: GgufTensor): number {
  return ggmlTypeBytes(tensor.type, tensorElements(tensor));
}

/**
 * The routed experts' tensors: `blk.N.ffn_{gate,up,down}_exps` (and the fused
 * `ffn_gate_up_exps`), exactly what llama.cpp's `--n-cpu-moe` regex moves to
 * host RAM (common/arg.cpp). Shared experts (`_shexp`) are not among them.
 */
const EXPERT_TENSOR = /^blk\.\d+\.ffn_(up|down|gate|gate_up)_exps\./;

export function isExpertTensor(name: string): boolean {
  return EXPERT_TENSOR.test(name);
}

/** A header holds every tensor of its file only when the file is not one part of a split set. */
export function isWholeModel(header: GgufHeader): boolean {
  const parts = header.metadata["split.count"];
  return typeof parts !== "number" || parts <= 1;
}

// ---------------------------------------------------------------------------
// Header keys.
