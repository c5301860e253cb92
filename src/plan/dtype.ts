/** Bytes of one element, by the dtype a checkpoint stores and the dtype a model computes in. */
import { ModelError } from "./config/fields.ts";

/**
 * Bytes of one element of what the model computes and caches in: 4 for an
 * fp32 model, else 2. An fp8 or 4-bit checkpoint still runs (and, with KV
 * dtype "auto", caches) in 16 bits, unlike shape.ts's dtypeBytes, which
 * reads a stored dtype.
 */
export function computeDtypeBytes(dtype: string): number {
  return dtype.includes("32") ? 4 : 2;
}

// ---------------------------------------------------------------------------
// The checkpoint, cut into what cards hold

/** Bytes of one element of a torch dtype name ("bfloat16", "torch.float32", "float8_e4m3fn"). */
export function dtypeBytes(dtype: string): number {
  const d = dtype.replace(/^torch\./, "").toLowerCase();
  if (d === "float32" || d === "fp32" || d === "float") return 4;
  if (d === "bfloat16" || d === "float16" || d === "half" || d === "bf16" || d === "fp16") return 2;
  if (d.startsWith("float8") || d === "fp8" || d === "uint8" || d === "int8") return 1;
  throw new ModelError(`unknown dtype "${dtype}": expected bfloat16, float16 or float32.`, "dtype");
}

// ---------------------------------------------------------------------------
// Where the text model lives.
