/**
 * The header of bartowski/Qwen2.5-14B-Instruct-GGUF's files at its real size, for the recordings
 * (test/fixtures/hub/): the Hub tests must read a header as big as the world's (issue 19).
 *
 * Sources, each checked:
 * - key set, order, array lengths, 579 tensors (241 f32 + 289 q4_K + 49 q6_K in a Q4_K_M): a llama.cpp load log
 *   of qwen2.5:14b, https://github.com/ollama/ollama/issues/8588 (kv 0-33, n_vocab 152064, n_merges 151387,
 *   "token to piece cache size = 0.9310 MB") and https://github.com/ollama/ollama/issues/9091 (kv 0-19);
 * - string bytes: the BPE ranks in qwen.tiktoken (151,643 tokens), github.com/x1ngzai/Qwen-VL-Chat-Int4
 *   @1cd721a27dd000fc4cf688c6ad58e614da1d600d, written as GPT-2 byte-level strings (printable ASCII 1 byte, any
 *   other byte a 2-byte code point), + Qwen2.5's 22 special tokens + 399 "[PAD{id}]" (convert_hf_to_gguf.py pads
 *   to vocab_size); each merge is its token's two halves and a space, so its bytes are the token's + 1.
 *   Check: the decoded pieces without the unused pads sum to 976,263 bytes = 0.9310 MiB, llama.cpp's figure;
 * - tensor types: llama.cpp's recipes (Q8_0 all matrices; K_M: q6_K for output and attn_v/ffn_down in the
 *   use_more_bits layers; bartowski's _L: Q8_0 embeddings and output). For 6 of the 10 files, the header and
 *   these tensors sum to the listed file size to the byte, with a tensor data offset of 5,968,000 bytes.
 * - not recorded: the chat template's text (its length is what is left of those 5,968,000 bytes, to within the
 *   32-byte alignment) and the exact mix of Q3_K_XL, Q4_0_4_4, Q4_0_4_8, IQ3_XS (taken as their base type).
 */

/** The tensor data offset that six files' sizes give (file size - their tensors' bytes). */
export const QWEN25_14B_DATA_OFFSET_BYTES = 5_968_000;

const EMBD = 5120;
const VOCAB = 152_064;
const FF = 13_824;
const KV_DIM = 1024;
const LAYERS = 48;

// ggml_type ids (ggml.h).
const F32 = 0,
  Q4_0_4_4 = 31,
  Q4_0_4_8 = 32,
  Q8_0 = 8,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  IQ3_S = 21;

/** llama.cpp's use_more_bits (src/llama-quant.cpp): the first and last eighth of the layers, and every third. */
function moreBits(layer: number): boolean {
  const n = LAYERS;
  return layer < n / 8 || layer >= (7 * n) / 8 || (layer - n / 8) % 3 === 2;
}

interface Recipe {
  base: number;
  /** attn_v and ffn_down in the use_more_bits layers. */
  bump: number;
  embd: number;
  output: number;
}

const RECIPES: Record<string, Recipe> = {
  Q8_0: { base: Q8_0, bump: Q8_0, embd: Q8_0, output: Q8_0 },
  Q6_K_L: { base: Q6_K, bump: Q6_K, embd: Q8_0, output: Q8_0 },
  Q5_K_L: { base: Q5_K, bump: Q6_K, embd: Q8_0, output: Q8_0 },
  Q5_K_M: { base: Q5_K, bump: Q6_K, embd: Q5_K, output: Q6_K },
  Q4_K_L: { base: Q4_K, bump: Q6_K, embd: Q8_0, output: Q8_0 },
  Q4_K_M: { base: Q4_K, bump: Q6_K, embd: Q4_K, output: Q6_K },
  // Not matched to their sizes: the base type throughout.
  Q3_K_XL: { base: Q3_K, bump: Q3_K, embd: Q8_0, output: Q8_0 },
  Q4_0_4_4: { base: Q4_0_4_4, bump: Q4_0_4_4, embd: Q4_0_4_4, output: Q4_0_4_4 },
  Q4_0_4_8: { base: Q4_0_4_8, bump: Q4_0_4_8, embd: Q4_0_4_8, output: Q4_0_4_8 },
  IQ3_XS: { base: IQ3_S, bump: IQ3_S, embd: IQ3_S, output: IQ3_S },
};

/** The 579 tensor infos as "name|dims|ggml type", in the order convert_hf_to_gguf.py writes them. */
export function qwen25Tensors(quant: string): string[] {
  const r = RECIPES[quant];
  if (!r) throw new Error(`no tensor recipe for ${quant}`);
  const t = (name: string, dims: number[], type: number) => `${name}|${dims.join(",")}|${type}`;
  const out = [t("token_embd.weight", [EMBD, VOCAB], r.embd)];
  for (let i = 0; i < LAYERS; i++) {
    const b = `blk.${i}.`;
    const bump = moreBits(i) ? r.bump : r.base;
    out.push(
      t(`${b}attn_norm.weight`, [EMBD], F32),
      t(`${b}attn_q.weight`, [EMBD, EMBD], r.base),
      t(`${b}attn_q.bias`, [EMBD], F32),
      t(`${b}attn_k.weight`, [EMBD, KV_DIM], r.base),
      t(`${b}attn_k.bias`, [KV_DIM], F32),
      t(`${b}attn_v.weight`, [EMBD, KV_DIM], bump),
      t(`${b}attn_v.bias`, [KV_DIM], F32),
      t(`${b}attn_output.weight`, [EMBD, EMBD], r.base),
      t(`${b}ffn_norm.weight`, [EMBD], F32),
      t(`${b}ffn_gate.weight`, [EMBD, FF], r.base),
      t(`${b}ffn_up.weight`, [EMBD, FF], r.base),
      t(`${b}ffn_down.weight`, [FF, EMBD], bump),
    );
  }
  out.push(t("output_norm.weight", [EMBD], F32), t("output.weight", [EMBD, VOCAB], r.output));
  return out;
}

/** Bytes of the chat template left by the 5,968,000-byte offset (see above): its text was not recorded. */
export const QWEN25_CHAT_TEMPLATE_BYTES = 2797;

/**
 * The header's keys in file order (ollama/ollama#8588's kv 0-33). Long arrays are {array, count, bytes}: the
 * fake Hub writes strings of those total bytes; "f32" marks a float key.
 */
export function qwen25HeaderFacts(quant: string, fileType: number): Record<string, unknown> {
  return {
    "general.architecture": "qwen2",
    "general.type": "model",
    "general.name": "Qwen2.5 14B Instruct",
    "general.finetune": "Instruct",
    "general.basename": "Qwen2.5",
    "general.size_label": "14B",
    "general.license": "apache-2.0",
    "general.license.link": "https://huggingface.co/Qwen/Qwen2.5-14B-Instruct/blob/main/LICENSE",
    "general.base_model.count": 1,
    "general.base_model.0.name": "Qwen2.5 14B",
    "general.base_model.0.organization": "Qwen",
    "general.base_model.0.repo_url": "https://huggingface.co/Qwen/Qwen2.5-14B",
    "general.tags": ["chat", "text-generation"],
    "general.languages": ["en"],
    "qwen2.block_count": LAYERS,
    // convert_hf_to_gguf.py writes max_position_embeddings here.
    "qwen2.context_length": 32768,
    "qwen2.embedding_length": EMBD,
    "qwen2.feed_forward_length": FF,
    "qwen2.attention.head_count": 40,
    "qwen2.attention.head_count_kv": 8,
    "qwen2.rope.freq_base": { f32: 1_000_000 },
    "qwen2.attention.layer_norm_rms_epsilon": { f32: 1e-6 },
    "general.file_type": fileType,
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": "qwen2",
    "tokenizer.ggml.tokens": { array: "string", count: VOCAB, bytes: 1_374_166 },
    "tokenizer.ggml.token_type": { array: "int32", count: VOCAB },
    "tokenizer.ggml.merges": { array: "string", count: 151_387, bytes: 1_520_452 },
    "tokenizer.ggml.eos_token_id": 151_645,
    "tokenizer.ggml.padding_token_id": 151_643,
    "tokenizer.ggml.bos_token_id": 151_643,
    "tokenizer.ggml.add_bos_token": false,
    "tokenizer.chat_template": { text: "{%- if tools %}", bytes: QWEN25_CHAT_TEMPLATE_BYTES },
    "general.quantization_version": 2,
    "gguf.tensors": qwen25Tensors(quant),
  };
}
