/**
 * Kubernetes, from the chosen option: one node is a Deployment with its
 * Service and cache claim; several nodes are one LeaderWorkerSet
 * (leaderworkerset.x-k8s.io/v1) of size = nodes, whose leader and worker
 * templates run the plan's per-node commands with LWS's own environment
 * (LWS_LEADER_ADDRESS, LWS_GROUP_SIZE, LWS_WORKER_INDEX) where the commands
 * leave placeholders, as LWS's vLLM, SGLang and llama.cpp examples do
 * (kubernetes-sigs/lws docs/examples).
 */
import { stringify } from "yaml";
import { type Engine, shellWord } from "../plan/index.ts";
import { cacheDir, cacheGib, header, TOKEN_SECRET } from "./common.ts";
import { cardRequest, groupOn, type CardRequest } from "./devices.ts";
import { engineImage, imageRef, LLAMACPP_RPC_IMAGE, type EngineImage } from "./images.ts";
import { inventoryName, objectName } from "./names.ts";
import {
  assertWired,
  HEALTH_PATH,
  layoutOf,
  listenOf,
  withFlag,
  withHead,
  withoutFlag,
  type Process,
} from "./serve.ts";
import { DeployError, type DeployInput, type Manifest } from "./types.ts";

type Obj = Record<string, unknown>;

/**
 * /dev/shm for each engine, as a memory emptyDir (a container's default is
 * 64 MiB). vLLM: 16 GiB, the LWS vLLM example's 15Gi for 8 cards rounded up
 * (PyTorch and NCCL pass tensors through it); SGLang: 32 GiB, its Docker
 * instructions' --shm-size 32g; llama.cpp uses neither, so none.
 */
const SHM_GIB: Record<string, number> = { vllm: 16, sglang: 32, llamacpp: 0, freetoken: 0 };

/**
 * Probes on the health path. Loading a large model (download included) takes
 * far longer than a liveness probe may wait, so a startup probe holds the
 * others off for up to an hour (360 × 10 s); afterwards a hung server is
 * restarted after 3 failed checks 30 s apart.
 */
function probes(port: number): Obj {
  const get = { path: HEALTH_PATH, port };
  return {
    startupProbe: { httpGet: get, periodSeconds: 10, failureThreshold: 360 },
    readinessProbe: { httpGet: get, periodSeconds: 10, failureThreshold: 3 },
    livenessProbe: { httpGet: get, periodSeconds: 30, failureThreshold: 3 },
  };
}

const TOKEN_ENV = {
  name: "HF_TOKEN",
  valueFrom: { secretKeyRef: { name: TOKEN_SECRET.name, key: TOKEN_SECRET.key, optional: true } },
};

interface Pod {
  input: DeployInput;
  request: CardRequest;
  name: string;
}

function resources(request: CardRequest): Obj {
  return request.resource === "" ? {} : { resources: { limits: { [request.resource]: String(request.perNode) } } };
}

function mounts(pod: Pod): { volumeMounts: Obj[]; volumes: Obj[] } {
  const engine = pod.input.option.engine;
  const volumeMounts: Obj[] = [{ name: "cache", mountPath: cacheDir(engine) }];
  const volumes: Obj[] = [];
  const shm = SHM_GIB[engine] ?? 0;
  if (shm > 0) {
    volumeMounts.push({ name: "dshm", mountPath: "/dev/shm" });
    volumes.push({ name: "dshm", emptyDir: { medium: "Memory", sizeLimit: `${shm}Gi` } });
  }
  const local = pod.input.plan.modelPath;
  if (local !== undefined) {
    // The commands load from this directory: it must be there, at the same path, on the node.
    volumeMounts.push({ name: "model", mountPath: local, readOnly: true });
    volumes.push({ name: "model", hostPath: { path: local, type: "Directory" } });
  }
  return { volumeMounts, volumes };
}

/** A container running `program args`; env from the command's own VAR=value words, the token from the Secret. */
function container(
  name: string,
  image: EngineImage,
  proc: Process,
  command: readonly string[],
  args: readonly string[],
  extra: Obj,
  token = true,
): Obj {
  assertWired([...command, ...args]);
  const env: Obj[] = proc.env.map(([n, value]) => ({ name: n, value }));
  if (token) env.push(TOKEN_ENV);
  return { name, image: imageRef(image), command: [...command], args: [...args], env, ...extra };
}

function nodeSelector(pod: Pod): Obj {
  const product = groupOn(pod.input.option, pod.input.plan.cluster, 0)?.gpuProduct;
  // GFD's label, when the cluster was read from kubectl: the pod lands on that card model only.
  return product === undefined ? {} : { nodeSelector: { "nvidia.com/gpu.product": inventoryName("label", product) } };
}

function labels(name: string): Record<string, string> {
  return { "app.kubernetes.io/name": name, "app.kubernetes.io/managed-by": "modelplan" };
}

/** A Kubernetes object named and labelled for the deployment. */
function object(apiVersion: string, kind: string, name: string, app: string, spec: Obj): Obj {
  return { apiVersion, kind, metadata: { name, labels: labels(app) }, spec };
}

export function kubernetesManifest(input: DeployInput): Manifest {
  const { option } = input;
  const request = cardRequest(option, input.plan.cluster);
  if (typeof request === "string") throw new DeployError(`kubernetes: ${request}`);
  const layout = layoutOf(option);
  const name = `${objectName(input.plan.repo)}-${option.engine}`;
  const pod: Pod = { input, request, name };
  const docs = layout.kind === "single" ? singleNode(pod, layout.serve) : leaderWorkerSet(pod);
  const image = layout.kind === "rpc" ? LLAMACPP_RPC_IMAGE : engineImageOrThrow(input, request);
  const notes = [
    "the Hub token comes from the Secret hf-token (key token): kubectl create secret generic hf-token --from-literal=token=hf_…",
    ...(layout.kind === "single" ? [] : ["needs the LeaderWorkerSet controller (kubernetes-sigs/lws) installed"]),
  ];
  const text = [
    ...header(input, image, notes),
    docs.map((d) => stringify(d, { lineWidth: 0, aliasDuplicateObjects: false })).join("---\n"),
  ].join("\n");
  return { kind: "kubernetes", fileName: `${name}.yaml`, text };
}

function engineImageOrThrow(input: DeployInput, request: CardRequest): EngineImage {
  const image = engineImage(input.option.engine, request.accelerator, input.plan.workload.settings.vllmVersion);
  if (typeof image === "string") throw new DeployError(`kubernetes: ${image}`);
  return image;
}

function service(pod: Pod, port: number, selector: Record<string, string>): Obj {
  return object("v1", "Service", pod.name, pod.name, {
    type: "ClusterIP",
    selector,
    ports: [{ name: "http", port, targetPort: port, protocol: "TCP" }],
  });
}

function cacheClaim(pod: Pod): Obj {
  return { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: `${cacheGib(pod.input)}Gi` } } };
}

function singleNode(pod: Pod, serve: Process): Obj[] {
  const { option } = pod.input;
  const image = engineImageOrThrow(pod.input, pod.request);
  const listen = listenOf(option.engine);
  const { volumeMounts, volumes } = mounts(pod);
  const c = container(option.engine, image, serve, image.program, [...serve.args, ...listen.args], {
    ports: [{ name: "http", containerPort: listen.port }],
    ...resources(pod.request),
    volumeMounts,
    ...probes(listen.port),
  });
  const deployment = object("apps/v1", "Deployment", pod.name, pod.name, {
    replicas: 1,
    // The cards and the ReadWriteOnce cache cannot be held by two pods at once: stop the old one first.
    strategy: { type: "Recreate" },
    selector: { matchLabels: labels(pod.name) },
    template: {
      metadata: { labels: labels(pod.name) },
      spec: {
        ...nodeSelector(pod),
        containers: [c],
        volumes: [...volumes, { name: "cache", persistentVolumeClaim: { claimName: `${pod.name}-cache` } }],
      },
    },
  });
  const claim = object("v1", "PersistentVolumeClaim", `${pod.name}-cache`, pod.name, cacheClaim(pod));
  return [claim, deployment, service(pod, listen.port, labels(pod.name))];
}

// ---------------------------------------------------------------------------
// Several nodes: one LeaderWorkerSet.
// ---------------------------------------------------------------------------

const LWS_ENV = { address: "$(LWS_LEADER_ADDRESS)", size: "$(LWS_GROUP_SIZE)", rank: "$(LWS_WORKER_INDEX)" } as const;

/** The rank flags of vLLM's own launcher and of SGLang, read from LWS's environment. */
function rankArgs(engine: Engine, args: readonly string[]): string[] {
  // A vLLM data-parallel engine over nodes names no node count or rank: its workers' first DP rank (startRank) does.
  const ranked = args.includes("--data-parallel-address")
    ? args
    : withFlag(
        withFlag(args, "--nnodes", () => LWS_ENV.size),
        "--node-rank",
        () => LWS_ENV.rank,
      );
  return withHead(engine, ranked, LWS_ENV.address);
}

/**
 * A vLLM DP worker's command, its first rank worked out from its LWS index: `--data-parallel-start-rank`
 * is the index × the ranks a node runs, arithmetic Kubernetes' $(VAR) cannot do, so the pod runs it
 * through sh ($$ is Kubernetes' escape for a literal $). Null for any other command.
 */
function startRankScript(program: readonly string[], args: readonly string[]): string[] | null {
  const at = args.indexOf("--data-parallel-start-rank");
  const local = Number(args[args.indexOf("--data-parallel-size-local") + 1]);
  if (at < 0 || !Number.isInteger(local) || local < 1) return null;
  const words = [...program, ...args.slice(0, at + 1)].map(shellWord);
  const rest = args.slice(at + 2).map(shellWord);
  return [`exec ${[...words, `$$((LWS_WORKER_INDEX * ${local}))`, ...rest].join(" ")}`];
}

interface Roles {
  leader: Obj;
  worker: Obj;
  port: number;
}

function leaderWorkerSet(pod: Pod): Obj[] {
  const { option } = pod.input;
  const layout = layoutOf(option);
  const { volumeMounts, volumes } = mounts(pod);
  const listen = listenOf(option.engine);
  const gpu = { ...resources(pod.request), volumeMounts };
  let roles: Roles;
  switch (layout.kind) {
    case "single":
      throw new DeployError("kubernetes: a one-node option is a Deployment, not a LeaderWorkerSet");
    case "ranks": {
      const image = engineImageOrThrow(pod.input, pod.request);
      const [lead, ...rest] = layout.ranks.map((p) => ({ ...p, args: rankArgs(option.engine, p.args) }));
      const first = rest[0];
      if (!lead || !first) throw new DeployError("kubernetes: a multi-node option needs a command per node");
      // Every worker must run the same command: LWS has one worker template (a DP worker's first rank is its index's).
      const template = (p: Process) => withoutFlag(p.args, "--data-parallel-start-rank").join("\0");
      if (rest.some((p) => template(p) !== template(first)))
        throw new DeployError(
          "kubernetes: the workers' commands differ beyond their rank, which one worker template cannot express",
        );
      const script = startRankScript(image.program, first.args);
      roles = {
        leader: container(`${option.engine}-leader`, image, lead, image.program, [...lead.args, ...listen.args], {
          ports: [{ name: "http", containerPort: listen.port }],
          ...gpu,
          ...probes(listen.port),
        }),
        worker: script
          ? container(`${option.engine}-worker`, image, first, ["sh", "-c"], script, gpu)
          : container(`${option.engine}-worker`, image, first, image.program, first.args, gpu),
        port: listen.port,
      };
      break;
    }
    case "ray": {
      const image = engineImageOrThrow(pod.input, pod.request);
      // vLLM's own script (in its image, as LWS's vLLM example runs it) starts Ray and waits for the group before serving.
      const script = "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh";
      const serve = [...image.program, ...layout.serve.args].map(shellWord).join(" ");
      roles = {
        leader: container(
          "vllm-leader",
          image,
          layout.serve,
          ["sh", "-c"],
          [`${script} leader --ray_cluster_size=${LWS_ENV.size}; exec ${serve}`],
          { ports: [{ name: "http", containerPort: listen.port }], ...gpu, ...probes(listen.port) },
        ),
        worker: container(
          "vllm-worker",
          image,
          layout.head,
          ["sh", "-c"],
          [`${script} worker --ray_address=${LWS_ENV.address}`],
          gpu,
        ),
        port: listen.port,
      };
      break;
    }
    case "rpc": {
      const image = LLAMACPP_RPC_IMAGE;
      const [worker] = layout.workers;
      if (!worker) throw new DeployError("kubernetes: an RPC option needs an rpc-server per worker node");
      // Each worker pod answers at <lws>-<group>-<index>.<lws>.<namespace> (LWS's headless service; its
      // leader address is <lws>-<group>.<lws>.<namespace>, pkg/utils/pod AddLWSVariables).
      const endpoint = (v: string) =>
        v.replace(
          /<node-(\d+)-ip>/g,
          (_, k: string) => `${pod.name}-$(LWS_GROUP_INDEX)-${Number(k) - 1}.${pod.name}.$(LWS_NAMESPACE)`,
        );
      const args = [...withFlag(layout.head.args, "--rpc", endpoint), ...listen.args];
      const fieldEnv = [
        {
          name: "LWS_GROUP_INDEX",
          valueFrom: { fieldRef: { fieldPath: "metadata.labels['leaderworkerset.sigs.k8s.io/group-index']" } },
        },
        { name: "LWS_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
      ];
      const leader = container("llamacpp-leader", image, layout.head, image.program, args, {
        ports: [{ name: "http", containerPort: listen.port }],
        ...gpu,
        ...probes(listen.port),
      });
      leader.env = [...fieldEnv, ...(leader.env as Obj[])];
      roles = {
        leader,
        worker: container(
          "llamacpp-rpc",
          image,
          worker,
          worker.program,
          worker.args,
          { ports: [{ name: "rpc", containerPort: Number(worker.args[worker.args.indexOf("-p") + 1]) }], ...gpu },
          false,
        ),
        port: listen.port,
      };
      break;
    }
  }
  const podSpec = (c: Obj) => ({ ...nodeSelector(pod), containers: [c], ...(volumes.length > 0 ? { volumes } : {}) });
  const lws = object("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", pod.name, pod.name, {
    replicas: 1,
    leaderWorkerTemplate: {
      size: Math.max(1, option.placement.nodes),
      // One process group spans every pod: when one restarts, all must (LWS's examples use the same policy).
      restartPolicy: "RecreateGroupOnPodRestart",
      leaderTemplate: { metadata: { labels: { ...labels(pod.name), role: "leader" } }, spec: podSpec(roles.leader) },
      workerTemplate: { metadata: { labels: labels(pod.name) }, spec: podSpec(roles.worker) },
      // A claim per pod: each node downloads into its own cache.
      volumeClaimTemplates: [{ metadata: { name: "cache" }, spec: cacheClaim(pod) }],
    },
  });
  return [lws, service(pod, roles.port, { "leaderworkerset.sigs.k8s.io/name": pod.name, role: "leader" })];
}
