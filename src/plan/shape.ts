/**
 * A model's shape from its config.json: what sizes its KV cache, its
 * per-sequence state and its experts, read field by field as the engines
 * read them (vLLM's `model_arch_config_convertor.py` and the transformers
 * config classes), never guessed. Every spelling a 2026 config uses is
 * listed where it is read; see shared/notes/architectures.md §1a and §4.
 *
 * A config this file cannot read throws a ModelError that names the field:
 * a silent fallback here is an out-of-memory twenty minutes into a load.
 */

import type { LayerCache, ModelShape, MoeShape } from "./types.ts";

/** A config.json that cannot be read, with the field at fault and what to do. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first of `names` that holds a finite number (null and absent are skipped). */
function firstNumber(cfg: Json, names: readonly string[]): { name: string; value: number } | undefined {
  for (const name of names) {
    const value = cfg[name];
    if (typeof value === "number" && Number.isFinite(value)) return { name, value };
  }
  return undefined;
}

function positiveInt(cfg: Json, name: string, why: string): number {
  const value = cfg[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    const got = value === undefined ? "it is missing" : `it is ${JSON.stringify(value)}`;
    throw new ModelError(
      `config.json field ${name} must be a positive whole number, but ${got}; ${why}. ` +
        `Check that this is the model's own config.json (for a picture model, its text_config).`,
      name,
    );
  }
  return value;
}

/** Several required positive whole numbers at once, each named in its error. */
function positiveInts<K extends string>(cfg: Json, names: readonly K[], why: string): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const name of names) out[name] = positiveInt(cfg, name, why);
  return out;
}

function optionalInt(cfg: Json, name: string): number | undefined {
  const value = cfg[name];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function stringList(cfg: Json, name: string): string[] | undefined {
  const value = cfg[name];
  if (!Array.isArray(value)) return undefined;
  if (!value.every((v) => typeof v === "string")) {
    throw new ModelError(`config.json field ${name} must be a list of strings; fix or remove it.`, name);
  }
  return value as string[];
}

function numberList(cfg: Json, name: string): number[] | undefined {
  const value = cfg[name];
  if (!Array.isArray(value)) return undefined;
  if (!value.every((v) => typeof v === "number" && Number.isInteger(v))) {
    throw new ModelError(`config.json field ${name} must be a list of whole numbers; fix or remove it.`, name);
  }
  return value as number[];
}

/** Bytes of one element of a torch dtype name ("bfloat16", "torch.float32", "float8_e4m3fn"). */
export function dtypeBytes(dtype: string): number {
  const d = dtype.replace(/^torch\./, "").toLowerCase();
  if (d === "float32" || d === "fp32" || d === "float") return 4;
  if (d === "bfloat16" || d === "float16" || d === "half" || d === "bf16" || d === "fp16") return 2;
  if (d.startsWith("float8") || d === "fp8" || d === "uint8" || d === "int8") return 1;
  throw new ModelError(`unknown dtype "${dtype}": expected bfloat16, float16 or float32.`, "dtype");
}

// ---------------------------------------------------------------------------
// Where the text model lives.
// ---------------------------------------------------------------------------

/**
 * The text model's own config: `text_config` when the model also reads
 * pictures (Qwen3.5+, Gemma-3/4, Llama-4, Kimi-K2.5/K3 wrappers keep every
 * text dimension there), else the root. vLLM's `get_hf_text_config` does the
 * same. Qwen2.5-VL keeps text dims at the root and only nests vision_config.
 */
function textConfigOf(config: Json): Json {
  const text = config["text_config"];
  const own = isRecord(text) ? text : config;
  const modelType = String(own["model_type"] ?? config["model_type"] ?? "");
  return withClassDefaults(own, modelType);
}

/**
 * Fields a config may leave out because its class supplies them. Gemma-3's
 * original text_config (transformers 4.50) keeps only non-default keys
 * (fixtures/models/google__gemma-3-27b-it.json); transformers and vLLM fill
 * the rest from Gemma3TextConfig's defaults, copied here from its __init__.
 */
const CLASS_DEFAULTS: Record<string, Json> = {
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
function eitherLevel(config: Json, text: Json, name: string): unknown {
  const value = text[name];
  return value === undefined || value === null ? config[name] : value;
}

function hasVisionOf(config: Json): boolean {
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
function dtypeOf(config: Json, text: Json): string {
  for (const name of ["dtype", "torch_dtype"]) {
    const value = eitherLevel(config, text, name);
    if (typeof value === "string") return value.replace(/^torch\./, "");
  }
  return "bfloat16";
}

/**
 * The longest context: vLLM takes the smallest of the max-length keys a
 * config has (`_get_and_verify_max_len`, vllm/config/model.py). Many already
 * include rope scaling (DeepSeek 163,840 = 40 × 4,096 yarn): pitfall 9 of the
 * notes; the planner clamps further to what the cache holds.
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

function maxContextOf(config: Json, text: Json, modelType: string): number {
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
  return scaledByRope(best, eitherLevel(config, text, "rope_scaling") ?? eitherLevel(config, text, "rope_parameters"), modelType);
}

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
function ropeCacheRowsOf(config: Json, text: Json, modelType: string): { ropeCacheRows?: number } {
  if (!modelType.startsWith("gemma3")) return {};
  const maxLength = maxContextOf(config, text, modelType);
  const declared = eitherLevel(config, text, "rope_scaling") ?? eitherLevel(config, text, "rope_parameters");
  // Newer configs nest rope_parameters per attention type; the global rope is full_attention's.
  const rope = isRecord(declared) && isRecord(declared["full_attention"]) ? declared["full_attention"] : declared;
  const factor = isRecord(rope) && String(rope["rope_type"] ?? rope["type"] ?? "") === "linear" ? rope["factor"] : 1;
  const globalRows = typeof factor === "number" && factor > 0 ? Math.round(maxLength * factor) : maxLength;
  return { ropeCacheRows: globalRows + maxLength };
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
  if (["su", "longrope", "llama3", "default", ""].includes(type) || typeof factor !== "number" || factor <= 0) return maxLength;
  const original = rope["original_max_position_embeddings"];
  const base = type === "yarn" && typeof original === "number" && original > 0 ? original : maxLength;
  return Math.round(base * factor);
}

/**
 * The checkpoint's own quantization method: quantization_config at the root or
 * in text_config (vLLM checks both), else hf_quant_config.json, where older
 * ModelOpt NVFP4 repos keep it (DeepSeek-V3.1/3.2-NVFP4 have nothing in config.json).
 */
function quantMethodOf(config: Json, text: Json, extraJson: Json | undefined): string {
  const q = eitherLevel(config, text, "quantization_config");
  if (isRecord(q) && typeof q["quant_method"] === "string") return q["quant_method"].toLowerCase();
  const hf = extraJson?.["hf_quant_config.json"];
  if (isRecord(hf) && isRecord(hf["quantization"])) return "modelopt";
  // MLX community repos: `quantization` (and a copy in quantization_config) with bits and
  // group_size but no quant_method (notes §1b); no engine Modelplan plans for loads them.
  const mlx = eitherLevel(config, text, "quantization") ?? q;
  if (isRecord(mlx) && typeof mlx["bits"] === "number" && typeof mlx["group_size"] === "number") return "mlx";
  return "";
}

/**
 * tie_word_embeddings as transformers reads it: the text config's value or
 * the root's, else the model class's default (tied for Gemma and Granite,
 * untied for the others Modelplan sizes), matching accuracy.ts.
 */
function tiedEmbeddingsOf(config: Json, text: Json, modelType: string): boolean {
  const value = eitherLevel(config, text, "tie_word_embeddings");
  return typeof value === "boolean" ? value : /^gemma|^granite/.test(modelType);
}

// ---------------------------------------------------------------------------
// Heads.
// ---------------------------------------------------------------------------

/**
 * KV heads under every spelling vLLM's `get_total_num_kv_heads` tries, in its
 * order, falling back to the attention heads (multi-head attention).
 */
const KV_HEAD_KEYS = [
  "n_head_kv",
  "num_kv_heads",
  "num_key_value_heads",
  "multi_query_group_num",
  "num_attention_groups",
] as const;

function kvHeadsOf(text: Json, attentionHeads: number): number {
  const found = firstNumber(text, KV_HEAD_KEYS);
  if (found === undefined) return attentionHeads;
  if (!Number.isInteger(found.value) || found.value <= 0) {
    throw new ModelError(`config.json field ${found.name} must be a positive whole number, got ${found.value}.`, found.name);
  }
  return found.value;
}

/** head_dim when present and positive (null is absent: pitfall 13), else hidden ÷ heads. */
function headDimOf(text: Json, hiddenSize: number, attentionHeads: number): number {
  const value = text["head_dim"];
  if (typeof value === "number" && value > 0) return value;
  if (hiddenSize % attentionHeads !== 0) {
    throw new ModelError(
      `config.json has no head_dim and hidden_size ${hiddenSize} does not divide by num_attention_heads ${attentionHeads}; add head_dim.`,
      "head_dim",
    );
  }
  return hiddenSize / attentionHeads;
}

// ---------------------------------------------------------------------------
// Which layer is which.
// ---------------------------------------------------------------------------

/**
 * model_types vLLM treats as DeepSeek MLA (`is_deepseek_mla`,
 * vllm/config/model.py): with kv_lora_rank, one latent per token.
 */
const MLA_MODEL_TYPES = new Set([
  "deepseek_v2",
  "deepseek_v3",
  "deepseek_v32",
  "deepseek_mtp",
  "kimi_k2",
  "kimi_linear",
  "glm_moe_dsa",
  "glm4_moe_lite",
  "longcat_flash",
  "pangu_ultra_moe",
  "mistral_large_3",
]);

interface Geometry {
  text: Json;
  modelType: string;
  layers: number;
  dtypeBytes: number;
  full: Extract<LayerCache, { kind: "full" }>;
}

function isMla(text: Json, modelType: string): boolean {
  if (typeof text["kv_lora_rank"] === "number") return true;
  if (MLA_MODEL_TYPES.has(modelType)) {
    throw new ModelError(
      `${modelType} is a multi-latent-attention model but its config has no kv_lora_rank: the cache size is unknown. ` +
        "Use the model's own config.json (vendored copies are sometimes trimmed).",
      "kv_lora_rank",
    );
  }
  return false;
}

function mlaCache(text: Json): LayerCache {
  const rank = positiveInt(text, "kv_lora_rank", "it sizes the MLA latent cache");
  const rope = positiveInt(text, "qk_rope_head_dim", "the MLA cache holds kv_lora_rank + qk_rope_head_dim per token");
  return { kind: "mla", latentDim: rank + rope };
}

/**
 * The DSA indexer's key cache per token (DeepSeek-V3.2, GLM-5.x, which carry
 * `index_head_dim`): fp8 keys plus an fp32 scale per 128, vLLM's and SGLang's
 * layout (notes §2.2; SGLang's V3.2 log: 61 × (656 + 132) = 48,068 B/tok).
 * GLM-5.2's `indexer_types` marks layers "shared": they reuse another layer's
 * selection and keep no index keys of their own.
 */
function withIndexer(t: Json, caches: LayerCache[]): LayerCache[] {
  const dim = optionalInt(t, "index_head_dim");
  if (dim === undefined || dim === 0) return caches;
  const bytes = dim + Math.ceil(dim / 128) * 4;
  const types = stringList(t, "indexer_types");
  return caches.map((c, i) => {
    if (c.kind !== "mla") return c;
    const type = types?.[i] ?? "full";
    if (type === "shared") return c;
    if (type !== "full") {
      throw new ModelError(`indexer_types[${i}] is "${type}"; known: full, shared.`, "indexer_types");
    }
    return { ...c, indexerBytesPerToken: bytes };
  });
}

function slidingWindowOf(text: Json): number {
  return positiveInt(text, "sliding_window", "sliding-window layers hold at most that many tokens");
}

function slidingFromFull(g: Geometry, windowTokens: number): Extract<LayerCache, { kind: "sliding" }> {
  return { kind: "sliding", kvHeads: g.full.kvHeads, headDimK: g.full.headDimK, headDimV: g.full.headDimV, windowTokens };
}

/** A chunked-local layer (Llama-4): one chunk of the full layers' heads, which vLLM sizes apart from a sliding window. */
function chunkedFromFull(g: Geometry, chunkTokens: number): LayerCache {
  return { ...slidingFromFull(g, chunkTokens), chunked: true };
}

/**
 * Gated DeltaNet state (Qwen3-Next, Qwen3.5–3.8), vLLM's layout
 * (`MambaStateShapeCalculator.gated_delta_net_state_shape`): conv state
 * `conv_dim × (kernel − 1)` in the model dtype, with conv_dim = dk·nk·2 + dv·nv,
 * plus the recurrent state nv × dv × dk in `mamba_ssm_dtype` (float32 in
 * Qwen3.5 configs; the model dtype when the config names none).
 */
function gatedDeltaState(g: Geometry): number {
  const t = g.text;
  const f = positiveInts(
    t,
    ["linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim", "linear_conv_kernel_dim"],
    "it sizes the gated-delta (linear attention) state",
  );
  const ssm = typeof t["mamba_ssm_dtype"] === "string" ? dtypeBytes(t["mamba_ssm_dtype"]) : g.dtypeBytes;
  const nv = f.linear_num_value_heads;
  const dk = f.linear_key_head_dim;
  const dv = f.linear_value_head_dim;
  const convDim = dk * f.linear_num_key_heads * 2 + dv * nv;
  return convDim * (f.linear_conv_kernel_dim - 1) * g.dtypeBytes + nv * dv * dk * ssm;
}

/**
 * Mamba2 state (Nemotron-H), vLLM's layout (`mamba2_state_shape`): conv
 * `(heads·head_dim + 2·n_groups·state) × (kernel − 1)` in the model dtype,
 * plus heads × head_dim × state in `mamba_ssm_cache_dtype` (float32 in every
 * Nemotron-3 config; vLLM's NemotronH config defaults it to float32 too).
 */
function mamba2State(g: Geometry): number {
  const t = g.text;
  const f = positiveInts(
    t,
    ["mamba_num_heads", "mamba_head_dim", "n_groups", "ssm_state_size", "conv_kernel"],
    "it sizes the Mamba2 state",
  );
  const ssmName = t["mamba_ssm_cache_dtype"];
  const ssm = typeof ssmName === "string" ? dtypeBytes(ssmName) : 4;
  const inner = f.mamba_num_heads * f.mamba_head_dim;
  const conv = (inner + 2 * f.n_groups * f.ssm_state_size) * (f.conv_kernel - 1) * g.dtypeBytes;
  return conv + inner * f.ssm_state_size * ssm;
}

/**
 * Kimi Delta Attention state (Kimi-Linear, Kimi-K3), vLLM's `kda_state_shape`:
 * three short-conv states (q, k, v) of heads·head_dim × (kernel − 1) in the
 * model dtype, plus the recurrent heads × head_dim × head_dim, always float32.
 */
function kdaState(g: Geometry, linear: Json): number {
  const f = positiveInts(linear, ["num_heads", "head_dim", "short_conv_kernel_size"], "it sizes the KDA (linear attention) state");
  const proj = f.num_heads * f.head_dim;
  return 3 * proj * (f.short_conv_kernel_size - 1) * g.dtypeBytes + f.num_heads * f.head_dim * f.head_dim * 4;
}

function oneBasedSet(linear: Json, name: string, layers: number): Set<number> {
  const list = numberList(linear, name);
  if (list === undefined) {
    throw new ModelError(`linear_attn_config.${name} is missing: which layers are linear is unknown.`, `linear_attn_config.${name}`);
  }
  for (const n of list) {
    if (n < 1 || n > layers) {
      throw new ModelError(
        `linear_attn_config.${name} lists layer ${n}, outside 1..${layers} (the lists are 1-based).`,
        `linear_attn_config.${name}`,
      );
    }
  }
  return new Set(list.map((n) => n - 1));
}

/** Kimi-Linear / K3: `linear_attn_config.kda_layers` and `full_attn_layers`, 1-based (pitfall 2). */
function kimiLinearCaches(g: Geometry, linear: Json): LayerCache[] {
  const kda = oneBasedSet(linear, "kda_layers", g.layers);
  const full = oneBasedSet(linear, "full_attn_layers", g.layers);
  const mla = mlaCache(g.text);
  const state = kdaState(g, linear);
  return Array.from({ length: g.layers }, (_, i): LayerCache => {
    if (kda.has(i) && full.has(i)) {
      throw new ModelError(`linear_attn_config lists layer ${i + 1} as both KDA and full attention.`, "linear_attn_config");
    }
    if (kda.has(i)) return { kind: "linear", stateBytesPerSeq: state };
    if (full.has(i)) return mla;
    throw new ModelError(
      `linear_attn_config lists layer ${i + 1} in neither kda_layers nor full_attn_layers: its cache is unknown.`,
      "linear_attn_config",
    );
  });
}

/** One `layer_types` entry, for a model whose attention layers are GQA. */
function cacheForLayerType(g: Geometry, type: string, i: number): LayerCache {
  switch (type) {
    case "full_attention":
    case "attention":
      return fullLayer(g);
    case "sliding_attention":
      return slidingLayer(g);
    case "chunked_attention":
      return chunkedFromFull(g, positiveInt(g.text, "attention_chunk_size", "chunked layers hold one chunk"));
    case "linear_attention":
      return { kind: "linear", stateBytesPerSeq: gatedDeltaState(g) };
    default:
      throw new ModelError(
        `layer_types[${i}] is "${type}", a layer kind Modelplan cannot size yet ` +
          "(known: full_attention, sliding_attention, chunked_attention, linear_attention).",
        "layer_types",
      );
  }
}

/**
 * A full-attention layer. Gemma-4 gives its full layers their own geometry
 * (`num_global_key_value_heads` × `global_head_dim`, pitfall 5); everything
 * else uses the model's.
 */
function fullLayer(g: Geometry): LayerCache {
  if (g.text["per_layer_config"] !== undefined && g.text["num_global_key_value_heads"] === undefined) {
    // transformers ≥ 5.15 may move Gemma-4's global geometry there (notes pitfall 5); its shape is not known yet.
    throw new ModelError(
      "config.json keeps its layer geometry in per_layer_config, which Modelplan does not read yet: the full layers' KV heads are unknown.",
      "per_layer_config",
    );
  }
  const globalHeads = optionalInt(g.text, "num_global_key_value_heads");
  const globalDim = optionalInt(g.text, "global_head_dim");
  if (globalHeads !== undefined && globalHeads > 0 && globalDim !== undefined && globalDim > 0) {
    return { kind: "full", kvHeads: globalHeads, headDimK: globalDim, headDimV: globalDim };
  }
  return g.full;
}

/** A sliding layer: MiMo-V2 gives them their own heads (`swa_*`), others share the model's. */
function slidingLayer(g: Geometry): LayerCache {
  const window = slidingWindowOf(g.text);
  const swaHeads = optionalInt(g.text, "swa_num_key_value_heads");
  if (swaHeads !== undefined && swaHeads > 0) {
    const k = optionalInt(g.text, "swa_head_dim") ?? g.full.headDimK;
    const v = optionalInt(g.text, "swa_v_head_dim") ?? k;
    return { kind: "sliding", kvHeads: swaHeads, headDimK: k, headDimV: v, windowTokens: window };
  }
  return slidingFromFull(g, window);
}

function requireLength<T>(list: T[], g: Geometry, name: string): T[] {
  if (list.length !== g.layers) {
    throw new ModelError(
      `config.json ${name} has ${list.length} entries for ${g.layers} layers: which layer is which is unknown.`,
      name,
    );
  }
  return list;
}

/**
 * Nemotron-H: `hybrid_override_pattern` (M = Mamba2, E = MoE, * = attention,
 * - = MLP) or `layers_block_type` (mamba/moe/attention/mlp). Only attention
 * blocks hold KV; MoE and MLP blocks hold nothing.
 */
function nemotronHCaches(g: Geometry, kinds: string[], field: string): LayerCache[] {
  const state = kinds.some((k) => k === "M" || k === "mamba") ? mamba2State(g) : 0;
  return kinds.map((k, i): LayerCache => {
    if (k === "M" || k === "mamba") return { kind: "linear", stateBytesPerSeq: state };
    if (k === "*" || k === "attention") return g.full;
    if (k === "E" || k === "moe" || k === "-" || k === "mlp") return { kind: "none" };
    throw new ModelError(`${field}[${i}] is "${k}", a block kind Modelplan does not know (M, E, *, -).`, field);
  });
}

/**
 * Nemotron-NAS (Llama-3.3-Nemotron-Super): `block_configs` per layer, with
 * attention.n_heads_in_group (KV heads = heads ÷ that), or no attention at
 * all (no_op / replace_with_linear), as vLLM's DeciLM model reads it.
 */
function blockConfigCaches(g: Geometry, blocks: unknown[], attentionHeads: number): LayerCache[] {
  return blocks.map((block, i): LayerCache => {
    const attn = isRecord(block) ? block["attention"] : undefined;
    if (!isRecord(attn)) {
      throw new ModelError(`block_configs[${i}] has no attention entry: its cache is unknown.`, "block_configs");
    }
    if (attn["no_op"] === true || attn["replace_with_linear"] === true) return { kind: "none" };
    const group = positiveInt(attn, "n_heads_in_group", `block_configs[${i}].attention sets its KV heads`);
    if (attentionHeads % group !== 0) {
      throw new ModelError(`block_configs[${i}].attention.n_heads_in_group ${group} does not divide ${attentionHeads} heads.`, "block_configs");
    }
    return { ...g.full, kvHeads: attentionHeads / group };
  });
}

/**
 * Llama-4: chunked local attention on RoPE layers, global NoPE attention on
 * the others. `no_rope_layers[i]` is 1 for a RoPE (chunked) layer; when the
 * list is absent transformers' Llama4TextConfig builds it from
 * `no_rope_layer_interval` (default 4): every fourth layer is global.
 */
function llama4Caches(g: Geometry): LayerCache[] {
  const chunk = positiveInt(g.text, "attention_chunk_size", "chunked layers hold one chunk");
  const listed = numberList(g.text, "no_rope_layers");
  const interval = optionalInt(g.text, "no_rope_layer_interval") ?? 4;
  const usesRope = listed
    ? requireLength(listed, g, "no_rope_layers").map((v) => v !== 0)
    : Array.from({ length: g.layers }, (_, i) => (i + 1) % interval !== 0);
  return usesRope.map((rope) => (rope ? chunkedFromFull(g, chunk) : g.full));
}

/**
 * DeepSeek-V4's compress ratio per decoder layer. The DeepSeek schema lists
 * `compress_ratios` with one entry more than there are layers (the MTP
 * layer's); vLLM reads entry i for layer i < num_hidden_layers only, and
 * treats 0 as 1, a window-only layer (vllm/models/deepseek_v4/attention.py,
 * commit e6643eca: `self.compress_ratio = max(1, config.compress_ratios[layer_id])`).
 * The transformers schema names each layer in `layer_types` and gives the
 * rates in `compress_rates` ({"compressed_sparse_attention": 4,
 * "heavily_compressed_attention": 128}); "sliding_attention" is window only.
 * Only sparse (ratio-4, "compressed_sparse_attention") layers carry the indexer.
 */
function deepseekV4Ratios(g: Geometry): { ratio: number; indexer: boolean }[] {
  const t = g.text;
  const listed = numberList(t, "compress_ratios");
  if (listed) {
    if (listed.length < g.layers) {
      throw new ModelError(
        `config.json compress_ratios has ${listed.length} entries for ${g.layers} layers: which layer is compressed how is unknown.`,
        "compress_ratios",
      );
    }
    return listed.slice(0, g.layers).map((r, i) => {
      if (r !== 0 && r !== 1 && r !== 4 && r !== 128) {
        throw new ModelError(`compress_ratios[${i}] is ${r}; vLLM knows 0 (window only), 4 and 128.`, "compress_ratios");
      }
      return { ratio: Math.max(1, r), indexer: r === 4 };
    });
  }
  const rates = t["compress_rates"];
  const types = stringList(t, "layer_types");
  if (!isRecord(rates) || !types || types.length < g.layers) {
    throw new ModelError(
      "config.json has compress_rates but no layer_types with an entry per layer: which layer is compressed how is unknown.",
      "layer_types",
    );
  }
  return types.slice(0, g.layers).map((type, i) => {
    if (type === "sliding_attention") return { ratio: 1, indexer: false };
    const rate = rates[type];
    if (typeof rate !== "number" || !Number.isInteger(rate) || rate < 1) {
      throw new ModelError(`layer_types[${i}] is "${type}", which compress_rates does not give a whole-number rate for.`, "compress_rates");
    }
    return { ratio: rate, indexer: type === "compressed_sparse_attention" };
  });
}

/** DeepSeek-V4's per-layer caches: a window on every layer, compressed entries and the indexer's keys where the ratio says. */
function deepseekV4Caches(g: Geometry): LayerCache[] {
  const windowTokens = positiveInt(g.text, "sliding_window", "every DeepSeek-V4 layer keeps a window of that many tokens");
  const headDim = positiveInt(g.text, "head_dim", "it is the width of DeepSeek-V4's compressed entries");
  const ropeDim = positiveInt(g.text, "qk_rope_head_dim", "it is the RoPE part of DeepSeek-V4's head");
  const ratios = deepseekV4Ratios(g);
  if (!ratios.some((r) => r.ratio > 1)) {
    // vLLM's grouping asserts compressed layers exist (group_and_unify_kv_cache_specs: `assert len(mla_specs) > 0`).
    throw new ModelError("config.json gives DeepSeek-V4 no compressed layer (every ratio is 0): vLLM cannot lay its cache out.", "compress_ratios");
  }
  const indexerHeadDim = ratios.some((r) => r.indexer) ? positiveInt(g.text, "index_head_dim", "sparse layers cache the indexer's keys") : 0;
  return ratios.map(({ ratio, indexer }): LayerCache => ({
    kind: "compressed-mla",
    compressRatio: ratio,
    windowTokens,
    headDim,
    indexerHeadDim: indexer ? indexerHeadDim : 0,
    ropeDim,
  }));
}

/** The per-layer caches, from whichever field the config uses to say which layer is which. */
function layerCachesOf(g: Geometry, attentionHeads: number): LayerCache[] {
  const t = g.text;
  if (Array.isArray(t["compress_ratios"]) || isRecord(t["compress_rates"])) return deepseekV4Caches(g);
  if (isMla(t, g.modelType)) {
    const linear = t["linear_attn_config"];
    if (isRecord(linear)) return kimiLinearCaches(g, linear);
    const types = stringList(t, "layer_types");
    if (types) {
      requireLength(types, g, "layer_types").forEach((type, i) => {
        if (!/attention$/.test(type) || type.includes("linear") || type.includes("sliding")) {
          throw new ModelError(`layer_types[${i}] is "${type}" in an MLA model: Modelplan cannot size it.`, "layer_types");
        }
      });
    }
    return withIndexer(t, Array.from({ length: g.layers }, () => mlaCache(t)));
  }
  const blocks = t["block_configs"];
  if (Array.isArray(blocks)) return blockConfigCaches(g, requireLength(blocks, g, "block_configs"), attentionHeads);

  const pattern = t["hybrid_override_pattern"];
  if (typeof pattern === "string") return nemotronHCaches(g, requireLength([...pattern], g, "hybrid_override_pattern"), "hybrid_override_pattern");
  const blockTypes = stringList(t, "layers_block_type");
  if (blockTypes) return nemotronHCaches(g, requireLength(blockTypes, g, "layers_block_type"), "layers_block_type");

  const types = stringList(t, "layer_types");
  if (types) return withKvSharing(g, requireLength(types, g, "layer_types").map((type, i) => cacheForLayerType(g, type, i)));

  const hybrid = numberList(t, "hybrid_layer_pattern");
  if (hybrid) {
    // MiMo-V2: 0 = full attention, 1 = sliding window with its own swa_* heads.
    return requireLength(hybrid, g, "hybrid_layer_pattern").map((v, i) => {
      if (v === 0) return g.full;
      if (v === 1) return slidingLayer(g);
      throw new ModelError(`hybrid_layer_pattern[${i}] is ${v}; only 0 (full) and 1 (sliding) are known.`, "hybrid_layer_pattern");
    });
  }
  const attnTypes = numberList(t, "attn_type_list");
  if (attnTypes) {
    // MiniMax: 1 = softmax attention, 0 = lightning (linear) attention. MiniMax-M2 lists 1 on every layer.
    return requireLength(attnTypes, g, "attn_type_list").map((v, i) => {
      if (v === 1) return g.full;
      throw new ModelError(
        `attn_type_list[${i}] is ${v}: MiniMax's lightning (linear) attention is not supported yet; only softmax layers (1) are.`,
        "attn_type_list",
      );
    });
  }
  const interval = optionalInt(t, "full_attention_interval");
  if (interval !== undefined && interval > 0) {
    // Qwen3-Next without layer_types: layer i is full when (i + 1) % interval == 0 (llama.cpp qwen35.cpp, transformers).
    return Array.from({ length: g.layers }, (_, i) =>
      (i + 1) % interval === 0 ? g.full : { kind: "linear", stateBytesPerSeq: gatedDeltaState(g) },
    );
  }
  if (g.modelType === "llama4" || g.modelType === "llama4_text") {
    if (typeof t["attention_chunk_size"] === "number") return llama4Caches(g);
  }
  refuseUnplacedRecurrence(t);
  return slidingByConvention(g);
}

/**
 * Layouts whose recurrent or linear layers this file cannot place: Jamba's
 * `attn_layer_period`, Falcon-H1's parallel Mamba
 * (`mamba_*` with no layer list). Sized as plain attention they would miss a
 * per-sequence state and overstate the KV, so they are refused by name.
 */
function refuseUnplacedRecurrence(t: Json): void {
  const field =
    (t["attn_layer_period"] !== undefined ? "attn_layer_period" : undefined) ??
    Object.keys(t).find((k) => /^(mamba_|ssm_|linear_num_|linear_attn)/.test(k) && k !== "mamba_ssm_dtype");
  if (field === undefined) return;
  throw new ModelError(
    `config.json has ${field} but no layer list Modelplan can read (layer_types, hybrid_override_pattern, ` +
      "full_attention_interval, linear_attn_config): which layers hold a recurrent state is unknown, and Modelplan will not guess.",
    field,
  );
}

/**
 * Gemma-3n/4 `num_kv_shared_layers`: the last N layers reuse an earlier
 * layer's cache and hold none of their own (transformers Gemma3n/Gemma4).
 */
function withKvSharing(g: Geometry, caches: LayerCache[]): LayerCache[] {
  const shared = optionalInt(g.text, "num_kv_shared_layers") ?? 0;
  if (shared === 0) return caches;
  return caches.map((c, i) => (i >= g.layers - shared ? { kind: "none" } : c));
}

/**
 * Sliding window without a per-layer list: Gemma-2 alternates (even layers
 * slide, transformers `is_sliding = not layer_idx % 2`); Gemma-3 and Cohere2
 * slide all but every `sliding_window_pattern`-th layer; Qwen2's
 * `sliding_window` counts only when `use_sliding_window` is true, and then from
 * `max_window_layers` on; otherwise a set window applies to every layer, as
 * vLLM does for Mistral-style configs.
 */
function slidingByConvention(g: Geometry): LayerCache[] {
  const t = g.text;
  const window = t["sliding_window"];
  const all = (f: (i: number) => LayerCache) => Array.from({ length: g.layers }, (_, i) => f(i));
  if (typeof window !== "number" || window <= 0) return all(() => g.full);
  if (t["use_sliding_window"] === false) return all(() => g.full);
  if (g.modelType === "gemma2") return all((i) => (i % 2 === 0 ? slidingFromFull(g, window) : g.full));
  const p = optionalInt(t, "sliding_window_pattern") ?? optionalInt(t, "_sliding_window_pattern");
  if (p !== undefined && p > 0) return all((i) => ((i + 1) % p !== 0 ? slidingFromFull(g, window) : g.full));
  if (t["use_sliding_window"] === true) {
    const from = optionalInt(t, "max_window_layers") ?? 0;
    return all((i) => (i >= from ? slidingFromFull(g, window) : g.full));
  }
  return all(() => slidingFromFull(g, window));
}

// ---------------------------------------------------------------------------
// Mixture of experts.
// ---------------------------------------------------------------------------

/** Routed experts under every name a 2026 config uses (pitfall 11). */
const EXPERT_KEYS = ["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"] as const;
const TOP_K_KEYS = ["num_experts_per_tok", "experts_per_token", "num_experts_per_token", "top_k_experts", "moe_topk", "moe_k"] as const;
const SHARED_KEYS = ["n_shared_experts", "num_shared_experts", "shared_expert_count"] as const;
const SHARED_WIDTH_KEYS = ["shared_expert_intermediate_size", "moe_shared_expert_intermediate_size", "share_expert_dim"] as const;

/** Which layers carry routed experts, from whichever field says so. */
function moeLayerMask(t: Json, layers: number): boolean[] {
  const all = (f: (i: number) => boolean) => Array.from({ length: layers }, (_, i) => f(i));
  const mlpTypes = stringList(t, "mlp_layer_types");
  if (mlpTypes && mlpTypes.length === layers) {
    return mlpTypes.map((type, i) => {
      if (type === "dense" || type === "mlp") return false;
      if (type === "sparse" || type === "moe" || type.endsWith("_moe")) return true;
      throw new ModelError(`mlp_layer_types[${i}] is "${type}"; known: dense, sparse, moe.`, "mlp_layer_types");
    });
  }
  const freqList = numberList(t, "moe_layer_freq");
  if (freqList && freqList.length === layers) return freqList.map((v) => v !== 0);
  const pattern = t["hybrid_override_pattern"];
  if (typeof pattern === "string") return [...pattern].map((c) => c === "E");
  const blockTypes = stringList(t, "layers_block_type");
  if (blockTypes) return blockTypes.map((b) => b === "moe");
  const explicit = numberList(t, "moe_layers");
  if (explicit) return all((i) => explicit.includes(i));
  const firstDense = optionalInt(t, "first_k_dense_replace");
  if (firstDense !== undefined) {
    const freq = optionalInt(t, "moe_layer_freq") ?? 1;
    return all((i) => i >= firstDense && i % Math.max(1, freq) === 0);
  }
  const step = optionalInt(t, "interleave_moe_layer_step");
  if (step !== undefined && step > 0) return all((i) => (i + 1) % step === 0);
  const sparseStep = optionalInt(t, "decoder_sparse_step") ?? 1;
  const mlpOnly = numberList(t, "mlp_only_layers") ?? [];
  return all((i) => !mlpOnly.includes(i) && (i + 1) % Math.max(1, sparseStep) === 0);
}

/**
 * Weight matrices of one expert: gated FFNs (SwiGLU: gate, up, down) have
 * three; Nemotron-H's squared-ReLU experts have two (up, down).
 */
function matricesPerExpert(t: Json, modelType: string): number {
  if (modelType === "nemotron_h") return 2;
  const act = t["mlp_hidden_act"] ?? t["hidden_act"];
  return act === "relu2" ? 2 : 3;
}

function moeOf(t: Json, modelType: string, layers: number, hiddenSize: number): MoeShape | null {
  const routed = firstNumber(t, EXPERT_KEYS);
  if (routed === undefined || routed.value <= 1) return null;
  if (t["enable_moe_block"] === false) return null;
  const topK = firstNumber(t, TOP_K_KEYS);
  if (topK === undefined || topK.value <= 0) {
    throw new ModelError(
      `config.json has ${routed.value} routed experts (${routed.name}) but no experts-per-token field (${TOP_K_KEYS.join(", ")}).`,
      TOP_K_KEYS[0],
    );
  }
  const sharedCount = firstNumber(t, SHARED_KEYS)?.value;
  const sharedWidth = firstNumber(t, SHARED_WIDTH_KEYS)?.value ?? 0;
  const sharedExperts = sharedCount ?? (sharedWidth > 0 ? 1 : 0);
  const mask = moeLayerMask(t, layers);
  const moeLayers = mask.filter(Boolean).length;
  const firstMoe = mask.indexOf(true);
  // Mixtral, gpt-oss and Llama-4 call the expert width intermediate_size.
  const width = firstNumber(t, ["moe_intermediate_size", "expert_intermediate_size", "intermediate_size"])?.value ?? 0;
  // Latent MoE (Nemotron-3 Super/Ultra: moe_latent_size; Kimi-K3: routed_expert_hidden_size) runs experts in a narrower space.
  const inDim = firstNumber(t, ["moe_latent_size", "routed_expert_hidden_size"])?.value ?? hiddenSize;
  const shape: MoeShape = {
    routedExperts: routed.value,
    expertsPerToken: topK.value,
    sharedExperts,
    denseFirstLayers: firstMoe < 0 ? layers : firstMoe,
    expertIntermediateSize: width,
    moeLayers,
    moeLayerMask: mask,
  };
  if (width > 0) shape.routedExpertParams = moeLayers * routed.value * matricesPerExpert(t, modelType) * inDim * width;
  return shape;
}

// ---------------------------------------------------------------------------
// The shape.
// ---------------------------------------------------------------------------

function layerCountOf(t: Json): number {
  if (t["num_hidden_layers"] !== undefined && t["num_hidden_layers"] !== null) {
    return positiveInt(t, "num_hidden_layers", "it is the decoder layer count");
  }
  // Nemotron-3-Ultra has no num_hidden_layers: its layer list is the count (pitfall 2).
  for (const name of ["layers_block_type", "layer_types", "hybrid_override_pattern"]) {
    const v = t[name];
    if ((Array.isArray(v) || typeof v === "string") && v.length > 0) return v.length;
  }
  return positiveInt(t, "num_hidden_layers", "it is the decoder layer count");
}

/**
 * A model's shape from its config.json (unresolved: text_config is read
 * here), the Hub's parameter count, and extra JSON files such as
 * hf_quant_config.json.
 */
export function shapeFromConfig(
  config: Record<string, unknown>,
  paramsTotal: number | null,
  extraJson?: Record<string, unknown>,
): ModelShape {
  if (!isRecord(config)) throw new ModelError("config.json is not a JSON object.", "config.json");
  const text = textConfigOf(config);
  const modelType = String(text["model_type"] ?? config["model_type"] ?? "");
  if (modelType === "") {
    throw new ModelError("config.json has no model_type: it does not look like a model's config.json.", "model_type");
  }
  const layers = layerCountOf(text);
  const hiddenSize = positiveInt(text, "hidden_size", "it sizes heads and experts");
  const attentionHeads = positiveInt(text, "num_attention_heads", "it sizes the attention");
  const dtype = dtypeOf(config, text);
  const mla = isMla(text, modelType);
  const headDim = mla ? 0 : headDimOf(text, hiddenSize, attentionHeads);
  const kvHeads = mla || Array.isArray(text["block_configs"]) ? 0 : kvHeadsOf(text, attentionHeads);
  const vDim = optionalInt(text, "v_head_dim");
  const geometry: Geometry = {
    text,
    modelType,
    layers,
    dtypeBytes: dtypeBytes(dtype),
    full: { kind: "full", kvHeads, headDimK: headDim, headDimV: !mla && vDim ? vDim : headDim },
  };
  const layerCaches = layerCachesOf(geometry, attentionHeads);
  const mlaLatent = layerCaches.find((c) => c.kind === "mla");
  const blockKv = layerCaches.filter((c) => c.kind === "full").map((c) => (c.kind === "full" ? c.kvHeads : 0));
  return {
    architecture: modelType,
    layers,
    hiddenSize,
    attentionHeads,
    // MLA has one latent "head" (vLLM's get_num_kv_heads returns 1 and get_head_size the latent), reported as 0 KV heads.
    kvHeads: kvHeads > 0 ? kvHeads : blockKv.length > 0 ? Math.min(...blockKv) : 0,
    headDim: mlaLatent?.kind === "mla" ? mlaLatent.latentDim : headDim,
    vocabSize: optionalInt(text, "vocab_size") ?? optionalInt(config, "vocab_size") ?? 0,
    maxContextTokens: maxContextOf(config, text, modelType),
    ...ropeCacheRowsOf(config, text, modelType),
    dtype,
    paramsTotal,
    moe: moeOf(text, modelType, layers, hiddenSize),
    layerCaches,
    hasVision: hasVisionOf(config),
    quantMethod: quantMethodOf(config, text, extraJson),
    tiedEmbeddings: tiedEmbeddingsOf(config, text, modelType),
  };
}

/**
 * What a model caches a token in, in the words of its summary line: "8 KV heads" for GQA, "MLA cache" for a
 * latent-only model (its kvHeads is 0), "compressed MLA cache" for DeepSeek-V4, whose config's single KV head
 * is not what it caches. One wording for the page and the terminal.
 */
export function kvCacheLabel(shape: ModelShape): string {
  if (shape.layerCaches.some((c) => c.kind === "compressed-mla")) return "compressed MLA cache";
  if (shape.kvHeads === 0 && shape.layerCaches.some((c) => c.kind === "mla")) return "MLA cache";
  return `${shape.kvHeads} KV heads`;
}
