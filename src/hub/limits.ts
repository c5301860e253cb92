/**
 * Ceilings on a model's shape: past any real model by a wide margin, so a
 * config.json, GGUF header or link asking for 2^32 layers is refused where it
 * enters, with the field named, instead of blanking the page or planning for
 * minutes (issue 20: 10^6 layers blocked the tab 6–13 s; 2^32 threw
 * "Invalid array length" during rendering; a GGUF block_count of 2^32−1 made
 * `npm run plan` run out of memory).
 *
 * Each ceiling names the largest real figure it was set from. "fixtures" are
 * the config.json files in test/fixtures/configs/ (copied from the Hub, each
 * with its source URL in that folder's README).
 */

export interface Ceiling {
  /** The most any model may have. */
  max: number;
  /** The largest real value, and whose, that the ceiling was set from. */
  source: string;
}

/** The ceilings, by what they bound. */
export const CEILINGS = {
  // Llama-3.1-405B: num_hidden_layers 126 (https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json); ×8.
  layers: { max: 1024, source: "Llama-3.1-405B's 126 layers (the fixtures' most: Qwen3-235B's 94), ×8" },
  // DeepSeek-R1: num_attention_heads 128 (fixtures); ×8.
  heads: { max: 1024, source: "DeepSeek-R1's 128 attention heads (fixtures), ×8" },
  // Llama-3.1-405B: hidden_size 16384; ×4.
  hidden: { max: 65_536, source: "Llama-3.1-405B's hidden_size 16,384, ×4" },
  // Llama-3.1-405B: intermediate_size 53248; ×~5.
  intermediate: {
    max: 262_144,
    source: "Llama-3.1-405B's intermediate_size 53,248 (fixtures' most: Kimi-K3's 33,792), ×~5",
  },
  // Gemma: vocab_size 262144 (fixtures: gemma-4-26B-A4B); ×16.
  vocab: { max: 4_194_304, source: "Gemma's 262,144-token vocabulary (fixtures), ×16" },
  // Kimi-K3: num_experts 896 (fixtures); ×~9.
  experts: { max: 8192, source: "Kimi-K3's 896 experts (fixtures), ×~9" },
  // Nemotron-3-Super: num_experts_per_tok 22 (fixtures); bounded by the heads' figure.
  expertsPerToken: { max: 1024, source: "Nemotron-3-Super's 22 experts a token (fixtures), far under 1,024" },
  // DeepSeek-V4-Flash: head_dim 512 (fixtures); ×16.
  headDim: { max: 8192, source: "DeepSeek-V4-Flash's head_dim 512 (fixtures), ×16" },
  // Llama-4-Scout: max_position_embeddings 10485760 (fixtures); ×~100.
  context: { max: 2 ** 30, source: "Llama-4-Scout's 10,485,760-token context (fixtures), ×~100" },
} as const satisfies Record<string, Ceiling>;

export type CeilingKind = keyof typeof CEILINGS;

/** config.json field names (every family's spelling the engine reads) and what bounds them. */
const CONFIG_FIELDS: Record<string, CeilingKind> = {
  num_hidden_layers: "layers",
  n_layer: "layers",
  n_layers: "layers",
  num_layers: "layers",
  num_nextn_predict_layers: "layers",
  num_attention_heads: "heads",
  n_head: "heads",
  n_heads: "heads",
  num_key_value_heads: "heads",
  n_head_kv: "heads",
  multi_query_group_num: "heads",
  hidden_size: "hidden",
  n_embd: "hidden",
  d_model: "hidden",
  kv_lora_rank: "hidden",
  q_lora_rank: "hidden",
  intermediate_size: "intermediate",
  ffn_hidden_size: "intermediate",
  n_inner: "intermediate",
  moe_intermediate_size: "intermediate",
  shared_expert_intermediate_size: "intermediate",
  vocab_size: "vocab",
  padded_vocab_size: "vocab",
  num_experts: "experts",
  num_local_experts: "experts",
  n_routed_experts: "experts",
  moe_num_experts: "experts",
  n_shared_experts: "experts",
  num_experts_per_tok: "expertsPerToken",
  moe_topk: "expertsPerToken",
  head_dim: "headDim",
  qk_nope_head_dim: "headDim",
  qk_rope_head_dim: "headDim",
  v_head_dim: "headDim",
  max_position_embeddings: "context",
  n_positions: "context",
  seq_length: "context",
};

/** GGUF keys, as `<arch>.<suffix>` (llama.cpp's LLM_KV names, src/llama-arch.cpp), and what bounds them. */
const GGUF_SUFFIXES: Record<string, CeilingKind> = {
  block_count: "layers",
  "attention.head_count": "heads",
  "attention.head_count_kv": "heads",
  embedding_length: "hidden",
  feed_forward_length: "intermediate",
  expert_feed_forward_length: "intermediate",
  vocab_size: "vocab",
  expert_count: "experts",
  expert_used_count: "expertsPerToken",
  "attention.key_length": "headDim",
  "attention.value_length": "headDim",
  context_length: "context",
};

function tooLarge(where: string, value: number, kind: CeilingKind): string {
  const { max, source } = CEILINGS[kind];
  const shown = Number.isFinite(value) && Math.abs(value) < 1e15 ? value.toLocaleString("en-US") : String(value);
  return `${where} is ${shown}: no real model has more than ${max.toLocaleString("en-US")} (set from ${source}); check the file`;
}

/** One value against its ceiling: a number (or each number of a per-layer list) from 0 to the ceiling. */
function valueError(where: string, value: unknown, kind: CeilingKind): string | null {
  if (typeof value === "number") return value >= 0 && value <= CEILINGS[kind].max ? null : tooLarge(where, value, kind);
  if (Array.isArray(value)) {
    if (value.length > CEILINGS.layers.max)
      return `${where} lists ${value.length.toLocaleString("en-US")} entries: no real model has more than ${CEILINGS.layers.max.toLocaleString("en-US")} layers; check the file`;
    for (const [i, v] of value.entries()) {
      if (typeof v === "number" && !(v >= 0 && v <= CEILINGS[kind].max)) return tooLarge(`${where}[${i}]`, v, kind);
    }
  }
  return null;
}

/** How deep sub-configs nest (text_config, llm_config.text_config …): real ones go two levels down. */
const MAX_CONFIG_DEPTH = 4;

/**
 * The first shape field of a config.json past its ceiling, in words naming
 * it (`text_config.num_hidden_layers is 4,294,967,296: …`), or null when the
 * shape is within every ceiling. Sub-configs are checked too.
 */
export function configCeilingError(config: Record<string, unknown>, file = "config.json"): string | null {
  function walk(node: Record<string, unknown>, path: string, depth: number): string | null {
    for (const [key, value] of Object.entries(node)) {
      const kind = Object.hasOwn(CONFIG_FIELDS, key) ? CONFIG_FIELDS[key] : undefined;
      if (kind) {
        const err = valueError(`${file}'s ${path}${key}`, value, kind);
        if (err) return err;
      } else if (depth < MAX_CONFIG_DEPTH && typeof value === "object" && value !== null && !Array.isArray(value)) {
        const err = walk(value as Record<string, unknown>, `${path}${key}.`, depth + 1);
        if (err) return err;
      }
    }
    return null;
  }
  return walk(config, "", 0);
}

/** The first GGUF header value past its ceiling (`qwen2.block_count is 4,294,967,295: …`), or null. */
export function ggufCeilingError(metadata: Record<string, unknown>, file: string): string | null {
  const arch = metadata["general.architecture"];
  const tokens = metadata["tokenizer.ggml.tokens.count"];
  if (typeof tokens === "number" && !(tokens >= 0 && tokens <= CEILINGS.vocab.max))
    return tooLarge(`${file}: tokenizer.ggml.tokens (its count)`, tokens, "vocab");
  if (typeof arch !== "string") return null;
  for (const [suffix, kind] of Object.entries(GGUF_SUFFIXES)) {
    const key = `${arch}.${suffix}`;
    if (!Object.hasOwn(metadata, key)) continue;
    const err = valueError(`${file}: ${key}`, metadata[key], kind);
    if (err) return err;
  }
  return null;
}

/**
 * The most bytes a GGUF header is read to. Real headers are a few MB (the
 * vocabulary and its merges: about 10 MB for a 150k–260k-token tokenizer);
 * a header that claims more (a crafted tensor or key count) is refused
 * rather than fetched 2 MB at a time without end.
 */
export const MAX_GGUF_HEADER_BYTES = 64 * 2 ** 20;

/**
 * The first shape past its ceiling anywhere in a snapshot (its config.json,
 * then each GGUF header), or null: for snapshots read from somewhere other
 * than the Hub reader, which checks as it reads (a local directory, a cache).
 */
export function snapshotCeilingError(snapshot: {
  config: Record<string, unknown> | null;
  ggufHeaders: Record<string, { metadata: Record<string, unknown> }>;
}): string | null {
  if (snapshot.config) {
    const err = configCeilingError(snapshot.config);
    if (err) return err;
  }
  for (const [path, header] of Object.entries(snapshot.ggufHeaders)) {
    const err = ggufCeilingError(header.metadata, path);
    if (err) return err;
  }
  return null;
}
