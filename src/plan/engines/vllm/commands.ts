/** vLLM's serve command line: one node, native multi-node, or over Ray. */
import {
  type Arg,
  cardFraction,
  type CommandContext,
  type CommandOption,
  headAddress,
  line,
  modelSource,
  named,
  nodeName,
  pushFraction,
} from "../../commands.ts";
import type { YarnExtension } from "../../shapeTypes.ts";
import { yarnRopeScalingJson } from "../pastContext.ts";
import { VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT } from "./kv.ts";

/**
 * A YaRN stretch: --hf-overrides merges JSON into the model's HF config (vllm/engine/arg_utils.py,
 * `model_group.add_argument("--hf-overrides", **model_kwargs["hf_overrides"])`), and _get_and_verify_max_len
 * (vllm/config/model.py) then derives original_max_position_embeddings × factor positions for yarn.
 */
export function vllmYarnArgs(y: YarnExtension): Arg[] {
  return [["--hf-overrides", yarnRopeScalingJson(y)]];
}

function vllmServeArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { placement } = option;
  const { workload } = ctx;
  const settings = workload.settings;
  const args: Arg[] = [];
  if (ctx.revision !== "") args.push(["--revision", ctx.revision]);
  args.push(["--tensor-parallel-size", placement.tensorParallel]);
  if (placement.pipelineParallel > 1) args.push(["--pipeline-parallel-size", placement.pipelineParallel]);
  // One engine of several ranks on the node, one API endpoint (EngineArgs "--data-parallel-size", "-dp").
  if ((placement.dataParallel ?? 1) > 1) args.push(["--data-parallel-size", placement.dataParallel ?? 1]);
  if (placement.expertParallel) args.push(["--enable-expert-parallel"]);
  args.push(["--max-model-len", workload.contextTokens]);
  if (ctx.shape.yarn) args.push(...vllmYarnArgs(ctx.shape.yarn));
  // Only the user's own utilization. Without one the plan holds for the release's own default
  // (0.9 through 0.20, 0.92 from 0.21 with the CUDA-graph estimate inside it, settings.ts); pinning
  // the older 0.9 on a 0.21+ engine would shrink its pool below what was planned.
  if (settings.gpuMemoryUtilization !== undefined)
    pushFraction(args, "--gpu-memory-utilization", cardFraction(option, workload, "gpuMemoryUtilization"));
  if (ctx.shape.layerCaches.some((l) => l.kind === "compressed-mla")) {
    // DeepSeek-V4: its compressed cache exists only in the fp8_ds_mla layout the plan sized (kv.ts, 584-B
    // slots), and its tokenizer is its own; both flags are required ("--kv-cache-dtype fp8_ds_mla and
    // --tokenizer-mode deepseek_v4 are required for this model", the V4-Flash recipes).
    args.push(["--kv-cache-dtype", "fp8_ds_mla"], ["--tokenizer-mode", "deepseek_v4"]);
  } else if (workload.kvDtype === "fp8") args.push(["--kv-cache-dtype", "fp8"]);
  // Only the user's own cap: the plan sized vLLM's sampler warm-up with
  // max_num_seqs as settings.ts resolves it, so a cap taken from `sequences`
  // would start a different engine from the one planned (a larger one could
  // OOM in the warm-up, as gpt-oss-20b did at 0.95 in the calibration set).
  if (settings.maxNumSeqs !== undefined) args.push(["--max-num-seqs", settings.maxNumSeqs]);
  if (settings.maxNumBatchedTokens !== undefined) args.push(["--max-num-batched-tokens", settings.maxNumBatchedTokens]);
  if (settings.dtype !== undefined && settings.dtype !== "auto") args.push(["--dtype", settings.dtype]);
  if (settings.quantization !== undefined) args.push(["--quantization", settings.quantization]);
  if (settings.enforceEager === true) args.push(["--enforce-eager"]);
  // The checkpoint's own MTP block as the drafter (vLLM docs, speculative decoding: "method": "mtp").
  if ((settings.speculativeMtpTokens ?? 0) > 0)
    args.push([
      "--speculative-config",
      JSON.stringify({ method: "mtp", num_speculative_tokens: settings.speculativeMtpTokens }),
    ]);
  return args;
}

/**
 * The environment a vLLM command needs: VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE
 * when the user's choice for a chunked-local model (Llama-4) differs from the
 * default of the vLLM the plan models (kv.ts), which the plan sized by.
 */
function vllmEnvironment(ctx: CommandContext): string[] {
  const wanted = ctx.workload.settings.vllmChunkedLocalHybridKv;
  if (wanted === undefined || wanted === VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT) return [];
  if (!ctx.shape.layerCaches.some((l) => l.kind === "sliding" && l.chunked === true)) return [];
  return [`VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=${wanted ? 1 : 0}`];
}

export function vllmCommands(option: CommandOption, ctx: CommandContext): string[] {
  const serve = [...vllmEnvironment(ctx), "vllm", "serve", modelSource(ctx)];
  const args = vllmServeArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(serve, args)];
  if ((option.placement.dataParallel ?? 1) > 1) return vllmDataParallelCommands(option, serve, args, nodes, ctx);
  if (ctx.vllmLauncher === "ray") return vllmRayCommands(serve, args, nodes, ctx);
  return Array.from({ length: nodes }, (_, rank) => {
    const multi: Arg[] = [
      ["--nnodes", nodes],
      ["--node-rank", rank],
      ["--master-addr", headAddress()],
    ];
    // Every node but the head runs only workers: no API server of its own.
    if (rank > 0) multi.push(["--headless"]);
    const role = rank === 0 ? "head, serves the API" : `worker ${rank}`;
    return named(`${nodeName(ctx, rank)} (${role})`, line(serve, [...args, ...multi]));
  });
}

/** The RPC port of vLLM's data-parallel docs' multi-node examples (docs/serving/data_parallel_deployment.md: `--data-parallel-rpc-port 13345`). */
const VLLM_DP_RPC_PORT = 13345;

/**
 * A data-parallel engine over nodes (docs/serving/data_parallel_deployment.md, "Internal Load
 * Balancing"): every node runs `vllm serve` with the global size and its own ranks; the head serves the
 * one API, the others run `--headless` from their first rank on. No --nnodes: each rank's TP group is
 * on one node. Over Ray, one command on the head places every rank (`--data-parallel-backend ray`).
 */
function vllmDataParallelCommands(
  option: CommandOption,
  serve: string[],
  args: Arg[],
  nodes: number,
  ctx: CommandContext,
): string[] {
  const local = Math.max(1, Math.floor(option.placement.gpusPerNode / Math.max(1, option.placement.tensorParallel)));
  if (ctx.vllmLauncher === "ray") {
    const [head, ...workers] = vllmRayCommands(serve, args, nodes, ctx).slice(0, nodes);
    const start = named(
      `${nodeName(ctx, 0)} (head, once every node has joined)`,
      line(serve, [...args, ["--data-parallel-size-local", local], ["--data-parallel-backend", "ray"]]),
    );
    return [...(head ? [head] : []), ...workers, start];
  }
  return Array.from({ length: nodes }, (_, rank) => {
    const dp: Arg[] = [["--data-parallel-size-local", local]];
    if (rank > 0) dp.push(["--headless"], ["--data-parallel-start-rank", rank * local]);
    dp.push(["--data-parallel-address", headAddress()], ["--data-parallel-rpc-port", VLLM_DP_RPC_PORT]);
    const ranks = local === 1 ? `DP rank ${rank}` : `DP ranks ${rank * local}–${(rank + 1) * local - 1}`;
    const role = rank === 0 ? `head, serves the API; ${ranks}` : ranks;
    return named(`${nodeName(ctx, rank)} (${role})`, line(serve, [...args, ...dp]));
  });
}

/**
 * Ray's default GCS port (ray start --head --port, default 6379; the port
 * vLLM's examples/online_serving/multi-node-serving.sh uses).
 */
const RAY_PORT = 6379;

function vllmRayCommands(serve: string[], args: Arg[], nodes: number, ctx: CommandContext): string[] {
  const head = named(`${nodeName(ctx, 0)} (head: Ray)`, line(["ray", "start"], [["--head"], ["--port", RAY_PORT]]));
  const workers = Array.from({ length: nodes - 1 }, (_, i) =>
    named(
      `${nodeName(ctx, i + 1)} (worker: joins Ray)`,
      line(["ray", "start"], [["--address", `${headAddress()}:${RAY_PORT}`]]),
    ),
  );
  const start = named(
    `${nodeName(ctx, 0)} (head, once every node has joined)`,
    line(serve, [...args, ["--distributed-executor-backend", "ray"]]),
  );
  return [head, ...workers, start];
}

// ---------------------------------------------------------------------------
// SGLang
