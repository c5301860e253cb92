/**
 * `npm run plan -- … --deploy kubernetes|compose|slurm [--option ID|N]`: the
 * chosen option's deployment, and `--json`'s deploy_targets (issue 16).
 */
import { deploy, deployTargets, DeployError, type DeployKind } from "../../src/deploy/index.ts";
import type { Plan, PlanOption } from "../../src/plan/index.ts";
import { UsageError } from "./args.ts";

/** The option --option names: an id, or a 1-based place in the ranking; the first when absent. */
export function chosenOption(p: Plan, which: string | null): PlanOption {
  if (p.options.length === 0)
    throw new UsageError("--deploy: the plan has no option to deploy (--json lists why each was refused)");
  if (which === null) return p.options[0] as PlanOption;
  const byPlace = /^\d+$/.test(which) ? p.options[Number(which) - 1] : undefined;
  const found = byPlace ?? p.options.find((o) => o.id === which);
  if (!found)
    throw new UsageError(
      `--option ${which}: no such option; give 1 to ${p.options.length}, or an id as --json prints it`,
    );
  return found;
}

/** The manifest's text, or a UsageError in one line: why not, and which kinds can deploy this option. */
export function deployText(p: Plan, kind: DeployKind, which: string | null): string {
  const option = chosenOption(p, which);
  try {
    return deploy(kind, { option, plan: p }).text.trimEnd();
  } catch (e) {
    if (!(e instanceof DeployError)) throw e;
    const can = deployTargets(option, p.cluster, p.workload.settings.vllmVersion)
      .filter((t) => t.ok)
      .map((t) => t.kind);
    throw new UsageError(
      `--deploy ${e.message}${can.length > 0 ? `; this option can be deployed with --deploy ${can.join(" or ")}` : "; it cannot be deployed with any kind"}`,
    );
  }
}

/** deploy_targets for --json: each kind, whether it applies, and why not when it does not. */
export function deployTargetsJson(option: PlanOption, p: Plan): { kind: DeployKind; ok: boolean; reason?: string }[] {
  return deployTargets(option, p.cluster, p.workload.settings.vllmVersion).map((t) =>
    t.ok ? { kind: t.kind, ok: true } : { kind: t.kind, ok: false, reason: t.reason },
  );
}
