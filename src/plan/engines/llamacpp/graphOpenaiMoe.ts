/**
 * gpt-oss's graph as llama.cpp v0.4.0 builds it for one ubatch with flash attention on: the nodes that
 * hold compute-buffer storage, in execution order (src/models/openai-moe.cpp; build_qkv, build_attn with
 * sinks and build_moe_ffn's SOFTMAX_WEIGHT path in src/llama-graph.cpp). Checked node by node against
 * the engine's own placement (test/engine allocDump.py: every offset equal at 512 cells).
 */
import { dense, F16, F32, GraphBuilder, I32, I64, type Graph } from "./gallocr.ts";
import type { GraphInputs, OpenaiMoeDims } from "./graphDims.ts";

export function openaiMoeGraph(d: OpenaiMoeDims, x: GraphInputs): Graph {
  const b = new GraphBuilder();
  const { embd: E, experts: X, expertsUsed: K, expertFf: F } = d;
  const T = x.ubatch;
  const { tokens, pos } = b.tokenInputs(T, E);
  // build_attn_inp_kv_iswa (llama-graph.cpp:3324-3345): each cache's k/v row indices (i64) and f16 mask,
  // [n_kv, n_tokens / n_stream, 1, n_stream], allocated in the order the layers first use them.
  const caches = new Map<boolean, { k: number; v: number; mask: number }>();
  for (const swa of d.swaLayers.length ? [d.swaLayers[0]!, !d.swaLayers[0]] : [false]) {
    if (!d.swaLayers.includes(swa)) continue;
    const nKv = swa ? x.swaCells : x.cells;
    caches.set(swa, {
      k: b.input(T * I64, dense("i64", T)),
      v: b.input(T * I64, dense("i64", T)),
      mask: b.input(nKv * T * F16, dense("f16", nKv, T)),
    });
  }
  const outIds = b.input(x.outputs * I32, dense("i32", x.outputs));

  let inpL = b.op(E * T * F32, dense("f32", E, T), [tokens]);
  const embd = dense("f32", E, T);
  for (let il = 0; il < d.layers; il++) {
    const cache = caches.get(d.swaLayers[il] ?? false)!;
    const norm = b.op(E * T * F32, embd, [inpL], { inplace: true });
    const attnNorm = b.op(E * T * F32, embd, [norm], { inplace: true });
    // build_qkv: three matmuls with their bias adds, reshaped to heads; RoPE on Q and K.
    const qkv = (heads: number): number => {
      const w = heads * d.headDim;
      const mm = b.op(w * T * F32, dense("f32", w, T), [attnNorm]);
      const biased = b.op(w * T * F32, dense("f32", w, T), [mm], { inplace: true });
      return b.view(biased, w * T * F32, dense("f32", d.headDim, heads, T));
    };
    const head3 = (heads: number): string => dense("f32", d.headDim, heads, T);
    const qShaped = qkv(d.heads);
    const q = b.op(d.heads * d.headDim * T * F32, head3(d.heads), [qShaped, pos], { inplace: true });
    const kShaped = qkv(d.kvHeads);
    const k = b.op(d.kvHeads * d.headDim * T * F32, head3(d.kvHeads), [kShaped, pos], { inplace: true });
    const v = qkv(d.kvHeads);
    const kvBytes = d.kvHeads * d.headDim * T * F32;
    // The cache writes (llama-kv-cache.cpp cpy_k / cpy_v: SET_ROWS of a 2-D view by the row indices).
    b.external([b.view(k, kvBytes, "kview"), cache.k]);
    b.external([b.view(v, kvBytes, "vview"), cache.v]);
    const qPerm = b.view(b.view(q, d.heads * d.headDim * T * F32, "qview"), d.heads * d.headDim * T * F32, "qperm");
    // ggml_flash_attn_ext: [head_dim, n_head, n_tokens] f32, with the mask and the sinks.
    const fa = b.op(d.heads * d.headDim * T * F32, dense("f32", d.headDim, d.heads, T), [qPerm, cache.mask]);
    const kqv = b.view(fa, d.heads * d.headDim * T * F32, dense("f32", d.heads * d.headDim, T));
    const wo = b.op(E * T * F32, embd, [kqv]);
    const attnOut = b.op(E * T * F32, embd, [wo], { inplace: true });
    const ffnInp = b.op(E * T * F32, embd, [attnOut, inpL], { inplace: true });
    const postNorm = b.op(E * T * F32, embd, [b.op(E * T * F32, embd, [ffnInp], { inplace: true })], {
      inplace: true,
    });
    // build_moe_ffn (llama-graph.cpp:1950-2160): router logits + bias, argsort over the experts, top-k view,
    // the chosen logits gathered and soft-maxed, then gate/up/down by ggml_mul_mat_id with ADD_ID biases.
    const logits = b.op(X * T * F32, dense("f32", X, T), [postNorm]);
    const probs = b.op(X * T * F32, dense("f32", X, T), [logits], { inplace: true });
    const probs3 = b.view(probs, X * T * F32, dense("f32", 1, X, T));
    const argsort = b.op(X * T * I32, dense("i32", X, T), [probs]);
    const topk = b.view(argsort, 0, "topk");
    const gathered = b.op(K * T * F32, dense("f32", 1, K, T), [probs3, topk]);
    const weights2 = b.view(gathered, K * T * F32, dense("f32", K, T));
    const softmax = b.op(K * T * F32, dense("f32", K, T), [weights2], { inplace: true });
    const weights = b.view(softmax, K * T * F32, dense("f32", 1, K, T));
    const x3 = b.view(postNorm, E * T * F32, dense("f32", E, 1, T));
    const expert = (width: number): string => dense("f32", width, K, T);
    const gate = b.op(F * K * T * F32, expert(F), [x3, topk]);
    const gateB = b.op(F * K * T * F32, expert(F), [gate, topk], { inplace: true });
    const up = b.op(F * K * T * F32, expert(F), [x3, topk]);
    const upB = b.op(F * K * T * F32, expert(F), [up, topk], { inplace: true });
    const act = b.op(F * K * T * F32, expert(F), [gateB, upB]);
    const down = b.op(E * K * T * F32, expert(E), [act, topk]);
    const downB = b.op(E * K * T * F32, expert(E), [down, topk], { inplace: true });
    const weighted = b.op(E * K * T * F32, expert(E), [downB, weights], { inplace: true });
    // The experts' rows summed by views (one per expert) and adds.
    const slices = Array.from({ length: K }, () => b.view(weighted, E * T * F32, "slice"));
    let sum = b.op(E * T * F32, embd, [slices[0]!, slices[1]!], { inplace: true });
    for (let e = 2; e < K; e++) sum = b.op(E * T * F32, embd, [sum, slices[e]!], { inplace: true });
    // The last layer's output is res->t_h_nextn, a graph output (llama-graph.cpp set_outputs).
    inpL = b.op(E * T * F32, embd, [sum, ffnInp], { inplace: true, output: il === d.layers - 1 });
  }
  const rows = b.op(E * x.outputs * F32, dense("f32", E, x.outputs), [inpL, outIds]);
  const norm = b.op(E * x.outputs * F32, dense("f32", E, x.outputs), [rows], { inplace: true });
  const resultNorm = b.op(E * x.outputs * F32, dense("f32", E, x.outputs), [norm], { inplace: true, output: true });
  b.op(d.vocab * x.outputs * F32, dense("f32", d.vocab, x.outputs), [resultNorm], { output: true });
  return b.g;
}
