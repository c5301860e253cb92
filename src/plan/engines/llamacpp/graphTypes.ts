/** The dimensions of the llama.cpp graphs the plan places tensor by tensor (graphDims.ts reads them, gallocr.ts places them). */

/** llama.cpp's `llama` builder (dense) and `openai-moe` (gpt-oss), which share their attention (graphLlama.ts). */
export interface LlamaDims {
  arch: "llama" | "openai-moe";
  layers: number;
  embd: number;
  heads: number;
  kvHeads: number;
  /** Each Q/K/V head's width (n_rot for gpt-oss, n_embd_head for llama). */
  headDim: number;
  vocab: number;
  /** One `attn_qkv` matrix in the file (create_tensor_qkv, src/llama-model.cpp:3167-3196), else three. */
  fusedQkv: boolean;
  /** Biases on Q/K/V and on the attention output (gpt-oss). */
  qkvBias: boolean;
  outBias: boolean;
  /** The dense FFN's width (llama); 0 with experts. */
  ff: number;
  /** gpt-oss's experts (build_moe_ffn's SOFTMAX_WEIGHT path with ADD_ID biases). */
  moe?: { experts: number; used: number; ff: number };
  /**
   * gpt-oss keeps the last layer's output as a graph output (res->t_h_nextn) and takes the output rows after
   * the loop (openai-moe.cpp); llama takes them inside the last layer (llama.cpp:174-177).
   */
  pinsLastLayer: boolean;
  /** Which layers slide (hparams.set_swa_pattern); all false for llama. */
  swaLayers: boolean[];
}

export interface Deepseek2Dims {
  arch: "deepseek2";
  layers: number;
  embd: number;
  heads: number;
  /** qk_nope_head_dim, qk_rope_head_dim, kv_lora_rank, v_head_dim, q_lora_rank (0: one wq). */
  nope: number;
  rope: number;
  kvLora: number;
  vHead: number;
  qLora: number;
  denseFirst: number;
  denseFf: number;
  experts: number;
  expertsUsed: number;
  expertFf: number;
  /** The shared experts' FFN width: n_expert_shared × n_ff_exp (deepseek2.cpp load_arch_tensors). */
  sharedFf: number;
  probsBias: boolean;
  normWeights: boolean;
  weightsScale: number;
  vocab: number;
}

/** LFM2 (src/models/lfm2.cpp): short-convolution layers and attention layers with Q/K norms, a dense FFN each. */
export interface Lfm2Dims {
  arch: "lfm2";
  layers: number;
  embd: number;
  heads: number;
  /** KV heads per layer; 0 marks a short-convolution layer (lfm2.attention.head_count_kv). */
  kvHeads: number[];
  headDim: number;
  ff: number;
  /** lfm2.shortconv.l_cache: the convolution keeps l_cache − 1 columns of state. */
  lCache: number;
  fusedQkv: boolean;
  vocab: number;
}

/**
 * Qwen3-Next (src/models/qwen3next.cpp): gated-delta-net layers (one fused GATED_DELTA_NET op at v0.4.0's CPU
 * build) and, every full_attention_interval-th layer, gated attention with Q/K norms; MoE with a shared expert.
 */
export interface Qwen3NextDims {
  arch: "qwen3next";
  layers: number;
  embd: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  /** Which layers are gated delta nets (hparams.is_recr): the rest attend. */
  recurrent: boolean[];
  /** ssm.state_size (head_k_dim), ssm.group_count (k heads), ssm.time_step_rank (v heads), ssm.inner_size, ssm.conv_kernel. */
  dState: number;
  kHeads: number;
  vHeads: number;
  dInner: number;
  dConv: number;
  /** One ssm_in (in_proj_qkvz) per delta-net layer, as earlier GGUFs have it, where the converter now writes attn_qkv + attn_gate. */
  legacySsmIn: boolean;
  experts: number;
  expertsUsed: number;
  expertFf: number;
  sharedFf: number;
  vocab: number;
}

export type LlamaGraphDims = LlamaDims | Deepseek2Dims | Lfm2Dims | Qwen3NextDims;

/** What one reserve's graph is built for (llama-context.cpp graph_reserve: a full ubatch, every token an output). */
export interface GraphInputs {
  ubatch: number;
  outputs: number;
  /** KV cells of one stream of the full-attention (or MLA) cache: its mask's n_kv. */
  cells: number;
  /** The same for the sliding-window cache. */
  swaCells: number;
  /** Flash attention on (the graphs' default); off is built for DeepSeek2's MLA only (graphDeepseek2.ts). */
  flashAttn: boolean;
  /** Sequences of the ubatch (n_seqs): the rows of a recurrent state read and written (LFM2's short convolution). */
  sequences: number;
}
