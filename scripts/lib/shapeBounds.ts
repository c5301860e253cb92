/**
 * Counts in a model's config.json or GGUF header past what any real model
 * has, refused before the engine loops over them: a GGUF whose block_count
 * is 2^32−1 aborted `npm run plan` (exit 134, 1.7 GB after 30 s, measured
 * here), and num_hidden_layers 1e6 planned for 39 s at 621 MB (issue 20).
 * The engine itself does not bound them yet: this guards the terminal only.
 */
import type { RepoSnapshot } from "../../src/plan/types.ts";

/**
 * Ceilings with room over the largest real models: 126 layers (Llama-3.1-405B),
 * 128 attention heads (DeepSeek-V3), 384 routed experts (Kimi-K2), a 262,144-token
 * vocabulary (Gemma 3); each bound is about 8× the largest.
 */
const CEILINGS: [what: string, configKeys: string[], ggufSuffixes: string[], max: number][] = [
  ["layers", ["num_hidden_layers", "n_layer", "num_layers"], [".block_count"], 1024],
  ["attention heads", ["num_attention_heads", "n_head", "num_key_value_heads"], [".attention.head_count", ".attention.head_count_kv"], 1024],
  ["experts", ["num_experts", "n_routed_experts", "num_local_experts"], [".expert_count"], 4096],
  ["vocabulary entries", ["vocab_size"], ["tokenizer.ggml.tokens.count"], 2_097_152],
  ["hidden size", ["hidden_size", "n_embd"], [".embedding_length"], 262_144],
];

function over(value: unknown, max: number): boolean {
  return typeof value === "number" && (!Number.isFinite(value) || value > max);
}

/** Why the snapshot is refused, naming the field, or null. */
export function shapeProblem(snapshot: RepoSnapshot): string | null {
  const configs = [snapshot.config, snapshot.config?.text_config].filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null);
  for (const [what, keys, suffixes, max] of CEILINGS) {
    for (const config of configs) {
      for (const key of keys) {
        if (over(config[key], max)) return `config.json: ${key} is ${String(config[key])}; no model has more than ${max.toLocaleString("en-US")} ${what}: is the file damaged?`;
      }
    }
    for (const [path, header] of Object.entries(snapshot.ggufHeaders)) {
      for (const [key, value] of Object.entries(header.metadata)) {
        if (suffixes.some((s) => key.endsWith(s)) && over(value, max)) return `${path}: ${key} is ${String(value)}; no model has more than ${max.toLocaleString("en-US")} ${what}: is the file damaged?`;
      }
    }
  }
  return null;
}
