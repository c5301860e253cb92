/**
 * The dimensions of the llama.cpp graphs the plan places tensor by tensor (gallocr.ts), read from a GGUF
 * header the way llama.cpp v0.4.0 reads them (src/models/openai-moe.cpp and deepseek2.cpp
 * load_arch_hparams). Absent for every other architecture, and for variants whose graph has nodes the
 * models do not build (DeepSeek-V3's expert groups, a non-MLA DeepSeek-V2 file): those keep the
 * logits-and-rows estimate (memory.ts).
 */
import type { GgufHeader, GgufValue } from "../../types.ts";
import type { LlamaGraphDims } from "./graphTypes.ts";

export type { Deepseek2Dims, GraphInputs, LlamaDims, LlamaGraphDims, Lfm2Dims, Qwen3NextDims } from "./graphTypes.ts";

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
  if (!layers || !embd || !heads || vocab <= 0) return undefined;
  const experts = k("expert_count") ?? 0,
    used = k("expert_used_count") ?? 0,
    expertFf = k("expert_feed_forward_length") ?? 0;
  const tensors = header.tensors;
  const has = (suffix: string): boolean =>
    tensors?.some((t) => t.name.startsWith("blk.") && t.name.endsWith(suffix)) ?? false;
  if (arch === "gpt-oss" || arch === "llama") {
    const kvHeads = k("attention.head_count_kv") ?? heads;
    const headDim = arch === "gpt-oss" ? k("rope.dimension_count") : (k("attention.key_length") ?? embd / heads);
    const period =
      arch === "gpt-oss"
        ? m[`${arch}.attention.sliding_window_pattern`] === undefined
          ? 2
          : k("attention.sliding_window_pattern")
        : 0;
    // The llama builder here is the dense one without FFN biases; its tensor index says which QKV path runs.
    const ff = k("feed_forward_length") ?? 0;
    if (!headDim || period === undefined || !tensors) return undefined;
    if (
      arch === "llama" &&
      (experts > 0 || ff <= 0 || has("ffn_up.bias") || has("ffn_down.bias") || has("ffn_gate.bias"))
    )
      return undefined;
    if (arch === "gpt-oss" && (!experts || !used || !expertFf)) return undefined;
    return {
      arch: arch === "gpt-oss" ? "openai-moe" : "llama",
      layers,
      embd,
      heads,
      kvHeads,
      headDim,
      vocab,
      fusedQkv: has("attn_qkv.weight"),
      qkvBias: has("attn_q.bias"),
      outBias: has("attn_output.bias"),
      ff: arch === "llama" ? ff : 0,
      ...(arch === "gpt-oss" ? { moe: { experts, used, ff: expertFf } } : {}),
      pinsLastLayer: arch === "gpt-oss",
      // hparams.set_swa_pattern(period) (src/llama-hparams.cpp:8-17): a layer slides when il % period < period − 1.
      swaLayers: Array.from({ length: layers }, (_, il) => period !== 0 && il % period < period - 1),
    };
  }
  if (arch === "lfm2") {
    // One KV-head count a layer, 0 for the short convolutions (src/models/lfm2.cpp load_arch_hparams); the
    // sliding-window variant builds the iSWA graph, not modelled.
    const kv = m[`${arch}.attention.head_count_kv`];
    const lCache = k("shortconv.l_cache"),
      ff = k("feed_forward_length");
    if (!Array.isArray(kv) || kv.length !== layers || !lCache || !ff || !tensors || experts > 0) return undefined;
    if (m[`${arch}.attention.sliding_window`] !== undefined) return undefined;
    const kvHeads = kv.map(Number);
    return {
      arch: "lfm2",
      layers,
      embd,
      heads,
      kvHeads,
      headDim: embd / heads,
      ff,
      lCache,
      fusedQkv: has("attn_qkv.weight"),
      vocab,
    };
  }
  if (!experts || !used || !expertFf) return undefined;
  if (arch === "qwen3next") {
    // src/models/qwen3next.cpp load_arch_hparams; the fused wqkv/wqkv_gate path (the legacy ssm_in is not built).
    const kvHeads = k("attention.head_count_kv"),
      headDim = k("attention.key_length"),
      dState = k("ssm.state_size"),
      kHeads = k("ssm.group_count"),
      vHeads = k("ssm.time_step_rank"),
      dInner = k("ssm.inner_size"),
      dConv = k("ssm.conv_kernel"),
      interval = k("full_attention_interval") ?? 4;
    if (!kvHeads || !headDim || !dState || !kHeads || !vHeads || !dInner || !dConv || !tensors) return undefined;
    // Built: the wqkv + wqkv_gate path or the legacy ssm_in, separate expert gate/up, a shared expert, no MTP block, the interval pattern.
    const legacySsmIn = has("ssm_in.weight");
    const unbuilt =
      (!has("attn_qkv.weight") && !legacySsmIn) ||
      has("ffn_gate_up_exps.weight") ||
      !has("ffn_up_shexp.weight") ||
      (k("nextn_predict_layers") ?? 0) > 0 ||
      m[`${arch}.attention.recurrent_layers`] !== undefined;
    if (unbuilt) return undefined;
    return {
      arch: "qwen3next",
      layers,
      embd,
      heads,
      kvHeads,
      headDim,
      recurrent: Array.from({ length: layers }, (_, i) => (i + 1) % interval !== 0),
      dState,
      kHeads,
      vHeads,
      dInner,
      dConv,
      legacySsmIn,
      experts,
      expertsUsed: used,
      expertFf,
      sharedFf: k("expert_shared_feed_forward_length") ?? expertFf,
      vocab,
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
