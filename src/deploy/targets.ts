/**
 * Which deployments apply to an option, and for the rest why not, in words
 * that say what can: the page's Deploy tab and `--json`'s deploy_targets.
 */
import type { Cluster, PlanOption } from "../plan/index.ts";
import { composeProblem } from "./compose.ts";
import { cardRequest } from "./devices.ts";
import { engineImage } from "./images.ts";
import { slurmProblem } from "./slurm.ts";
import { DEPLOY_KINDS, type DeployInput, type DeployKind, type DeployTarget } from "./types.ts";

function kubernetesProblem(input: DeployInput): string | null {
  const request = cardRequest(input.option, input.plan.cluster);
  if (typeof request === "string") return request;
  // llama.cpp over RPC runs an image the user builds (images.ts LLAMACPP_RPC_IMAGE): still written.
  if (input.option.engine === "llamacpp" && input.option.placement.nodes > 1) return null;
  const image = engineImage(input.option.engine, request.accelerator, input.plan.workload.settings.vllmVersion);
  return typeof image === "string" ? image : null;
}

/**
 * Why no deployment of the option would start, whatever the kind: it does not
 * fit its cards (the engine refuses at start-up), or the cluster lacks cards for it.
 */
export function optionProblem(option: PlanOption): string | null {
  if (option.moreCardsNeeded > 0)
    return `the cluster lacks ${option.moreCardsNeeded} card(s) for this option: add them, or choose an option that fits the cluster`;
  if (!option.fits)
    return "this option does not fit its cards at the chosen context, so the engine would not start: choose one that fits, or shorten the context";
  return null;
}

/**
 * llama.cpp over RPC with hosts without cards (their rpc-server serves the CPU): a LeaderWorkerSet's
 * worker pods and an sbatch job's nodes all ask the head's cards, which such a host cannot give.
 */
function cpuHostsProblem(option: PlanOption, kind: DeployKind): string | null {
  const hosts = option.placement.cpuHosts ?? 0;
  if (hosts === 0 || kind === "compose") return null;
  const what = kind === "kubernetes" ? "a LeaderWorkerSet's worker pods" : "an sbatch job's nodes";
  // No host has a card (a cluster of CPUs over RPC): the manifests' card requests fit none of them.
  if (option.placement.gpusPerNode === 0)
    return `this RPC option runs on ${hosts} hosts without cards, whose rpc-servers serve their CPUs, and ${what} ask for cards: run its commands on the hosts themselves`;
  return `this RPC option has ${hosts} host${hosts === 1 ? "" : "s"} without cards, whose rpc-server serves the CPU, and ${what} all ask the head's ${option.placement.gpusPerNode} cards: run its commands on the hosts themselves`;
}

const PROBLEM: Record<DeployKind, (input: DeployInput) => string | null> = {
  kubernetes: kubernetesProblem,
  compose: composeProblem,
  slurm: slurmProblem,
};

/** Each kind, applicable or with its reason. Only the option and the cluster matter; the rest of the plan does not change the answer. */
export function deployTargets(option: PlanOption, cluster: Cluster, vllmVersion?: string): DeployTarget[] {
  const input: DeployInput = {
    option,
    plan: {
      repo: "",
      revision: "",
      artifacts: [],
      cluster,
      workload: {
        contextTokens: 0,
        sequences: 1,
        kvDtype: "auto",
        settings: vllmVersion !== undefined ? { vllmVersion } : {},
      },
    },
  };
  return DEPLOY_KINDS.map((kind) => {
    const reason = optionProblem(option) ?? cpuHostsProblem(option, kind) ?? PROBLEM[kind](input);
    return reason === null ? { kind, ok: true } : { kind, ok: false, reason };
  });
}
