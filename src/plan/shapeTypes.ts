/** What a model's own files say about it, as the engine reads it from config.json or a GGUF header: its shape and each layer's cache. */

/**
 * One decoder layer's cache, by attention kind. Which layer is which comes
 * from the config (`layer_types`, interval or pattern fields), never a guess.
 */
export type LayerCache =
  /** Full attention (MHA/GQA): K and V for every token of the context. */
  | { kind: "full"; kvHeads: number; headDimK: number; headDimV: number }
  /** Sliding-window (or chunked) attention: at most `windowTokens` tokens, in engines that do so. */
  | {
      kind: "sliding";
      kvHeads: number;
      headDimK: number;
      headDimV: number;
      windowTokens: number;
      /**
       * Chunked local attention (Llama-4's `attention_chunk_size`) rather than a
       * sliding window: vLLM sizes it by ChunkedLocalAttentionSpec, and turns
       * its hybrid KV cache manager off for such models unless
       * VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE allows it (then every
       * layer holds the whole context). Absent: a sliding window.
       */
      chunked?: boolean;
    }
  /** MLA: one latent of kv_lora_rank + qk_rope_head_dim per token, whole on every card. */
  | {
      kind: "mla";
      latentDim: number;
      /**
       * DSA sparse attention (DeepSeek-V3.2, GLM-5.x): the indexer's own key
       * cache, bytes per token on this layer, always fp8 with an fp32 scale per
       * 128 (vLLM and SGLang: index_head_dim + index_head_dim / 128 × 4 = 132 B),
       * whatever the latent's dtype. Absent without an indexer.
       */
      indexerBytesPerToken?: number;
    }
  /**
   * DeepSeek-V4 compressed attention (`compress_ratios`, or `compress_rates` +
   * `layer_types`): every layer keeps a sliding window of `windowTokens` raw
   * tokens; a layer with `compressRatio` > 1 also keeps one compressed entry
   * per `compressRatio` tokens of the whole context, and a compressor state;
   * `indexerHeadDim` > 0 on the layers that carry the sparse indexer (ratio 4),
   * whose keys are compressed the same way. `compressRatio` 1: the window only.
   * This is the config's geometry; each engine's bytes (vLLM's 584-B
   * fp8_ds_mla slot, its 576-B page alignment) are laid out in kv.ts.
   */
  | {
      kind: "compressed-mla";
      compressRatio: number;
      windowTokens: number;
      headDim: number;
      indexerHeadDim: number;
      /** qk_rope_head_dim: the RoPE part of the head, what vLLM's rotary cache is built for. */ ropeDim: number;
    }
  /** Linear attention, Mamba or gated-delta: a constant state per sequence, in bytes (vLLM's layout). */
  | { kind: "linear"; stateBytesPerSeq: number }
  /** No cache at all (an MLP-only or MoE-only block of a hybrid model). */
  | { kind: "none" };

export interface MoeShape {
  routedExperts: number;
  expertsPerToken: number;
  sharedExperts: number;
  /** Leading layers that are dense, not MoE (first_k_dense_replace). */
  denseFirstLayers: number;
  /** Each routed expert's FFN width (moe_intermediate_size), 0 when unknown. */
  expertIntermediateSize: number;
  /** Decoder layers that carry routed experts (absent: every layer after denseFirstLayers). */
  moeLayers?: number;
  /**
   * Which decoder layers carry routed experts, one entry per layer, when the
   * config or header says (Llama-4 Maverick's every second layer, Nemotron-H's
   * `E` in hybrid_override_pattern). Absent: only the count is known. A
   * pipeline stage's experts are counted from it.
   */
  moeLayerMask?: boolean[];
  /**
   * Parameters of all routed experts over all layers, from the config's
   * geometry (layers × experts × matrices × width × hidden); absent when the
   * config does not give the expert width. What artifacts.ts turns into expertBytes.
   */
  routedExpertParams?: number;
}

/** What a model's own files say about it. */
export interface ModelShape {
  /** model_type, or general.architecture for GGUF. */
  architecture: string;
  /** Decoder layers (num_hidden_layers / block_count). */
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  /** KV heads of the full-attention layers (0 for MLA-only models). */
  kvHeads: number;
  /** The config's head_dim, else hidden ÷ heads. */
  headDim: number;
  vocabSize: number;
  /** The model's own longest context. */
  maxContextTokens: number;
  /**
   * The key maxContextTokens was read from: "max_position_embeddings" (or another of config.json's
   * max-length keys) or the GGUF's "<arch>.context_length". Absent: not recorded (a shape built by hand).
   */
  contextKey?: string;
  /** The rope scaling the model's own files already set ("yarn", "llama3", "linear"); absent when none. */
  ropeScaling?: string;
  /** A YaRN stretch past the model's own context that the user asked for (engines/pastContext.ts): the commands set it. */
  yarn?: YarnExtension;
  /**
   * Rows of vLLM's rotary cos/sin caches over all the model's rope instances,
   * when not maxContextTokens (Gemma-3: a linear ×8 global rope and a local
   * one). Absent: one cache of maxContextTokens rows.
   */
  ropeCacheRows?: number;
  /** The weights' dtype: "bfloat16", "float16", "float32". */
  dtype: string;
  /** Total parameters, when known (Hub safetensors.total, GGUF count, or the index). */
  paramsTotal: number | null;
  /**
   * Where paramsTotal came from when the repository's own count gave none (model.ts readModel): "weights", an
   * unquantized artifact's bytes over its width; "config", counted from config.json (config/params.ts), which
   * the speed basis says. Absent: the Hub's count or the GGUF's tensors, or no count at all.
   */
  paramsSource?: "weights" | "config";
  moe: MoeShape | null;
  /** One entry per decoder layer. */
  layerCaches: LayerCache[];
  /** It also reads pictures (a vision tower is in the checkpoint). */
  hasVision: boolean;
  /** The checkpoint's native quantization method ("fp8", "awq", "mxfp4", "modelopt", …), "" for none. */
  quantMethod: string;
  /**
   * tie_word_embeddings: the output layer shares the embedding's weights.
   * Absent means untied (the common case for large models). It moves a
   * pipeline's last stage: an untied lm_head is its own vocab × hidden.
   */
  tiedEmbeddings?: boolean;
  /**
   * Parameters of the checkpoint's multi-token-prediction block (mtp_num_hidden_layers /
   * num_nextn_predict_layers), which the engines load only for speculative decoding; absent: none.
   */
  mtpParams?: number;
  /**
   * Parameters of one decoder layer's attention projections (MLA's low-rank q/kv, or GQA's q/k/v/o), from the
   * config's geometry: what SGLang's DP attention keeps whole on every rank. Absent: not read.
   */
  attentionParamsPerLayer?: number;
  /**
   * Of attentionParamsPerLayer, those every attention-TP rank keeps whole (MLA's down-projections, DSA's indexer),
   * the rest split by head: what SGLang's DP attention at dp < tp holds (config/shape.ts). Absent: not read.
   */
  attentionReplicatedParamsPerLayer?: number;
  /**
   * Parameters of one linear-attention (gated-delta) layer's mixer, which such a layer has in place of the
   * projections attentionParamsPerLayer counts (Qwen3.5/3.6: three layers in four): what SGLang's DP attention splits
   * over the attention-TP group there (config/families/qwenNext.ts). Absent: no such layers, or not read.
   */
  linearAttentionParamsPerLayer?: number;
}

/** YaRN rope scaling: positions stretched by `factor` over the model's native `originalTokens` (vLLM: original × factor tokens). */
export interface YarnExtension {
  factor: number;
  originalTokens: number;
}
