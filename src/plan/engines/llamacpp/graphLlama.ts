/**
 * The graphs of llama.cpp v0.4.0's `llama` and `openai-moe` (gpt-oss) builders for one ubatch with flash
 * attention on: the nodes that hold compute-buffer storage, in execution order (src/models/llama.cpp,
 * src/models/openai-moe.cpp; build_qkv, build_attn and build_moe_ffn in src/llama-graph.cpp). Checked node
 * by node against the engine's own placement (test/engine FINDINGS.md F2, F5: every offset equal at 512 cells).
 */
import { dense, F16, F32, GraphBuilder, I32, I64, type Graph } from "./gallocr.ts";
import type { GraphInputs, LlamaDims } from "./graphDims.ts";

export function llamaGraph(d: LlamaDims, x: GraphInputs): Graph {
  const b = new GraphBuilder();
  const E = d.embd;
  const T = x.ubatch;
  const { tokens, pos } = b.tokenInputs(T, E);
  // build_attn_inp_kv(_iswa) (llama-graph.cpp:2760-2770, 3324-3345): each cache's k/v row indices (i64) and f16
  // mask, [n_kv, n_tokens / n_stream, 1, n_stream], allocated in the order the layers first use them.
  const caches = new Map<boolean, { k: number; v: number; mask: number }>();
  for (const swa of d.swaLayers) {
    if (caches.has(swa)) continue;
    const nKv = swa ? x.swaCells : x.cells;
    caches.set(swa, {
      k: b.input(T * I64, dense("i64", T)),
      v: b.input(T * I64, dense("i64", T)),
      mask: b.input(nKv * T * F16, dense("f16", nKv, T)),
    });
  }
  const outIds = b.input(x.outputs * I32, dense("i32", x.outputs));
  const row = (width: number, rows = T): [number, string] => [width * rows * F32, dense("f32", width, rows)];
  const op = (shape: [number, string], srcs: number[], inplace = false, output = false): number =>
    b.op(shape[0], shape[1], srcs, { inplace, output });

  let inpL = op(row(E), [tokens]);
  for (let il = 0; il < d.layers; il++) {
    const cache = caches.get(d.swaLayers[il] ?? false)!;
    const last = il === d.layers - 1;
    const attnNorm = op(row(E), [op(row(E), [inpL], true)], true);
    const kqvOut = attentionHead(b, attnNorm, T, pos, cache, { ...d, qkNorm: false, iswa: d.arch === "openai-moe" });
    const wo = op(row(E), [kqvOut]);
    let attn = d.outBias ? op(row(E), [wo], true) : wo;
    let residual = inpL;
    const rows = last && !d.pinsLastLayer ? x.outputs : T;
    if (last && !d.pinsLastLayer) {
      // src/models/llama.cpp:174-177: the last layer keeps only the output rows.
      attn = op(row(E, rows), [attn, outIds]);
      residual = op(row(E, rows), [inpL, outIds]);
    }
    const ffnInp = op(row(E, rows), [attn, residual], true);
    const ffnNorm = op(row(E, rows), [op(row(E, rows), [ffnInp], true)], true);
    let out: number;
    if (d.moe) out = oaiMoe(b, op, row, ffnNorm, d.moe, E, rows);
    else out = denseFfn(op, row, ffnNorm, d.ff, E, rows);
    // gpt-oss's last layer output is res->t_h_nextn, a graph output (llm_graph_result::set_outputs).
    inpL = op(row(E, rows), [out, ffnInp], true, last && d.pinsLastLayer);
  }
  if (d.pinsLastLayer) inpL = op(row(E, x.outputs), [inpL, outIds]);
  const resultNorm = op(row(E, x.outputs), [op(row(E, x.outputs), [inpL], true)], true, true);
  op(row(d.vocab, x.outputs), [resultNorm], false, true);
  return b.g;
}

export type Op = (shape: [number, string], srcs: number[], inplace?: boolean, output?: boolean) => number;
type Row = (width: number, rows?: number) => [number, string];

/** What one layer's attention is built from: its heads, how Q/K/V are stored, Q/K norms (LFM2), which build_attn. */
export interface AttnSpec {
  heads: number;
  kvHeads: number;
  headDim: number;
  fusedQkv: boolean;
  qkvBias: boolean;
  qkNorm: boolean;
  /** build_attn for an iSWA cache expands Q, K, V; the plain KV cache's expands Q, V, K (llama-graph.cpp:2811-2813, 3054-3061). */
  iswa: boolean;
}

/**
 * One layer's attention up to kqv_out, in the engine's node order: build_qkv (one fused matmul viewed three
 * ways, or three with their biases, reshaped), the Q/K norms and RoPE, expanded Q first then K and V in
 * build_attn's order; the cache writes (SET_ROWS of 2-D views by the row indices, llama-kv-cache.cpp cpy_k /
 * cpy_v); ggml_flash_attn_ext, [head_dim, n_head, n_tokens] f32, with the mask (gpt-oss's sinks are a weight).
 */
export function attentionHead(
  b: GraphBuilder,
  x: number,
  T: number,
  pos: number,
  cache: { k: number; v: number; mask: number },
  s: AttnSpec,
): number {
  const D = s.headDim;
  const heads3 = (heads: number): [number, string] => [heads * D * T * F32, dense("f32", D, heads, T)];
  const op: Op = (shape, srcs, inplace = false) => b.op(shape[0], shape[1], srcs, { inplace });
  const qkv = s.fusedQkv
    ? op([(s.heads + 2 * s.kvHeads) * D * T * F32, dense("f32", (s.heads + 2 * s.kvHeads) * D, T)], [x])
    : -1;
  const project = (heads: number, name: string): number => {
    if (s.fusedQkv) return b.view(qkv, 0, name);
    const mm = op([heads * D * T * F32, dense("f32", heads * D, T)], [x]);
    return b.view(s.qkvBias ? op([heads * D * T * F32, dense("f32", heads * D, T)], [mm], true) : mm, 0, name);
  };
  const roped = (heads: number, name: string): number => {
    let t = project(heads, name);
    if (s.qkNorm) t = op(heads3(heads), [op(heads3(heads), [t], true)], true);
    return op(heads3(heads), [t, pos], true);
  };
  const q = roped(s.heads, "q");
  let k: number, v: number;
  if (s.iswa) {
    k = roped(s.kvHeads, "k");
    v = project(s.kvHeads, "v");
  } else {
    v = project(s.kvHeads, "v");
    k = roped(s.kvHeads, "k");
  }
  b.external([b.view(k, 0, "k2d"), cache.k]);
  b.external([b.view(v, 0, "v2d"), cache.v]);
  const fa = op(heads3(s.heads), [b.view(b.view(q, 0, "q"), 0, "q_perm"), cache.mask]);
  return b.view(fa, 0, "kqv_out");
}

/** build_ffn's SILU/PAR path (llama-graph.cpp): gate and up matmuls, SWIGLU, down. */
export function denseFfn(op: Op, row: Row, x: number, ff: number, E: number, T: number): number {
  const gate = op(row(ff, T), [x]);
  const up = op(row(ff, T), [x]);
  return op(row(E, T), [op(row(ff, T), [gate, up])]);
}

/**
 * build_moe_ffn's SOFTMAX_WEIGHT path with biases (llama-graph.cpp:1950-2160, gpt-oss): router logits + bias,
 * argsort over the experts, a top-k view, the chosen logits gathered and soft-maxed, gate/up/down by
 * ggml_mul_mat_id with ADD_ID biases, the experts weighted and summed through one view each.
 */
function oaiMoe(
  b: GraphBuilder,
  op: Op,
  row: Row,
  x: number,
  m: { experts: number; used: number; ff: number },
  E: number,
  T: number,
): number {
  const { experts: X, used: K, ff: F } = m;
  const f32 = (...ne: number[]): [number, string] => [ne.reduce((a, n) => a * n, F32), dense("f32", ...ne)];
  const probs = op(row(X, T), [op(row(X, T), [x])], true);
  const probs3 = b.view(probs, 0, "probs3");
  const topk = b.view(b.op(X * T * I32, dense("i32", X, T), [probs]), 0, "topk");
  const gathered = op(f32(1, K, T), [probs3, topk]);
  const weights = b.view(op(f32(K, T), [b.view(gathered, 0, "w2")], true), 0, "w3");
  const x3 = b.view(x, 0, "x3");
  const gate = op(f32(F, K, T), [op(f32(F, K, T), [x3, topk]), topk], true);
  const up = op(f32(F, K, T), [op(f32(F, K, T), [x3, topk]), topk], true);
  const down = op(f32(E, K, T), [op(f32(E, K, T), [op(f32(F, K, T), [gate, up]), topk]), topk], true);
  const weighted = op(f32(E, K, T), [down, weights], true);
  const slices = Array.from({ length: K }, () => b.view(weighted, 0, "slice"));
  let sum = op(row(E, T), [slices[0]!, slices[1]!], true);
  for (let e = 2; e < K; e++) sum = op(row(E, T), [sum, slices[e]!], true);
  return sum;
}
