/** The dimensions of the llama.cpp graphs the plan places tensor by tensor (graphDims.ts reads them, gallocr.ts places them). */

export interface OpenaiMoeDims {
  arch: "openai-moe";
  layers: number;
  embd: number;
  heads: number;
  kvHeads: number;
  /** n_rot, each Q/K/V head's width (openai-moe.cpp: n_head × n_rot). */
  headDim: number;
  experts: number;
  expertsUsed: number;
  expertFf: number;
  vocab: number;
  /** Which layers slide (hparams.set_swa_pattern, period 2 unless the header says). */
  swaLayers: boolean[];
}

export interface Deepseek2Dims {
  arch: "deepseek2";
  layers: number;
  embd: number;
  heads: number;
  /** qk_nope_head_dim, qk_rope_head_dim, kv_lora_rank, v_head_dim, q_lora_rank (0: one wq). */
  nope: number;
  rope: number;
  kvLora: number;
  vHead: number;
  qLora: number;
  denseFirst: number;
  denseFf: number;
  experts: number;
  expertsUsed: number;
  expertFf: number;
  /** The shared experts' FFN width: n_expert_shared × n_ff_exp (deepseek2.cpp load_arch_tensors). */
  sharedFf: number;
  probsBias: boolean;
  normWeights: boolean;
  weightsScale: number;
  vocab: number;
}

export type LlamaGraphDims = OpenaiMoeDims | Deepseek2Dims;

/** What one reserve's graph is built for (llama-context.cpp graph_reserve: a full ubatch, every token an output). */
export interface GraphInputs {
  ubatch: number;
  outputs: number;
  /** KV cells of one stream of the full-attention (or MLA) cache: its mask's n_kv. */
  cells: number;
  /** The same for the sliding-window cache. */
  swaCells: number;
}
