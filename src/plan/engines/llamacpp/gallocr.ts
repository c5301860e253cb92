/**
 * ggml-alloc's measure pass, ported: the CPU compute buffer llama.cpp reserves is the high-water mark of
 * ggml_gallocr placing one ubatch's graph (ggml-org/llama.cpp v0.4.0, ggml/src/ggml-alloc.c). Its size
 * depends on where best fit left each tensor, not on a sum of sizes (test/engine FINDINGS.md F5, F6), so
 * the plan runs the same placement over a model of the graph (graphLlama.ts, graphDeepseek2.ts).
 * Only tensors the compute buffer holds are modelled: weights and KV-cache views live in other buffers.
 */

/** One tensor of the graph, in the compute buffer (or outside it, `external`). */
export interface GraphTensor {
  /** ggml_nbytes. */
  bytes: number;
  /** Type, ne and nb as one key: ggml_are_same_layout, the condition for running in place. */
  layout: string;
  /** Sources in the compute buffer, in src order (a weight or cache source is left out). */
  srcs: number[];
  /** A view (RESHAPE, VIEW, PERMUTE): the tensor whose storage it is (view_src, always the root). */
  view?: number;
  /** ggml_op_can_inplace (ggml-alloc.c:22-50): ADD, MUL, RMS_NORM, ROPE, SOFT_MAX, UNARY, ADD_ID, SCALE, … */
  inplace?: boolean;
  /** GGML_TENSOR_FLAG_OUTPUT: never freed (ggml-alloc.c:646), never reused in place (line 595). */
  output?: boolean;
  /** Written into another buffer (SET_ROWS into the KV cache): uses its sources, holds nothing here. */
  external?: boolean;
}

/** A graph as ggml_gallocr sees it: the input leafs in the graph's leaf order, then the nodes in execution order. */
export interface Graph {
  tensors: GraphTensor[];
  leafs: number[];
  nodes: number[];
}

/** The CPU buffer's alignment (ggml-backend.cpp:2463, TENSOR_ALIGNMENT 32, ggml-impl.h:44). */
const ALIGNMENT = 32;
const align = (n: number): number => Math.ceil(n / ALIGNMENT) * ALIGNMENT;

/** ggml_dyn_tallocr (ggml-alloc.c:202-330): free blocks by address, best fit among all but the last. */
class DynAllocator {
  private readonly blocks: { offset: number; size: number }[] = [{ offset: 0, size: Number.MAX_SAFE_INTEGER }];
  maxBytes = 0;

  alloc(bytes: number): number {
    const size = align(bytes);
    let best = -1;
    for (let i = 0; i < this.blocks.length - 1; i++) {
      const s = this.blocks[i]!.size;
      if (s >= size && (best < 0 || s <= this.blocks[best]!.size)) best = i;
    }
    // No hole fits: the last block, which grows the buffer (lines 226-245; one chunk on the CPU).
    if (best < 0) best = this.blocks.length - 1;
    const block = this.blocks[best]!;
    const offset = block.offset;
    block.offset += size;
    block.size -= size;
    if (block.size === 0) this.blocks.splice(best, 1);
    this.maxBytes = Math.max(this.maxBytes, offset + size);
    return offset;
  }

  /** ggml_dyn_tallocr_free_bytes (lines 306-350): merge with a neighbour, else a new block in address order. */
  free(offset: number, bytes: number): void {
    const size = align(bytes);
    const b = this.blocks;
    for (let i = 0; i < b.length; i++) {
      const block = b[i]!;
      if (block.offset + block.size === offset) {
        block.size += size;
        const next = b[i + 1];
        if (next && block.offset + block.size === next.offset) {
          block.size += next.size;
          b.splice(i + 1, 1);
        }
        return;
      }
      if (offset + size === block.offset) {
        block.offset = offset;
        block.size += size;
        const prev = b[i - 1];
        if (prev && prev.offset + prev.size === block.offset) {
          prev.size += block.size;
          b.splice(i, 1);
        }
        return;
      }
    }
    let at = 0;
    while (at < b.length && b[at]!.offset < offset) at++;
    b.splice(at, 0, { offset, size });
  }
}

/**
 * The compute buffer ggml_gallocr_reserve sizes for `g` (ggml_gallocr_alloc_graph_impl, ggml-alloc.c:700-820):
 * leafs first, then each node's storage, in place on a source that has no other user, no view and is no
 * output (lines 580-626; a view source is never reused, its hash entry is not "allocated"), sources freed
 * when their last user and view are done.
 */
export function computeBufferBytes(g: Graph): number {
  const n = g.tensors.length;
  const offset = new Array<number>(n).fill(-1);
  const live = new Array<boolean>(n).fill(false);
  const children = new Array<number>(n).fill(0);
  const views = new Array<number>(n).fill(0);
  const heap = new DynAllocator();
  const tensor = (i: number): GraphTensor => g.tensors[i]!;

  const allocate = (i: number): void => {
    const t = tensor(i);
    if (offset[i]! >= 0 || t.view !== undefined || t.external) return;
    if (t.inplace) {
      for (const p of t.srcs) {
        const pt = tensor(p);
        if (!live[p] || pt.output || pt.layout !== t.layout || children[p] !== 1 || views[p] !== 0) continue;
        offset[i] = offset[p]!;
        live[p] = false;
        live[i] = true;
        // ggml_gallocr_free_extra_space: a smaller result gives the rest back.
        if (align(pt.bytes) > align(t.bytes)) heap.free(offset[i]! + align(t.bytes), align(pt.bytes) - align(t.bytes));
        return;
      }
    }
    offset[i] = heap.alloc(t.bytes);
    live[i] = true;
  };
  const release = (i: number): void => {
    if (tensor(i).output || !live[i]) return;
    heap.free(offset[i]!, tensor(i).bytes);
    live[i] = false;
  };

  for (const l of g.leafs) allocate(l);
  for (const i of g.nodes) {
    const v = tensor(i).view;
    if (v !== undefined) views[v]!++;
    for (const s of tensor(i).srcs) children[s]!++;
  }
  for (const i of g.nodes) {
    for (const s of tensor(i).srcs) allocate(s);
    allocate(i);
    for (const s of tensor(i).srcs) {
      if (--children[s]! !== 0 || views[s] !== 0) continue;
      const root = tensor(s).view;
      if (root === undefined) release(s);
      else if (--views[root]! === 0 && children[root] === 0) release(root);
    }
  }
  return heap.maxBytes;
}

/** Builds a Graph: inputs, ops and views, each named by the index it returns. */
export class GraphBuilder {
  readonly g: Graph = { tensors: [], leafs: [], nodes: [] };

  private add(t: GraphTensor): number {
    this.g.tensors.push(t);
    return this.g.tensors.length - 1;
  }

  /** An input (ggml_set_input), allocated before the first node. */
  input(bytes: number, layout: string): number {
    const i = this.add({ bytes, layout, srcs: [] });
    this.g.leafs.push(i);
    return i;
  }

  /**
   * build_inp_embd and build_inp_pos (llama-graph.cpp:2303-2318): the token ids, an embedding input the token
   * path leaves unused but allocated, and the positions.
   */
  tokenInputs(tokens: number, embd: number, between?: () => void): { tokens: number; pos: number } {
    const ids = this.input(tokens * I32, dense("i32", tokens));
    this.input(embd * tokens * F32, dense("f32", embd, tokens));
    between?.();
    return { tokens: ids, pos: this.input(tokens * I32, dense("i32", tokens)) };
  }

  /** A node with storage of its own, or in place on a source when `inplace`. */
  op(bytes: number, layout: string, srcs: number[], flags: { inplace?: boolean; output?: boolean } = {}): number {
    const i = this.add({ bytes, layout, srcs, ...flags });
    this.g.nodes.push(i);
    return i;
  }

  /** A node writing into another buffer (the KV cache's SET_ROWS). */
  external(srcs: number[]): number {
    const i = this.add({ bytes: 0, layout: "", srcs, external: true });
    this.g.nodes.push(i);
    return i;
  }

  /** A view of `of` (its root's storage); `layout` and `bytes` are the view's own. */
  view(of: number, bytes: number, layout: string): number {
    const root = this.g.tensors[of]!.view ?? of;
    const i = this.add({ bytes, layout, srcs: [of], view: root });
    this.g.nodes.push(i);
    return i;
  }
}

/** ggml's f32, f16, i32 and i64 element bytes. */
export const F32 = 4,
  F16 = 2,
  I32 = 4,
  I64 = 8;

/** A contiguous f32/f16/i32 layout key for `ne` (nb follows from ne). */
export function dense(type: "f32" | "f16" | "i32" | "i64", ...ne: number[]): string {
  return `${type}:${ne.join("x")}`;
}
