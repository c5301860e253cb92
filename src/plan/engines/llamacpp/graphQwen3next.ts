/**
 * Qwen3-Next's graph as llama.cpp v0.4.0 builds it for one ubatch (src/models/qwen3next.cpp on
 * llm_build_delta_net_base, src/models/delta-net-base.cpp): gated-delta-net layers (build_rs reads each
 * sequence's conv and delta states, the fused wqkv, the state concatenated before the transposed QKV and
 * convolved, Q/K L2-normed and repeated to the value heads, beta and the decay gate from ssm_ba, one fused
 * GATED_DELTA_NET op whose output holds the new state after the tokens, the gated RMS norm with z, ssm_out)
 * and every full_attention_interval-th layer a gated attention (wq gives query and gate, Q/K norms, build_attn
 * with flash attention on or off: KQ, its soft-max in place on the f32 mask, KQV, made contiguous); then
 * build_moe_ffn's softmax router with normalised weights and a sigmoid-gated shared expert. The output norm is
 * t_h_nextn, a graph output pinned where it lands (as gpt-oss's last layer, F5), and the logits go above it.
 * Node order is the engine's DFS (ggml_build_forward_expand at build_rs, the conv state write, the delta
 * state write, build_attn, the router weights). Checked tensor by tensor against the engine's placement
 * (test/engine FINDINGS.md F2: allocDump.py on 4 layers at 512 cells, flash attention off).
 */
import { dense, F16, F32, GraphBuilder, I32, I64, type Graph } from "./gallocr.ts";
import type { GraphInputs, Qwen3NextDims } from "./graphDims.ts";
import type { Op } from "./graphLlama.ts";

export function qwen3nextGraph(d: Qwen3NextDims, x: GraphInputs): Graph {
  const b = new GraphBuilder();
  const E = d.embd,
    T = x.ubatch,
    S = x.sequences,
    H = d.heads,
    D = d.headDim;
  const fa = x.flashAttn;
  // build_inp_mem_hybrid: the recurrent states' copy indices (s_copy, one a sequence), then the attention's.
  let sCopy = -1;
  const { tokens, pos } = b.tokenInputs(T, E, () => (sCopy = b.input(S * I32, dense("i32", S))));
  // cpy_v into a transposed V cache (flash attention off) takes one row index per element, not per token.
  const vRows = fa ? T : T * d.kvHeads * D;
  const cache = d.recurrent.some((r) => !r)
    ? {
        k: b.input(T * I64, dense("i64", T)),
        v: b.input(vRows * I64, dense("i64", vRows)),
        mask: fa
          ? b.input(x.cells * T * F16, dense("f16", x.cells, T))
          : b.input(x.cells * T * F32, dense("f32", x.cells, T)),
      }
    : undefined;
  const outIds = b.input(x.outputs * I32, dense("i32", x.outputs));
  const f32 = (...ne: number[]): [number, string] => [ne.reduce((a, n) => a * n, F32), dense("f32", ...ne)];
  const row = (width: number, rows = T): [number, string] => f32(width, rows);
  const op: Op = (shape, srcs, inplace = false, output = false) => b.op(shape[0], shape[1], srcs, { inplace, output });

  // build_rs (llama-graph.cpp:3411-3445): the ubatch's states gathered by s_copy_main; the rest (none at the
  // reserve, n_seqs = n_seq_max) gathered by s_copy_extra and copied back. s_copy's views are made once.
  let sMain = -1,
    sExtra = -1;
  const readState = (size: number): number => {
    if (sMain < 0) sMain = b.view(sCopy, 0, "s_copy_main");
    const rows = op(f32(size, S), [sMain]);
    if (sExtra < 0) sExtra = b.view(sCopy, 0, "s_copy_extra");
    b.external([op(f32(size, 0), [sExtra])]);
    return rows;
  };

  const convCh = 2 * d.kHeads * d.dState + d.dInner;
  const vHeadDim = d.dInner / d.vHeads;
  const keyDim = d.kHeads * d.dState;
  // build_qkvz's legacy path (one ssm_in): the four parts are views of its output, Q/K/V made contiguous and
  // concatenated, z made contiguous only when the gated norm reads it, so the projection lives through the layer.
  const legacyQkvz = (normed: number): { qkv: number; z: () => number } => {
    const mixed = b.view(op(row(2 * keyDim + 2 * d.dInner), [normed]), 0, "qkvz_4d");
    const part = (name: string, width: number): number => op(row(width), [b.view(mixed, 0, name)]);
    const qk = op(row(2 * keyDim), [part("q", keyDim), part("k", keyDim)]);
    const qkv = op(row(convCh), [qk, part("v", d.dInner)]);
    return { qkv, z: () => part("z", d.dInner) };
  };
  const deltaNet = (normed: number): number => {
    const convStates = readState((d.dConv - 1) * convCh);
    const legacy = d.legacySsmIn ? legacyQkvz(normed) : undefined;
    const qkv = legacy ? legacy.qkv : op(row(convCh), [normed]);
    const convInput = op(f32(T / S + d.dConv - 1, convCh, S), [
      b.view(convStates, 0, "conv_states_reshaped"),
      b.view(legacy ? qkv : b.view(qkv, 0, "qkv_3d"), 0, "qkv_t"),
    ]);
    b.external([b.view(convInput, 0, "conv_state_last")]);
    const state = readState(vHeadDim * vHeadDim * d.vHeads);
    const conv = op(row(convCh), [op(row(convCh), [convInput])], true);
    // Q and K: L2-normed views of the convolution, repeated to the value heads when there are fewer.
    const qk = (name: string): number => {
      const normedQk = op(f32(d.dState, d.kHeads, T), [b.view(conv, 0, name)], true);
      if (d.kHeads === d.vHeads) return normedQk;
      const rep = d.vHeads / d.kHeads;
      return b.view(op(f32(d.dState, rep, d.kHeads, T), [b.view(normedQk, 0, "reshaped")]), 0, "repeated");
    };
    const q = qk("q_conv"),
      k = qk("k_conv");
    const v = b.view(conv, 0, "v_conv");
    const ba = op(row(2 * d.vHeads), [normed]);
    const baR = b.view(ba, 0, "ba_reshaped");
    const alpha = op(row(d.vHeads), [b.view(baR, 0, "a")]);
    const gate = b.view(op(row(d.vHeads), [op(row(d.vHeads), [op(row(d.vHeads), [alpha], true)], true)], true), 0, "g");
    const beta = b.view(op(row(d.vHeads), [op(row(d.vHeads), [b.view(baR, 0, "b")])], true), 0, "beta");
    // GATED_DELTA_NET: [S_v·H_v, n_tokens + S_v·n_seqs], the attention output then each sequence's new state.
    const gdn = op(f32(vHeadDim * d.vHeads, T + vHeadDim * S), [q, k, v, gate, beta, b.view(state, 0, "s")]);
    b.external([b.view(gdn, 0, "new_state")]);
    const out = b.view(gdn, 0, "output");
    const heads = f32(vHeadDim, d.vHeads, T);
    const normedOut = op(heads, [op(heads, [out], true)], true);
    const z = legacy ? legacy.z() : op(row(d.dInner), [normed]);
    const gated = op(heads, [normedOut, op(heads, [b.view(z, 0, "z_4d")], true)], true);
    return b.view(op(row(E), [b.view(gated, 0, "final_output")]), 0, "linear_attn_out");
  };

  const attention = (normed: number): number => {
    const c = cache!;
    const heads3 = (n: number): [number, string] => f32(D, n, T);
    const qFull = op(row(2 * H * D), [normed]);
    const qNormed = op(heads3(H), [op(heads3(H), [b.view(b.view(qFull, 0, "q4d"), 0, "q")], true)], true);
    const q = op(heads3(H), [qNormed, pos], true);
    // build_attn on the plain cache expands Q, then V, then K (llama-graph.cpp, as graphLlama.ts's attentionHead).
    const v = op(row(d.kvHeads * D), [normed]);
    const vr = b.view(v, 0, "v3d");
    const kNormed = op(
      heads3(d.kvHeads),
      [op(heads3(d.kvHeads), [b.view(op(row(d.kvHeads * D), [normed]), 0, "k3d")], true)],
      true,
    );
    const k = op(heads3(d.kvHeads), [kNormed, pos], true);
    b.external([b.view(k, 0, "k2d"), c.k]);
    b.external([b.view(b.view(vr, 0, "v2d"), 0, "v_t"), c.v]);
    const qPerm = b.view(q, 0, "q_perm");
    let attn: number;
    if (fa) {
      attn = b.view(op(heads3(H), [qPerm, c.mask]), 0, "kqv_out");
    } else {
      // KQ [n_kv, n_tokens, n_head] f32 and its soft-max in place; KQV [head_dim, n_tokens, n_head], made contiguous.
      const kq = op(f32(x.cells, T, H), [qPerm]);
      const kqv = op(f32(D, T, H), [op(f32(x.cells, T, H), [kq, c.mask], true)]);
      attn = op(row(H * D), [b.view(kqv, 0, "kqv_merged")]);
    }
    const gate = op(row(H * D), [op(row(H * D), [b.view(qFull, 0, "gate")])], true);
    return op(row(E), [op(row(H * D), [attn, gate], true)]);
  };

  const moe = (xn: number): number => {
    const { experts: X, expertsUsed: K, expertFf: F } = d;
    const probs = op(row(X), [op(row(X), [xn])], true);
    const probs3 = b.view(probs, 0, "probs3");
    const topk = b.view(b.op(X * T * I32, dense("i32", X, T), [probs]), 0, "topk");
    const weights = b.view(op(f32(1, K, T), [probs3, topk]), 0, "w2");
    const sum = op(f32(1, T), [op(f32(1, T), [weights])], true);
    const norm = b.view(op(f32(K, T), [weights, sum], true), 0, "w3");
    const x3 = b.view(xn, 0, "x3");
    const gateE = op(f32(F, K, T), [x3, topk]);
    const upE = op(f32(F, K, T), [x3, topk]);
    const down = op(f32(E, K, T), [op(f32(F, K, T), [gateE, upE]), topk]);
    const weighted = op(f32(E, K, T), [down, norm], true);
    const slices = Array.from({ length: K }, () => b.view(weighted, 0, "slice"));
    let out = op(row(E), [slices[0]!, slices[1]!], true);
    for (let e = 2; e < K; e++) out = op(row(E), [out, slices[e]!], true);
    // The shared expert (build_ffn, SILU/PAR) and its sigmoid gate.
    const sg = op(row(d.sharedFf), [xn]);
    const su = op(row(d.sharedFf), [xn]);
    const shared = op(row(E), [op(row(d.sharedFf), [sg, su])]);
    const sgate = op(row(1), [op(row(1), [xn])], true);
    return op(row(E), [out, op(row(E), [shared, sgate], true)], true);
  };

  let inpL = op(row(E), [tokens]);
  for (let il = 0; il < d.layers; il++) {
    const normed = op(row(E), [op(row(E), [inpL], true)], true);
    const cur = d.recurrent[il] ? deltaNet(normed) : attention(normed);
    const residual = op(row(E), [cur, inpL], true);
    const post = op(row(E), [op(row(E), [residual], true)], true);
    inpL = op(row(E), [moe(post), residual], true);
  }
  const hNextn = op(row(E), [op(row(E), [inpL], true)], true, true);
  const resultNorm = op(row(E, x.outputs), [hNextn, outIds], false, true);
  op(row(d.vocab, x.outputs), [resultNorm], false, true);
  return b.g;
}
