/**
 * Names that reach a manifest or a script. Names Modelplan derives (the
 * object names) are cut to what Kubernetes accepts; names taken from the
 * inventory (node ids, GFD labels, GRES types, card names) are checked and
 * refused, never rewritten: a renamed node would be scheduled nowhere, and a
 * name that carries a quote, a newline or `$(…)` must not reach YAML or a shell.
 */
import { DeployError } from "./types.ts";

/** A DNS-1123 label (Kubernetes object names, at most 63): "Qwen/Qwen2.5-Coder-32B" → "qwen2-5-coder-32b". */
export function objectName(repo: string): string {
  const base = repo.split("/").pop() ?? repo;
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
  // Leave room for the suffixes LWS adds to pod names (-<group>-<index>) and ours (-cache).
  return name.slice(0, 40).replace(/-+$/, "") || "model";
}

/**
 * What each inventory name may hold, by what it is. Host names (RFC 1123, and
 * Slurm's NodeName), label values (Kubernetes: 63 of [A-Za-z0-9._-]), card
 * indices, MIG UUIDs (new "MIG-<uuid>" and old "MIG-GPU-<uuid>/<gi>/<ci>").
 */
const SAFE: Record<"node" | "label" | "card" | "gres", RegExp> = {
  node: /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/,
  label: /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/,
  card: /^(\d{1,4}|MIG-[A-Za-z0-9-]{1,64}(\/\d{1,3}\/\d{1,3})?|GPU-[A-Za-z0-9-]{1,64})$/,
  gres: /^[A-Za-z0-9._-]{0,64}$/,
};

const WHAT: Record<keyof typeof SAFE, string> = {
  node: "node id",
  label: "nvidia.com/gpu.product label",
  card: "card name",
  gres: "GRES type",
};

/** The name as it is, or a DeployError saying which name and why. */
export function inventoryName(kind: keyof typeof SAFE, name: string): string {
  if (SAFE[kind].test(name)) return name;
  throw new DeployError(
    `${WHAT[kind]} ${JSON.stringify(name)} holds characters a manifest or script cannot carry safely: rename it in the cluster (letters, digits, '.', '_' and '-')`,
  );
}
