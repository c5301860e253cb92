/**
 * llama.cpp with part of the model in RAM: the fewest layers (-ngl) or layers' experts (--n-cpu-moe)
 * that let the cards hold the rest.
 */
import { cardFits, evalCard } from "./evalCard.ts";
import { evalHost } from "./host.ts";
import { geometryOfFirst, geometryOfLast } from "../../geometries.ts";
import { type CardEval, type EvalContext, type Layout, type Part } from "../../layout.ts";
import { fewestFitting } from "../../search.ts";
import type { Workload } from "../../types.ts";
import { moeLayersIn, weightParts } from "../../weights.ts";

/**
 * An offloaded layout's parts for each count of layers in RAM (they do not depend on the workload), and the
 * count its last evaluation found, where the next search starts.
 */
const offloadParts = new WeakMap<Layout, { byK: Map<number, Part[]>; lastCpuLayers: number }>();

export function offloadSplit(
  layout: Layout,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): { cpuLayers: number; evals: CardEval[]; host: CardEval | null } {
  const host = layout.host;
  const L = ctx.shape.layers;
  const wp = weightParts(ctx.shape, layout.artifact);
  const cards = layout.placement.gpusPerNode;
  const output = wp.headBytes > 0 ? wp.headBytes : wp.embedBytes;
  let kept = offloadParts.get(layout);
  if (!kept) {
    kept = { byK: new Map(), lastCpuLayers: 0 };
    offloadParts.set(layout, kept);
  }
  const remembered = kept;
  const memo = kept.byK;
  const partsAt = (k: number): Part[] => {
    const known = memo.get(k);
    if (known) return known;
    const perCardLayers = Math.ceil((host?.mode === "layers" ? L - k : L) / cards);
    const expertsOnGpu = host?.mode === "moe" ? Math.max(0, wp.moeLayers - k) : wp.moeLayers;
    const body = perCardLayers * wp.layerBytes + Math.ceil(expertsOnGpu / cards) * wp.expertLayerBytes;
    const kv = geometryOfFirst(ctx.shape, perCardLayers);
    const parts = layout.parts.map((p) => ({
      ...p,
      bodyBytes: body + (p.holdsOutput ? output + wp.projectorBytes : 0),
      kv,
    }));
    memo.set(k, parts);
    return parts;
  };
  const at = (k: number): { evals: CardEval[]; host: CardEval | null } => {
    const evals = partsAt(k).map((p) => evalCard(layout, p, ctx, w, contextTokens));
    const offloaded =
      host?.mode === "layers"
        ? k * (wp.layerBytes + (wp.moeLayers > 0 ? wp.expertLayerBytes : 0))
        : Math.min(k, wp.moeLayers) * wp.expertLayerBytes;
    const hostKv = host?.mode === "layers" && k > 0 ? geometryOfLast(ctx.shape, k) : null;
    return { evals, host: evalHost(layout, ctx, w, contextTokens, offloaded, hostKv) };
  };
  // The last card (output layer and logits) is the fullest: whether it fits decides.
  const fitsWith = (k: number): boolean => {
    const last = partsAt(k).find((p) => p.holdsOutput);
    return last !== undefined && cardFits(last, ctx, w, contextTokens);
  };
  // More layers in RAM never need more of a card: the fewest that fit is searched from the last answer.
  const most = host?.mode === "moe" ? wp.moeLayers : L;
  const k = fewestFitting(fitsWith, most, remembered.lastCpuLayers);
  remembered.lastCpuLayers = k;
  return { cpuLayers: k, ...at(k) };
}

/**
 * A --tensor-split over hosts whose cards cannot hold every layer, with the first layers in the head's
 * RAM (src/llama-model.cpp:1475: layers below n_layer + 1 − n_gpu_layers go to the CPU): the split's
 * parts are the cards', the host the head's CPU with those layers, their cache and the token embedding.
 */
export function headCpuSplit(
  layout: Layout,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
): { cpuLayers: number; evals: CardEval[]; host: CardEval | null } {
  const k = layout.host?.splitCpuLayers ?? 0;
  const wp = weightParts(ctx.shape, layout.artifact);
  const evals = layout.parts.map((p) => evalCard(layout, p, ctx, w, contextTokens));
  const offloaded = k * wp.layerBytes + moeLayersIn(ctx.shape, 0, k) * wp.expertLayerBytes;
  const host = evalHost(layout, ctx, w, contextTokens, offloaded, k > 0 ? geometryOfFirst(ctx.shape, k) : null);
  const head = layout.placement.nodeIds?.[0] ?? "head";
  if (host) host.load.role = `${head} CPU: layers 0–${k - 1}`;
  // A cluster without cards (cpuCluster.ts): the head is a CPU host like its workers, named as theirs are.
  if (host && layout.placement.gpusPerNode === 0) host.load.cpuNode = head;
  return { cpuLayers: k, evals, host };
}
