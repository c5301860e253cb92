/**
 * Multi-latent attention (DeepSeek V2/V3/V3.2, Kimi-K2, GLM-5): one latent per token, and DSA's
 * indexer keys.
 */
import type { ConfigFamily } from "./family.ts";
import { type Json, ModelError, optionalInt, positiveInt, stringList } from "../fields.ts";
import { requireLength } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

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

export function isMla(text: Json, modelType: string): boolean {
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

export function mlaCache(text: Json): LayerCache {
  const rank = positiveInt(text, "kv_lora_rank", "it sizes the MLA latent cache");
  const rope = positiveInt(text, "qk_rope_head_dim", "the MLA cache holds kv_lora_rank + qk_rope_head_dim per token");
  return { kind: "mla", latentDim: rank + rope };
}

/**
 * The DSA indexer's key cache per token (DeepSeek-V3.2, GLM-5.x, which carry
 * `index_head_dim`): fp8 keys plus an fp32 scale per 128, vLLM's and SGLang's
 * layout (docs/notes/architectures.md §2.2; SGLang's V3.2 log: 61 × (656 + 132) = 48,068 B/tok).
 * GLM-5.2's `indexer_types` marks layers "shared": they reuse another layer's
 * selection and keep no index keys of their own.
 */
export function withIndexer(t: Json, caches: LayerCache[]): LayerCache[] {
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

export const MLA: ConfigFamily = {
  name: "DeepSeek V2/V3/V3.2, Kimi-K2, GLM-5 (kv_lora_rank)",
  detects: (g) => isMla(g.text, g.modelType),
  layerCaches(g) {
    const t = g.text;
    const types = stringList(t, "layer_types");
    if (types) {
      requireLength(types, g, "layer_types").forEach((type, i) => {
        if (!/attention$/.test(type) || type.includes("linear") || type.includes("sliding")) {
          throw new ModelError(
            `layer_types[${i}] is "${type}" in an MLA model: Modelplan cannot size it.`,
            "layer_types",
          );
        }
      });
    }
    return withIndexer(
      t,
      Array.from({ length: g.layers }, () => mlaCache(t)),
    );
  },
};
