/**
 * The commands that start each option (issue 6). This first cut is the
 * signature the planner calls; the commands work replaces its body.
 */
import type { Artifact, ModelShape, PlanOption, Workload } from "./types.ts";

export interface CommandContext {
  /** "owner/name" as the user gave it. */
  repo: string;
  /** The commit the plan was made at; "" when unknown. */
  revision: string;
  artifact: Artifact;
  shape: ModelShape;
  workload: Workload;
}

/** The command lines that start an option: one per process (per node across nodes). */
export function commandsFor(option: Omit<PlanOption, "commands">, ctx: CommandContext): string[] {
  if (option.engine === "vllm") {
    return [`vllm serve ${ctx.repo} --tensor-parallel-size ${option.placement.tensorParallel} --max-model-len ${ctx.workload.contextTokens}`];
  }
  return [];
}
