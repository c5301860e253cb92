/**
 * The model families whose SGLang model file honours `--enable-dp-attention` (its attention built on the
 * attention-TP group, `get_attention_tp_size()` / `get_parallel().attn_tp_size`, and its layers wrapped in the
 * `LayerCommunicator` that gathers and scatters the DP ranks' tokens around the MoE), and what differs between
 * them on a card. Read at sgl-project/sglang (stored copies, commits named per family).
 */

/** What a family's model file puts on a card of a DP-attention group that DeepSeek's does not. */
export interface DpAttentionFamily {
  /**
   * The input embedding is split over the attention-TP group (`VocabParallelEmbedding(...,
   * use_attn_tp_group=is_dp_attention_enabled())`): a 1/(T ÷ D) share, whole only at D = T. Else it is whole on
   * every card (`enable_tp=not is_dp_attention_enabled()`).
   */
  embedOverAttentionTp: boolean;
  /**
   * The MoE block has a DeepEP path (`forward_deepep`, shared experts `tp_size=1` under it), so the group may span
   * nodes with `--moe-a2a-backend deepep`. Without it the family is planned on one node only.
   */
  deepep: boolean;
  /** What the option's card must say about running the family so (a known bad build range); absent, nothing. */
  caution?: string[];
}

/** DeepseekV2ForCausalLM and the families that reuse its sharding (models/deepseek_v2.py). */
const DEEPSEEK: DpAttentionFamily = { embedOverAttentionTp: false, deepep: true };

/**
 * model_type → family. `enable_dp_attention`'s help names DeepSeek-V2 and Qwen 2/3 MoE (server_args.py, unchanged in
 * 2026 builds, where it still says "The dp size should be equal to the tp size", which PR #4390 lifted); the others
 * were read in their model files:
 * - glm4_moe (GLM-4.5, 4.5-Air, 4.6, 4.7), models/glm4_moe.py @ 005ffc65: `Glm4MoeAttention` builds qkv_proj and
 *   o_proj with `tp_size=attn_tp_size` (KV heads split, or replicated where attn_tp_size exceeds them: `assert
 *   attn_tp_size % total_num_kv_heads == 0`), the decoder layer a `LayerCommunicator`, the embedding
 *   `use_attn_tp_group=is_dp_attention_enabled()` (PR #17570, 2026-01-24; builds before it, e.g. @ d5fc25da, keep
 *   it whole with `enable_tp=not is_dp_attention_enabled()`: 1 − D ÷ T of it more a card at dp < tp), the dense
 *   (`first_k_dense_replace`) layers' and shared experts' `Glm4MoeMLP` at the whole group's TP (`tp_size=1` under
 *   DeepEP), the lm_head `ParallelLMHead(use_attn_tp_group=enable_dp_lm_head)`; `forward_deepep`. SGLang's GLM-4.6
 *   cookbook (docs_new/src/snippets/autoregressive/glm-46-deployment.jsx @ 04d96432) runs it `--tp 8 --dp 8
 *   --enable-dp-attention`.
 * - glm_moe_dsa (GLM-5, 5.1): `GlmMoeDsaForCausalLM(DeepseekV2ForCausalLM)` in the same glm4_moe.py, and
 *   configs/model_config.py `is_deepseek_nsa` lists it (PR #18521), so it is DeepSeek-V3.2's DSA path: dp = tp.
 * - llama4_text (Llama-4 Scout, Maverick), models/llama4.py @ 871da34d: `Llama4Attention` qkv_proj / o_proj at
 *   `get_attention_tp_size()`, a `LayerCommunicator` with `is_next_layer_sparse` for the interleaved dense / MoE
 *   layers (PR #7729), the embedding `enable_tp=not is_dp_attention_enabled()` (whole), the shared expert and the
 *   dense layers' `LlamaMLP` at the whole group's TP; `Llama4MoE` calls `FusedMoE` with no DeepEP path, so one
 *   node only.
 * - gpt_oss (gpt-oss-20b, 120b), models/gpt_oss.py @ e9149048: `GptOssAttention` qkv/o (and its per-head sinks) at
 *   `get_attention_tp_size()`, a `LayerCommunicator` on every (MoE) layer, the embedding `enable_tp=not
 *   is_dp_attention_enabled()` (whole), no dense layers or shared experts; `GptOssSparseMoeBlock`
 *   `forward_deepep` raises (no DeepEP path), so one node only. DP attention since PR #9359 (2025-08, "Tested on
 *   4x B200 with DP4 Attn + EP4 MoE"); builds before PR #37199 (2026-08-31) summed the MoE output twice at TP = DP =
 *   EP without an a2a backend (issue #37187: GSM8K 0/128), the very command planned here.
 * - qwen3_5_moe_text (Qwen3.5-35B-A3B, 122B-A10B, 397B-A17B, Qwen3.6-35B-A3B), models/qwen3_5.py @ 005fa711: both
 *   decoder layer kinds behind a `LayerCommunicator`; `Qwen3_5AttentionDecoderLayer` builds qkv_proj (q doubled by
 *   attn_output_gate) and o_proj at attn_tp_size (KV heads replicated past 2: `assert attn_tp_size %
 *   total_num_kv_heads == 0`), `Qwen3_5GatedDeltaNet` every projection, conv1d, A_log and dt_bias at attn_tp_size
 *   (config/families/qwenNext.ts gatedDeltaParams); the embedding `enable_tp=not is_dp_attention_enabled()`
 *   (whole); the MoE is qwen2_moe's `Qwen2MoeSparseMoeBlock`, whose 2026 copies have `_forward_deepep` and build the
 *   shared expert `tp_rank=0, tp_size=1` under DeepEP (`can_fuse_shared_expert` is False there). Each rank's
 *   recurrent state is sharded by the attention TP, not the whole group's (configs/qwen3_next.py @ 041bacd3
 *   `mamba2_cache_params`: `Mamba2StateShape.create(tp_world_size=parallel.attn_tp_size)`, conv_dim ÷ attn_tp and
 *   num_v_heads ÷ attn_tp, configs/mamba_utils.py @ 02e208de), and its pool is carved from the rank's own card as
 *   under TP (model_runner_kv_cache_mixin.py @ 001ccef0 `handle_max_mamba_cache`: rest × r ÷ (1 + r) for states,
 *   `--mamba-full-memory-ratio` r 0.9), so the plan's per-rank geometry at attention TP (kv.ts) is SGLang's.
 *   With NCCL's NVLS kernels on (`--enable-nccl-nvls`, off by default: PR #631, #3502) Qwen3.5 under DP attention
 *   gave wrong answers (issue #23463, closed); the command leaves it off and the card says so.
 */
export const DP_ATTENTION_FAMILIES: ReadonlyMap<string, DpAttentionFamily> = new Map([
  ["deepseek_v2", DEEPSEEK],
  ["deepseek_v3", DEEPSEEK],
  ["deepseek_v32", DEEPSEEK],
  ["kimi_k2", DEEPSEEK],
  ["glm_moe_dsa", DEEPSEEK],
  ["qwen2_moe", DEEPSEEK],
  ["qwen3_moe", DEEPSEEK],
  ["glm4_moe", { embedOverAttentionTp: true, deepep: true }],
  ["llama4_text", { embedOverAttentionTp: false, deepep: false }],
  [
    "qwen3_5_moe_text",
    {
      embedOverAttentionTp: false,
      deepep: true,
      caution: [
        "Qwen3.5 returned wrong answers under SGLang's DP attention when NCCL's NVLS kernels ran (sgl-project/sglang#23463): keep --enable-nccl-nvls off, as this command does",
      ],
    },
  ],
  [
    "gpt_oss",
    {
      embedOverAttentionTp: false,
      deepep: false,
      caution: [
        "SGLang builds before PR #37199 (2026-08-31) return wrong answers for gpt-oss under this command (sgl-project/sglang#37187: TP = DP = EP without an a2a backend summed the MoE output twice): run a release after it",
      ],
    },
  ],
]);
