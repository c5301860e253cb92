/**
 * The KV cache: what one card caches per token (and per sequence), by
 * attention kind, and how each engine turns a pool of bytes into tokens and
 * sequences. Geometry is counted in elements so that a change of KV dtype
 * (the slider's path) costs a multiplication, not a re-count.
 *
 * Sources: docs/notes/architectures.md §2.1–2.6 (vLLM kv_cache_interface.py,
 * kv_cache_utils.py; SGLang model_runner_kv_cache_mixin.py; llama.cpp
 * llama-kv-cache.cpp, llama-kv-cache-iswa.cpp), checked against
 * test/fixtures/calibration/measured.jsonl.
 */
import type { LayerCache } from "./shapeTypes.ts";

/** One card's share of the model's caches, in elements (K and V counted). */
export interface KvGeometry {
  /** Full-attention layers on this card, and their K+V elements per token, summed. */
  fullLayers: number;
  fullElemsPerToken: number;
  /** Sliding-window layers, grouped by window. */
  sliding: SlidingGroup[];
  /** MLA layers and their latent elements per token, summed (whole on every card). */
  mlaLayers: number;
  mlaElemsPerToken: number;
  /** A DSA model's indexer keys, bytes per token summed over its MLA layers (whatever the latent's dtype). */
  indexerBytesPerToken: number;
  /** Linear-attention / Mamba layers and their constant state per sequence, in bytes, summed. */
  linearLayers: number;
  linearStateBytesPerSeq: number;
  /** DeepSeek-V4 compressed-attention layers, grouped by geometry (whole on every card, like MLA: one latent head). */
  compressed: CompressedGroup[];
}

/** DeepSeek-V4 layers of one geometry (LayerCache kind "compressed-mla"). */
export interface CompressedGroup {
  compressRatio: number;
  windowTokens: number;
  headDim: number;
  /** The sparse indexer's key width on these layers, 0 without. */
  indexerHeadDim: number;
  layers: number;
}

export interface SlidingGroup {
  windowTokens: number;
  layers: number;
  elemsPerToken: number;
  /** Chunked local attention (Llama-4), which vLLM sizes by its own rule and may cache whole. */
  chunked: boolean;
}

/**
 * KV heads one card holds at tensor-parallel width `tp`: vLLM's
 * `max(1, total_kv_heads // tp)` (vllm/config/model.py get_num_kv_heads).
 * Past the KV heads each card keeps a copy of one head, so a card's cache
 * stops shrinking: Qwen3-235B's 4 heads on 8 cards cost 1 head a card, not ½.
 */
export function kvHeadsPerCard(kvHeads: number, tp: number): number {
  return Math.max(1, Math.floor(kvHeads / Math.max(1, tp)));
}

/** What the given layers cache on one card of a tensor-parallel group of `tp`. */
export function kvGeometry(layers: readonly LayerCache[], tp: number): KvGeometry {
  const g: KvGeometry = {
    fullLayers: 0,
    fullElemsPerToken: 0,
    sliding: [],
    mlaLayers: 0,
    mlaElemsPerToken: 0,
    indexerBytesPerToken: 0,
    linearLayers: 0,
    linearStateBytesPerSeq: 0,
    compressed: [],
  };
  for (const layer of layers) {
    switch (layer.kind) {
      case "full":
        g.fullLayers += 1;
        g.fullElemsPerToken += kvHeadsPerCard(layer.kvHeads, tp) * (layer.headDimK + layer.headDimV);
        break;
      case "sliding": {
        const elems = kvHeadsPerCard(layer.kvHeads, tp) * (layer.headDimK + layer.headDimV);
        const chunked = layer.chunked === true;
        const group = g.sliding.find((s) => s.windowTokens === layer.windowTokens && s.chunked === chunked);
        if (group) {
          group.layers += 1;
          group.elemsPerToken += elems;
        } else {
          g.sliding.push({ windowTokens: layer.windowTokens, layers: 1, elemsPerToken: elems, chunked });
        }
        break;
      }
      case "mla":
        // One latent tensor (kv_lora_rank + qk_rope_head_dim), no factor 2, whole on every rank.
        g.mlaLayers += 1;
        g.mlaElemsPerToken += layer.latentDim;
        g.indexerBytesPerToken += layer.indexerBytesPerToken ?? 0;
        break;
      case "linear":
        // Mamba / gated-delta states divide over tensor parallel (docs/notes/architectures.md §2.5, docs/notes/architectures.md pitfall 8).
        g.linearLayers += 1;
        g.linearStateBytesPerSeq += layer.stateBytesPerSeq / Math.max(1, tp);
        break;
      case "compressed-mla": {
        // Replicated on every rank: one latent head, like MLA (vLLM's specs carry num_kv_heads=1 whatever the TP).
        const { compressRatio, windowTokens, headDim, indexerHeadDim } = layer;
        const group = g.compressed.find(
          (c) =>
            c.compressRatio === compressRatio &&
            c.windowTokens === windowTokens &&
            c.headDim === headDim &&
            c.indexerHeadDim === indexerHeadDim,
        );
        if (group) group.layers += 1;
        else g.compressed.push({ compressRatio, windowTokens, headDim, indexerHeadDim, layers: 1 });
        break;
      }
      case "none":
        break;
    }
  }
  return g;
}

// ---------------------------------------------------------------------------
// vLLM (V1, 0.19)

/** What a KV pool holds: vLLM's "GPU KV cache size: N tokens" and "Maximum concurrency for C tokens per request: X". */
export interface PoolCapacity {
  tokens: number;
  concurrency: number;
}

/** Bytes a token of context adds on a card's full-attention and MLA layers (and the DSA indexer's keys): what grows past the windows. */
export function growingBytesPerToken(g: KvGeometry, elementBytes: number): number {
  return (g.fullElemsPerToken + g.mlaElemsPerToken) * elementBytes + g.indexerBytesPerToken;
}
