/**
 * Plans to deploy, made as the app makes them: a recorded Hub answer read
 * through readRepo and readModel, a cluster imported from a real inventory
 * sample (test/fixtures/inventory), and the barrel's plan(). And the two
 * independent judges of what is written: the LWS CRD's own openAPIV3Schema
 * (kubernetes-sigs/lws) and kubernetes-models' schemas for core objects.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { parseAllDocuments, parse } from "yaml";
import { PersistentVolumeClaim, PodSpec, Service } from "kubernetes-models/v1";
import { Deployment as AppsDeployment } from "kubernetes-models/apps/v1";
import { importCluster } from "../../src/cluster/import.ts";
import { readRepo } from "../../src/hub/read.ts";
import {
  DEFAULT_WORKLOAD,
  commandsFor,
  plan,
  readModel,
  type Cluster,
  type Plan,
  type PlanOption,
  type Workload,
} from "../../src/plan/index.ts";
import { fakeHub, loadRecording } from "../hub/fakeHub.ts";
import { sample } from "../cluster/inventory.ts";

/** A cluster from an inventory sample, as `npm run cluster` or the page's import reads it. */
export function inventory(name: string, edit: (text: string) => string = (t) => t): Cluster {
  const r = importCluster(edit(sample(name)), name);
  if (!r.cluster) throw new Error(`${name}: ${r.summary}`);
  return r.cluster;
}

/** The plan of a recorded repository on a cluster. */
export async function planOf(repo: string, cluster: Cluster, workload: Partial<Workload> = {}): Promise<Plan> {
  const hub = fakeHub({ recordings: [loadRecording(repo)] });
  const snapshot = await readRepo(repo, null, { hubUrl: "https://hub.test", fetch: hub.fetch });
  const { shape, artifacts } = readModel(snapshot);
  return plan({ repo: snapshot.repo, revision: snapshot.sha, shape, artifacts }, cluster, {
    ...DEFAULT_WORKLOAD,
    contextTokens: 8192,
    ...workload,
  });
}

/** The plan's first option that matches, or a failure naming what was looked for. */
export function optionOf(p: Plan, match: (o: PlanOption) => boolean, what: string): PlanOption {
  const o = p.options.find(match);
  if (!o) throw new Error(`no ${what} among ${p.options.map((x) => x.id).join(", ")}`);
  return o;
}

/**
 * The same option across `nodes` nodes, its commands written by the engine's
 * own commandsFor: how a llama.cpp RPC or a vLLM-over-Ray option (which the
 * planner does not enumerate itself) is deployed.
 */
export function spread(p: Plan, option: PlanOption, nodeIds: string[], vllmLauncher?: "native" | "ray"): PlanOption {
  const placement = { ...option.placement, nodes: nodeIds.length, nodeIds };
  const artifact = p.artifacts.find((a) => a.name === option.artifact);
  if (!artifact) throw new Error(`no artifact ${option.artifact}`);
  const spreadOption = { ...option, placement };
  const commands = commandsFor(spreadOption, {
    repo: p.repo,
    revision: p.revision,
    artifact,
    shape: p.shape,
    workload: p.workload,
    nodeIds,
    ...(vllmLauncher ? { vllmLauncher } : {}),
  });
  return { ...spreadOption, commands };
}

/** Every YAML document of a manifest, parsed back. */
export function documents(text: string): Record<string, unknown>[] {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join("; "));
    return d.toJS() as Record<string, unknown>;
  });
}

export function yamlOf(text: string): Record<string, unknown> {
  return parse(text) as Record<string, unknown>;
}

const crd = parse(
  readFileSync(new URL("../fixtures/deploy/leaderworkerset.x-k8s.io_leaderworkersets.yaml", import.meta.url), "utf8"),
) as {
  spec: { versions: { name: string; schema: { openAPIV3Schema: object } }[] };
};
const v1Schema = crd.spec.versions.find((v) => v.name === "v1")?.schema.openAPIV3Schema;
if (!v1Schema) throw new Error("the LWS CRD has no v1 schema");
// The CRD speaks Kubernetes' structural-schema dialect (x-kubernetes-* keywords, int32 formats): not strict JSON Schema.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validateLwsSchema = ajv.compile(v1Schema);

/** Errors of a LeaderWorkerSet against the CRD's schema, as "path: message"; empty when it is valid. */
export function lwsErrors(doc: unknown): string[] {
  if (validateLwsSchema(doc)) return [];
  return (validateLwsSchema.errors ?? []).map((e) => `${e.instancePath}: ${e.message ?? ""}`);
}

/** Validates a core object with kubernetes-models (its JSON schemas, Kubernetes 1.27); throws naming the field. */
export function validateCore(doc: Record<string, unknown>): void {
  switch (`${String(doc.apiVersion)}/${String(doc.kind)}`) {
    case "apps/v1/Deployment":
      new AppsDeployment(doc as never).validate();
      return;
    case "v1/Service":
      new Service(doc as never).validate();
      return;
    case "v1/PersistentVolumeClaim":
      new PersistentVolumeClaim(doc as never).validate();
      return;
    default:
      throw new Error(`no core model for ${String(doc.apiVersion)}/${String(doc.kind)}`);
  }
}

/** A pod spec (an LWS template's) validated as Kubernetes' own PodSpec. */
export function validatePodSpec(spec: unknown): void {
  new PodSpec(spec as never).validate();
}
