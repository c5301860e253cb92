/**
 * Model-level facts of a config.json: where the text model lives, its dtype, longest context (with
 * vLLM's rope stretch), quantization and tied embeddings.
 */
import { CLASS_DEFAULTS } from "./families/gemma3.ts";
import { isRecord, type Json, ModelError } from "./fields.ts";

/**
 * The text model's own config: `text_config` when the model also reads
 * pictures (Qwen3.5+, Gemma-3/4, Llama-4, Kimi-K2.5/K3 wrappers keep every
 * text dimension there), else the root. vLLM's `get_hf_text_config` does the
 * same. Qwen2.5-VL keeps text dims at the root and only nests vision_config.
 */
export function textConfigOf(config: Json): Json {
  const text = config["text_config"];
  const own = isRecord(text) ? text : config;
  const modelType = String(own["model_type"] ?? config["model_type"] ?? "");
  return withClassDefaults(own, modelType);
}

function withClassDefaults(text: Json, modelType: string): Json {
  const defaults = CLASS_DEFAULTS[modelType];
  if (defaults === undefined) return text;
  const filled: Json = { ...text };
  for (const [key, value] of Object.entries(defaults)) {
    if (filled[key] === undefined || filled[key] === null) filled[key] = value;
  }
  return filled;
}

/** A field of the text config, else the root's (dtype and quantization sit at either level). */
export function eitherLevel(config: Json, text: Json, name: string): unknown {
  const value = text[name];
  return value === undefined || value === null ? config[name] : value;
}

export function hasVisionOf(config: Json): boolean {
  if (isRecord(config["vision_config"])) return true;
  // Trimmed copies (aiconfigurator's Llama-4) drop vision_config but keep the wrapper class.
  const archs = config["architectures"];
  return (
    isRecord(config["text_config"]) &&
    Array.isArray(archs) &&
    archs.some((a) => typeof a === "string" && a.endsWith("ForConditionalGeneration"))
  );
}

/**
 * The weights' dtype: `dtype` (2026 spelling) or `torch_dtype`, text config
 * first. When absent vLLM's `--dtype auto` serves bfloat16 (its
 * `_get_and_verify_dtype` treats a missing config dtype as float32 and then
 * downcasts float32 to bfloat16 under "auto"), so that is what is sized.
 */
export function dtypeOf(config: Json, text: Json): string {
  for (const name of ["dtype", "torch_dtype"]) {
    const value = eitherLevel(config, text, name);
    if (typeof value === "string") return value.replace(/^torch\./, "");
  }
  return "bfloat16";
}

/**
 * The longest context: vLLM takes the smallest of the max-length keys a
 * config has (`_get_and_verify_max_len`, vllm/config/model.py). Many already
 * include rope scaling (DeepSeek 163,840 = 40 × 4,096 yarn): pitfall 9 of
 * docs/notes/architectures.md; the planner clamps further to what the cache holds.
 */
const MAX_LENGTH_KEYS = [
  "max_position_embeddings",
  "n_positions",
  "max_seq_len",
  "seq_length",
  "max_sequence_length",
  "max_seq_length",
  "seq_len",
  "model_max_length",
] as const;

/** Which max-length key gave the longest context (the smallest, as vLLM takes it), for the words that name it. */
export function maxContextKeyOf(config: Json, text: Json): string {
  let best: { key: string; value: number } | null = null;
  for (const name of MAX_LENGTH_KEYS) {
    const value = eitherLevel(config, text, name);
    if (typeof value === "number" && Number.isInteger(value) && value > 0 && (best === null || value < best.value))
      best = { key: name, value };
  }
  return best?.key ?? "max_position_embeddings";
}

/** The rope scaling a config already sets ("yarn", "llama3", "linear", …), or undefined when it sets none. */
export function ropeScalingOf(config: Json, text: Json): string | undefined {
  const rope = eitherLevel(config, text, "rope_scaling") ?? eitherLevel(config, text, "rope_parameters");
  if (!isRecord(rope)) return undefined;
  const type = String(rope["rope_type"] ?? rope["type"] ?? "");
  // transformers 5's rope_parameters carries "default" (plain RoPE) with the theta: no scaling.
  return type === "" || type === "default" ? undefined : type;
}

export function maxContextOf(config: Json, text: Json, modelType: string): number {
  let best = Infinity;
  for (const name of MAX_LENGTH_KEYS) {
    const value = eitherLevel(config, text, name);
    if (typeof value === "number" && Number.isInteger(value) && value > 0) best = Math.min(best, value);
  }
  if (best === Infinity) {
    throw new ModelError(
      "config.json has no max_position_embeddings (nor any other max-length key): the model's longest context is unknown. " +
        "Add max_position_embeddings from the model card.",
      "max_position_embeddings",
    );
  }
  return scaledByRope(
    best,
    eitherLevel(config, text, "rope_scaling") ?? eitherLevel(config, text, "rope_parameters"),
    modelType,
  );
}

/**
 * vLLM's rope stretch of the max length (`_get_and_verify_max_len`): a
 * rope_scaling with a factor, of any type but su, longrope and llama3 (whose
 * max_position_embeddings already includes it), multiplies the length; yarn
 * multiplies its original_max_position_embeddings. Gemma-3's 128K is already
 * scaled and is skipped, as vLLM skips it. This is how a Qwen model card's
 * "rope_scaling yarn, factor 4, original 32768" reaches 131,072 tokens.
 */
function scaledByRope(maxLength: number, rope: unknown, modelType: string): number {
  if (!isRecord(rope) || modelType.startsWith("gemma3")) return maxLength;
  const type = String(rope["rope_type"] ?? rope["type"] ?? "");
  const factor = rope["factor"];
  if (["su", "longrope", "llama3", "default", ""].includes(type) || typeof factor !== "number" || factor <= 0)
    return maxLength;
  const original = rope["original_max_position_embeddings"];
  const base = type === "yarn" && typeof original === "number" && original > 0 ? original : maxLength;
  return Math.round(base * factor);
}

/**
 * The checkpoint's own quantization method: quantization_config at the root or
 * in text_config (vLLM checks both), else hf_quant_config.json, where older
 * ModelOpt NVFP4 repos keep it (DeepSeek-V3.1/3.2-NVFP4 have nothing in config.json).
 */
export function quantMethodOf(config: Json, text: Json, extraJson: Json | undefined): string {
  const q = eitherLevel(config, text, "quantization_config");
  if (isRecord(q) && typeof q["quant_method"] === "string") return q["quant_method"].toLowerCase();
  const hf = extraJson?.["hf_quant_config.json"];
  if (isRecord(hf) && isRecord(hf["quantization"])) return "modelopt";
  // MLX community repos: `quantization` (and a copy in quantization_config) with bits and
  // group_size but no quant_method (docs/notes/architectures.md §1b); no engine Modelplan plans for loads them.
  const mlx = eitherLevel(config, text, "quantization") ?? q;
  if (isRecord(mlx) && typeof mlx["bits"] === "number" && typeof mlx["group_size"] === "number") return "mlx";
  return "";
}

/**
 * tie_word_embeddings as transformers reads it: the text config's value or
 * the root's, else the model class's default (tied for Gemma and Granite,
 * untied for the others Modelplan sizes), matching accuracy.ts.
 */
export function tiedEmbeddingsOf(config: Json, text: Json, modelType: string): boolean {
  const value = eitherLevel(config, text, "tie_word_embeddings");
  return typeof value === "boolean" ? value : /^gemma|^granite/.test(modelType);
}

// ---------------------------------------------------------------------------
// Heads.
