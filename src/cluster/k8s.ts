/**
 * Kubernetes nodes, as pasted: `kubectl get nodes -o json|yaml` (a List or
 * one Node), `kubectl describe node` (whole or grepped), a jq map of the
 * labels, key=value label lines, and `kubectl get nodes --show-labels`.
 *
 * The GPU Feature Discovery labels say what the cards are:
 * nvidia.com/gpu.product, gpu.memory (MiB), gpu.count, and under the mixed
 * MIG strategy mig-<profile>.count / .memory. The node's resources say how
 * many are schedulable: capacity, allocatable, and describe's "Allocated
 * resources" (requests), whose difference is what is free. Two traps, both
 * in the samples: time-slicing multiplies nvidia.com/gpu by its replicas
 * (an A10G advertised twice is one card of memory), and mixed MIG sets
 * nvidia.com/gpu to 0, the cards being listed as nvidia.com/mig-<profile>.
 */
import { draftNode, finishNode, pushDevices, type DraftNode } from "./draft.ts";
import { identifyCard, identifyMig, parentFromProfiles, parseMigProfile } from "./identify.ts";
import { note, type ImportMessage } from "./messages.ts";
import type { Reader, Reading } from "./reader.ts";

interface NodeRecord {
  name?: string;
  line: number;
  labels: Map<string, string>;
  capacity: Map<string, string>;
  allocatable: Map<string, string>;
  requests: Map<string, string>;
}

function record(line: number, name?: string): NodeRecord {
  const r: NodeRecord = { line, labels: new Map(), capacity: new Map(), allocatable: new Map(), requests: new Map() };
  if (name !== undefined) r.name = name;
  return r;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const LABEL_HINT =
  /^[^\S\n]*"?(nvidia\.com\/|feature\.node\.kubernetes\.io\/|akash\.network\/capabilities\.gpu|node\.kubernetes\.io\/instance-type)/m;

export function detectK8s(text: string, structured: unknown): boolean {
  if (isRecord(structured)) {
    if (structured.kind === "List" || structured.kind === "NodeList" || structured.kind === "Node") return true;
    if (Object.keys(structured).some((k) => k.includes("/"))) return true;
  }
  return (
    LABEL_HINT.test(text) ||
    /^[^\S\n]*(Capacity|Allocatable):\s*$/m.test(text) ||
    /kubectl\s+(get|describe)\s+nodes?/.test(text)
  );
}

// ---------------------------------------------------------------------------
// Structured input: a List, a Node, or a bare label map.
// ---------------------------------------------------------------------------

function stringMap(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (isRecord(v))
    for (const [k, val] of Object.entries(v))
      if (typeof val === "string" || typeof val === "number") out.set(k, String(val));
  return out;
}

function recordsFromStructured(value: unknown): NodeRecord[] {
  if (!isRecord(value)) return [];
  const items = Array.isArray(value.items)
    ? value.items
    : value.kind === "Node" || isRecord(value.metadata)
      ? [value]
      : null;
  if (items === null) {
    const r = record(1);
    r.labels = stringMap(value);
    return [r];
  }
  return items.filter(isRecord).map((item) => {
    const meta = isRecord(item.metadata) ? item.metadata : {};
    const status = isRecord(item.status) ? item.status : {};
    const r = record(1, typeof meta.name === "string" ? meta.name : undefined);
    r.labels = stringMap(meta.labels);
    r.capacity = stringMap(status.capacity);
    r.allocatable = stringMap(status.allocatable);
    return r;
  });
}

// ---------------------------------------------------------------------------
// Text: describe output, grepped fragments, label lines, --show-labels.
// ---------------------------------------------------------------------------

const SECTION =
  /^\s*(Labels|Annotations|Capacity|Allocatable|Allocated resources|System Info|Conditions|Addresses|Taints|Events|Non-terminated Pods|Lease|PodCIDRs?|ProviderID|CreationTimestamp|Unschedulable)\s*:/;
const RESOURCE_KEY =
  /^(cpu|memory|pods|ephemeral-storage|hugepages-\w+|nvidia\.com\/(gpu(\.shared)?|mig-\d+g\.\d+gb(\.shared)?)|amd\.com\/gpu)$/;

function stripComment(s: string): string {
  return s.replace(/\s+#.*$/, "").trim();
}

function recordsFromText(text: string): NodeRecord[] {
  const records: NodeRecord[] = [];
  let current: NodeRecord | undefined;
  let section = "";
  let showLabelsHeader = false;
  /** Grepped describe output loses its section headers: the first `key: n` is capacity, the second allocatable. */
  const seenResource = new Map<string, number>();
  const node = (line: number): NodeRecord => {
    if (!current) {
      current = record(line);
      records.push(current);
    }
    return current;
  };
  text.split("\n").forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.trimEnd();
    const describeTarget = /kubectl\s+describe\s+nodes?\s+([\w.-]+)/.exec(line);
    if (describeTarget?.[1] && !current) {
      current = record(lineNo, describeTarget[1]);
      records.push(current);
    }
    if (/^NAME\s+STATUS\s+ROLES/.test(line.trim())) return void (showLabelsHeader = true);
    if (showLabelsHeader) {
      const cols = line.trim().split(/\s+/);
      if (cols.length >= 6 && cols[cols.length - 1]!.includes("=")) {
        current = record(lineNo, cols[0]);
        records.push(current);
        for (const pair of cols[cols.length - 1]!.split(",")) {
          const [k, ...v] = pair.split("=");
          if (k) current.labels.set(k, v.join("="));
        }
        return;
      }
    }
    const name = /^\s*Name:\s+(\S+)\s*$/.exec(line);
    if (name?.[1]) {
      current = record(lineNo, name[1]);
      records.push(current);
      seenResource.clear();
      section = "";
      return;
    }
    const sec = SECTION.exec(line);
    if (sec) {
      section = sec[1]!;
      const rest = line.slice(line.indexOf(":") + 1).trim();
      if (section === "Labels" && rest.includes("=")) readLabel(node(lineNo), rest);
      return;
    }
    const body = stripComment(line);
    if (body === "" || body === "..." || /^[{}[\],]$/.test(body)) return;
    const json = /^"([^"]+)"\s*:\s*"([^"]*)",?$/.exec(body);
    if (json) return void node(lineNo).labels.set(json[1]!, json[2]!);
    const colon = /^"?([\w./-]+)"?\s*:\s+"?([^"]*?)"?$/.exec(body);
    if (colon) {
      const [, key, value] = colon as unknown as [string, string, string];
      if (RESOURCE_KEY.test(key) && /^\d/.test(value)) {
        const n = node(lineNo);
        const target =
          section === "Capacity"
            ? n.capacity
            : section === "Allocatable"
              ? n.allocatable
              : (seenResource.get(key) ?? 0) === 0
                ? n.capacity
                : n.allocatable;
        target.set(key, value);
        seenResource.set(key, (seenResource.get(key) ?? 0) + 1);
        return;
      }
      if (key.includes("/") || key.includes(".")) node(lineNo).labels.set(key, value);
      return;
    }
    if (body.includes("=") && /^[\w./-]+=/.test(body)) return void readLabel(node(lineNo), body);
    const allocated = /^([\w./-]+)\s+(\d+[\w.]*)(?:\s+\(\d+%\))?\s+(\d+[\w.]*)/.exec(body);
    if (allocated && RESOURCE_KEY.test(allocated[1]!) && (section === "Allocated resources" || section === "")) {
      node(lineNo).requests.set(allocated[1]!, allocated[2]!);
    }
  });
  return records;
}

function readLabel(r: NodeRecord, text: string): void {
  const [k, ...v] = stripComment(text).split("=");
  if (k) r.labels.set(k.trim(), v.join("=").trim());
}

// ---------------------------------------------------------------------------
// From a node's labels and resources to its cards.
// ---------------------------------------------------------------------------

/** Kubernetes quantities: "2097096404Ki", "240G", "192Gi", plain bytes. */
export function quantityGib(q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|K|M|G|T)?$/.exec(q.trim());
  if (!m) return undefined;
  const scale: Record<string, number> = {
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    k: 1e3,
    K: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return (Number(m[1]) * (m[2] ? (scale[m[2]] ?? 1) : 1)) / 2 ** 30;
}

function int(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d+$/.test(v.trim())) return undefined;
  return Number(v);
}

/** How many of a resource are schedulable, and how many of those are free: allocatable less requests. */
function schedulable(r: NodeRecord, resource: string): { count: number; free: number } | undefined {
  const total = int(r.allocatable.get(resource)) ?? int(r.capacity.get(resource));
  if (total === undefined) return undefined;
  const used = int(r.requests.get(resource)) ?? 0;
  return { count: total, free: Math.max(0, total - used) };
}

/** A fabric from the labels that show one: RDMA NICs (Mellanox, pci-15b3) or AWS EFA (pci-1d0f). */
function fabricOf(labels: Map<string, string>): string {
  if (labels.get("feature.node.kubernetes.io/pci-1d0f.present") === "true") return "efa";
  if (
    labels.get("feature.node.kubernetes.io/rdma.available") === "true" ||
    labels.get("feature.node.kubernetes.io/pci-15b3.present") === "true"
  )
    return "rdma";
  return "";
}

/**
 * AWS instance types and the card each carries, for EKS nodes whose labels
 * name no product (AWS EC2 "Accelerated computing" instance type table).
 */
const INSTANCE_TYPES: [RegExp, string][] = [
  [/^p4d\.24xlarge$/, "a100-40g"],
  [/^p4de\.24xlarge$/, "a100-80g"],
  [/^p5\.48xlarge$/, "h100-80g"],
  [/^p5e\.48xlarge$|^p5en\.48xlarge$/, "h200-141g"],
  [/^g5\./, "a10g-24g"],
  [/^g6\./, "l4-24g"],
  [/^g6e\./, "l40s-48g"],
  [/^g4dn\./, "t4-16g"],
  [/^p3dn\./, "v100-32g"],
  [/^p3\./, "v100-16g"],
];

function interpret(r: NodeRecord, index: number, warnings: ImportMessage[], problems: ImportMessage[]): DraftNode {
  const id = r.name ?? r.labels.get("kubernetes.io/hostname") ?? `node-${index + 1}`;
  const node = draftNode(id);
  const say = (message: string) => warnings.push(note(message, { node: id, line: r.line }));
  const fail = (message: string) => problems.push(note(message, { node: id, line: r.line }));
  if (!r.name && !r.labels.has("kubernetes.io/hostname"))
    say(`the paste does not name the node: it is called "${id}"; rename it`);
  const L = r.labels;

  const memGib = quantityGib(r.capacity.get("memory"));
  if (memGib !== undefined) {
    node.hostMemGib = Math.round(memGib * 100) / 100;
    const allocatableGib = quantityGib(r.allocatable.get("memory")) ?? memGib;
    const requestedGib = quantityGib(r.requests.get("memory")) ?? 0;
    node.hostFreeGib = Math.max(0, Math.round((allocatableGib - requestedGib) * 100) / 100);
  }
  node.fabric = fabricOf(L);
  if (node.fabric)
    say(
      `fabric "${node.fabric}" read from the node's NIC labels; nodes on one fabric must reach each other, so check it`,
    );

  let product = L.get("nvidia.com/gpu.product");
  const reportedMib = int(L.get("nvidia.com/gpu.memory"));
  let singleMigProfile: string | undefined;
  if (product) {
    if (/-SHARED$/i.test(product)) product = product.replace(/-SHARED$/i, "");
    const single = /-MIG-(\d+g\.\d+gb)$/i.exec(product);
    if (single) {
      singleMigProfile = single[1];
      product = product.slice(0, single.index);
    }
    if (/-MIG-INVALID$/i.test(product)) {
      fail(
        `nvidia.com/gpu.product is "${product}": GFD could not read the MIG layout; fix the node's MIG config, then paste again`,
      );
      return node;
    }
  }
  const replicas = Math.max(1, int(L.get("nvidia.com/gpu.replicas")) ?? 1);
  const physical = int(L.get("nvidia.com/gpu.count"));

  // Mixed MIG: one group per mig-<profile>, its memory from the label.
  const migProfiles = new Set<string>();
  for (const key of [...L.keys(), ...r.capacity.keys(), ...r.allocatable.keys()]) {
    const m = /^nvidia\.com\/mig-(\d+g\.\d+gb)(\.count|\.memory|\.shared)?$/.exec(key);
    if (m?.[1]) migProfiles.add(m[1]);
  }
  let parent = product ? identifyCard(product, singleMigProfile ? undefined : reportedMib) : null;
  if (product && !parent)
    fail(
      `nvidia.com/gpu.product "${product}" is not a card Modelplan knows, and no memory label says its size: add it by hand`,
    );
  if (!product && migProfiles.size > 0) {
    const guess = parentFromProfiles(
      [...migProfiles].map((name) => {
        const mib = int(L.get(`nvidia.com/mig-${name}.memory`));
        return { name, memoryBytes: mib !== undefined ? mib * 2 ** 20 : undefined };
      }),
    );
    if (guess) {
      parent = { card: guess.card, class: guess.card.class };
      say(
        `no nvidia.com/gpu.product label: the MIG profiles say ${guess.card.class}${guess.others.length > 0 ? ` (also possible: ${guess.others.join(", ")}; the smallest is kept)` : ""}`,
      );
    }
  }
  const instanceType = L.get("node.kubernetes.io/instance-type") ?? L.get("beta.kubernetes.io/instance-type");
  if (!product && !parent && instanceType) {
    const known = INSTANCE_TYPES.find(([pattern]) => pattern.test(instanceType));
    if (known) {
      parent = { card: undefined, class: known[1] };
      product = known[1];
      say(`no GPU product label: ${instanceType} carries ${known[1]} (AWS's instance type table)`);
    }
  }

  if (parent && !parent.card && !singleMigProfile && product === parent.class) {
    const gpus = schedulable(r, "nvidia.com/gpu");
    if (gpus && gpus.count > 0) push(node, parent.class, gpus.count, gpus.free);
    return node;
  }
  if (parent && migProfiles.size > 0) addMixedMig(node, r, parent.class, [...migProfiles], say);

  if (parent && singleMigProfile) {
    const count = schedulable(r, "nvidia.com/gpu") ?? { count: physical ?? 0, free: physical ?? 0 };
    const mig = identifyMig(
      parent.class,
      singleMigProfile,
      reportedMib !== undefined ? reportedMib * 2 ** 20 : undefined,
    );
    if (mig) {
      if (mig.warning) say(mig.warning);
      push(node, mig.class, count.count, count.free, mig.memGib);
    }
  } else if (parent) {
    const gpus = schedulable(r, "nvidia.com/gpu");
    const shared = schedulable(r, "nvidia.com/gpu.shared");
    let count = gpus?.count ?? (migProfiles.size > 0 ? 0 : (physical ?? 0));
    let free = gpus?.free ?? count;
    if (replicas > 1 && count > 0) {
      say(
        `time-slicing: each card is advertised ${replicas} times; ${count} slots counted as ${Math.ceil(count / replicas)} card(s) of memory`,
      );
      count = Math.ceil(count / replicas);
      free = Math.floor(free / replicas);
    }
    if (count === 0 && shared && migProfiles.size === 0) {
      say(
        `nvidia.com/gpu.shared: ${shared.count} time-sliced slots; counted as the ${physical ?? "?"} physical card(s) of gpu.count`,
      );
      count = physical ?? 0;
      free = count;
    }
    if (count > 0) push(node, parent.class, count, Math.min(free, count), parent.memGib);
  }

  if (!product && !parent) addVendorLabels(node, L, r, say, fail);
  // The label as GFD wrote it (MIG and -SHARED suffixes kept): a nodeSelector must repeat it exactly.
  const productLabel = L.get("nvidia.com/gpu.product");
  if (productLabel) for (const d of node.devices) d.gpuProduct = productLabel;
  const damaged = pushProblems.get(node);
  if (damaged) fail(damaged);
  if (node.devices.length === 0) {
    const shared = schedulable(r, "nvidia.com/gpu.shared");
    if (shared)
      fail(
        `${shared.count} shared GPU slots (MIG and time-slicing) and no GPU labels: which cards they are cannot be told; paste the node's labels (kubectl get node -o json)`,
      );
    else if (schedulable(r, "nvidia.com/gpu")?.count)
      fail(
        "nvidia.com/gpu is counted but no label says which card: paste the node's labels (nvidia.com/gpu.product, gpu.memory) too",
      );
  }
  return node;
}

/** Problems found while adding devices, by node: a damaged count makes the node unreadable. */
const pushProblems = new WeakMap<DraftNode, string>();

function push(node: DraftNode, cls: string, count: number, free: number, memGib?: number): void {
  const problem = pushDevices(node, cls, count, free, memGib);
  if (problem) pushProblems.set(node, problem);
}

/**
 * Mixed strategy: the label's profile name and the resource's can disagree
 * (GFD once labelled A100 3g.20gb "mig-3g.21gb"), so they are paired by
 * slices, and matched to the catalog by slices and the label's memory.
 */
function addMixedMig(
  node: DraftNode,
  r: NodeRecord,
  parentClass: string,
  profiles: string[],
  say: (m: string) => void,
): void {
  const bySlices = new Map<number, { label?: string; resource?: string }>();
  for (const p of profiles) {
    const parsed = parseMigProfile(p);
    if (!parsed) continue;
    const entry = bySlices.get(parsed.slices) ?? {};
    if (r.labels.has(`nvidia.com/mig-${p}.count`) || r.labels.has(`nvidia.com/mig-${p}.memory`)) entry.label = p;
    if (r.capacity.has(`nvidia.com/mig-${p}`) || r.allocatable.has(`nvidia.com/mig-${p}`)) entry.resource = p;
    bySlices.set(parsed.slices, entry);
  }
  for (const { label, resource } of bySlices.values()) {
    const name = resource ?? label;
    if (!name) continue;
    if (label && resource && label !== resource)
      say(
        `MIG label mig-${label} and resource mig-${resource} differ in name (a GFD bug): matched by slices and memory`,
      );
    const memMib = label ? int(r.labels.get(`nvidia.com/mig-${label}.memory`)) : undefined;
    const res = resource ? schedulable(r, `nvidia.com/mig-${resource}`) : undefined;
    const labelCount = label ? int(r.labels.get(`nvidia.com/mig-${label}.count`)) : undefined;
    const count = res?.count ?? labelCount ?? 0;
    const free = res?.free ?? count;
    const mig = identifyMig(parentClass, name, memMib !== undefined ? memMib * 2 ** 20 : undefined);
    if (!mig || count === 0) continue;
    if (mig.warning) say(mig.warning);
    push(node, mig.class, count, free, mig.memGib);
  }
}

/** Providers that label cards their own way, e.g. Akash: …gpu.vendor.nvidia.model.h100.interface.PCIe=8, ….ram.80Gi=8. */
function addVendorLabels(
  node: DraftNode,
  L: Map<string, string>,
  r: NodeRecord,
  say: (m: string) => void,
  fail: (m: string) => void,
): void {
  const models = new Map<string, { count: number; iface?: string; ramGi?: number }>();
  for (const [k, v] of L) {
    const m = /gpu\.vendor\.(nvidia|amd)\.model\.([\w-]+)(?:\.(interface|ram)\.([\w.]+))?$/.exec(k);
    if (!m?.[2]) continue;
    const entry = models.get(m[2]) ?? { count: 0 };
    if (!m[3]) entry.count = int(v) ?? 0;
    else if (m[3] === "interface" && m[4]) entry.iface = m[4];
    else entry.ramGi = Number(/^(\d+)/.exec(m[4] ?? "")?.[1]);
    models.set(m[2], entry);
  }
  for (const [model, e] of models) {
    const id = identifyCard(
      `${model} ${e.iface === "PCIe" && /h100/.test(model) ? "pcie" : ""} ${e.ramGi ? `${e.ramGi}gb` : ""}`,
    );
    if (!id?.card) {
      fail(`GPU model "${model}" from the provider's labels is not in the catalog: add it by hand`);
      continue;
    }
    const gpus = schedulable(r, "nvidia.com/gpu");
    push(node, id.class, e.count, Math.min(gpus?.free ?? e.count, e.count));
  }
  if (models.size > 0)
    say(
      "cards read from the provider's own labels, which give the marketed size; the catalog's reported memory is used",
    );
}

export function readK8s(text: string, structured: unknown): Reading {
  const k8sShaped =
    isRecord(structured) &&
    (structured.kind !== undefined ||
      Array.isArray(structured.items) ||
      isRecord(structured.metadata) ||
      Object.keys(structured).some((k) => k.includes("/")));
  const fromStructure = k8sShaped ? recordsFromStructured(structured) : [];
  const records = fromStructure.length > 0 ? fromStructure : recordsFromText(text);
  const warnings: ImportMessage[] = [];
  const problems: ImportMessage[] = [];
  const drafts = records.map((r, i) => interpret(r, i, warnings, problems));
  // A node whose cards could not be told is left out, not imported as CPU-only: that would plan on it wrongly.
  const unread = new Set(problems.map((p) => p.node));
  const nodes = drafts.filter((d) => !unread.has(d.id) && (d.devices.length > 0 || d.hostMemGib > 0)).map(finishNode);
  warnings.push(...problems);
  const format =
    fromStructure.length > 0
      ? isRecord(structured) && (structured.kind || structured.items)
        ? "kubectl get nodes"
        : "kubernetes labels"
      : /^[^\S\n]*(Capacity|Allocatable):/m.test(text) || /describe/.test(text)
        ? "kubectl describe node"
        : "kubernetes labels";
  if (nodes.length === 0) {
    return {
      nodes: [],
      warnings: [],
      errors:
        problems.length > 0
          ? problems
          : [note("read as Kubernetes node output, but no GPU labels or resources were found")],
      format,
    };
  }
  return { nodes, warnings, errors: [], format };
}

export const K8S_READER: Reader = { format: "kubernetes", detect: detectK8s, read: readK8s };
