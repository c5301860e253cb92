/**
 * DeepSeek-V2/V3's graph as llama.cpp v0.4.0 builds it for one ubatch with flash attention on: MLA with
 * the absorbed projections (src/models/deepseek2.cpp:504-640: q_nope × wk_b into the latent, the RoPE
 * part concatenated, flash attention over the 576-wide cache, then × wv_b), the dense leading layers'
 * FFN and build_moe_ffn with the shared experts (src/llama-graph.cpp:1950-2160). Only the nodes with
 * compute-buffer storage, in execution order; checked against the engine's placement (test/engine
 * allocDump.py: every offset equal for DeepSeek-V2-Lite at 512 cells).
 */
import { dense, F16, F32, GraphBuilder, I32, I64, type Graph } from "./gallocr.ts";
import type { Deepseek2Dims, GraphInputs } from "./graphDims.ts";

export function deepseek2Graph(d: Deepseek2Dims, x: GraphInputs): Graph {
  const b = new GraphBuilder();
  const { embd: E, heads: H, kvLora: R, rope: P, nope: N } = d;
  const T = x.ubatch;
  const f32 = (...ne: number[]): [number, string] => [ne.reduce((a, n) => a * n, F32), dense("f32", ...ne)];
  const op = (shape: [number, string], srcs: number[], inplace = false, output = false): number =>
    b.op(shape[0], shape[1], srcs, { inplace, output });
  const { tokens, pos } = b.tokenInputs(T, E);
  // MLA's V is a view of K's cache rows: only K's row indices are in the graph (llama-kv-cache.cpp cpy_k).
  const kIdx = b.input(T * I64, dense("i64", T));
  // The mask is f16 for flash attention, f32 without (build_attn_inp_kq_mask, llama-graph.cpp:38-41).
  const mask = x.flashAttn
    ? b.input(x.cells * T * F16, dense("f16", x.cells, T))
    : b.input(x.cells * T * F32, dense("f32", x.cells, T));
  const outIds = b.input(x.outputs * I32, dense("i32", x.outputs));

  let inpL = op(f32(E, T), [tokens]);
  for (let il = 0; il < d.layers; il++) {
    const last = il === d.layers - 1;
    const attnNorm = op(f32(E, T), [op(f32(E, T), [inpL], true)], true);
    let q = attnNorm;
    if (d.qLora > 0) q = op(f32(d.qLora, T), [op(f32(d.qLora, T), [op(f32(d.qLora, T), [q])], true)], true);
    const q2 = op(f32(H * (N + P), T), [q]);
    const q3 = b.view(q2, 0, "q3");
    const qNopePerm = b.view(b.view(q3, 0, "q_nope"), 0, "q_nope_perm");
    const absorbed = op(f32(R, T, H), [qNopePerm]);
    const absorbedPerm = b.view(absorbed, 0, "absorbed_perm");
    const qPe = op(f32(P, H, T), [b.view(q3, 0, "q_pe"), pos], true);
    const qCur = op(f32(R + P, H, T), [absorbedPerm, qPe]);
    const kvPe = op(f32(R + P, T), [attnNorm]);
    const kvCmpr = op(f32(R, T), [op(f32(R, T), [b.view(kvPe, 0, "kv_cmpr")], true)], true);
    const vCur = b.view(kvCmpr, 0, "v_cur");
    const kPe = op(f32(P, 1, T), [b.view(kvPe, 0, "k_pe"), pos], true);
    const kCur = op(f32(R + P, 1, T), [vCur, kPe]);
    b.external([b.view(kCur, 0, "k_view"), kIdx]);
    let attn: number;
    if (x.flashAttn) {
      const qPerm = b.view(b.view(qCur, 0, "q_view"), 0, "q_perm");
      // ggml_flash_attn_ext over the latent: [kv_lora_rank, n_head, n_tokens] f32; then × wv_b per head.
      const fa = op(f32(R, H, T), [qPerm, mask]);
      const mla = op(f32(d.vHead, T, H), [b.view(fa, 0, "fa_perm")]);
      const cont = op(f32(d.vHead, H, T), [b.view(mla, 0, "mla_perm")]);
      attn = op(f32(E, T), [b.view(cont, 0, "kqv_out")]);
    } else {
      // build_attn_mha without flash attention (llama-graph.cpp): V, the cache's latent, transposed and made
      // contiguous (v_cont, the cache's f16, in this buffer); KQ = K·Q f32 [n_kv, n_tokens, n_head]; its softmax
      // in place with the f32 mask; KQV = V·KQ, × wv_b (kqv_mla), permuted and made contiguous.
      const vCont = b.op(x.cells * R * F16, dense("f16", x.cells, R), []);
      const qPerm = b.view(b.view(qCur, 0, "q_view"), 0, "q_perm");
      const kq = op(f32(x.cells, T, H), [qPerm]);
      const kqv = op(f32(R, T, H), [vCont, op(f32(x.cells, T, H), [kq, mask], true)]);
      const kqvOut = op(f32(H * d.vHead, T), [b.view(op(f32(d.vHead, T, H), [kqv]), 0, "kqv_perm")]);
      attn = op(f32(E, T), [kqvOut]);
    }
    let residual = inpL;
    const rows = last ? x.outputs : T;
    if (last) {
      // The last layer keeps only the output rows (deepseek2.cpp:645-648).
      attn = op(f32(E, rows), [attn, outIds]);
      residual = op(f32(E, rows), [inpL, outIds]);
    }
    const ffnInp = op(f32(E, rows), [attn, residual], true);
    const ffnNorm = op(f32(E, rows), [op(f32(E, rows), [ffnInp], true)], true);
    const ffn = (width: number): number => {
      const gate = op(f32(width, rows), [ffnNorm]);
      const up = op(f32(width, rows), [ffnNorm]);
      return op(f32(E, rows), [op(f32(width, rows), [gate, up])]);
    };
    let out: number;
    if (il < d.denseFirst) out = ffn(d.denseFf);
    else {
      const X = d.experts,
        K = d.expertsUsed;
      const logits = op(f32(X, rows), [ffnNorm]);
      // SOFTMAX is GGML_OP_SOFT_MAX, SIGMOID a GGML_OP_UNARY: both in place on the logits.
      const probs = op(f32(X, rows), [logits], true);
      const probs3 = b.view(probs, 0, "probs3");
      const selection = d.probsBias ? op(f32(X, rows), [probs], true) : probs;
      const topk = b.view(b.op(X * rows * I32, dense("i32", X, rows), [selection]), 0, "topk");
      let weights = op(f32(1, K, rows), [probs3, topk]);
      if (d.normWeights) {
        const w2 = b.view(weights, 0, "w2");
        const sum = op(f32(1, rows), [op(f32(1, rows), [w2])], true);
        weights = b.view(op(f32(K, rows), [w2, sum], true), 0, "w3");
      }
      if (d.weightsScale !== 0 && d.weightsScale !== 1) weights = op(f32(1, K, rows), [weights], true);
      const x3 = b.view(ffnNorm, 0, "x3");
      const gate = op(f32(d.expertFf, K, rows), [x3, topk]);
      const up = op(f32(d.expertFf, K, rows), [x3, topk]);
      const down = op(f32(E, K, rows), [op(f32(d.expertFf, K, rows), [gate, up]), topk]);
      const weighted = op(f32(E, K, rows), [down, weights], true);
      const slices = Array.from({ length: K }, () => b.view(weighted, 0, "slice"));
      let sum = op(f32(E, rows), [slices[0]!, slices[1]!], true);
      for (let e = 2; e < K; e++) sum = op(f32(E, rows), [sum, slices[e]!], true);
      out = d.sharedFf > 0 ? op(f32(E, rows), [sum, ffn(d.sharedFf)], true) : sum;
    }
    inpL = op(f32(E, rows), [out, ffnInp], true);
  }
  const resultNorm = op(f32(E, x.outputs), [op(f32(E, x.outputs), [inpL], true)], true, true);
  op(f32(d.vocab, x.outputs), [resultNorm], false, true);
  return b.g;
}
