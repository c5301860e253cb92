/** A model's shape from a GGUF header, as llama.cpp reads its `<arch>.*` keys. */
import { ModelError } from "./fields.ts";
import { isExpertTensor, isWholeModel, tensorElements } from "./ggml.ts";
import { fileTypeOf } from "../quant.ts";
import type { LayerCache, ModelShape, MoeShape } from "../shapeTypes.ts";
import type { GgufHeader, GgufTensor, GgufValue } from "../types.ts";

type Metadata = Record<string, GgufValue>;

function archOf(m: Metadata): string {
  const arch = m["general.architecture"];
  if (typeof arch !== "string" || arch === "") {
    throw new ModelError(
      "the GGUF header has no general.architecture: it is not a model file Modelplan can read (is it a projector or a LoRA?).",
      "general.architecture",
    );
  }
  return arch;
}

function num(m: Metadata, key: string): number | undefined {
  const v = m[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function requiredNum(m: Metadata, key: string, why: string): number {
  const v = num(m, key);
  if (v === undefined || v <= 0) {
    throw new ModelError(
      `the GGUF header has no positive ${key}; ${why}. Re-download the file, or plan the repo with its config.json.`,
      key,
    );
  }
  return v;
}

/** The rope scaling a GGUF already sets (`<arch>.rope.scaling.type`, llama.cpp's LLM_KV_ROPE_SCALING_TYPE), none when "none" or absent. */
function ggufRopeScaling(m: Metadata, arch: string): { ropeScaling?: string } {
  const type = m[`${arch}.rope.scaling.type`];
  return typeof type === "string" && type !== "" && type !== "none" ? { ropeScaling: type } : {};
}

/** A key that is one number for every layer or an array with one per layer (llama.cpp allows both). */
export function perLayer(m: Metadata, key: string, layers: number, fallback?: number): number[] {
  const v = m[key];
  if (typeof v === "number") return Array.from({ length: layers }, () => v);
  if (Array.isArray(v) && v.length === layers && v.every((x) => typeof x === "number")) return v as number[];
  if (Array.isArray(v)) {
    throw new ModelError(`the GGUF header's ${key} has ${v.length} entries for ${layers} layers.`, key);
  }
  if (fallback !== undefined) return Array.from({ length: layers }, () => fallback);
  throw new ModelError(`the GGUF header has no ${key}; the KV cache cannot be sized.`, key);
}

/**
 * Which layers slide: `attention.sliding_window_pattern` as a per-layer bool
 * array, or a period n where layer i slides when i % n < n − 1 (llama.cpp
 * `set_swa_pattern`). Older files carry no pattern and llama.cpp sets it per
 * architecture in load_hparams: gemma2 and gpt-oss 2, gemma3 6, cohere2 and llama4 4.
 */
const SWA_PATTERN_BY_ARCH: Record<string, number> = { gemma2: 2, gemma3: 6, "gpt-oss": 2, cohere2: 4, llama4: 4 };

function slidingMask(m: Metadata, arch: string, layers: number): boolean[] {
  const key = `${arch}.attention.sliding_window_pattern`;
  const v = m[key];
  if (Array.isArray(v) && v.length === layers && v.every((x) => typeof x === "boolean")) return v as boolean[];
  const period = typeof v === "number" ? v : SWA_PATTERN_BY_ARCH[arch];
  if (period === undefined) {
    throw new ModelError(
      `the GGUF header sets ${arch}.attention.sliding_window but not which layers slide (${key}), ` +
        `and llama.cpp has no default for ${arch}: Modelplan will not guess.`,
      key,
    );
  }
  return Array.from({ length: layers }, (_, i) => period === 0 || i % period < period - 1);
}

/**
 * A recurrent layer's state in llama.cpp's layout (llama-hparams.cpp): R =
 * (d_conv − 1)·(d_inner + 2·n_group·d_state) and S = d_state·d_inner floats,
 * both hard-coded F32. A GGUF is served by llama.cpp, so its layout is the one
 * that counts (vLLM keeps conv in the model dtype; shape.ts uses that for configs).
 */
function recurrentStateBytes(m: Metadata, arch: string): number {
  const why = "it sizes the recurrent (Mamba / gated-delta) state";
  const conv = requiredNum(m, `${arch}.ssm.conv_kernel`, why);
  const inner = requiredNum(m, `${arch}.ssm.inner_size`, why);
  const state = requiredNum(m, `${arch}.ssm.state_size`, why);
  const groups = num(m, `${arch}.ssm.group_count`) ?? 1;
  const r = (conv - 1) * (inner + 2 * groups * state);
  const s = state * inner;
  return (r + s) * 4;
}

/** Gated-delta hybrids whose attention layers come every `full_attention_interval` (default 4 in llama.cpp's load_hparams). */
const INTERVAL_ARCHS = new Set(["qwen3next", "qwen35", "qwen35moe"]);

/**
 * Which layers are recurrent in a hybrid: the gated-delta hybrids by their
 * full-attention interval (layer i is attention when (i + 1) % n == 0);
 * otherwise llama.cpp's rule for Nemotron-H and Jamba: no KV heads and no FFN
 * is a recurrent layer, no KV heads with an FFN an MLP/MoE-only block.
 */
function recurrentKinds(m: Metadata, arch: string, layers: number, kvHeads: number[]): ("rec" | "attn" | "none")[] {
  const interval = num(m, `${arch}.full_attention_interval`) ?? (INTERVAL_ARCHS.has(arch) ? 4 : undefined);
  if (interval !== undefined && interval > 0) {
    return Array.from({ length: layers }, (_, i) => ((i + 1) % interval === 0 ? "attn" : "rec"));
  }
  const ff = perLayer(m, `${arch}.feed_forward_length`, layers, 0);
  return kvHeads.map((kv, i) => (kv > 0 ? "attn" : (ff[i] ?? 0) > 0 ? "none" : "rec"));
}

/**
 * Llama-4 files carry no window key: llama.cpp's load_hparams sets chunked
 * attention of 8,192 tokens with pattern 4 (three chunked layers, then one
 * global) for every llama4 file, unless a sliding_window of 0 turns it off
 * (src/llama-model.cpp, LLM_ARCH_LLAMA4).
 */
const LLAMA4_CHUNK_TOKENS = 8192;

function llama4Chunks(m: Metadata, arch: string): boolean {
  if (arch !== "llama4") return false;
  return num(m, `${arch}.attention.sliding_window`) !== 0;
}

function ggufLayerCachesOf(m: Metadata, arch: string, layers: number, headCount: number, hidden: number): LayerCache[] {
  const kvHeads = perLayer(m, `${arch}.attention.head_count_kv`, layers, headCount);
  const rank = num(m, `${arch}.attention.kv_lora_rank`);
  if (rank !== undefined && rank > 0) {
    // MLA: llama.cpp keeps a K-only cache of kv_lora_rank + n_rot per token (has_v = !is_mla).
    const rope = requiredNum(
      m,
      `${arch}.rope.dimension_count`,
      "the MLA cache holds kv_lora_rank + the rope dimension",
    );
    const recurrentKey = Object.keys(m).find((k) => k.startsWith(`${arch}.ssm.`) || k.startsWith(`${arch}.kda.`));
    if (recurrentKey !== undefined && kvHeads.some((kv) => kv === 0)) {
      // Kimi-Linear-style files: their linear layers' state is not sized here yet, and leaving them out would understate.
      throw new ModelError(
        `${arch} mixes MLA with recurrent layers (${recurrentKey}), which Modelplan does not size from a GGUF yet.`,
        recurrentKey,
      );
    }
    return kvHeads.map((kv) => (kv > 0 ? { kind: "mla", latentDim: rank + rope } : { kind: "none" }));
  }
  const keyLength = num(m, `${arch}.attention.key_length`) ?? hidden / headCount;
  const valueLength = num(m, `${arch}.attention.value_length`) ?? keyLength;
  const full = (kv: number): LayerCache => ({ kind: "full", kvHeads: kv, headDimK: keyLength, headDimV: valueLength });

  if (num(m, `${arch}.ssm.conv_kernel`) !== undefined) {
    const state = recurrentStateBytes(m, arch);
    return recurrentKinds(m, arch, layers, kvHeads).map((k, i) =>
      k === "rec"
        ? { kind: "linear", stateBytesPerSeq: state }
        : k === "none"
          ? { kind: "none" }
          : full(kvHeads[i] ?? 0),
    );
  }
  const shortConv = num(m, `${arch}.shortconv.l_cache`);
  if (shortConv !== undefined && shortConv > 1) {
    // LFM2's short-convolution layers (no KV heads) keep n_embd × (l_cache − 1) f32 a sequence
    // (llama-hparams.cpp n_embd_r; measured on llama.cpp v0.4.0: test/engine FINDINGS.md F4).
    const state = hidden * (shortConv - 1) * 4;
    return kvHeads.map((kv): LayerCache => (kv > 0 ? full(kv) : { kind: "linear", stateBytesPerSeq: state }));
  }
  const chunked = llama4Chunks(m, arch);
  const window = chunked ? LLAMA4_CHUNK_TOKENS : num(m, `${arch}.attention.sliding_window`);
  if (window === undefined || window <= 0) return kvHeads.map((kv) => (kv > 0 ? full(kv) : { kind: "none" }));
  const sliding = slidingMask(m, arch, layers);
  // Gemma-4-style files give sliding layers their own head size.
  const keySwa = num(m, `${arch}.attention.key_length_swa`) ?? keyLength;
  const valueSwa = num(m, `${arch}.attention.value_length_swa`) ?? keySwa;
  return kvHeads.map((kv, i): LayerCache => {
    if (kv <= 0) return { kind: "none" };
    if (!sliding[i]) return full(kv);
    const layer: LayerCache = {
      kind: "sliding",
      kvHeads: kv,
      headDimK: keySwa,
      headDimV: valueSwa,
      windowTokens: window,
    };
    return chunked ? { ...layer, chunked: true } : layer;
  });
}

export function ggufMoeOf(
  m: Metadata,
  arch: string,
  layers: number,
  hidden: number,
  tensors: GgufTensor[] | undefined,
): MoeShape | null {
  const experts = num(m, `${arch}.expert_count`) ?? 0;
  if (experts <= 1) return null;
  const used = requiredNum(
    m,
    `${arch}.expert_used_count`,
    "a mixture of experts must say how many experts a token uses",
  );
  const dense = num(m, `${arch}.leading_dense_block_count`) ?? 0;
  // Mixtral-era files have no expert_feed_forward_length: llama.cpp sizes their experts by feed_forward_length.
  const width = num(m, `${arch}.expert_feed_forward_length`) ?? num(m, `${arch}.feed_forward_length`) ?? 0;
  // Llama-4 Maverick alternates dense and MoE layers (interleave_moe_layer_step 2): layer i has experts when (i + 1) % step == 0.
  const step = num(m, `${arch}.interleave_moe_layer_step`) ?? 1;
  const mask = Array.from({ length: layers }, (_, i) => (step > 1 ? (i + 1) % step === 0 : i >= dense));
  const moeLayers = mask.filter(Boolean).length;
  const shape: MoeShape = {
    routedExperts: experts,
    expertsPerToken: used,
    sharedExperts: num(m, `${arch}.expert_shared_count`) ?? 0,
    denseFirstLayers: step > 1 ? step - 1 : dense,
    expertIntermediateSize: width,
    moeLayers,
    moeLayerMask: mask,
  };
  const expertTensors = tensors?.filter((t) => isExpertTensor(t.name)) ?? [];
  if (expertTensors.length > 0 && tensors !== undefined) {
    shape.routedExpertParams = expertTensors.reduce((sum, t) => sum + tensorElements(t), 0);
  } else if (width > 0) {
    // Gated experts: gate, up and down, each hidden × width (llama.cpp's ffn_{gate,up,down}_exps).
    shape.routedExpertParams = moeLayers * experts * 3 * hidden * width;
  }
  return shape;
}

/** llama.cpp computes in and caches f16 by default; F32 and BF16 files name their own. */
function dtypeOfFile(header: GgufHeader): string {
  const ft = fileTypeOf(header);
  return ft === "F32" ? "float32" : ft === "BF16" ? "bfloat16" : "float16";
}

/** The latent under MLA, else the first full (or sliding) layer's key head size. */
export function ggufHeadDimOf(caches: LayerCache[], fallback: number): number {
  const full = caches.find((c) => c.kind === "full") ?? caches.find((c) => c.kind === "sliding" || c.kind === "mla");
  if (full?.kind === "mla") return full.latentDim;
  if (full?.kind === "full" || full?.kind === "sliding") return full.headDimK;
  return fallback;
}

function vocabOf(m: Metadata, arch: string): number {
  return num(m, `${arch}.vocab_size`) ?? num(m, "tokenizer.ggml.tokens.count") ?? 0;
}

/**
 * The multi-token-prediction (nextn) blocks a GGUF appends after the decoder (`<arch>.nextn_predict_layers`:
 * GLM-5.x `glm-dsa` files count 79 blocks, blk.78 the MTP one) run only as a speculative drafter, and
 * llama.cpp sizes no cache for them: build 10505 on GLM-5.2 put 55 + 9 + 8 + 6 = 78 layers of latent on its
 * four cards (test/fixtures/calibration/newer.jsonl).
 */
function withoutNextn(m: Metadata, arch: string, caches: LayerCache[]): LayerCache[] {
  const nextn = num(m, `${arch}.nextn_predict_layers`) ?? 0;
  if (!(nextn > 0) || nextn >= caches.length) return caches;
  return caches.map((c, i) => (i >= caches.length - nextn ? { kind: "none" } : c));
}

/**
 * A model's shape from the header of a GGUF (the first part of a split set
 * carries every model key). The parameter count is the tensors' when the file
 * holds the whole model, else the caller's (the Hub's gguf.total).
 */
export function shapeFromGguf(header: GgufHeader, paramsTotal?: number | null): ModelShape {
  const m = header.metadata;
  const arch = archOf(m);
  const why = "it is needed to size the model";
  const layers = requiredNum(m, `${arch}.block_count`, "it is the layer count");
  const hidden = requiredNum(m, `${arch}.embedding_length`, why);
  const headCount = Math.max(...perLayer(m, `${arch}.attention.head_count`, layers));
  if (!(headCount > 0))
    throw new ModelError(`the GGUF header's ${arch}.attention.head_count is 0.`, `${arch}.attention.head_count`);
  const layerCaches = withoutNextn(m, arch, ggufLayerCachesOf(m, arch, layers, headCount, hidden));
  const kvList = layerCaches.flatMap((c) => (c.kind === "full" || c.kind === "sliding" ? [c.kvHeads] : []));
  const mla = layerCaches.some((c) => c.kind === "mla");
  const tensors = header.tensors !== undefined && isWholeModel(header) ? header.tensors : undefined;
  const counted = tensors?.reduce((sum, t) => sum + tensorElements(t), 0);
  const shape: ModelShape = {
    architecture: arch,
    layers,
    hiddenSize: hidden,
    attentionHeads: headCount,
    kvHeads: mla ? 0 : kvList.length > 0 ? Math.min(...kvList) : 0,
    headDim: ggufHeadDimOf(layerCaches, hidden / headCount),
    vocabSize: vocabOf(m, arch),
    maxContextTokens: requiredNum(m, `${arch}.context_length`, "it is the model's longest context"),
    contextKey: `${arch}.context_length`,
    ...ggufRopeScaling(m, arch),
    dtype: dtypeOfFile(header),
    paramsTotal: counted ?? paramsTotal ?? null,
    moe: ggufMoeOf(m, arch, layers, hidden, tensors),
    layerCaches,
    hasVision: false,
    quantMethod: "",
  };
  // A file with no output.weight ties the output layer to token_embd (llama.cpp falls back to it).
  if (tensors !== undefined) shape.tiedEmbeddings = !tensors.some((t) => t.name === "output.weight");
  return shape;
}
