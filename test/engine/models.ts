/**
 * GGUF headers of real models, one per attention kind, with their tensors as
 * llama.cpp's loader asks for them (ggml-org/llama.cpp v0.4.0, src/models/<arch>.cpp
 * `load_arch_tensors`, dims in ggml order: ne0 first). Shapes are the
 * published configs' (each cited); a `layers` below the model's own keeps
 * every per-layer formula and only shortens the stack. Matrices are Q5_0, which no CPU build
 * repacks (ggml-cpu repack.cpp and amx/common.h take Q4_0, Q4_1, Q8_0, Q2_K, Q4_K, Q5_K, Q6_K,
 * IQ4_NL, IQ4_XS, MXFP4 and F16, by ISA), so the mapped file is the whole of the weights; and a third
 * of BF16's bytes, because llama.cpp maps a file with MAP_POPULATE (src/llama-mmap.cpp), which
 * reads every page of the hole.
 */
import { GGML, f32, f32s, i32s, str, strs, u32, type GgufKvValue, type GgufTensorSpec } from "./ggufWriter.ts";

export interface ModelSpec {
  /** A short id, used in case names and file names. */
  id: string;
  metadata: Record<string, GgufKvValue>;
  tensors: GgufTensorSpec[];
}

/**
 * An SPM vocabulary of `n` entries: <unk>, <s>, </s>, the 256 byte tokens (node-llama-cpp
 * tokenizes a probe text at load; without byte fallback llama.cpp throws) and filler pieces.
 */
function vocab(n: number): Record<string, GgufKvValue> {
  const byte = (i: number): string => `<0x${i.toString(16).toUpperCase().padStart(2, "0")}>`;
  const tokens = Array.from({ length: n }, (_, i) =>
    i === 0 ? "<unk>" : i === 1 ? "<s>" : i === 2 ? "</s>" : i < 259 ? byte(i - 3) : `t${i}`,
  );
  // llama_token_type: 2 unknown, 3 control, 6 byte, 1 normal.
  const types = Array.from({ length: n }, (_, i) => (i === 0 ? 2 : i < 3 ? 3 : i < 259 ? 6 : 1));
  return {
    "tokenizer.ggml.model": str("llama"),
    "tokenizer.ggml.tokens": strs(tokens),
    "tokenizer.ggml.scores": f32s(new Array<number>(n).fill(0)),
    "tokenizer.ggml.token_type": i32s(types),
  };
}

class Tensors {
  readonly list: GgufTensorSpec[] = [];
  constructor(private readonly weight: number) {}
  /** A matrix (or expert stack) in the model's weight type. */
  w(name: string, ...dims: number[]): this {
    this.list.push({ name, dims, type: this.weight });
    return this;
  }
  /** A vector (norms, biases, sinks): llama.cpp's converter keeps them F32. */
  v(name: string, ...dims: number[]): this {
    this.list.push({ name, dims, type: GGML.F32 });
    return this;
  }
  typed(name: string, type: number, ...dims: number[]): this {
    this.list.push({ name, dims, type });
    return this;
  }
}

function common(
  arch: string,
  o: { layers: number; embd: number; heads: number; ctx: number; vocab: number },
): Record<string, GgufKvValue> {
  return {
    "general.architecture": str(arch),
    [`${arch}.block_count`]: u32(o.layers),
    [`${arch}.context_length`]: u32(o.ctx),
    [`${arch}.embedding_length`]: u32(o.embd),
    [`${arch}.attention.head_count`]: u32(o.heads),
    [`${arch}.attention.layer_norm_rms_epsilon`]: f32(1e-6),
    [`${arch}.vocab_size`]: u32(o.vocab),
    ...vocab(o.vocab),
  };
}

/**
 * Llama-3.1-8B (meta-llama/Llama-3.1-8B config.json): GQA, 32 heads over 8 KV heads of 128. `separateQkv`: Q, K
 * and V as three matrices, as the Hub's Llama GGUFs have them (convert_hf_to_gguf.py writes attn_q/attn_k/attn_v),
 * which llama.cpp multiplies one by one; by default one fused attn_qkv.
 */
export function llama31_8b(layers = 32, weight: number = GGML.Q5_0, separateQkv = false): ModelSpec {
  const E = 4096,
    H = 32,
    KV = 8,
    D = 128,
    FF = 14336,
    V = 128256;
  const t = new Tensors(weight).w("token_embd.weight", E, V).v("output_norm.weight", E).w("output.weight", E, V);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E);
    if (separateQkv)
      t.w(`blk.${i}.attn_q.weight`, E, H * D)
        .w(`blk.${i}.attn_k.weight`, E, KV * D)
        .w(`blk.${i}.attn_v.weight`, E, KV * D);
    else t.w(`blk.${i}.attn_qkv.weight`, E, (H + 2 * KV) * D);
    t.w(`blk.${i}.attn_output.weight`, H * D, E)
      .v(`blk.${i}.ffn_norm.weight`, E)
      .w(`blk.${i}.ffn_gate.weight`, E, FF)
      .w(`blk.${i}.ffn_up.weight`, E, FF)
      .w(`blk.${i}.ffn_down.weight`, FF, E);
  }
  return {
    id: `llama-3.1-8b-L${layers}-${weightName(weight)}${separateQkv ? "-qkv3" : ""}`,
    metadata: {
      ...common("llama", { layers, embd: E, heads: H, ctx: 131072, vocab: V }),
      "llama.attention.head_count_kv": u32(KV),
      "llama.feed_forward_length": u32(FF),
      "llama.rope.dimension_count": u32(D),
      "llama.rope.freq_base": f32(500000),
    },
    tensors: t.list,
  };
}

/** Gemma-2-9B (google/gemma-2-9b config.json): sliding window 4096 on every other layer. */
export function gemma2_9b(layers = 42): ModelSpec {
  const E = 3584,
    H = 16,
    KV = 8,
    D = 256,
    FF = 14336,
    V = 256000;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E)
      .w(`blk.${i}.attn_qkv.weight`, E, (H + 2 * KV) * D)
      .w(`blk.${i}.attn_output.weight`, H * D, E)
      .v(`blk.${i}.post_attention_norm.weight`, E)
      .v(`blk.${i}.ffn_norm.weight`, E)
      .w(`blk.${i}.ffn_gate.weight`, E, FF)
      .w(`blk.${i}.ffn_up.weight`, E, FF)
      .w(`blk.${i}.ffn_down.weight`, FF, E)
      .v(`blk.${i}.post_ffw_norm.weight`, E);
  }
  return {
    id: `gemma-2-9b-L${layers}`,
    metadata: {
      ...common("gemma2", { layers, embd: E, heads: H, ctx: 8192, vocab: V }),
      "gemma2.attention.head_count_kv": u32(KV),
      "gemma2.attention.key_length": u32(D),
      "gemma2.attention.value_length": u32(D),
      "gemma2.feed_forward_length": u32(FF),
      "gemma2.attention.sliding_window": u32(4096),
      "gemma2.attn_logit_softcapping": f32(50),
      "gemma2.final_logit_softcapping": f32(30),
    },
    tensors: t.list,
  };
}

/** Gemma-3-4B (google/gemma-3-4b-it text_config): a 1024-token window on five layers of six. */
export function gemma3_4b(layers = 34): ModelSpec {
  const E = 2560,
    H = 8,
    KV = 4,
    D = 256,
    FF = 10240,
    V = 262208;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E)
      .w(`blk.${i}.attn_qkv.weight`, E, (H + 2 * KV) * D)
      .w(`blk.${i}.attn_output.weight`, H * D, E)
      .v(`blk.${i}.post_attention_norm.weight`, E)
      .v(`blk.${i}.attn_k_norm.weight`, D)
      .v(`blk.${i}.attn_q_norm.weight`, D)
      .v(`blk.${i}.ffn_norm.weight`, E)
      .w(`blk.${i}.ffn_gate.weight`, E, FF)
      .w(`blk.${i}.ffn_up.weight`, E, FF)
      .w(`blk.${i}.ffn_down.weight`, FF, E)
      .v(`blk.${i}.post_ffw_norm.weight`, E);
  }
  return {
    id: `gemma-3-4b-L${layers}`,
    metadata: {
      ...common("gemma3", { layers, embd: E, heads: H, ctx: 131072, vocab: V }),
      "gemma3.attention.head_count_kv": u32(KV),
      "gemma3.attention.key_length": u32(D),
      "gemma3.attention.value_length": u32(D),
      "gemma3.feed_forward_length": u32(FF),
      "gemma3.attention.sliding_window": u32(1024),
      "gemma3.rope.freq_base": f32(1e6),
    },
    tensors: t.list,
  };
}

/**
 * gpt-oss-20b (openai/gpt-oss-20b config.json): 128-token window on every other layer, attention
 * sinks, 32 experts (4 a token) in MXFP4, the rest F16 here (the published GGUF keeps them BF16/F32).
 */
export function gptOss20b(layers = 24): ModelSpec {
  const E = 2880,
    H = 64,
    KV = 8,
    D = 64,
    X = 32,
    FFX = 2880,
    V = 201088;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E).w("output.weight", E, V);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E)
      .v(`blk.${i}.post_attention_norm.weight`, E)
      .w(`blk.${i}.attn_q.weight`, E, H * D)
      .w(`blk.${i}.attn_k.weight`, E, KV * D)
      .w(`blk.${i}.attn_v.weight`, E, KV * D)
      .v(`blk.${i}.attn_q.bias`, H * D)
      .v(`blk.${i}.attn_k.bias`, KV * D)
      .v(`blk.${i}.attn_v.bias`, KV * D)
      .w(`blk.${i}.attn_output.weight`, H * D, E)
      .v(`blk.${i}.attn_output.bias`, E)
      .v(`blk.${i}.attn_sinks.weight`, H)
      .v(`blk.${i}.ffn_gate_inp.weight`, E, X)
      .v(`blk.${i}.ffn_gate_inp.bias`, X)
      .typed(`blk.${i}.ffn_gate_exps.weight`, GGML.MXFP4, E, FFX, X)
      .typed(`blk.${i}.ffn_up_exps.weight`, GGML.MXFP4, E, FFX, X)
      .typed(`blk.${i}.ffn_down_exps.weight`, GGML.MXFP4, FFX, E, X)
      .v(`blk.${i}.ffn_gate_exps.bias`, FFX, X)
      .v(`blk.${i}.ffn_up_exps.bias`, FFX, X)
      .v(`blk.${i}.ffn_down_exps.bias`, E, X);
  }
  return {
    id: `gpt-oss-20b-L${layers}`,
    metadata: {
      ...common("gpt-oss", { layers, embd: E, heads: H, ctx: 131072, vocab: V }),
      "gpt-oss.attention.head_count_kv": u32(KV),
      "gpt-oss.attention.key_length": u32(D),
      "gpt-oss.attention.value_length": u32(D),
      "gpt-oss.rope.dimension_count": u32(D),
      "gpt-oss.feed_forward_length": u32(FFX),
      "gpt-oss.expert_feed_forward_length": u32(FFX),
      "gpt-oss.expert_count": u32(X),
      "gpt-oss.expert_used_count": u32(4),
      "gpt-oss.attention.sliding_window": u32(128),
      "gpt-oss.rope.freq_base": f32(150000),
    },
    tensors: t.list,
  };
}

/** Qwen3-30B-A3B (Qwen/Qwen3-30B-A3B config.json): 128 experts, 8 a token, 4 KV heads of 128. */
export function qwen3moe30b(layers = 48): ModelSpec {
  const E = 2048,
    H = 32,
    KV = 4,
    D = 128,
    X = 128,
    FFX = 768,
    V = 151936;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E).w("output.weight", E, V);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E)
      .w(`blk.${i}.attn_qkv.weight`, E, (H + 2 * KV) * D)
      .w(`blk.${i}.attn_output.weight`, H * D, E)
      .v(`blk.${i}.attn_k_norm.weight`, D)
      .v(`blk.${i}.attn_q_norm.weight`, D)
      .v(`blk.${i}.ffn_norm.weight`, E)
      .v(`blk.${i}.ffn_gate_inp.weight`, E, X)
      .w(`blk.${i}.ffn_gate_exps.weight`, E, FFX, X)
      .w(`blk.${i}.ffn_up_exps.weight`, E, FFX, X)
      .w(`blk.${i}.ffn_down_exps.weight`, FFX, E, X);
  }
  return {
    id: `qwen3-30b-a3b-L${layers}`,
    metadata: {
      ...common("qwen3moe", { layers, embd: E, heads: H, ctx: 40960, vocab: V }),
      "qwen3moe.attention.head_count_kv": u32(KV),
      "qwen3moe.attention.key_length": u32(D),
      "qwen3moe.attention.value_length": u32(D),
      "qwen3moe.feed_forward_length": u32(6144),
      "qwen3moe.expert_feed_forward_length": u32(FFX),
      "qwen3moe.expert_count": u32(X),
      "qwen3moe.expert_used_count": u32(8),
      "qwen3moe.rope.freq_base": f32(1e6),
    },
    tensors: t.list,
  };
}

/**
 * DeepSeek-V2-Lite (deepseek-ai/DeepSeek-V2-Lite config.json): MLA with a 512 latent and 64 RoPE
 * dims, no q LoRA, one dense layer then 64 experts (6 a token) and 2 shared. The GGUF is the
 * current converter's (attn_k_b / attn_v_b split, key_length 576, value_length 512).
 */
export function deepseekV2Lite(layers = 27): ModelSpec {
  const E = 2048,
    H = 16,
    R = 512,
    ROPE = 64,
    NOPE = 128,
    VD = 128,
    X = 64,
    FFX = 1408,
    FF = 10944,
    V = 102400;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E).w("output.weight", E, V);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E)
      .v(`blk.${i}.attn_kv_a_norm.weight`, R)
      .w(`blk.${i}.attn_q.weight`, E, H * (NOPE + ROPE))
      .w(`blk.${i}.attn_kv_a_mqa.weight`, E, R + ROPE)
      .w(`blk.${i}.attn_k_b.weight`, NOPE, R, H)
      .w(`blk.${i}.attn_v_b.weight`, R, VD, H)
      .w(`blk.${i}.attn_output.weight`, H * VD, E)
      .v(`blk.${i}.ffn_norm.weight`, E);
    if (i < 1)
      t.w(`blk.${i}.ffn_gate.weight`, E, FF).w(`blk.${i}.ffn_up.weight`, E, FF).w(`blk.${i}.ffn_down.weight`, FF, E);
    else {
      t.v(`blk.${i}.ffn_gate_inp.weight`, E, X)
        .w(`blk.${i}.ffn_gate_exps.weight`, E, FFX, X)
        .w(`blk.${i}.ffn_up_exps.weight`, E, FFX, X)
        .w(`blk.${i}.ffn_down_exps.weight`, FFX, E, X)
        .w(`blk.${i}.ffn_gate_shexp.weight`, E, 2 * FFX)
        .w(`blk.${i}.ffn_up_shexp.weight`, E, 2 * FFX)
        .w(`blk.${i}.ffn_down_shexp.weight`, 2 * FFX, E);
    }
  }
  return {
    id: `deepseek-v2-lite-L${layers}`,
    metadata: {
      ...common("deepseek2", { layers, embd: E, heads: H, ctx: 163840, vocab: V }),
      "deepseek2.attention.head_count_kv": u32(1),
      "deepseek2.attention.key_length": u32(R + ROPE),
      "deepseek2.attention.value_length": u32(R),
      "deepseek2.attention.key_length_mla": u32(NOPE + ROPE),
      "deepseek2.attention.value_length_mla": u32(VD),
      "deepseek2.attention.kv_lora_rank": u32(R),
      "deepseek2.rope.dimension_count": u32(ROPE),
      "deepseek2.feed_forward_length": u32(FF),
      "deepseek2.leading_dense_block_count": u32(1),
      "deepseek2.expert_feed_forward_length": u32(FFX),
      "deepseek2.expert_count": u32(X),
      "deepseek2.expert_used_count": u32(6),
      "deepseek2.expert_shared_count": u32(2),
      "deepseek2.expert_weights_scale": f32(1),
    },
    tensors: t.list,
  };
}

/**
 * Qwen3-Next-80B-A3B (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): three gated-delta layers to one
 * of attention (full_attention_interval 4); 16 key heads and 32 value heads of 128, conv kernel 4;
 * 512 experts (10 a token) and a shared expert.
 */
export function qwen3next80b(layers = 48): ModelSpec {
  const E = 2048,
    H = 16,
    KV = 2,
    D = 256,
    X = 512,
    FFX = 512,
    V = 151936;
  const dState = 128,
    kHeads = 16,
    vHeads = 32,
    conv = 4;
  const keyDim = dState * kHeads,
    valueDim = dState * vHeads;
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("output_norm.weight", E).w("output.weight", E, V);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.attn_norm.weight`, E).v(`blk.${i}.post_attention_norm.weight`, E);
    if ((i + 1) % 4 === 0) {
      // The attention graph reads wq (query and gate, 2 × head dim) and wk, wv apart: a fused attn_qkv loads but leaves wq null.
      t.w(`blk.${i}.attn_q.weight`, E, H * D * 2)
        .w(`blk.${i}.attn_k.weight`, E, KV * D)
        .w(`blk.${i}.attn_v.weight`, E, KV * D)
        .w(`blk.${i}.attn_output.weight`, H * D, E)
        .v(`blk.${i}.attn_q_norm.weight`, D)
        .v(`blk.${i}.attn_k_norm.weight`, D);
    } else {
      t.w(`blk.${i}.attn_qkv.weight`, E, keyDim * 2 + valueDim)
        .w(`blk.${i}.attn_gate.weight`, E, valueDim)
        .v(`blk.${i}.ssm_conv1d.weight`, conv, keyDim * 2 + valueDim)
        .v(`blk.${i}.ssm_dt.bias`, vHeads)
        .v(`blk.${i}.ssm_a`, vHeads)
        .w(`blk.${i}.ssm_ba.weight`, E, vHeads * 2)
        .v(`blk.${i}.ssm_norm.weight`, dState)
        .w(`blk.${i}.ssm_out.weight`, valueDim, E);
    }
    t.v(`blk.${i}.ffn_gate_inp.weight`, E, X)
      .w(`blk.${i}.ffn_gate_exps.weight`, E, FFX, X)
      .w(`blk.${i}.ffn_up_exps.weight`, E, FFX, X)
      .w(`blk.${i}.ffn_down_exps.weight`, FFX, E, X)
      .v(`blk.${i}.ffn_gate_inp_shexp.weight`, E)
      .w(`blk.${i}.ffn_gate_shexp.weight`, E, FFX)
      .w(`blk.${i}.ffn_up_shexp.weight`, E, FFX)
      .w(`blk.${i}.ffn_down_shexp.weight`, FFX, E);
  }
  return {
    id: `qwen3-next-80b-a3b-L${layers}`,
    metadata: {
      ...common("qwen3next", { layers, embd: E, heads: H, ctx: 262144, vocab: V }),
      "qwen3next.attention.head_count_kv": u32(KV),
      "qwen3next.attention.key_length": u32(D),
      "qwen3next.attention.value_length": u32(D),
      "qwen3next.rope.dimension_count": u32(64),
      "qwen3next.feed_forward_length": u32(5120),
      "qwen3next.expert_feed_forward_length": u32(FFX),
      "qwen3next.expert_shared_feed_forward_length": u32(FFX),
      "qwen3next.expert_count": u32(X),
      "qwen3next.expert_used_count": u32(10),
      "qwen3next.ssm.conv_kernel": u32(conv),
      "qwen3next.ssm.inner_size": u32(valueDim),
      "qwen3next.ssm.state_size": u32(dState),
      "qwen3next.ssm.time_step_rank": u32(vHeads),
      "qwen3next.ssm.group_count": u32(kHeads),
      "qwen3next.full_attention_interval": u32(4),
    },
    tensors: t.list,
  };
}

/**
 * LFM2-1.2B (LiquidAI/LFM2-1.2B config.json): 16 layers, short convolutions (L_cache 3) but for
 * attention at layers 2, 5, 8, 10, 12, 14; `layers` below 16 keeps the first ones.
 */
export function lfm2_1b(layers = 16): ModelSpec {
  const E = 2048,
    H = 32,
    KV = 8,
    D = 64,
    FF = 8192,
    V = 65536,
    LCACHE = 3;
  const attention = new Set([2, 5, 8, 10, 12, 14]);
  const t = new Tensors(GGML.Q5_0).w("token_embd.weight", E, V).v("token_embd_norm.weight", E);
  for (let i = 0; i < layers; i++) {
    t.v(`blk.${i}.ffn_norm.weight`, E)
      .w(`blk.${i}.ffn_gate.weight`, E, FF)
      .w(`blk.${i}.ffn_up.weight`, E, FF)
      .w(`blk.${i}.ffn_down.weight`, FF, E)
      .v(`blk.${i}.attn_norm.weight`, E);
    if (attention.has(i)) {
      t.v(`blk.${i}.attn_q_norm.weight`, D)
        .v(`blk.${i}.attn_k_norm.weight`, D)
        .w(`blk.${i}.attn_qkv.weight`, E, E + 2 * KV * D)
        .w(`blk.${i}.attn_output.weight`, E, E);
    } else {
      t.v(`blk.${i}.shortconv.conv.weight`, LCACHE, E)
        .w(`blk.${i}.shortconv.in_proj.weight`, E, 3 * E)
        .w(`blk.${i}.shortconv.out_proj.weight`, E, E);
    }
  }
  return {
    id: `lfm2-1.2b-L${layers}`,
    metadata: {
      ...common("lfm2", { layers, embd: E, heads: H, ctx: 128000, vocab: V }),
      "lfm2.attention.head_count_kv": i32s(Array.from({ length: layers }, (_, i) => (attention.has(i) ? KV : 0))),
      "lfm2.feed_forward_length": u32(FF),
      "lfm2.shortconv.l_cache": u32(LCACHE),
      "lfm2.rope.freq_base": f32(1e6),
    },
    tensors: t.list,
  };
}

function weightName(type: number): string {
  return Object.entries(GGML).find(([, id]) => id === type)?.[0] ?? String(type);
}
