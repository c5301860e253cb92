/**
 * The CPU compute buffer of a modelled graph (graphDims.ts), placed as ggml-alloc places it (gallocr.ts).
 * Memoised: the slider re-plans the same graph at each context step, and 24–61 layers take ~0.1 ms.
 */
import { computeBufferBytes } from "./gallocr.ts";
import { deepseek2Graph } from "./graphDeepseek2.ts";
import type { GraphInputs, LlamaGraphDims } from "./graphDims.ts";
import { lfm2Graph } from "./graphLfm2.ts";
import { llamaGraph } from "./graphLlama.ts";
import { qwen3nextGraph } from "./graphQwen3next.ts";
import { llamacppCells, llamacppWindowCells } from "./kv.ts";
import type { KvGeometry } from "../../kv.ts";

const memo = new WeakMap<LlamaGraphDims, Map<string, number>>();

/** Whether the graph of `dims` is built with flash attention off too (DeepSeek2's MLA, Qwen3-Next; the rest keep flashAttn.ts). */
export function placesFlashOff(dims: LlamaGraphDims): boolean {
  return dims.arch === "deepseek2" || dims.arch === "qwen3next";
}

/** The compute buffer llama.cpp's CPU build reserves for `dims` (with flash attention off only where placesFlashOff). */
export function graphComputeBytes(dims: LlamaGraphDims, x: GraphInputs): number {
  let byInputs = memo.get(dims);
  if (!byInputs) memo.set(dims, (byInputs = new Map()));
  const key = `${x.ubatch}:${x.outputs}:${x.cells}:${x.swaCells}:${x.sequences}:${x.flashAttn}`;
  let bytes = byInputs.get(key);
  if (bytes === undefined) {
    bytes = computeBufferBytes(
      dims.arch === "deepseek2"
        ? deepseek2Graph(dims, x)
        : dims.arch === "lfm2"
          ? lfm2Graph(dims, x)
          : dims.arch === "qwen3next"
            ? qwen3nextGraph(dims, x)
            : llamaGraph(dims, x),
    );
    byInputs.set(key, bytes);
  }
  return bytes;
}

/**
 * The reserve's inputs for `slots` slots of `contextTokens`: a mask spans one stream's cells
 * (llama-graph.cpp build_attn_inp_kq_mask: [n_kv, n_tokens / n_stream, 1, n_stream], n_stream = 1 with
 * --kv-unified, else the ubatch's sequences: the same bytes as one stream of n_tokens), so a unified
 * pool's mask spans all its cells and a per-slot cache's one slot's (kv.ts llamacppCells); the window's
 * cells as kv.ts sizes them; every token of the ubatch is an output.
 */
export function graphInputs(
  g: KvGeometry,
  contextTokens: number,
  ubatch: number,
  slots: number,
  flashAttn: boolean,
  unified = false,
): GraphInputs {
  const stream = llamacppCells(contextTokens, slots, unified);
  const window = g.sliding[0]?.windowTokens;
  const swaCells =
    window === undefined ? stream.streamCells : llamacppWindowCells(window, stream, slots, unified, ubatch);
  return { ubatch, outputs: ubatch, cells: stream.streamCells, swaCells, sequences: slots, flashAttn };
}
