/**
 * Gemma-3: the class defaults its trimmed text_config leaves out, and vLLM's two rotary caches (a
 * local rope and a linear ×8 global one).
 */
import { isRecord, type Json } from "../fields.ts";

/**
 * Fields a config may leave out because its class supplies them. Gemma-3's
 * original text_config (transformers 4.50) keeps only non-default keys
 * (fixtures/models/google__gemma-3-27b-it.json); transformers and vLLM fill
 * the rest from Gemma3TextConfig's defaults, copied here from its __init__.
 */
export const CLASS_DEFAULTS: Record<string, Json> = {
  gemma3_text: {
    vocab_size: 262_208,
    hidden_size: 2304,
    num_hidden_layers: 26,
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    max_position_embeddings: 131_072,
    sliding_window: 4096,
    sliding_window_pattern: 6,
    tie_word_embeddings: true,
  },
};

/**
 * vLLM's rotary cos/sin cache rows where they are not the max length (only
 * Gemma-3 is known so far). Gemma-3's sliding layers get a default rope of
 * their own (rope_local_base_freq: vllm models/gemma3.py overrides the
 * config for `is_sliding`), a second cache of max_position_embeddings rows;
 * its global rope is linear with factor 8, and LinearScalingRotaryEmbedding
 * builds max_position_embeddings × factor rows
 * (rotary_embedding/linear_scaling_rope.py). Calibration (vLLM 0.19, H100):
 * Gemma-3-4B loaded 8.58 GiB, 12B 23.31, 27B 51.45, 0.51, 0.55 and 0.32 GiB
 * above one cache of 131,072 rows.
 */
export function ropeCacheRowsOf(modelType: string, maxLength: number, declared: unknown): { ropeCacheRows?: number } {
  if (!modelType.startsWith("gemma3")) return {};
  // Newer configs nest rope_parameters per attention type; the global rope is full_attention's.
  const rope = isRecord(declared) && isRecord(declared["full_attention"]) ? declared["full_attention"] : declared;
  const factor = isRecord(rope) && String(rope["rope_type"] ?? rope["type"] ?? "") === "linear" ? rope["factor"] : 1;
  const globalRows = typeof factor === "number" && factor > 0 ? Math.round(maxLength * factor) : maxLength;
  return { ropeCacheRows: globalRows + maxLength };
}
