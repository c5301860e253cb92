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
  /** Block i's norm and fused attention: H query heads and KV key/value heads of D, one attn_qkv matrix. */
  attention(i: number, embd: number, heads: number, kv: number, headDim: number, separateQkv = false): this {
    this.v(`blk.${i}.attn_norm.weight`, embd);
    if (separateQkv)
      this.w(`blk.${i}.attn_q.weight`, embd, heads * headDim)
        .w(`blk.${i}.attn_k.weight`, embd, kv * headDim)
        .w(`blk.${i}.attn_v.weight`, embd, kv * headDim);
    else this.w(`blk.${i}.attn_qkv.weight`, embd, (heads + 2 * kv) * headDim);
    return this.w(`blk.${i}.attn_output.weight`, heads * headDim, embd);
  }
  /** Block i's gated feed-forward (gate, up, down); `suffix` "_shexp" for a shared expert's. */
  ffn(i: number, embd: number, ff: number, suffix = ""): this {
    return this.w(`blk.${i}.ffn_gate${suffix}.weight`, embd, ff)
      .w(`blk.${i}.ffn_up${suffix}.weight`, embd, ff)
      .w(`blk.${i}.ffn_down${suffix}.weight`, ff, embd);
  }
  /** Block i's router and routed experts' stacks. */
  experts(i: number, embd: number, ff: number, experts: number): this {
    return this.v(`blk.${i}.ffn_gate_inp.weight`, embd, experts)
      .w(`blk.${i}.ffn_gate_exps.weight`, embd, ff, experts)
      .w(`blk.${i}.ffn_up_exps.weight`, embd, ff, experts)
      .w(`blk.${i}.ffn_down_exps.weight`, ff, embd, experts);
  }
}

/** The KV heads and their key and value widths, as most architectures name them (unprefixed). */
function kvHeads(kv: number, headDim: number): Record<string, GgufKvValue> {
  return {
    "attention.head_count_kv": u32(kv),
    "attention.key_length": u32(headDim),
    "attention.value_length": u32(headDim),
  };
}

/** What a model states: its header figures, its tensors and its own keys; modelSpec writes the rest. */
interface ModelDef {
  id: string;
  arch: string;
  header: Header;
  /** The matrices' type; Q5_0 unless said. */
  weight?: number;
  /** The tensors after token_embd and before the blocks; unless said, output_norm and an untied output. */
  top?: (t: Tensors) => void;
  block: (t: Tensors, i: number) => void;
  /** The architecture's own keys without its `<arch>.` prefix, in the header's order after the shared ones. */
  keys: Record<string, GgufKvValue>;
}

/** A model's GGUF header: the shared keys and vocabulary, its own keys, token_embd, its top tensors and its blocks. */
function modelSpec(d: ModelDef): ModelSpec {
  const { embd, vocab } = d.header;
  const t = new Tensors(d.weight ?? GGML.Q5_0).w("token_embd.weight", embd, vocab);
  if (d.top) d.top(t);
  else t.v("output_norm.weight", embd).w("output.weight", embd, vocab);
  for (let i = 0; i < d.header.layers; i++) d.block(t, i);
  const own = Object.fromEntries(Object.entries(d.keys).map(([k, v]) => [`${d.arch}.${k}`, v]));
  return { id: d.id, metadata: { ...common(d.arch, d.header), ...own }, tensors: t.list };
}

/** The figures every architecture's header states. */
interface Header {
  layers: number;
  embd: number;
  heads: number;
  ctx: number;
  vocab: number;
}

function common(arch: string, o: Header): Record<string, GgufKvValue> {
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
    FF = 14336;
  return modelSpec({
    id: `llama-3.1-8b-L${layers}-${weightName(weight)}${separateQkv ? "-qkv3" : ""}`,
    arch: "llama",
    header: { layers, embd: E, heads: H, ctx: 131072, vocab: 128256 },
    weight,
    block: (t, i) => t.attention(i, E, H, KV, D, separateQkv).v(`blk.${i}.ffn_norm.weight`, E).ffn(i, E, FF),
    keys: {
      "attention.head_count_kv": u32(KV),
      feed_forward_length: u32(FF),
      "rope.dimension_count": u32(D),
      "rope.freq_base": f32(500000),
    },
  });
}

/**
 * Gemma's block (llama.cpp's gemma2 and gemma3 graphs, src/models/): norms before and after attention and
 * the feed-forward, the output tied to the embedding; Gemma 3 adds q and k norms.
 */
function gemmaBlock(
  t: Tensors,
  i: number,
  d: { E: number; H: number; KV: number; D: number; FF: number; qkNorm: boolean },
): void {
  t.attention(i, d.E, d.H, d.KV, d.D).v(`blk.${i}.post_attention_norm.weight`, d.E);
  if (d.qkNorm) t.v(`blk.${i}.attn_k_norm.weight`, d.D).v(`blk.${i}.attn_q_norm.weight`, d.D);
  t.v(`blk.${i}.ffn_norm.weight`, d.E).ffn(i, d.E, d.FF).v(`blk.${i}.post_ffw_norm.weight`, d.E);
}

/** Gemma-2-9B (google/gemma-2-9b config.json): sliding window 4096 on every other layer. */
export function gemma2_9b(layers = 42): ModelSpec {
  const E = 3584,
    H = 16,
    KV = 8,
    D = 256,
    FF = 14336;
  return modelSpec({
    id: `gemma-2-9b-L${layers}`,
    arch: "gemma2",
    header: { layers, embd: E, heads: H, ctx: 8192, vocab: 256000 },
    top: (t) => t.v("output_norm.weight", E),
    block: (t, i) => gemmaBlock(t, i, { E, H, KV, D, FF, qkNorm: false }),
    keys: {
      ...kvHeads(KV, D),
      feed_forward_length: u32(FF),
      "attention.sliding_window": u32(4096),
      attn_logit_softcapping: f32(50),
      final_logit_softcapping: f32(30),
    },
  });
}

/** Gemma-3-4B (google/gemma-3-4b-it text_config): a 1024-token window on five layers of six. */
export function gemma3_4b(layers = 34): ModelSpec {
  const E = 2560,
    H = 8,
    KV = 4,
    D = 256,
    FF = 10240;
  return modelSpec({
    id: `gemma-3-4b-L${layers}`,
    arch: "gemma3",
    header: { layers, embd: E, heads: H, ctx: 131072, vocab: 262208 },
    top: (t) => t.v("output_norm.weight", E),
    block: (t, i) => gemmaBlock(t, i, { E, H, KV, D, FF, qkNorm: true }),
    keys: {
      ...kvHeads(KV, D),
      feed_forward_length: u32(FF),
      "attention.sliding_window": u32(1024),
      "rope.freq_base": f32(1e6),
    },
  });
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
    FFX = 2880;
  return modelSpec({
    id: `gpt-oss-20b-L${layers}`,
    arch: "gpt-oss",
    header: { layers, embd: E, heads: H, ctx: 131072, vocab: 201088 },
    block: (t, i) =>
      t
        .v(`blk.${i}.attn_norm.weight`, E)
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
        .v(`blk.${i}.ffn_down_exps.bias`, E, X),
    keys: {
      ...kvHeads(KV, D),
      "rope.dimension_count": u32(D),
      feed_forward_length: u32(FFX),
      expert_feed_forward_length: u32(FFX),
      expert_count: u32(X),
      expert_used_count: u32(4),
      "attention.sliding_window": u32(128),
      "rope.freq_base": f32(150000),
    },
  });
}

/** Qwen3-30B-A3B (Qwen/Qwen3-30B-A3B config.json): 128 experts, 8 a token, 4 KV heads of 128. */
export function qwen3moe30b(layers = 48): ModelSpec {
  const E = 2048,
    H = 32,
    KV = 4,
    D = 128,
    X = 128,
    FFX = 768;
  return modelSpec({
    id: `qwen3-30b-a3b-L${layers}`,
    arch: "qwen3moe",
    header: { layers, embd: E, heads: H, ctx: 40960, vocab: 151936 },
    block: (t, i) =>
      t
        .attention(i, E, H, KV, D)
        .v(`blk.${i}.attn_k_norm.weight`, D)
        .v(`blk.${i}.attn_q_norm.weight`, D)
        .v(`blk.${i}.ffn_norm.weight`, E)
        .experts(i, E, FFX, X),
    keys: {
      ...kvHeads(KV, D),
      feed_forward_length: u32(6144),
      expert_feed_forward_length: u32(FFX),
      expert_count: u32(X),
      expert_used_count: u32(8),
      "rope.freq_base": f32(1e6),
    },
  });
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
    FF = 10944;
  return modelSpec({
    id: `deepseek-v2-lite-L${layers}`,
    arch: "deepseek2",
    header: { layers, embd: E, heads: H, ctx: 163840, vocab: 102400 },
    block: (t, i) => {
      t.v(`blk.${i}.attn_norm.weight`, E)
        .v(`blk.${i}.attn_kv_a_norm.weight`, R)
        .w(`blk.${i}.attn_q.weight`, E, H * (NOPE + ROPE))
        .w(`blk.${i}.attn_kv_a_mqa.weight`, E, R + ROPE)
        .w(`blk.${i}.attn_k_b.weight`, NOPE, R, H)
        .w(`blk.${i}.attn_v_b.weight`, R, VD, H)
        .w(`blk.${i}.attn_output.weight`, H * VD, E)
        .v(`blk.${i}.ffn_norm.weight`, E);
      if (i < 1) t.ffn(i, E, FF);
      else t.experts(i, E, FFX, X).ffn(i, E, 2 * FFX, "_shexp");
    },
    keys: {
      "attention.head_count_kv": u32(1),
      "attention.key_length": u32(R + ROPE),
      "attention.value_length": u32(R),
      "attention.key_length_mla": u32(NOPE + ROPE),
      "attention.value_length_mla": u32(VD),
      "attention.kv_lora_rank": u32(R),
      "rope.dimension_count": u32(ROPE),
      feed_forward_length: u32(FF),
      leading_dense_block_count: u32(1),
      expert_feed_forward_length: u32(FFX),
      expert_count: u32(X),
      expert_used_count: u32(6),
      expert_shared_count: u32(2),
      expert_weights_scale: f32(1),
    },
  });
}

/**
 * Qwen3-Next-80B-A3B (Qwen/Qwen3-Next-80B-A3B-Instruct config.json): three gated-delta layers to one
 * of attention (full_attention_interval 4); 16 key heads and 32 value heads of 128, conv kernel 4;
 * 512 experts (10 a token) and a shared expert.
 */
export function qwen3next80b(layers = 48, legacySsmIn = false): ModelSpec {
  const E = 2048,
    H = 16,
    KV = 2,
    D = 256,
    X = 512,
    FFX = 512;
  const dState = 128,
    kHeads = 16,
    vHeads = 32,
    conv = 4;
  const keyDim = dState * kHeads,
    valueDim = dState * vHeads;
  return modelSpec({
    id: `qwen3-next-80b-a3b-L${layers}${legacySsmIn ? "-ssm_in" : ""}`,
    arch: "qwen3next",
    header: { layers, embd: E, heads: H, ctx: 262144, vocab: 151936 },
    block: (t, i) => {
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
        // The converter's split (conversion/qwen.py: ATTN_QKV and ATTN_GATE), or the earlier files' one in_proj_qkvz
        // (ssm_in, "used by legacy GGUF", src/models/qwen3next.cpp), which the graph splits itself.
        if (legacySsmIn) t.w(`blk.${i}.ssm_in.weight`, E, keyDim * 2 + valueDim * 2);
        else t.w(`blk.${i}.attn_qkv.weight`, E, keyDim * 2 + valueDim).w(`blk.${i}.attn_gate.weight`, E, valueDim);
        t.v(`blk.${i}.ssm_conv1d.weight`, conv, keyDim * 2 + valueDim)
          .v(`blk.${i}.ssm_dt.bias`, vHeads)
          .v(`blk.${i}.ssm_a`, vHeads)
          .w(`blk.${i}.ssm_ba.weight`, E, vHeads * 2)
          .v(`blk.${i}.ssm_norm.weight`, dState)
          .w(`blk.${i}.ssm_out.weight`, valueDim, E);
      }
      t.experts(i, E, FFX, X).v(`blk.${i}.ffn_gate_inp_shexp.weight`, E).ffn(i, E, FFX, "_shexp");
    },
    keys: {
      ...kvHeads(KV, D),
      "rope.dimension_count": u32(64),
      feed_forward_length: u32(5120),
      expert_feed_forward_length: u32(FFX),
      expert_shared_feed_forward_length: u32(FFX),
      expert_count: u32(X),
      expert_used_count: u32(10),
      "ssm.conv_kernel": u32(conv),
      "ssm.inner_size": u32(valueDim),
      "ssm.state_size": u32(dState),
      "ssm.time_step_rank": u32(vHeads),
      "ssm.group_count": u32(kHeads),
      full_attention_interval: u32(4),
    },
  });
}

/**
 * LFM2-1.2B (LiquidAI/LFM2-1.2B config.json): 16 layers, short convolutions (L_cache 3) but for
 * attention at layers 2, 5, 8, 10, 12, 14; `layers` below 16 keeps the first ones.
 */
export function lfm2_1b(layers = 16): ModelSpec {
  const E = 2048,
    KV = 8,
    D = 64,
    FF = 8192,
    LCACHE = 3;
  const attention = new Set([2, 5, 8, 10, 12, 14]);
  return modelSpec({
    id: `lfm2-1.2b-L${layers}`,
    arch: "lfm2",
    header: { layers, embd: E, heads: 32, ctx: 128000, vocab: 65536 },
    top: (t) => t.v("token_embd_norm.weight", E),
    block: (t, i) => {
      t.v(`blk.${i}.ffn_norm.weight`, E).ffn(i, E, FF).v(`blk.${i}.attn_norm.weight`, E);
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
    },
    keys: {
      "attention.head_count_kv": i32s(Array.from({ length: layers }, (_, i) => (attention.has(i) ? KV : 0))),
      feed_forward_length: u32(FF),
      "shortconv.l_cache": u32(LCACHE),
      "rope.freq_base": f32(1e6),
    },
  });
}

function weightName(type: number): string {
  return Object.entries(GGML).find(([, id]) => id === type)?.[0] ?? String(type);
}
