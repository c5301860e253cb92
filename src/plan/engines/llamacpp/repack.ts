/**
 * llama.cpp's CPU weight repacking: on a CPU-only build the matrices of some types are copied, interleaved,
 * into a CPU_REPACK buffer at load, while the file stays mapped around them. Source: ggml-org/llama.cpp v0.4.0
 * (node-llama-cpp 3.21.1's build, test/engine/FINDINGS.md F8):
 * - ggml/src/ggml-cpu/repack.cpp:4573-4698 `ggml_repack_get_optimal_repack_type`: with AVX2, Q4_0, Q4_K,
 *   IQ4_NL and MXFP4 tensors whose `ne[1] % 8 == 0` (Q2_K only with AVX-512; Arm NEON takes Q4_0, Q4_K, Q5_K,
 *   Q6_K, Q8_0, IQ4_NL, MXFP4); its `supports_op` (4774) only for MUL_MAT of a 2-D and MUL_MAT_ID of a 3-D
 *   weight, so embeddings (GET_ROWS) stay mapped;
 * - src/llama-model.cpp:1058-1075 `make_cpu_buft_list` puts the extra buffer types before plain CPU, after a
 *   GPU backend's host buffer, which src/llama-model-loader.cpp:1262 turns back into plain CPU under mmap:
 *   so only a build without a GPU backend repacks (a CUDA build's layers in RAM are not copied);
 * - src/llama-model-loader.cpp:1659-1661 and 1774-1779: the mapping keeps the span from the first to the last
 *   tensor left in it (`mmaps_used`) and unmaps only what lies outside it, so a repacked tensor inside the
 *   span is held twice (its mapped pages and its copy), one past the last mapped tensor once.
 * The plan takes the AVX2 set, every x86 server and desktop since 2013 (`-nr`/`--no-repack` turns it off).
 */
import { tensorBytes } from "../../config/ggml.ts";
import type { CpuRepack, GgufHeader, GgufTensor } from "../../types.ts";

/** ggml_type ids AVX2's repack takes (ggml.h): Q4_0 2, Q4_K 12, IQ4_NL 20, MXFP4 39. */
const AVX2_REPACKED_TYPES: ReadonlySet<number> = new Set([2, 12, 20, 39]);

/** The weights llama.cpp reads by GET_ROWS (src/llama-arch.cpp LLM_TENSOR_INFOS), never repacked. */
const LOOKUP_TENSOR = /(^|\.)(token_embd|pos_embd|token_types|per_layer_token_embd|embed_tokens)\.weight$/;

/** GGUF's default data alignment (gguf.h GGUF_DEFAULT_ALIGNMENT). */
const GGUF_DEFAULT_ALIGNMENT = 32;

function repacked(t: GgufTensor, asOutput = false): boolean {
  const dims = t.shape.length;
  return (
    AVX2_REPACKED_TYPES.has(t.type) &&
    (dims === 2 || dims === 3) &&
    (t.shape[1] ?? 0) % 8 === 0 &&
    (asOutput || !LOOKUP_TENSOR.test(t.name))
  );
}

/**
 * The repack of a GGUF's tensors on an AVX2 CPU, from its header; null without a tensor index. A split set's
 * first part stands for the whole at its share of repacked bytes (the other parts' indexes are not read), and
 * its mapping is taken as whole.
 */
export function cpuRepackOf(header: GgufHeader | undefined, fileBytes: number, wholeModel: boolean): CpuRepack | null {
  const tensors = header?.tensors;
  if (!header || !tensors || tensors.length === 0) return null;
  const alignRaw = header.metadata["general.alignment"];
  const align = typeof alignRaw === "number" && alignRaw > 0 ? alignRaw : GGUF_DEFAULT_ALIGNMENT;
  // Offsets as writers lay the data out: in index order, each tensor aligned (gguf-py GGUFWriter).
  let offset = header.tensorDataOffsetBytes;
  let copy = 0;
  let firstMapped = Infinity;
  let lastMappedEnd = 0;
  const spans: { start: number; end: number }[] = [];
  for (const t of tensors) {
    const bytes = tensorBytes(t);
    if (repacked(t)) {
      copy += bytes;
      spans.push({ start: offset, end: offset + bytes });
    } else {
      firstMapped = Math.min(firstMapped, offset);
      lastMappedEnd = Math.max(lastMappedEnd, offset + bytes);
    }
    offset = Math.ceil((offset + bytes) / align) * align;
  }
  // A tied model's output is token_embd again as a MUL_MAT weight (src/llama-model-loader.cpp: TENSOR_DUPLICATED
  // loads it "as the output tensor"), so it is repacked while the embedding stays mapped.
  const embedding = tensors.find((t) => t.name === "token_embd.weight");
  if (embedding && !tensors.some((t) => t.name === "output.weight") && repacked(embedding, true))
    copy += tensorBytes(embedding);
  if (!wholeModel) {
    // The first part's file is its header and indexed data, `offset` bytes.
    return { copyBytes: Math.round((copy * fileBytes) / offset), unmappedBytes: 0 };
  }
  const unmapped = spans
    .filter((s) => s.end <= firstMapped || s.start >= lastMappedEnd)
    .reduce((sum, s) => sum + s.end - s.start, 0);
  return { copyBytes: copy, unmappedBytes: unmapped };
}

/** Host RAM the repack adds to the whole file on the CPU: the copies less what the mapping drops. */
export function cpuRepackExtraBytes(r: CpuRepack | null | undefined): number {
  return r ? r.copyBytes - r.unmappedBytes : 0;
}
