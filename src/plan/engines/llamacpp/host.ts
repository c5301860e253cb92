/** llama.cpp's host RAM: the whole model on the CPU, or the layers and experts offloaded to it. */
import { deviceComputeBytes } from "./device.ts";
import { llamacppKvElementBytes } from "./evalCard.ts";
import { flashAttnOff, flashOffComputeBytes } from "./flashAttn.ts";
import { graphComputeBytes, graphInputs, placesFlashOff } from "./graphCompute.ts";
import { LLAMACPP_KV_PAD, llamacppCacheBytes } from "./kv.ts";
import { CPU_ACTIVATION_ROWS, llamacppComputeBytes, llamacppHostBytes } from "./memory.ts";
import { cpuRepackExtraBytes } from "./repack.ts";
import { cardLoad } from "../../cardLoad.ts";
import { growingBytesPerToken, type KvGeometry } from "../../kv.ts";
import type { CardEval, EvalContext, Layout } from "../../layout.ts";
import { resolveSettings } from "../../settings.ts";
import type { Workload } from "../../types.ts";

/** The host's load: everything in RAM for the CPU, or the offloaded share. */
export function evalHost(
  layout: Layout,
  ctx: EvalContext,
  w: Workload,
  contextTokens: number,
  offloadedBytes: number,
  hostKv: KvGeometry | null,
): CardEval | null {
  const host = layout.host;
  if (!host) return null;
  const s = resolveSettings("llamacpp", 0, w.settings, 1, w.sequences);
  const elem = llamacppKvElementBytes(w.kvDtype);
  const kvAt = (c: number): number =>
    hostKv ? llamacppCacheBytes(hostKv, elem, c, s.parallel, s.ubatch, s.kvUnified) : 0;
  const kv = kvAt(contextTokens);
  // On the CPU the compute buffer is the host's, with KQ in it when flash attention is off (flashAttn.ts);
  // with it on, a modelled graph is placed as ggml-alloc places it (graphCompute.ts), else logits + rows. A
  // quantized cache adds rotation inputs and nodes (FINDINGS.md F7) the graphs do not build.
  const graph = elem === 2 && hostKv ? layout.artifact.llamaGraph : undefined;
  const placed = (flash: boolean): number | undefined =>
    graph && hostKv && (flash || placesFlashOff(graph))
      ? graphComputeBytes(graph, graphInputs(hostKv, contextTokens, s.ubatch, s.parallel, flash, s.kvUnified))
      : undefined;
  const flashOn = placed(true) ?? llamacppComputeBytes(ctx.shape, s.ubatch, true, CPU_ACTIVATION_ROWS);
  const compute =
    hostKv && flashAttnOff(w)
      ? (placed(false) ??
        flashOffComputeBytes(ctx.shape, hostKv, contextTokens, s.parallel, s.ubatch, flashOn, s.kvUnified))
      : flashOn;
  // The head of a cluster without cards computes its own layers on its CPU (cpuCluster.ts): a CPU device's
  // buffer without the output, as its workers' rpc-servers hold (device.ts).
  const headOfCpus = host.splitCpuLayers !== undefined && layout.placement.gpusPerNode === 0;
  const engineBytes =
    llamacppHostBytes(ctx.shape, s.parallel) +
    (host.mode === "cpu" ? compute : headOfCpus ? deviceComputeBytes(ctx.shape, s.ubatch, false, true) : 0);
  // A CPU-only build repacks some matrices into a second copy (repack.ts); with cards, layers in RAM stay mapped.
  const weights =
    host.fixedBytes + offloadedBytes + (host.mode === "cpu" ? cpuRepackExtraBytes(layout.artifact.cpuRepack) : 0);
  const load = cardLoad({
    gpuClass: "",
    cards: 1,
    role: host.mode === "cpu" ? "CPU" : "host RAM",
    weightsBytes: weights,
    kvBytes: kv,
    engineBytes,
    usableBytes: host.usableBytes,
    physicalBytes: host.physicalBytes,
  });
  const growing = hostKv ? growingBytesPerToken(hostKv, elem) : 0;
  return {
    load,
    poolBytes: host.usableBytes - weights - engineBytes,
    needKvBytes: kv,
    outsideOk: true,
    kvAt,
    settings: s,
    elementBytes: elem,
    stepTokens: LLAMACPP_KV_PAD / s.parallel,
    stepBytes: LLAMACPP_KV_PAD * growing,
  };
}
