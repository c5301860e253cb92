/**
 * From a plan to running (issue 16): Kubernetes, Compose and Slurm for the
 * chosen option, on the cards the inventory says are free. Pure functions:
 * no DOM, no fetch; the engine is read only through its barrel.
 */
import { composeManifest } from "./compose.ts";
import { kubernetesManifest } from "./kubernetes.ts";
import { slurmScript } from "./slurm.ts";
import { optionProblem } from "./targets.ts";
import { DEPLOY_KINDS, DeployError, type DeployInput, type DeployKind, type Manifest } from "./types.ts";

export {
  DEPLOY_KINDS,
  DeployError,
  type DeployInput,
  type DeployKind,
  type DeployTarget,
  type Manifest,
} from "./types.ts";
export { deployTargets } from "./targets.ts";
export {
  engineImage,
  imageRef,
  LLAMACPP_BUILD,
  SGLANG_RELEASE,
  VLLM_DEFAULT_RELEASE,
  type EngineImage,
} from "./images.ts";
export { pinnedCommands } from "./pin.ts";
export { layoutOf, processOf, listenOf, type Layout, type Process } from "./serve.ts";

export function isDeployKind(kind: string): kind is DeployKind {
  return (DEPLOY_KINDS as readonly string[]).includes(kind);
}

/** The manifest of one kind for the option; a DeployError says why it cannot be written and what can. */
export function deploy(kind: DeployKind, input: DeployInput): Manifest {
  const problem = optionProblem(input.option);
  if (problem !== null) throw new DeployError(`${kind}: ${problem}`);
  switch (kind) {
    case "kubernetes":
      return kubernetesManifest(input);
    case "compose":
      return composeManifest(input);
    case "slurm":
      return slurmScript(input);
  }
}

/** The same, or the reason as a string: for a view that shows either. */
export function tryDeploy(kind: DeployKind, input: DeployInput): Manifest | string {
  try {
    return deploy(kind, input);
  } catch (e) {
    if (e instanceof DeployError) return e.message;
    throw e;
  }
}
