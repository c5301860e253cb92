/**
 * Compose, for one host: the engine's image at its pinned tag, the free
 * cards by device id (NVIDIA's container toolkit reserves exactly those),
 * the port, /dev/shm, the model cache and the token from an env file.
 */
import { stringify } from "yaml";
import { cacheDir, header, TOKEN_ENV_FILE } from "./common.ts";
import { cardRequest, pinnedCards } from "./devices.ts";
import { engineImage, imageRef } from "./images.ts";
import { objectName } from "./names.ts";
import { assertWired, layoutOf, listenOf } from "./serve.ts";
import { DeployError, type DeployInput, type Manifest } from "./types.ts";

/** /dev/shm as Docker sizes it: the same figures as the Kubernetes emptyDir (kubernetes.ts SHM_GIB). */
const SHM: Record<string, string | undefined> = { vllm: "16gb", sglang: "32gb" };

/** Why an option cannot be one Compose service, or null when it can. */
export function composeProblem(input: DeployInput): string | null {
  const { option } = input;
  const p = option.placement;
  if (p.nodes > 1) {
    const what = option.engine === "llamacpp" ? "an RPC option" : `a ${p.nodes}-node option`;
    return `${what} spans ${p.nodes} hosts and Compose runs on one: deploy it with kubernetes (a LeaderWorkerSet) or slurm`;
  }
  const request = cardRequest(option, input.plan.cluster);
  if (typeof request === "string") return request;
  if (request.accelerator === "rocm")
    return "Compose reserves GPUs by device id through NVIDIA's container toolkit only; AMD cards are passed as /dev/kfd and /dev/dri by hand (llama.cpp docs/docker.md): use kubernetes (amd.com/gpu) or slurm";
  if (p.gpuClass.includes("-mig-") && pinnedCards(option, input.plan.cluster, 0) === undefined) {
    return "Compose can only reserve a MIG instance by its UUID, and the inventory did not name it: import `nvidia-smi -L`, or use kubernetes (nvidia.com/mig-…) or slurm";
  }
  const image = engineImage(option.engine, request.accelerator, input.plan.workload.settings.vllmVersion);
  return typeof image === "string" ? image : null;
}

export function composeManifest(input: DeployInput): Manifest {
  const problem = composeProblem(input);
  if (problem !== null) throw new DeployError(`compose: ${problem}`);
  const { option } = input;
  const request = cardRequest(option, input.plan.cluster);
  const image = engineImage(
    option.engine,
    typeof request === "string" ? "cuda" : request.accelerator,
    input.plan.workload.settings.vllmVersion,
  );
  if (typeof request === "string" || typeof image === "string") throw new DeployError("compose: unreachable");
  const layout = layoutOf(option);
  if (layout.kind !== "single") throw new DeployError("compose: a multi-process option does not fit one service");
  const listen = listenOf(option.engine);
  const args = [...layout.serve.args, ...listen.args];
  assertWired(args);
  const pinned = pinnedCards(option, input.plan.cluster, 0);
  const device: Record<string, unknown> = { driver: "nvidia", capabilities: ["gpu"] };
  // Without names Docker takes the first N cards, busy or not: said in the header.
  if (pinned) device.device_ids = pinned;
  else device.count = request.perNode;
  const volumes = [`cache:${cacheDir(option.engine)}`];
  if (input.plan.modelPath !== undefined) volumes.push(`${input.plan.modelPath}:${input.plan.modelPath}:ro`);
  const service: Record<string, unknown> = {
    image: imageRef(image),
    entrypoint: [...image.program],
    command: args,
    ports: [`${listen.port}:${listen.port}`],
    // Compose 2.24+: a missing file is no error, so a public model needs none.
    env_file: [{ path: TOKEN_ENV_FILE, required: false }],
    ...(layout.serve.env.length > 0 ? { environment: Object.fromEntries(layout.serve.env) } : {}),
    volumes,
    ...(SHM[option.engine] !== undefined ? { shm_size: SHM[option.engine] } : {}),
    ...(request.resource !== "" ? { deploy: { resources: { reservations: { devices: [device] } } } } : {}),
  };
  const notes = [
    `the Hub token is read from ${TOKEN_ENV_FILE} (one line: HF_TOKEN=hf_…), never written here`,
    ...(request.resource !== "" && !pinned
      ? [
          `the inventory did not name the free cards: Docker takes the first ${request.perNode}; set device_ids to the free ones`,
        ]
      : []),
  ];
  const doc = { name: objectName(input.plan.repo), services: { [option.engine]: service }, volumes: { cache: {} } };
  return {
    kind: "compose",
    fileName: "compose.yaml",
    text: [...header(input, image, notes), stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })].join("\n"),
  };
}
