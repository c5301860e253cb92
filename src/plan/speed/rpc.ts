/**
 * What llama.cpp's RPC costs a token: every host boundary is crossed by the activations, and each
 * crossing is an RPC message the head waits for. llama.cpp keeps the embeddings and the output on
 * the head and puts the RPC devices first (src/llama.cpp), and ggml-rpc copies a tensor from one
 * server to another only through the head (ggml/src/ggml-rpc/ggml-rpc.cpp:734-752,
 * `ggml_backend_rpc_buffer_cpy_tensor` returns false across dispatchers, so the scheduler gets it to
 * the head and sets it on the next): with h hosts a token crosses the network 2(h − 1) times.
 */
import { DEFAULT_FABRIC_GBPS, NO_WIRE, type WireTime } from "./links.ts";
import type { SpeedLinks } from "./types.ts";

/** Bytes of one activation element on the wire: ggml's hidden state is f32. */
const RPC_ACTIVATION_BYTES = 4;

/**
 * The fixed cost of one crossing, ms: a round trip of the RPC protocol over TCP and the worker's
 * dispatch. Measured on two DGX Sparks over their direct cable (defilantech/LLMKube issue #1423,
 * 2026-08-12: Qwen 27B Q4_K_M, -ngl 99, decode 12.42 tok/s over RPC against 12.83 on one Spark,
 * TCP measured at 17.8 Gb/s): 1000/12.42 − 1000/12.83 = 2.57 ms a token for 2 crossings, less
 * 20 KB over 2.2 GB/s each, is 1.28 ms a crossing. One measurement of a fast link: a switched
 * 1–10 GbE network adds its own latency, which this does not know.
 */
export const RPC_CROSSING_MS = 1.28;

/** Network crossings a token makes when llama.cpp spans `hosts` hosts over RPC. */
export function rpcCrossings(hosts: number): number {
  return 2 * Math.max(0, hosts - 1);
}

/** The crossings of one pass of `tokens` tokens (one decode step, or one ubatch of a prompt). */
export function rpcMs(hiddenSize: number, tokens: number, links: SpeedLinks): WireTime {
  const crossings = links.rpcCrossings ?? 0;
  if (crossings <= 0) return NO_WIRE;
  const gbps = links.fabricGBps ?? DEFAULT_FABRIC_GBPS;
  const assumed =
    links.fabricGBps === null ? `fabric speed unknown: ${DEFAULT_FABRIC_GBPS} GB/s assumed for llama.cpp's RPC` : "";
  const bytes = tokens * hiddenSize * RPC_ACTIVATION_BYTES;
  return { ms: crossings * (RPC_CROSSING_MS + bytes / (gbps * 1e6)), assumed };
}
