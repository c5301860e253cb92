/**
 * The JSON the terminal prints (`npm run plan -- … --json`): the seed's
 * field names (docs/seed/options.go.txt `Option`), in GiB = 2^30 bytes as
 * the seed's GB() was, plus what Modelplan adds. A contract: scripts read it.
 */
import type { CardLoad, ClusterLack, PlanOption, Refusal } from "../plan/index.ts";
import { GIB } from "../plan/index.ts";

/** GiB to three decimals: enough for a 0.1% comparison, short enough to read. */
function gib(bytes: number): number {
  return Math.round((bytes / GIB) * 1000) / 1000;
}

function cardJson(c: CardLoad): Record<string, unknown> {
  return {
    gpu_class: c.gpuClass,
    cards: c.cards,
    role: c.role,
    // A llama.cpp split's CPU device on a host without cards (an rpc-server's CPU): the node, its RAM the row's memory.
    ...(c.cpuNode !== undefined ? { cpu_node: c.cpuNode } : {}),
    weights_gb: gib(c.weightsBytes),
    kv_gb: gib(c.kvBytes),
    engine_gb: gib(c.engineBytes),
    usable_gb: gib(c.usableBytes),
    physical_gb: gib(c.physicalBytes),
    mtp_weights_gb: gib(c.mtpWeightsBytes ?? 0),
    // Of engine_gb, the MoE all-to-all library's buffers (SGLang's DeepEP across nodes); 0 when none is counted.
    comm_buffer_gb: gib(c.commBufferBytes ?? 0),
    left_gb: gib(c.leftBytes),
    over_gb: gib(c.overBytes),
  };
}

/**
 * A speed figure to one decimal, or null; below 1 to two significant digits, so a slow figure is never printed as
 * the 0 the contract keeps for nothing (DeepSeek-R1 Q5_K_M on a 1 GB/s host decoded at 0.02 tok/s, printed 0).
 */
function round1(x: number | null): number | null {
  if (x === null) return null;
  return Math.abs(x) >= 1 ? Math.round(x * 10) / 10 : Number(x.toPrecision(2));
}

/** One option as the CLI prints it. */
export function optionJson(o: PlanOption): Record<string, unknown> {
  const p = o.placement;
  const worst = o.cards[o.worstCardIndex ?? 0];
  const weights = worst?.weightsBytes ?? 0;
  const engine = worst?.engineBytes ?? 0;
  return {
    id: o.id,
    artifact: o.artifact,
    format: o.format,
    engine: o.engine,
    cpu: p.cpu,
    gpu_class: p.gpuClass,
    fabric: p.fabric,
    gpus_per_node: p.gpusPerNode,
    nodes: p.nodes,
    // Of those nodes, the hosts without cards that lend llama.cpp's RPC their CPU and RAM.
    cpu_hosts: p.cpuHosts ?? 0,
    need_gb: gib(o.needBytes),
    have_gb: gib(o.haveBytes),
    hosts: o.hosts,
    free_now: o.freeNow,
    bits_per_weight: Math.round(o.bitsPerWeight * 100) / 100,
    weights_gb: gib(weights),
    context_gb: gib(o.needBytes - weights - engine),
    engine_gb: gib(engine),
    expert_parallel: p.expertParallel,
    tensor_parallel: p.tensorParallel,
    pipeline_parallel: p.pipelineParallel,
    cpu_moe_layers: p.cpuMoeLayers,
    gpu_layers: p.gpuLayers,
    fits: o.fits,
    max_context: o.maxContextTokens,
    kv_pool_gb: gib(o.kvPoolBytes),
    kv_pool_tokens: o.kvPoolTokens,
    max_concurrency: Math.round(o.maxConcurrency * 100) / 100,
    more_cards_needed: o.moreCardsNeeded,
    command: o.commands.join("\n"),
    commands: o.commands,
    cards: o.cards.map(cardJson),
    notes: o.notes ?? [],
    // Speed (speed/README.md): null where it cannot be estimated, with the reason in speed_basis; never 0 for unknown.
    decode_tps: round1(o.speed?.decodeTps ?? null),
    prefill_tps: round1(o.speed?.prefillTps ?? null),
    ttft_ms: round1(o.speed?.ttftMs ?? null),
    tpot_ms: round1(o.speed?.tpotMs ?? null),
    throughput_tps: round1(o.speed?.throughputTps ?? null),
    speed_basis: o.speed?.basis ?? "speed not estimated",
    // The workload as a requirement, the layouts the cluster holds, and what it would take.
    fits_workload: o.fitsWorkload ?? o.fits,
    replicas: o.replicas ?? 0,
    replicas_free_now: o.replicasFreeNow ?? 0,
    // The ranks the option's one command starts (--data-parallel-size, --dp-size); 1 for plain TP / PP. Before the
    // data-parallel options existed it counted the copies one node could hold, which `replicas` says cluster-wide.
    data_parallel: o.dataParallel ?? 1,
    // SGLang --enable-dp-attention: the data_parallel ranks are one TP group, each its own attention and KV pool.
    dp_attention: p.dpAttention === true,
    // Its split (null without DP attention): --tp-size, --dp-size and each DP rank's attention TP, tp_size ÷ dp_size.
    dp_attention_split:
      p.dpAttention === true
        ? {
            tp_size: (o.dataParallel ?? 1) * p.tensorParallel,
            dp_size: o.dataParallel ?? 1,
            attention_tp_size: p.tensorParallel,
          }
        : null,
    cost_per_mtok: o.costPerMtok == null ? null : Math.round(o.costPerMtok * 1000) / 1000,
    what_to_buy: (o.whatToBuy ?? []).map((b) => ({ change: b.change, cards_added: b.cardsAdded, class: b.gpuClass })),
    // What it lacks that is not a card (null when nothing else): RAM on a node, or one fabric for its nodes.
    lacks: lacksJson(o.lacks),
  };
}

function lacksJson(l: ClusterLack | undefined): Record<string, unknown> | null {
  if (!l) return null;
  if (l.kind === "fabric") return { kind: "fabric", node_ids: l.nodeIds };
  return { kind: "host_ram", node_id: l.nodeId, more_gib: l.moreGib };
}

/** One refused configuration: where and why. */
export function refusalJson(r: Refusal): Record<string, unknown> {
  return { artifact: r.artifact, engine: r.engine, where: r.where, reason: r.reason };
}
