/** SGLang's launch_server command line, single node and across nodes. */
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
  sequences,
} from "../../commands.ts";
import type { YarnExtension } from "../../shapeTypes.ts";
import { sglangDpAttentionFraction } from "./evalCard.ts";
import { yarnRopeScalingJson } from "../pastContext.ts";

/**
 * A YaRN stretch: python/sglang/srt/server_args.py's `json_model_override_args: str = "{}"` ("--json-model-override-args",
 * JSON that overrides the model's config), and configs/model_config.py get_context_length derives
 * original_max_position_embeddings × factor for yarn, as vLLM does.
 */
export function sglangYarnArgs(y: YarnExtension): Arg[] {
  return [["--json-model-override-args", yarnRopeScalingJson(y)]];
}

/** The example port of server_args.py's --dist-init-addr help ("192.168.0.2:25000"). */
const SGLANG_DIST_PORT = 25000;

function sglangArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { placement } = option;
  const { workload } = ctx;
  const args: Arg[] = [["--model-path", modelSource(ctx)]];
  if (ctx.revision !== "") args.push(["--revision", ctx.revision]);
  if (placement.dpAttention === true) {
    dpAttentionArgs(option, ctx, args);
    return args;
  }
  args.push(["--tp-size", placement.tensorParallel]);
  if (placement.pipelineParallel > 1) args.push(["--pp-size", placement.pipelineParallel]);
  // dp_size TP groups behind SGLang's own data-parallel controller, one endpoint (server_args.py `dp_size`;
  // `--dp` in its docs is argparse's prefix of --dp-size, not an alias of its own).
  if ((placement.dataParallel ?? 1) > 1) args.push(["--dp-size", placement.dataParallel ?? 1]);
  // SGLang's MoE layers run expert parallel over the same ranks as tensor
  // parallel when --ep-size equals the TP width.
  if (placement.expertParallel) args.push(["--ep-size", placement.tensorParallel]);
  args.push(["--context-length", workload.contextTokens]);
  if (ctx.shape.yarn) args.push(...sglangYarnArgs(ctx.shape.yarn));
  pushFraction(args, "--mem-fraction-static", cardFraction(option, workload, "memFractionStatic"));
  if (workload.kvDtype === "fp8") args.push(["--kv-cache-dtype", "fp8_e4m3"]);
  if (sequences(workload) > 1) args.push(["--max-running-requests", sequences(workload)]);
  return args;
}

/**
 * DP attention (engines/serving/dpAttention.ts): `--tp-size` is the whole group and `--dp-size` the attention
 * ranks in it, each of tp ÷ dp cards (server_args `_handle_data_parallelism`: `assert tp_size % dp_size == 0`), the experts over all of
 * them (`--ep-size`), across nodes through DeepEP. `--max-running-requests` is the whole engine's, which the
 * scheduler divides by dp_size, so it is rounded up to a multiple of the ranks (a share of 0 would admit none).
 */
function dpAttentionArgs(option: CommandOption, ctx: CommandContext, args: Arg[]): void {
  const { placement } = option;
  const { workload } = ctx;
  const dp = placement.dataParallel ?? 1;
  const ranks = dp * placement.tensorParallel;
  args.push(["--tp-size", ranks], ["--dp-size", dp], ["--enable-dp-attention"], ["--ep-size", ranks]);
  if (placement.nodes > 1) args.push(["--moe-a2a-backend", "deepep"]);
  args.push(["--context-length", workload.contextTokens]);
  if (ctx.shape.yarn) args.push(...sglangYarnArgs(ctx.shape.yarn));
  const card = option.cards[option.worstCardIndex ?? 0];
  const mla = ctx.shape.layerCaches.some((l) => l.kind === "mla");
  if (card)
    pushFraction(
      args,
      "--mem-fraction-static",
      workload.settings.memFractionStatic ?? sglangDpAttentionFraction(card.physicalBytes, ranks, dp, mla),
    );
  if (workload.kvDtype === "fp8") args.push(["--kv-cache-dtype", "fp8_e4m3"]);
  const perRank = Math.ceil(sequences(workload) / dp);
  if (sequences(workload) > 1) args.push(["--max-running-requests", perRank * dp]);
}

export function sglangCommands(option: CommandOption, ctx: CommandContext): string[] {
  const launch = ["python", "-m", "sglang.launch_server"];
  const args = sglangArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(launch, args)];
  return Array.from({ length: nodes }, (_, rank) => {
    const multi: Arg[] = [
      ["--nnodes", nodes],
      ["--node-rank", rank],
      ["--dist-init-addr", `${headAddress()}:${SGLANG_DIST_PORT}`],
    ];
    const role = rank === 0 ? "rank 0, serves the API" : `rank ${rank}`;
    return named(`${nodeName(ctx, rank)} (${role})`, line(launch, [...args, ...multi]));
  });
}

// ---------------------------------------------------------------------------
// llama.cpp
