/**
 * Kubernetes manifests of real plans, parsed back and judged by the LWS CRD's
 * schema and kubernetes-models: resources equal the option's cards, args the
 * plan's command flag for flag, LWS size the nodes, and the token is never inline.
 */
import { describe, expect, test } from "vitest";
import { duplicateNode, updateNode } from "../../src/cluster/model.ts";
import { deploy, DeployError } from "../../src/deploy/index.ts";
import {
  DEFAULT_WORKLOAD,
  plan,
  readModel,
  splitArgv,
  type Cluster,
  type Plan,
  type PlanOption,
} from "../../src/plan/index.ts";
import { snapshotOf } from "../plan/fixture.ts";
import {
  documents,
  inventory,
  lwsErrors,
  optionOf,
  planOf,
  spread,
  validateCore,
  validatePodSpec,
} from "./fixtures.ts";

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed YAML, checked field by field below

const CODER = "Qwen/Qwen2.5-Coder-32B-Instruct";
const REDPAJAMA = "togethercomputer/RedPajama-INCITE-7B-Base";
/** Its config's own longest context (max_position_embeddings 2048): past it vLLM and SGLang refuse to start. */
const REDPAJAMA_CONTEXT = 2048;
const R1_GGUF = "unsloth/DeepSeek-R1-GGUF";

/** Arguments a container adds to the plan's so the server listens beyond localhost (SGLang and llama-server bind 127.0.0.1 by default). */
const LISTEN: Record<string, string[]> = { vllm: [], sglang: ["--host", "0.0.0.0"], llamacpp: ["--host", "0.0.0.0"] };

function manifest(p: Plan, option: PlanOption): Doc[] {
  return documents(deploy("kubernetes", { option, plan: p }).text) as Doc[];
}

function byKind(docs: Doc[], kind: string): Doc {
  const d = docs.find((x) => x.kind === kind);
  if (!d) throw new Error(`no ${kind} in ${docs.map((x) => x.kind).join(", ")}`);
  return d;
}

/** n copies of a one-node inventory on one fabric, as the panel's "duplicate × N" makes them. */
function nodes(cluster: Cluster, n: number, fabric = "ib0"): Cluster {
  let c = duplicateNode(cluster, 0, n - 1);
  c.nodes.forEach((_, i) => (c = updateNode(c, i, { fabric })));
  return c;
}

/** The plan's words for a command entry with the program cut off (the image runs its own, images.ts). */
function planArgs(command: string, programWords: number): string[] {
  return splitArgv(command).slice(programWords);
}

function expectNoInlineToken(text: string, docs: Doc[]): void {
  expect(text).not.toMatch(/hf_[A-Za-z0-9]/);
  const envs = JSON.stringify(docs).match(/"name":"HF_TOKEN"[^}]*}/g) ?? [];
  expect(envs.length).toBeGreaterThan(0);
  for (const e of envs) expect(e).not.toMatch(/"value"/);
  expect(JSON.stringify(docs)).toContain('"secretKeyRef":{"name":"hf-token","key":"token","optional":true}');
}

describe("one node: Deployment, Service and the cache claim", () => {
  test("vLLM on the H100 PCIe read from kubectl: the GFD product as nodeSelector, one nvidia.com/gpu, vLLM's own args", async () => {
    const cluster = inventory("k8s-describe-node-labels-h100-pcie-1.txt");
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => o.engine === "vllm", "vLLM option");
    const text = deploy("kubernetes", { option, plan: p }).text;
    const docs = documents(text) as Doc[];
    expect(docs.map((d) => d.kind)).toEqual(["PersistentVolumeClaim", "Deployment", "Service"]);
    for (const d of docs) validateCore(d);
    const pod = byKind(docs, "Deployment").spec.template.spec;
    const [c] = pod.containers;
    expect(c.resources.limits).toEqual({ "nvidia.com/gpu": String(option.placement.gpusPerNode) });
    expect(pod.nodeSelector).toEqual({ "nvidia.com/gpu.product": "NVIDIA-H100-PCIe" });
    // The container runs exactly the plan's command: program and every flag, in order.
    expect([...c.command, ...c.args]).toEqual(splitArgv(option.commands[0] ?? ""));
    expect(c.image).toBe("vllm/vllm-openai:v0.19.0");
    for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"])
      expect(c[probe].httpGet).toEqual({ path: "/health", port: 8000 });
    expect(pod.volumes).toContainEqual({ name: "dshm", emptyDir: { medium: "Memory", sizeLimit: "16Gi" } });
    expect(c.volumeMounts).toContainEqual({ name: "cache", mountPath: "/root/.cache/huggingface" });
    // 14 shards of 65,527,841,688 bytes (the recording) round up to 62 GiB, and 1 GiB for the rest.
    expect(byKind(docs, "PersistentVolumeClaim").spec.resources.requests.storage).toBe("63Gi");
    expect(byKind(docs, "Service").spec.ports[0]).toMatchObject({ port: 8000, targetPort: 8000 });
    expectNoInlineToken(text, docs);
  });

  test("SGLang: python3 runs the plan's flags, with --host 0.0.0.0 added (it binds 127.0.0.1 otherwise)", async () => {
    const cluster = inventory("k8s-describe-node-labels-h100-pcie-1.txt");
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => o.engine === "sglang", "SGLang option");
    const docs = manifest(p, option);
    for (const d of docs) validateCore(d);
    const [c] = byKind(docs, "Deployment").spec.template.spec.containers;
    expect(c.command).toEqual(["python3", "-m", "sglang.launch_server"]);
    expect(c.args).toEqual([...planArgs(option.commands[0] ?? "", 3), ...LISTEN.sglang!]);
    expect(c.readinessProbe.httpGet).toEqual({ path: "/health", port: 30000 });
  });

  test("a MIG instance under the mixed strategy is asked for as nvidia.com/mig-<profile>: 1", async () => {
    const cluster = inventory("k8s-node-labels-json-h100-mig-mixed-1.txt");
    const p = await planOf(REDPAJAMA, cluster, { contextTokens: REDPAJAMA_CONTEXT });
    const migOptions = p.options.filter((o) => o.placement.gpuClass.includes("-mig-"));
    expect(migOptions.length).toBeGreaterThan(0);
    for (const option of migOptions) {
      const docs = manifest(p, option);
      for (const d of docs) validateCore(d);
      const [c] = byKind(docs, "Deployment").spec.template.spec.containers;
      const profile = option.placement.gpuClass.split("-mig-")[1];
      expect(c.resources.limits).toEqual({ [`nvidia.com/mig-${profile}`]: "1" });
    }
  });

  test("under the single strategy the same instance is nvidia.com/gpu (GFD writes the profile into the product label)", async () => {
    const cluster: Cluster = {
      nodes: [
        {
          id: "a100-mig",
          fabric: "",
          hostMemGib: 512,
          hostFreeGib: 512,
          devices: [
            { class: "a100-40g-mig-3g.20gb", count: 2, free: 2, gpuProduct: "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb" },
          ],
        },
      ],
    };
    const p = await planOf(REDPAJAMA, cluster, { contextTokens: REDPAJAMA_CONTEXT });
    const option = optionOf(p, (o) => o.engine === "vllm", "vLLM option on the MIG instance");
    const pod = byKind(manifest(p, option), "Deployment").spec.template.spec;
    expect(pod.containers[0].resources.limits).toEqual({ "nvidia.com/gpu": "1" });
    expect(pod.nodeSelector).toEqual({ "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb" });
  });

  test("AMD MI300X (rocm-smi): SGLang's ROCm build on amd.com/gpu; vLLM is refused, no ROCm image being pinned", async () => {
    const cluster = inventory("rocm-smi-mi300x-1.txt");
    const p = await planOf(CODER, cluster);
    const sglang = optionOf(p, (o) => o.engine === "sglang", "SGLang option");
    const [c] = byKind(manifest(p, sglang), "Deployment").spec.template.spec.containers;
    expect(c.resources.limits).toEqual({ "amd.com/gpu": String(sglang.placement.gpusPerNode) });
    expect(c.image).toBe("lmsysorg/sglang:v0.5.18-rocm720-mi30x");
    const vllm = optionOf(p, (o) => o.engine === "vllm", "vLLM option");
    expect(() => deploy("kubernetes", { option: vllm, plan: p })).toThrow(
      /kubernetes: vLLM on AMD cards: no pinned vLLM image/,
    );
  });

  test("a cluster not read from kubectl has no nodeSelector: no label is known", async () => {
    const p = await planOf(CODER, inventory("nvidia-smi-h100-sxm-80g-1.txt"));
    const pod = byKind(manifest(p, p.options[0]!), "Deployment").spec.template.spec;
    expect(pod.nodeSelector).toBeUndefined();
  });

  test("a product label that could inject YAML is refused, naming it", async () => {
    const cluster: Cluster = {
      nodes: [
        {
          id: "n",
          fabric: "",
          hostMemGib: 512,
          hostFreeGib: 512,
          devices: [{ class: "h100-80g", count: 1, free: 1, gpuProduct: "NVIDIA-H100\nkind: Secret" }],
        },
      ],
    };
    const p = await planOf(CODER, cluster);
    expect(() => deploy("kubernetes", { option: p.options[0]!, plan: p })).toThrow(DeployError);
    expect(() => deploy("kubernetes", { option: p.options[0]!, plan: p })).toThrow(
      /nvidia.com\/gpu.product label "NVIDIA-H100\\nkind: Secret" holds characters/,
    );
  });
});

describe("several nodes: one LeaderWorkerSet", () => {
  /** The leader's and workers' args against the plan's node 0 and node 1, flag for flag: only the rank flags read LWS's environment. */
  function expectRanks(
    c: Doc,
    command: string,
    programWords: number,
    wired: Record<string, string>,
    listen: string[],
  ): void {
    const plan = planArgs(command, programWords);
    expect(c.args).toHaveLength(plan.length + listen.length);
    plan.forEach((word, i) => {
      const flag = plan[i - 1] ?? "";
      expect(c.args[i]).toBe(flag in wired ? wired[flag] : word);
    });
    expect(c.args.slice(plan.length)).toEqual(listen);
  }

  test("vLLM's own launcher across two L40S nodes: size 2, --nnodes/--node-rank/--master-addr from LWS, valid against the CRD", async () => {
    const cluster = nodes(inventory("nvidia-smi-l40s-1.txt"), 2);
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => o.engine === "vllm" && o.placement.nodes === 2, "two-node vLLM option");
    const text = deploy("kubernetes", { option, plan: p }).text;
    const docs = documents(text) as Doc[];
    const lws = byKind(docs, "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    validateCore(byKind(docs, "Service"));
    const t = lws.spec.leaderWorkerTemplate;
    expect(t.size).toBe(option.placement.nodes);
    for (const role of [t.leaderTemplate, t.workerTemplate]) {
      validatePodSpec(role.spec);
      expect(role.spec.containers[0].resources.limits).toEqual({
        "nvidia.com/gpu": String(option.placement.gpusPerNode),
      });
      expect(role.spec.containers[0].command).toEqual(["vllm", "serve"]);
    }
    const wired = {
      "--nnodes": "$(LWS_GROUP_SIZE)",
      "--node-rank": "$(LWS_WORKER_INDEX)",
      "--master-addr": "$(LWS_LEADER_ADDRESS)",
    };
    expectRanks(t.leaderTemplate.spec.containers[0], option.commands[0]!, 2, wired, []);
    expectRanks(t.workerTemplate.spec.containers[0], option.commands[1]!, 2, wired, []);
    expect(t.workerTemplate.spec.containers[0].args).toContain("--headless");
    expect(t.leaderTemplate.spec.containers[0].args).not.toContain("--headless");
    expect(byKind(docs, "Service").spec.selector).toEqual({
      "leaderworkerset.sigs.k8s.io/name": lws.metadata.name,
      role: "leader",
    });
    expect(t.leaderTemplate.metadata.labels.role).toBe("leader");
    expectNoInlineToken(text, docs);
  });

  test("SGLang across two nodes: --dist-init-addr $(LWS_LEADER_ADDRESS):25000, as LWS's own SGLang example writes it", async () => {
    const cluster = nodes(inventory("nvidia-smi-l40s-1.txt"), 2);
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => o.engine === "sglang" && o.placement.nodes === 2, "two-node SGLang option");
    const lws = byKind(manifest(p, option), "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    const t = lws.spec.leaderWorkerTemplate;
    const wired = {
      "--nnodes": "$(LWS_GROUP_SIZE)",
      "--node-rank": "$(LWS_WORKER_INDEX)",
      "--dist-init-addr": "$(LWS_LEADER_ADDRESS):25000",
    };
    expectRanks(t.leaderTemplate.spec.containers[0], option.commands[0]!, 3, wired, LISTEN.sglang!);
    expectRanks(t.workerTemplate.spec.containers[0], option.commands[1]!, 3, wired, []);
  });

  test("vLLM's DP 16 × TP 1 engine over two 8 × H100 nodes: the head's address from LWS, each worker's first rank its index × 8", () => {
    // DeepSeek-R1's recorded file list (163 shards): two nodes' experts spread over 16 ranks (test/plan/spanDp.test.ts).
    const s = snapshotOf("deepseek-ai__DeepSeek-R1");
    const { shape, artifacts } = readModel(s);
    const node = (id: string) => ({
      id,
      fabric: "ib0",
      hostMemGib: 2048,
      hostFreeGib: 2048,
      devices: [{ class: "h100-80g", count: 8, free: 8 }],
    });
    const p = plan(
      { repo: s.repo, revision: s.sha, shape, artifacts },
      { nodes: [node("a"), node("b")] },
      DEFAULT_WORKLOAD,
    );
    const option = optionOf(
      p,
      (o) => o.placement.dataParallel === 16 && o.placement.nodes === 2,
      "DP 16 over two nodes",
    );
    const lws = byKind(manifest(p, option), "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    const t = lws.spec.leaderWorkerTemplate;
    expect(t.size).toBe(2);
    const leader = t.leaderTemplate.spec.containers[0];
    const worker = t.workerTemplate.spec.containers[0];
    // Every pod asks for the node's eight cards: 16 in all, what DP 16 × TP 1 starts.
    for (const c of [leader, worker]) expect(c.resources.limits).toEqual({ "nvidia.com/gpu": "8" });
    expectRanks(leader, option.commands[0]!, 2, { "--data-parallel-address": "$(LWS_LEADER_ADDRESS)" }, []);
    // The worker's first DP rank is arithmetic on its LWS index ($$ is Kubernetes' escape for a literal $).
    expect(worker.command).toEqual(["sh", "-c"]);
    const script = String(worker.args[0]);
    expect(script).toMatch(/^exec vllm serve /);
    const words = splitArgv(script.replace("exec ", "").replace("$$((LWS_WORKER_INDEX * 8))", "RANK"));
    const planned = splitArgv(option.commands[1]!);
    expect(words).toEqual(
      planned.map((w, i) =>
        planned[i - 1] === "--data-parallel-start-rank"
          ? "RANK"
          : planned[i - 1] === "--data-parallel-address"
            ? "$(LWS_LEADER_ADDRESS)"
            : w,
      ),
    );
    expect(words).toContain("--headless");
  });

  test("vLLM over Ray: vLLM's multi-node-serving.sh starts Ray as LWS's vLLM example does, then the plan's serve command", async () => {
    const cluster = nodes(inventory("nvidia-smi-l40s-1.txt"), 2);
    const p = await planOf(CODER, cluster);
    const native = optionOf(p, (o) => o.engine === "vllm" && o.placement.nodes === 2, "two-node vLLM option");
    const option = spread(p, native, native.placement.nodeIds ?? [], "ray");
    const lws = byKind(manifest(p, option), "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    const t = lws.spec.leaderWorkerTemplate;
    const leader = t.leaderTemplate.spec.containers[0];
    expect(leader.command).toEqual(["sh", "-c"]);
    const [start, serve] = String(leader.args[0]).split("; exec ");
    expect(start).toBe(
      "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=$(LWS_GROUP_SIZE)",
    );
    expect(splitArgv(serve ?? "")).toEqual(splitArgv(option.commands[option.commands.length - 1] ?? ""));
    expect(t.workerTemplate.spec.containers[0].args).toEqual([
      "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh worker --ray_address=$(LWS_LEADER_ADDRESS)",
    ]);
  });

  test("llama.cpp RPC over three nodes: rpc-server workers, llama-server's --rpc naming each worker pod", async () => {
    const cluster = nodes(inventory("nvidia-smi-h100-sxm-80g-1.txt"), 3);
    const p = await planOf(R1_GGUF, cluster);
    const one = optionOf(
      p,
      (o) => o.engine === "llamacpp" && !o.placement.cpu && o.placement.nodes === 1,
      "llama.cpp GPU option",
    );
    const option = spread(
      p,
      one,
      cluster.nodes.map((n) => n.id),
    );
    const text = deploy("kubernetes", { option, plan: p }).text;
    const lws = byKind(documents(text) as Doc[], "LeaderWorkerSet");
    expect(lwsErrors(lws)).toEqual([]);
    const t = lws.spec.leaderWorkerTemplate;
    expect(t.size).toBe(3);
    const worker = t.workerTemplate.spec.containers[0];
    expect([...worker.command, ...worker.args]).toEqual(splitArgv(option.commands[0] ?? ""));
    const leader = t.leaderTemplate.spec.containers[0];
    const head = splitArgv(option.commands[option.commands.length - 1] ?? "");
    const name = lws.metadata.name as string;
    const rpc = [1, 2].map((i) => `${name}-$(LWS_GROUP_INDEX)-${i}.${name}.$(LWS_NAMESPACE):50052`).join(",");
    expect([...leader.command, ...leader.args]).toEqual([
      ...head.map((w, i) => (head[i - 1] === "--rpc" ? rpc : w)),
      ...LISTEN.llamacpp!,
    ]);
    expect(leader.env).toContainEqual({
      name: "LWS_GROUP_INDEX",
      valueFrom: { fieldRef: { fieldPath: "metadata.labels['leaderworkerset.sigs.k8s.io/group-index']" } },
    });
    // No official image carries rpc-server (GGML_RPC is off in llama.cpp's Dockerfiles): the manifest says to build one.
    expect(text).toMatch(/# image <your-registry>\/llama\.cpp-rpc:b8234: build llama\.cpp b8234 with -DGGML_RPC=ON/);
  });

  test("the CRD schema catches what the generator could get wrong: a size that is not an integer, an unknown restart policy", () => {
    const bad = {
      apiVersion: "leaderworkerset.x-k8s.io/v1",
      kind: "LeaderWorkerSet",
      metadata: { name: "x" },
      spec: {
        leaderWorkerTemplate: { size: "2", restartPolicy: "Always", workerTemplate: { spec: { containers: [] } } },
      },
    };
    const bad2 = {
      ...bad,
      spec: {
        leaderWorkerTemplate: {
          ...bad.spec.leaderWorkerTemplate,
          workerTemplate: { spec: { containers: [{ image: "x" }] } },
        },
      },
    };
    expect(lwsErrors(bad)).toEqual(
      expect.arrayContaining([
        "/spec/leaderWorkerTemplate/size: must be integer",
        "/spec/leaderWorkerTemplate/restartPolicy: must be equal to one of the allowed values",
      ]),
    );
    expect(lwsErrors(bad2)).toContain(
      "/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0: must have required property 'name'",
    );
  });
});
