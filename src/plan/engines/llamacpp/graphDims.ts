/**
 * The dimensions of the llama.cpp graphs the plan places tensor by tensor (gallocr.ts), read from a GGUF
 * header the way llama.cpp v0.4.0 reads them (src/models/openai-moe.cpp and deepseek2.cpp
 * load_arch_hparams). Absent for every other architecture, and for variants whose graph has nodes the
 * models do not build (DeepSeek-V3's expert groups, a non-MLA DeepSeek-V2 file): those keep the
 * logits-and-rows estimate (memory.ts).
 */
import type { GgufHeader, GgufValue } from "../../types.ts";
import type { LlamaGraphDims } from "./graphTypes.ts";

export type { Deepseek2Dims, GraphInputs, LlamaGraphDims, OpenaiMoeDims } from "./graphTypes.ts";

type Meta = Record<string, GgufValue>;
const num = (m: Meta, key: string): number | undefined => {
  const v = m[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
};

/** The graph dimensions of a GGUF llama.cpp would run with one of the modelled graphs, else undefined. */
export function llamaGraphDimsOf(header: GgufHeader | undefined, vocab: number): LlamaGraphDims | undefined {
  if (!header) return undefined;
  const m = header.metadata;
  const arch = m["general.architecture"];
  const k = (key: string): number | undefined => num(m, `${String(arch)}.${key}`);
  const layers = k("block_count"),
    embd = k("embedding_length"),
    heads = k("attention.head_count");
  const experts = k("expert_count"),
    used = k("expert_used_count"),
    expertFf = k("expert_feed_forward_length");
  if (!layers || !embd || !heads || !experts || !used || !expertFf || vocab <= 0) return undefined;
  if (arch === "gpt-oss") {
    const kvHeads = k("attention.head_count_kv"),
      headDim = k("rope.dimension_count") ?? k("attention.key_length");
    const period =
      m[`${arch}.attention.sliding_window_pattern`] === undefined ? 2 : k("attention.sliding_window_pattern");
    if (!kvHeads || !headDim || period === undefined) return undefined;
    const swaLayers = Array.from({ length: layers }, (_, il) => period === 0 || il % period < period - 1);
    return {
      arch: "openai-moe",
      layers,
      embd,
      heads,
      kvHeads,
      headDim,
      experts,
      expertsUsed: used,
      expertFf,
      vocab,
      swaLayers,
    };
  }
  if (arch === "deepseek2") {
    const kMla = k("attention.key_length_mla"),
      vHead = k("attention.value_length_mla"),
      kvLora = k("attention.kv_lora_rank"),
      rope = k("rope.dimension_count");
    // Expert groups (DeepSeek-V3's grouped top-k) add nodes the model does not build; sigmoid gating is an in-place UNARY.
    if (!kMla || !vHead || !kvLora || !rope || (k("expert_group_count") ?? 1) > 1) return undefined;
    const gating = k("expert_gating_func");
    const lite = layers === 26 || layers === 27 || (layers === 48 && vocab === 128256);
    return {
      arch: "deepseek2",
      layers,
      embd,
      heads,
      nope: kMla - rope,
      rope,
      kvLora,
      vHead,
      qLora: lite ? 0 : (k("attention.q_lora_rank") ?? 0),
      denseFirst: k("leading_dense_block_count") ?? 0,
      denseFf: k("feed_forward_length") ?? 0,
      experts,
      expertsUsed: used,
      expertFf,
      sharedFf: (k("expert_shared_count") ?? 0) * expertFf,
      probsBias: header.tensors?.some((t) => t.name.endsWith(".exp_probs_b.bias")) ?? gating === 2,
      normWeights: m[`${arch}.expert_weights_norm`] === true,
      weightsScale: k("expert_weights_scale") ?? 0,
      vocab,
    };
  }
  return undefined;
}
