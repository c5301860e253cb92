/**
 * DeepSeek-V4 (Flash, Pro): a window on every layer, entries compressed 4× or 128×, the sparse
 * indexer's keys on ratio-4 layers.
 */
import type { ConfigFamily } from "./family.ts";
import { isRecord, ModelError, numberList, positiveInt, stringList } from "../fields.ts";
import type { Geometry } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

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
        throw new ModelError(
          `compress_ratios[${i}] is ${r}; vLLM knows 0 (window only), 4 and 128.`,
          "compress_ratios",
        );
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
      throw new ModelError(
        `layer_types[${i}] is "${type}", which compress_rates does not give a whole-number rate for.`,
        "compress_rates",
      );
    }
    return { ratio: rate, indexer: type === "compressed_sparse_attention" };
  });
}

/** DeepSeek-V4's per-layer caches: a window on every layer, compressed entries and the indexer's keys where the ratio says. */
export function deepseekV4Caches(g: Geometry): LayerCache[] {
  const windowTokens = positiveInt(
    g.text,
    "sliding_window",
    "every DeepSeek-V4 layer keeps a window of that many tokens",
  );
  const headDim = positiveInt(g.text, "head_dim", "it is the width of DeepSeek-V4's compressed entries");
  const ropeDim = positiveInt(g.text, "qk_rope_head_dim", "it is the RoPE part of DeepSeek-V4's head");
  const ratios = deepseekV4Ratios(g);
  if (!ratios.some((r) => r.ratio > 1)) {
    // vLLM's grouping asserts compressed layers exist (group_and_unify_kv_cache_specs: `assert len(mla_specs) > 0`).
    throw new ModelError(
      "config.json gives DeepSeek-V4 no compressed layer (every ratio is 0): vLLM cannot lay its cache out.",
      "compress_ratios",
    );
  }
  const indexerHeadDim = ratios.some((r) => r.indexer)
    ? positiveInt(g.text, "index_head_dim", "sparse layers cache the indexer's keys")
    : 0;
  return ratios.map(({ ratio, indexer }): LayerCache => ({
    kind: "compressed-mla",
    compressRatio: ratio,
    windowTokens,
    headDim,
    indexerHeadDim: indexer ? indexerHeadDim : 0,
    ropeDim,
  }));
}

export const DEEPSEEK_V4: ConfigFamily = {
  name: "DeepSeek-V4 (compress_ratios / compress_rates)",
  detects: (g) => Array.isArray(g.text["compress_ratios"]) || isRecord(g.text["compress_rates"]),
  layerCaches: deepseekV4Caches,
};
