/**
 * SGLang's data-parallel attention for a mixture of experts (`--tp T --dp D --enable-dp-attention --ep-size T`,
 * across nodes with `--nnodes --node-rank --dist-init-addr` and `--moe-a2a-backend deepep`): one TP group of T
 * cards whose attention runs in D data-parallel ranks, each rank an attention-TP group of T ÷ D cards with its own
 * requests and KV pool, while the MoE layers are sharded over all T. Read at sgl-project/sglang (stored copies):
 * - `layers/dp_attention.py` `compute_dp_attention_world_info`: `attn_tp_size = tp_size // dp_size`,
 *   `attn_tp_rank = tp_rank % attn_tp_size` (an attention-TP group is consecutive ranks, on one node here).
 * - `server_args.py` `_handle_data_parallelism`: `assert tp_size % dp_size == 0` (any divisor; dp_size 1 turns it
 *   off), `chunked_prefill_size //= dp_size`, `schedule_conservativeness *= 0.3`; PR #4390 ("Support TP != DP").
 * - `model_executor/model_runner_kv_cache_mixin.py` @ 001ccef0 `get_cell_size_per_token`: an MLA cell is
 *   (kv_lora_rank + qk_rope_head_dim) × layers on every rank whatever its attention TP (each card of a DP rank
 *   keeps the rank's whole latents), GQA's `get_num_kv_heads(get_attention_tp_size())`; `profile_max_num_token`
 *   sizes each rank's pool from its own card (`available − total × (1 − mem_fraction_static)`).
 * - `models/deepseek_v2.py` `DeepseekV2AttentionMLA`: `fused_qkv_a_proj_with_mqa` (or `kv_a_proj_with_mqa`) and
 *   the DSA indexer are `ReplicatedLinear`, `q_b_proj`, `kv_b_proj` and `o_proj` split by head over
 *   `attn_tp_size`; the embedding `VocabParallelEmbedding(..., enable_tp=not is_dp_attention_enabled())` is whole
 *   on every rank (GLM-4.5's `use_attn_tp_group=is_dp_attention_enabled()` splits it over attn_tp); the dense
 *   layers' MLP keeps the whole group's TP unless `--moe-dense-tp-size 1` (`enable_moe_dense_fully_dp`: tp_size
 *   1, whole on every card); the shared experts are `tp_size=1`, whole,
 *   under the deepep backend; the lm_head stays vocab-parallel over the group unless `--enable-dp-lm-head`
 *   (`ParallelLMHead(use_attn_tp_group=...)`: over the attention-TP group, T ÷ D times the share). Neither flag is
 *   offered: each only adds bytes a card (src/plan/README.md says by how much).
 * Routed experts: E ÷ T a rank (SGLang's EP and DeepEP's low-latency buffer both need E divisible by T).
 * Only for the families whose model file honours it (dpAttentionFamilies.ts, each read in its file): the ones
 * `enable_dp_attention`'s help names ("Currently DeepSeek-V2 and Qwen 2/3 MoE models are supported",
 * server_args.py: DeepSeek V2/V3/R1/V3.2, Kimi-K2, Qwen2/3-MoE), GLM-4.5/4.6/4.7 (glm4_moe: GQA, its embedding
 * split over the attention-TP group), GLM-5 (DeepSeek's DSA path), Llama-4 and gpt-oss (one node: no
 * DeepEP path), Qwen3.5/3.6-MoE (gated-delta layers among full ones).
 *
 * Listed on one node (the node's cards as one group, every --dp-size that holds it; prune.ts keeps a D < T one
 * only where no other layout of its cards beats it) and, only where the node's D = T group does not hold it, over
 * the fewest nodes of one fabric at which some D does (every D that does there).
 */
import { computeDtypeBytes } from "../../dtype.ts";
import { geometryOfRange } from "../../geometries.ts";
import type { ClassPool, EnumContext, Enumerated, Layout, Part } from "../../layout.ts";
import { basePlacement, layoutId } from "../../placement.ts";
import { fabricOrder, singleNodeHosts } from "../../pools.ts";
import { bitsOf } from "../../quant.ts";
import type { ModelShape } from "../../shapeTypes.ts";
import type { Artifact, Placement } from "../../types.ts";
import { moeLayersIn, routerBeyondShareBytes, weightParts } from "../../weights.ts";
import { DP_ATTENTION_FAMILIES, type DpAttentionFamily } from "./dpAttentionFamilies.ts";

export function sglangDpAttention(a: Artifact, c: EnumContext, pool: ClassPool, out: Enumerated): void {
  const experts = c.shape.moe?.routedExperts ?? 0;
  const perNode = pool.maxPerNode;
  const family = DP_ATTENTION_FAMILIES.get(c.shape.architecture);
  if (!family) return;
  if (experts <= 1 || pool.mig || perNode < 2 || pool.memoryBytes === null) return;
  const mem = pool.memoryBytes;
  if (experts % perNode === 0) {
    const hosts = singleNodeHosts(pool, perNode);
    let whole = false;
    for (const dp of dpSizesOf(c.shape, perNode, perNode)) {
      const one: Layout = {
        id: "",
        artifact: a,
        engine: "sglang",
        placement: dpaPlacement(pool.gpuClass, "", perNode, 1, hosts.nodeIds, dp),
        bitsPerWeight: bitsOf(a),
        parts: [dpaPart(c.shape, family, a, pool.gpuClass, mem, perNode, dp, false)],
        host: null,
        hosts: hosts.hosts,
        freeNow: hosts.freeNow,
        freeMemBytes: hosts.freeMemBytes,
        cardsShort: 0,
        replicas: hosts.replicas,
        replicasFreeNow: hosts.replicasFreeNow,
        dataParallel: dp,
      };
      one.id = layoutId(a, "sglang", one.placement, "");
      if (c.problem(one) === null) {
        out.layouts.push(one);
        if (dp === perNode) whole = true;
      }
    }
    // Over nodes only where the node's dp = tp group does not hold it, as before narrower ranks were planned.
    if (whole) return;
  }
  // A family without a DeepEP path in its MoE block (Llama-4, gpt-oss) is not planned across nodes.
  if (family.deepep) acrossNodes(a, c, pool, family, mem, experts, out);
}

/**
 * The --dp-size values SGLang takes for a group of `ranks` cards, largest first: every divisor ≥ 2
 * (server_args `_handle_data_parallelism`: `assert tp_size % dp_size == 0`, dp_size 1 turns DP attention off)
 * whose attention-TP width tp ÷ dp splits the heads (`DeepseekV2AttentionMLA`: `assert num_heads % attn_tp_size
 * == 0`; GQA's `QKVParallelLinear` splits or replicates the KV heads evenly) and stays on one node of `perNode`
 * (attention-TP ranks are consecutive: `attn_tp_rank = tp_rank % attn_tp_size`). A DSA model gets dp = tp alone.
 */
function dpSizesOf(shape: ModelShape, ranks: number, perNode: number): number[] {
  const out: number[] = [];
  // DSA (DeepSeek-V3.2): server_args `if is_deepseek_nsa(hf_config)` sets `dp_size = tp_size` off NPU, whatever is given.
  const nsa = shape.layerCaches.some((l) => l.kind === "mla" && (l.indexerBytesPerToken ?? 0) > 0);
  for (let dp = ranks; dp >= (nsa ? ranks : 2); dp--) {
    if (ranks % dp !== 0) continue;
    const attnTp = ranks / dp;
    if (attnTp > perNode || perNode % attnTp !== 0 || shape.attentionHeads % attnTp !== 0) continue;
    const kv = shape.kvHeads;
    if (kv > 0 && kv % attnTp !== 0 && attnTp % kv !== 0) continue;
    out.push(dp);
  }
  return out;
}

/**
 * The fewest nodes of one named fabric whose cards, one DP-attention group, hold it (every --dp-size that does
 * there); the first fabric that does.
 */
function acrossNodes(
  a: Artifact,
  c: EnumContext,
  pool: ClassPool,
  family: DpAttentionFamily,
  mem: number,
  experts: number,
  out: Enumerated,
) {
  const perNode = pool.maxPerNode;
  // The weights alone need this many nodes' cards at the least (half the bytes: runtime fp8 halves a 16-bit checkpoint).
  const fewest = Math.max(2, Math.ceil(a.bytes / 2 / (perNode * mem)));
  let refusal: { at: string; why: string } | null = null;
  for (const [fabric, all] of pool.fabrics) {
    if (fabric === "") continue;
    const able = all.filter((n) => n.count >= perNode);
    if (able.length < fewest) continue;
    const order = fabricOrder(able, perNode);
    for (let n = fewest; n <= able.length && perNode * n <= experts; n++) {
      const ranks = perNode * n;
      if (experts % ranks !== 0) continue;
      let listed = false;
      let here: { at: string; why: string } | null = null;
      for (const dp of dpSizesOf(c.shape, ranks, perNode)) {
        const layout: Layout = {
          id: "",
          artifact: a,
          engine: "sglang",
          placement: dpaPlacement(pool.gpuClass, fabric, perNode, n, order.ids.slice(0, n), dp),
          bitsPerWeight: bitsOf(a),
          parts: [dpaPart(c.shape, family, a, pool.gpuClass, mem, ranks, dp, true)],
          host: null,
          hosts: order.able.length,
          freeNow: order.freeCount >= n,
          freeMemBytes: order.freeMem ? (order.freeMem[n - 1] ?? null) : null,
          cardsShort: 0,
          replicas: Math.floor(order.able.length / n),
          replicasFreeNow: Math.floor(order.freeCount / n),
          dataParallel: dp,
        };
        layout.id = layoutId(a, "sglang", layout.placement, "");
        const why = c.problem(layout);
        if (why === null) {
          out.layouts.push(layout);
          listed = true;
        } else if (dp === ranks) {
          here = { at: `${n} nodes × ${perNode} ${pool.gpuClass} on ${fabric}, DP attention ${ranks}`, why };
        }
      }
      if (here) refusal = here;
      if (!listed) continue;
      // A narrower --dp-size held it where dp = tp did not: the refusal of dp = tp is still said.
      if (here) out.refused.push({ artifact: a.name, engine: "sglang", where: here.at, reason: here.why });
      return;
    }
  }
  // Said once: SGLang's own reserve for DP attention grows with the ranks (cuda_graph_max_bs × dp_size × 4.5 MiB).
  if (refusal) out.refused.push({ artifact: a.name, engine: "sglang", where: refusal.at, reason: refusal.why });
}

/** `nodes` × `perNode` cards as one DP-attention group of `dp` ranks, each an attention-TP group of the rest, EP over all. */
function dpaPlacement(
  gpuClass: string,
  fabric: string,
  perNode: number,
  nodes: number,
  ids: string[],
  dp: number,
): Placement {
  const p = basePlacement(gpuClass, fabric, perNode, nodes, (perNode * nodes) / dp, 1, true, ids);
  p.dataParallel = dp;
  p.dpAttention = true;
  return p;
}

/**
 * One card of a DP rank of attention TP `ranks ÷ dp`: its layers' attention split by head over the attention-TP
 * group (MLA's down-projections and DSA's indexer whole; a hybrid's gated-delta mixers split too), the MoE router
 * whole (every family's gate is replicated, as under TP), the rest of each layer (dense MLP, shared experts, norms)
 * a 1/ranks share (shared experts whole under deepep), E ÷ ranks routed experts, the embedding
 * whole (a 1/attnTp share where the family splits it over the attention-TP group) and the lm_head a 1/ranks
 * share; the KV geometry of the attention TP (every KV head split, or the whole latent on each of the group's
 * cards).
 */
function dpaPart(
  shape: ModelShape,
  family: DpAttentionFamily,
  a: Artifact,
  gpuClass: string,
  mem: number,
  ranks: number,
  dp: number,
  deepep: boolean,
): Part {
  const attnTp = ranks / dp;
  const wp = weightParts(shape, a);
  const moe = shape.moe;
  const experts = moe?.routedExperts ?? 0;
  const moeLayers = moeLayersIn(shape, 0, shape.layers);
  const perParam = attentionBytesPerParam(shape);
  // A hybrid's linear-attention layers hold a gated-delta mixer in place of q/k/v/o, every tensor of it split over
  // the attention-TP group (Qwen3_5GatedDeltaNet, models/qwen3_5.py @ 005fa711: conv1d, in_proj_qkvz, in_proj_ba,
  // out_proj at attn_tp_size, A_log and dt_bias num_v_heads // attn_tp_size; the gated norm's dv weights whole).
  const linearLayers = shape.layerCaches.filter((l) => l.kind === "linear").length;
  const fullLayers = shape.layers - linearLayers;
  const attention = Math.min(wp.layerBytes, (shape.attentionParamsPerLayer ?? 0) * perParam);
  const linearMixer = Math.min(wp.layerBytes, (shape.linearAttentionParamsPerLayer ?? 0) * perParam);
  const attentionAll = fullLayers * attention + linearLayers * linearMixer;
  // Shared experts: gate/up/down of n_shared × moe_intermediate_size on each MoE layer (DeepseekV2MoE).
  const sharedPerMoeLayer =
    deepep && moe ? 3 * shape.hiddenSize * moe.sharedExperts * moe.expertIntermediateSize * perParam : 0;
  const shared = Math.min(sharedPerMoeLayer * moeLayers, wp.layerBytes * shape.layers - attentionAll);
  const sharded = wp.layerBytes * shape.layers - attentionAll - shared;
  const body =
    fullLayers * attentionOnCard(shape, attention, perParam, attnTp) +
    (linearLayers * linearMixer) / attnTp +
    shared +
    sharded / ranks +
    moeLayers * routerBeyondShareBytes(shape, ranks) +
    moeLayers * wp.expertLayerBytes * (experts > 0 ? Math.ceil(experts / ranks) / experts : 1 / ranks) +
    wp.projectorBytes;
  return {
    gpuClass,
    cards: attnTp,
    role: "",
    physicalBytes: mem,
    bodyBytes: body,
    embedBytes:
      wp.embedBytes / (family.embedOverAttentionTp ? attnTp : 1) +
      (shape.tiedEmbeddings === true ? 0 : wp.headBytes / ranks),
    tensorParallel: attnTp,
    pipelineParallel: 1,
    holdsOutput: true,
    kv: geometryOfRange(shape, 0, shape.layers, attnTp),
    ...(moe && moe.expertIntermediateSize > 0 && moeLayers > 0
      ? {
          routedExperts: {
            moeLayers,
            experts: Math.ceil(experts / ranks),
            intermediatePerCard: moe.expertIntermediateSize,
          },
        }
      : {}),
  };
}

/**
 * One layer's attention bytes on a card of attention TP `attnTp` (`attention` the whole layer's): MLA's replicated
 * down-projections whole and its head-split rest a 1/attnTp share; GQA's q/o a 1/attnTp share and its k/v the
 * heads the card keeps (whole heads, replicated where attnTp exceeds them, as QKVParallelLinear does).
 */
function attentionOnCard(shape: ModelShape, attention: number, perParam: number, attnTp: number): number {
  if (attnTp <= 1) return attention;
  const replicated = Math.min(attention, (shape.attentionReplicatedParamsPerLayer ?? 0) * perParam);
  const kv = shape.kvHeads;
  const kvReplica = kv > 0 && attnTp > kv ? 2 * shape.hiddenSize * shape.headDim * perParam * (1 - kv / attnTp) : 0;
  return replicated + (attention - replicated) / attnTp + kvReplica;
}

/**
 * Bytes an attention parameter takes in the checkpoint: 1 in a block-FP8 one (DeepSeek's, GLM-5-FP8's; their
 * 128 × 128 scales add 0.02%), else the model's dtype: NVIDIA's NVFP4 builds quantize the experts and keep
 * attention in bf16 (Qwen3.5's keep `linear_attn*` and `self_attn*` out: hf_quant_config.json's exclude_modules); a
 * checkpoint that quantizes attention too (AWQ, GPTQ) is over-counted, up to its layer bytes.
 */
function attentionBytesPerParam(shape: ModelShape): number {
  return shape.quantMethod === "fp8" ? 1 : computeDtypeBytes(shape.dtype);
}
