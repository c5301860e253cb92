/**
 * A model's shape from its config.json, field by field as the engines read them (vLLM's config
 * convertors, transformers' classes), never guessed.
 */
import { ropeCacheRowsOf } from "./families/gemma3.ts";
import { layerCachesOf } from "./families/index.ts";
import { gatedDeltaParams } from "./families/qwenNext.ts";
import { isMla } from "./families/mla.ts";
import { isRecord, type Json, ModelError, optionalInt, positiveInt } from "./fields.ts";
import { type Geometry, headDimOf, kvHeadsOf } from "./geometry.ts";
import {
  dtypeOf,
  eitherLevel,
  hasVisionOf,
  maxContextKeyOf,
  maxContextOf,
  ropeScalingOf,
  quantMethodOf,
  textConfigOf,
  tiedEmbeddingsOf,
} from "./model.ts";
import { moeOf } from "./moe.ts";
import { attentionParams, mtpParamsOf } from "./mtp.ts";
import { dtypeBytes } from "../dtype.ts";
import type { ModelShape } from "../shapeTypes.ts";

function layerCountOf(t: Json): number {
  if (t["num_hidden_layers"] !== undefined && t["num_hidden_layers"] !== null) {
    return positiveInt(t, "num_hidden_layers", "it is the decoder layer count");
  }
  // Nemotron-3-Ultra has no num_hidden_layers: its layer list is the count (docs/notes/architectures.md, pitfall 2).
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
  const mtpParams = mtpParamsOf(text, hiddenSize);
  const ropeScaling = ropeScalingOf(config, text);
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
    contextKey: maxContextKeyOf(config, text),
    ...(ropeScaling !== undefined ? { ropeScaling } : {}),
    ...ropeCacheRowsOf(
      modelType,
      maxContextOf(config, text, modelType),
      eitherLevel(config, text, "rope_scaling") ?? eitherLevel(config, text, "rope_parameters"),
    ),
    dtype,
    paramsTotal,
    moe: moeOf(text, modelType, layers, hiddenSize),
    layerCaches,
    hasVision: hasVisionOf(config),
    quantMethod: quantMethodOf(config, text, extraJson),
    tiedEmbeddings: tiedEmbeddingsOf(config, text, modelType),
    ...(mtpParams !== undefined ? { mtpParams } : {}),
    attentionParamsPerLayer: attentionParams(text, hiddenSize) + indexerParams(text, hiddenSize),
    attentionReplicatedParamsPerLayer: replicatedAttentionParams(text, hiddenSize),
    ...linearAttentionField(text, hiddenSize, layerCaches),
  };
}

/** The gated-delta mixer's parameters, for a model whose layers include linear-attention ones and whose config sizes them. */
function linearAttentionField(t: Json, hidden: number, caches: readonly { kind: string }[]) {
  if (!caches.some((c) => c.kind === "linear")) return {};
  const params = gatedDeltaParams(t, hidden);
  return params === undefined ? {} : { linearAttentionParamsPerLayer: params };
}

/**
 * Of one layer's attention, the parameters SGLang keeps whole on every attention-TP rank: MLA's down-projections
 * (`fused_qkv_a_proj_with_mqa`, hidden → q_lora_rank + kv_lora_rank + qk_rope_head_dim, or `kv_a_proj_with_mqa`
 * alone without a q latent, both `ReplicatedLinear`) and DSA's indexer (`wq_b`, `wk`, `weights_proj`, replicated);
 * the up- and output projections split by head (models/deepseek_v2.py `DeepseekV2AttentionMLA`). 0 for GQA.
 */
function replicatedAttentionParams(t: Json, hidden: number): number {
  const rank = optionalInt(t, "kv_lora_rank") ?? 0;
  if (rank <= 0) return 0;
  const q = optionalInt(t, "q_lora_rank") ?? 0;
  return hidden * (q + rank + (optionalInt(t, "qk_rope_head_dim") ?? 0)) + indexerParams(t, hidden);
}

/**
 * DSA's lightning indexer beside each attention (DeepSeek-V3.2, GLM-5.x: `index_n_heads`, `index_head_dim`): its
 * query from the q latent (q_lora_rank → heads × dim), its key (hidden → dim) and its head weights (hidden →
 * heads), as DeepSeek's inference/model.py `Indexer` builds them; 0 without one.
 */
function indexerParams(t: Json, hidden: number): number {
  const dim = optionalInt(t, "index_head_dim") ?? 0;
  const heads = optionalInt(t, "index_n_heads") ?? 0;
  if (dim <= 0 || heads <= 0) return 0;
  const qRank = optionalInt(t, "q_lora_rank") ?? hidden;
  return qRank * heads * dim + hidden * dim + hidden * heads;
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
