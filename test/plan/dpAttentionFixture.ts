/**
 * What the DP-attention tests share: nodes of 8 cards, finding an option by its DP size, and DeepSeek-R1's attention,
 * embedding and router from its config.
 */
import type { Cluster, PlanOption } from "../../src/plan/index.ts";

/** `n` nodes of 8 free `gpuClass` cards on one fabric, 2 TiB of host RAM each. */
export const nodesOf8 = (gpuClass: string, n: number, fabric = "ib0"): Cluster => ({
  nodes: Array.from({ length: n }, (_, i) => ({
    id: `node-${i + 1}`,
    fabric,
    hostMemGib: 2048,
    hostFreeGib: 2048,
    devices: [{ class: gpuClass, count: 8, free: 8 }],
  })),
});

// DeepSeek-R1's config: hidden 7,168, q_lora_rank 1,536, kv_lora_rank 512, 128 heads of 128 + 64 (rope), v 128.
export const R1_ATTENTION_PARAMS =
  7168 * 1536 + 1536 * 128 * (128 + 64) + 7168 * (512 + 64) + 512 * 128 * (128 + 128) + 128 * 128 * 7168;
export const R1_EMBED_BYTES = 129_280 * 7168 * 2;
// R1's router on each of its 58 MoE layers (61 less first_k_dense_replace 3): SGLang's `MoEGate` (models/deepseek_v2.py
// @ 3e4a39ee) is a plain Parameter of n_routed_experts × hidden in the default (model) dtype, bf16, never split by
// TP or DP attention: 256 × 7,168 × 2 B whole on every card. Its fp32 e_score_correction_bias (256 × 4 B a layer,
// 58 KiB in all) is left in the layer's share.
export const R1_ROUTER_BYTES = 58 * 256 * 7168 * 2;

/** Whether an option runs SGLang's DP attention. */
export const dpa = (o: PlanOption): boolean => o.placement.dpAttention === true;

/** The DP-attention option of `dp` ranks; a test asking for one the plan does not list fails saying which. */
export function atDp(options: readonly PlanOption[], dp: number): PlanOption {
  const o = options.find((x) => dpa(x) && x.placement.dataParallel === dp);
  if (!o) throw new Error(`the plan lists no --dp-size ${dp} option`);
  return o;
}
