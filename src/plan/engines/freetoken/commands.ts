/** The command that starts FreeToken on one card. */
import { type Arg, type CommandContext, type CommandOption, line, modelSource, sequences } from "../../commands.ts";
import { FREETOKEN_KV_RESERVE_TOKENS, FREETOKEN_MAX_RUNNING_REQUESTS, freetokenReserveTokens } from "./memory.ts";

export function freetokenCommand(option: CommandOption, ctx: CommandContext): string {
  const { workload } = ctx;
  const args: Arg[] = [["--model", modelSource(ctx)]];
  const tp = Math.max(1, option.placement.tensorParallel);
  if (tp > 1) args.push(["--tp-size", tp]);
  // --gpu lists one card per tensor-parallel rank ("entry i is TP rank i").
  const firstCard = ctx.gpuIndex ?? 0;
  args.push(["--gpu", Array.from({ length: tp }, (_, rank) => firstCard + rank).join(",")]);
  args.push(["--max-seq-len-override", workload.contextTokens]);
  // Its default of 4 running requests sizes linear states and admits four sequences into the
  // KV: the plan sized `sequences`, so any other number is said, 1 included.
  if (sequences(workload) !== FREETOKEN_MAX_RUNNING_REQUESTS)
    args.push(["--max-running-requests", sequences(workload)]);
  // Past its 8,192-token floor the experts would take the memory the plan gave the KV, and
  // max_seq_len would be clamped to the floor: reserve what the sequences need.
  const reserve = freetokenReserveTokens(workload.contextTokens, sequences(workload));
  if (reserve > FREETOKEN_KV_RESERVE_TOKENS) args.push(["--kv-reserve-tokens", reserve]);
  return line(["ft", "serve"], args);
}

// ---------------------------------------------------------------------------
// Reading a command back
