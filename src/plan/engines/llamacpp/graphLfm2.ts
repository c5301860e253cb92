/**
 * LFM2's graph as llama.cpp v0.4.0 builds it for one ubatch with flash attention on (src/models/lfm2.cpp):
 * short-convolution layers (build_rs reads each sequence's state, in_proj's three chunks, B·x transposed and
 * concatenated after the state, ssm_conv, C·conv, out_proj) and attention layers with Q/K norms, a dense FFN
 * each. The node order is the engine's: a convolution layer's state reads and its head are expanded when it is
 * built (build_rs and the state write call ggml_build_forward_expand), the previous layer's tail only when
 * something needs it, so layer i's state reads come before layer i − 1's tail. Checked against the engine's
 * placement (test/engine FINDINGS.md F2: every offset equal for LFM2-1.2B, 6 layers, at 512 cells).
 */
import { dense, F16, F32, GraphBuilder, I32, I64, type Graph } from "./gallocr.ts";
import type { GraphInputs, Lfm2Dims } from "./graphDims.ts";
import { attentionHead, denseFfn, type Op } from "./graphLlama.ts";

export function lfm2Graph(d: Lfm2Dims, x: GraphInputs): Graph {
  const b = new GraphBuilder();
  const E = d.embd,
    T = x.ubatch,
    S = x.sequences;
  const dConv = d.lCache - 1;
  const isConv = (il: number): boolean => (d.kvHeads[il] ?? 0) === 0;
  // build_inp_mem_hybrid before build_inp_pos: the recurrent states' copy indices (s_copy, one a sequence).
  let sCopy = -1;
  const { tokens, pos } = b.tokenInputs(T, E, () => (sCopy = b.input(S * I32, dense("i32", S))));
  const cache = d.kvHeads.some((h) => h > 0)
    ? {
        k: b.input(T * I64, dense("i64", T)),
        v: b.input(T * I64, dense("i64", T)),
        mask: b.input(x.cells * T * F16, dense("f16", x.cells, T)),
      }
    : undefined;
  const outIds = b.input(x.outputs * I32, dense("i32", x.outputs));
  const row = (width: number, rows = T): [number, string] => [width * rows * F32, dense("f32", width, rows)];
  const op: Op = (shape, srcs, inplace = false, output = false) => b.op(shape[0], shape[1], srcs, { inplace, output });

  // build_rs (llama-graph.cpp:3420-3440): the states of the ubatch's sequences gathered by s_copy, and the
  // rest (none at the reserve, n_seqs = n_seq_max) copied back; s_copy's two views are made once.
  let sMain = -1,
    sExtra = -1;
  const readState = (): number => {
    if (sMain < 0) sMain = b.view(sCopy, 0, "s_copy_main");
    const rs = op([dConv * E * S * F32, dense("f32", dConv * E, S)], [sMain]);
    if (sExtra < 0) sExtra = b.view(sCopy, 0, "s_copy_extra");
    b.external([op([0, dense("f32", dConv * E, 0)], [sExtra])]);
    return b.view(rs, 0, "conv_state");
  };
  type Head = { inpL: number; tail: () => number };
  const convHead = (inpL: number, state: number): Head => {
    const normed = op(row(E), [op(row(E), [inpL], true)], true);
    const inProj = op(row(3 * E), [b.view(normed, 0, "x3")]);
    const bx = op(row(E), [b.view(inProj, 0, "b"), b.view(inProj, 0, "x")], true);
    const chunk = T / S + dConv;
    const concat = op([chunk * E * S * F32, dense("f32", chunk, E, S)], [state, b.view(bx, 0, "bx_t")]);
    // The state write: the last l_cache − 1 columns, copied into the cache (ggml_cpy, expanded here).
    b.external([b.view(concat, 0, "conv_snap")]);
    return {
      inpL,
      tail: () => {
        const c = b.view(inProj, 0, "c");
        const y = op(row(E), [c, op(row(E), [concat])], true);
        return b.view(op(row(E), [y]), 0, "y2d");
      },
    };
  };
  const attnHead = (inpL: number, il: number): Head => {
    const normed = op(row(E), [op(row(E), [inpL], true)], true);
    const kqv = attentionHead(b, normed, T, pos, cache!, {
      heads: d.heads,
      kvHeads: d.kvHeads[il]!,
      headDim: d.headDim,
      fusedQkv: d.fusedQkv,
      qkvBias: false,
      qkNorm: true,
      iswa: false,
    });
    return { inpL, tail: () => op(row(E), [kqv]) };
  };
  const tail = (h: Head, last: boolean): number => {
    const rows = last ? x.outputs : T;
    // src/models/lfm2.cpp:263-268: the last layer keeps only the output rows; prev_cur's first, as ADD reads it.
    const prev = last ? op(row(E, rows), [h.inpL, outIds]) : h.inpL;
    let cur = h.tail();
    if (last) cur = op(row(E, rows), [cur, outIds]);
    const sum = op(row(E, rows), [prev, cur], true);
    const ffnNorm = op(row(E, rows), [op(row(E, rows), [sum], true)], true);
    return op(row(E, rows), [sum, denseFfn(op, row, ffnNorm, d.ff, E, rows)], true);
  };

  let inpL = op(row(E), [tokens]);
  let pending: Head | undefined;
  for (let il = 0; il < d.layers; il++) {
    const state = isConv(il) ? readState() : -1;
    if (pending) inpL = tail(pending, false);
    pending = isConv(il) ? convHead(inpL, state) : attnHead(inpL, il);
  }
  if (pending) inpL = tail(pending, true);
  const resultNorm = op(row(E, x.outputs), [op(row(E, x.outputs), [inpL], true)], true, true);
  op(row(d.vocab, x.outputs), [resultNorm], false, true);
  return b.g;
}
