/**
 * What a deployment is made of (issue 16): the three kinds Modelplan writes,
 * the file each one is, and the refusal that says why a kind does not apply.
 */
import type { Plan, PlanOption } from "../plan/index.ts";

export const DEPLOY_KINDS = ["kubernetes", "compose", "slurm"] as const;
export type DeployKind = (typeof DEPLOY_KINDS)[number];

/** What a deployment is written from: the option chosen and the plan it came from. */
export interface DeployInput {
  option: PlanOption;
  plan: Pick<Plan, "repo" | "revision" | "modelPath" | "artifacts" | "cluster" | "workload">;
}

/** One file to write: a Kubernetes manifest, compose.yaml, or an sbatch script. */
export interface Manifest {
  kind: DeployKind;
  /** The name to save it as: "qwen2-5-coder-32b-instruct.yaml", "compose.yaml", "serve.sbatch". */
  fileName: string;
  text: string;
}

/** Whether a kind applies to an option, and if not, why in words. */
export type DeployTarget = { kind: DeployKind; ok: true } | { kind: DeployKind; ok: false; reason: string };

/** A deployment that cannot be written: the reason, in words that say what can. */
export class DeployError extends Error {
  override name = "DeployError";
}
