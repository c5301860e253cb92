/**
 * The cluster, editable inline: presets, nodes (add, duplicate × N, remove),
 * each node's fabric, RAM and cards (a catalog class or a custom one with its
 * memory), import and export. Presentational: it receives the cluster and
 * hands every edit to onChange; the edits themselves are the pure functions
 * of src/cluster/model.ts, and what the cards can hold is the engine's to say.
 */
import { lazy, Suspense, useId, useMemo, useState } from "react";
import {
  editGroup,
  groupLabel,
  groupNodes,
  nodeKey,
  removeGroup,
  resizeGroup,
  type NodeGroup,
} from "../cluster/groups.ts";
import { formatMessage, type ImportMessage } from "../cluster/messages.ts";
import {
  addNode,
  classGroups,
  CUSTOM_DEVICE,
  duplicateNode,
  isCatalogClass,
  MAX_DUPLICATES,
  removeNode,
} from "../cluster/model.ts";
import { PRESETS } from "../cluster/presets.ts";
import { gaps, summarize } from "../cluster/summary.ts";
import {
  MAX_CARD_GBPS,
  MAX_CARD_TFLOPS,
  MAX_DEVICE_MEM_GIB,
  MAX_DEVICES_PER_GROUP,
  MAX_FABRIC_GBPS,
  MAX_CPU_CORES,
  MAX_HOST_GBPS,
  MAX_HOST_MEM_GIB,
  MAX_NODES,
} from "../cluster/bounds.ts";
import {
  CARD_MEMORY_KINDS,
  cardSpecOf,
  DEFAULT_CPU_CORES,
  DEFAULT_FABRIC_GBPS,
  DEFAULT_HOST_GBPS,
  fabricGbpsOfLabel,
} from "../plan/index.ts";
import type { CardMemoryKind, Cluster, ClusterNode, DeviceGroup } from "../plan/index.ts";
import { FieldLabel, NumberField } from "./NumberField.tsx";
import { useModule } from "./useModule.ts";
import "./ClusterPanel.css";

interface ClusterPanelProps {
  cluster: Cluster;
  onChange: (next: Cluster) => void;
}

/** Fabrics offered in the fabric field's list, beside those the cluster already uses. */
const COMMON_FABRICS = ["ib0", "roce", "efa", "ethernet"];
const CUSTOM = "__custom__";
const GROUPS = classGroups();
/**
 * The importers and yaml (~47 KB gzipped, measured with vite build) load when
 * the user first opens Import or exports: the first screen draws neither.
 */
/** Past this many rows the node list is virtualized, in a chunk of its own (the first screen has a few). */
const PLAIN_ROWS = 24;
const VirtualList = lazy(() => import("./VirtualList.tsx").then((m) => ({ default: m.VirtualList })));
/**
 * Validation and its zod schemas (~30 KB gzipped) load as the panel first
 * draws, not before the first screen: the sample cluster it opens on is
 * sound, and they are in long before a field is edited.
 */
const loadValidate = () => import("../cluster/validate.ts");
const ImportDialog = lazy(() => import("./ImportDialog.tsx").then((m) => ({ default: m.ImportDialog })));

export function ClusterPanel({ cluster, onChange }: ClusterPanelProps) {
  const id = useId();
  const [importing, setImporting] = useState(false);
  const validation = useModule(loadValidate, true);
  const problems = validation ? validation.validateCluster(cluster).errors : [];
  const fabrics = [...new Set([...cluster.nodes.map((n) => n.fabric).filter(Boolean), ...COMMON_FABRICS])];

  return (
    <div className="cluster-panel">
      <p className="cluster-summary" aria-live="polite">
        {[summarize(cluster), ...gaps(cluster)].join("; ")}
      </p>
      {problems.length > 0 ? (
        <ul className="cluster-problems" aria-label="Problems with the cluster">
          {problems.map((m, i) => (
            <li key={i} className="error">
              {formatMessage(m)}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="button-row cluster-actions">
        <div className="field">
          <label htmlFor={`${id}-preset`}>Start from a preset</label>
          <select
            id={`${id}-preset`}
            value=""
            onChange={(e) => {
              const preset = PRESETS.find((p) => p.id === e.target.value);
              if (preset) onChange(preset.cluster);
            }}
          >
            <option value="">choose a preset…</option>
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" aria-expanded={importing} onClick={() => setImporting(!importing)}>
          Import…
        </button>
        <ExportButton cluster={cluster} />
      </div>

      {importing ? (
        <Suspense fallback={<p className="muted">Loading the importers…</p>}>
          <ImportDialog
            onImport={(next) => {
              onChange(next);
              setImporting(false);
            }}
            onClose={() => setImporting(false)}
          />
        </Suspense>
      ) : null}

      <datalist id={`${id}-fabrics`}>
        {fabrics.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      <NodeRows cluster={cluster} problems={problems} fabricList={`${id}-fabrics`} onChange={onChange} />
      <button type="button" onClick={() => onChange(addNode(cluster))}>
        Add node
      </button>
    </div>
  );
}

type Row =
  | { kind: "group"; group: NodeGroup; key: string }
  | { kind: "node"; index: number; key: string }
  | { kind: "split"; group: NodeGroup; key: string };

/** The rows drawn: a group of identical nodes as one, or, once split out, its nodes one by one under a header. */
function rowsOf(groups: NodeGroup[], split: ReadonlySet<string>): Row[] {
  return groups.flatMap((group): Row[] => {
    const key = nodeKey(group.node);
    if (group.indices.length === 1)
      return [{ kind: "node", index: group.indices[0] ?? 0, key: `n${group.indices[0]}` }];
    if (!split.has(key)) return [{ kind: "group", group, key: `g${key}` }];
    return [
      { kind: "split", group, key: `s${key}` },
      ...group.indices.map((index): Row => ({ kind: "node", index, key: `n${index}` })),
    ];
  });
}

/** A row's height before it is measured: a node with one card row. */
const ROW_ESTIMATE_PX = 230;

/**
 * The node list: a plain list for a few rows; virtualized past PLAIN_ROWS, so
 * 2,000 nodes cost what a screenful costs (issue 20: 323,000 DOM nodes and an
 * 8.4 s task before).
 */
/** The validation's message about one field of one node ("devices[0].free"), to say at that field. */
type ProblemOf = (field: string) => string | undefined;

function problemsOf(problems: readonly ImportMessage[], nodeIndex: number): ProblemOf {
  return (field) => problems.find((m) => m.nodeIndex === nodeIndex && m.field === field)?.message;
}

function NodeRows({
  cluster,
  problems,
  fabricList,
  onChange,
}: {
  cluster: Cluster;
  problems: readonly ImportMessage[];
  fabricList: string;
  onChange: (next: Cluster) => void;
}) {
  const [split, setSplit] = useState<ReadonlySet<string>>(new Set());
  const groups = useMemo(() => groupNodes(cluster), [cluster]);
  const rows = useMemo(() => rowsOf(groups, split), [groups, split]);
  const toggle = (key: string, on: boolean) =>
    setSplit((s) => {
      const next = new Set(s);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const draw = (i: number) => {
    const row = rows[i];
    if (!row) return null;
    return (
      <>
        {row.kind === "node" ? (
          <NodeEditor
            node={cluster.nodes[row.index] ?? groups[0]!.node}
            title={`Node ${row.index + 1}`}
            problemOf={problemsOf(problems, row.index)}
            fabricList={fabricList}
            edit={(f) => onChange({ nodes: cluster.nodes.map((n, i) => (i === row.index ? f(n) : n)) })}
            idField
            actions={
              <NodeActions
                n={row.index + 1}
                onDuplicate={(copies) => onChange(duplicateNode(cluster, row.index, copies))}
                onRemove={() => onChange(removeNode(cluster, row.index))}
              />
            }
          />
        ) : row.kind === "split" ? (
          <div className="cluster-split">
            <strong>{groupLabel(row.group)}</strong>: split out, edited one by one{" "}
            <button type="button" className="secondary" onClick={() => toggle(nodeKey(row.group.node), false)}>
              Edit as one group
            </button>
          </div>
        ) : (
          <NodeEditor
            node={row.group.node}
            title={groupLabel(row.group)}
            subtitle={`${row.group.node.id} … ${cluster.nodes[row.group.indices.at(-1) ?? 0]?.id ?? ""}`}
            problemOf={problemsOf(problems, row.group.indices[0] ?? 0)}
            fabricList={fabricList}
            edit={(f) => onChange(editGroup(cluster, row.group, f))}
            idField={false}
            actions={
              <>
                <NumberField
                  label={`${groupLabel(row.group)} node count`}
                  visibleLabel="Nodes"
                  value={row.group.indices.length}
                  min={1}
                  max={MAX_NODES}
                  integer
                  onCommit={(v) => v !== undefined && onChange(resizeGroup(cluster, row.group, v))}
                />
                <button type="button" className="secondary" onClick={() => toggle(nodeKey(row.group.node), true)}>
                  Split out
                </button>
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Remove ${groupLabel(row.group)}`}
                  onClick={() => onChange(removeGroup(cluster, row.group))}
                >
                  Remove group
                </button>
              </>
            }
          />
        )}
      </>
    );
  };
  if (rows.length <= PLAIN_ROWS) {
    return (
      <ol className="cluster-nodes">
        {rows.map((row, i) => (
          <li key={row.key}>{draw(i)}</li>
        ))}
      </ol>
    );
  }
  return (
    <Suspense fallback={<p className="muted">Loading the node list…</p>}>
      <VirtualList
        count={rows.length}
        keyOf={(i) => rows[i]?.key ?? String(i)}
        estimatePx={ROW_ESTIMATE_PX}
        row={draw}
      />
    </Suspense>
  );
}

function NodeActions({
  n,
  onDuplicate,
  onRemove,
}: {
  n: number;
  onDuplicate: (copies: number) => void;
  onRemove: () => void;
}) {
  const [copies, setCopies] = useState(1);
  return (
    <>
      <NumberField
        label={`Copies of node ${n}`}
        visibleLabel="Copies"
        value={copies}
        min={1}
        max={MAX_DUPLICATES}
        integer
        onCommit={(v) => v !== undefined && setCopies(v)}
      />
      <button
        type="button"
        className="secondary"
        aria-label={`Duplicate node ${n}`}
        onClick={() => onDuplicate(copies)}
      >
        Duplicate
      </button>
      <button type="button" className="secondary" aria-label={`Remove node ${n}`} onClick={onRemove}>
        Remove node
      </button>
    </>
  );
}

interface NodeEditorProps {
  node: ClusterNode;
  /** "Node 3", or a group's "40 nodes of 8 × h100-80g, ib0": the legend, and the start of every field's name. */
  title: string;
  subtitle?: string;
  /** What the validation says of each of its fields. */
  problemOf: ProblemOf;
  fabricList: string;
  /** Applies a change to the node, or to every node of the group (each keeps its id). */
  edit: (f: (node: ClusterNode) => ClusterNode) => void;
  idField: boolean;
  actions: React.ReactNode;
}

function NodeEditor({ node, title, subtitle, problemOf, fabricList, edit, idField, actions }: NodeEditorProps) {
  const id = useId();
  const patch = (change: Partial<Omit<ClusterNode, "devices">>) => edit((n) => ({ ...n, ...change }));
  // An emptied speed field drops the key: the node says nothing, and the speed model assumes its stated default.
  const setSpeed = (key: "fabricGbps" | "hostMemGBps" | "cpuCores", value: number | undefined) =>
    edit((n) => {
      const { [key]: _dropped, ...rest } = n;
      return value === undefined ? rest : { ...rest, [key]: value };
    });
  const labelGbps = fabricGbpsOfLabel(node.fabric);
  const setDevices = (f: (devices: DeviceGroup[]) => DeviceGroup[]) => edit((n) => ({ ...n, devices: f(n.devices) }));
  return (
    <fieldset className="cluster-node">
      <legend>
        {title}: {subtitle ?? node.id}
      </legend>
      <div className="field-row">
        {idField ? (
          <div className="field">
            <FieldLabel htmlFor={`${id}-id`} label={`${title} id`} visibleLabel="Id" />
            <input id={`${id}-id`} type="text" value={node.id} onChange={(e) => patch({ id: e.target.value })} />
          </div>
        ) : null}
        <div className="field">
          <FieldLabel htmlFor={`${id}-fabric`} label={`${title} fabric`} visibleLabel="Fabric" />
          <input
            id={`${id}-fabric`}
            type="text"
            list={fabricList}
            value={node.fabric}
            placeholder="none"
            onChange={(e) => patch({ fabric: e.target.value.trim() })}
          />
        </div>
        <NumberField
          label={`${title} fabric speed (Gbit/s per card)`}
          visibleLabel="Fabric Gbit/s"
          value={node.fabricGbps}
          min={1}
          max={MAX_FABRIC_GBPS}
          step={1}
          placeholder={labelGbps !== null ? `${labelGbps} (name)` : `${DEFAULT_FABRIC_GBPS * 8} assumed`}
          hint="Line rate per card (400 for ConnectX-7); empty: read from a name like ib-400g, else assumed"
          onCommit={(v) => setSpeed("fabricGbps", v)}
        />
        <NumberField
          label={`${title} RAM (GiB)`}
          visibleLabel="RAM (GiB)"
          value={node.hostMemGib}
          min={0}
          max={MAX_HOST_MEM_GIB}
          step={1}
          error={problemOf("hostMemGib")}
          onCommit={(v) => v !== undefined && patch({ hostMemGib: v })}
        />
        <NumberField
          label={`${title} free RAM (GiB)`}
          visibleLabel="Free RAM (GiB)"
          value={node.hostFreeGib}
          min={0}
          max={MAX_HOST_MEM_GIB}
          step={1}
          error={problemOf("hostFreeGib")}
          onCommit={(v) => v !== undefined && patch({ hostFreeGib: v })}
        />
        <NumberField
          label={`${title} memory bandwidth (GB/s)`}
          visibleLabel="RAM GB/s"
          value={node.hostMemGBps}
          min={1}
          max={MAX_HOST_GBPS}
          step={0.1}
          placeholder={`${DEFAULT_HOST_GBPS} assumed`}
          hint="Channels × MT/s × 8 ÷ 1000 (12 × DDR5-4800: 460.8); empty: 2 × DDR4-3200 assumed"
          onCommit={(v) => setSpeed("hostMemGBps", v)}
        />
        <NumberField
          label={`${title} CPU cores`}
          visibleLabel="CPU cores"
          value={node.cpuCores}
          min={1}
          max={MAX_CPU_CORES}
          step={1}
          placeholder={`${DEFAULT_CPU_CORES} assumed`}
          hint="Cores llama.cpp's threads run on: a prompt on the CPU multiplies at them; empty: 8 assumed"
          onCommit={(v) => setSpeed("cpuCores", v === undefined ? undefined : Math.round(v))}
        />
      </div>

      <table className="cluster-devices">
        <caption>
          <span className="visually-hidden">{title} </span>Cards
        </caption>
        <thead>
          <tr>
            <th scope="col">Class</th>
            <th scope="col">Count</th>
            <th scope="col">Free</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {node.devices.map((device, j) => (
            <DeviceRow
              key={j}
              label={`${title} card ${j + 1}`}
              title={title}
              problemOf={(field) => problemOf(`devices[${j}].${field}`)}
              device={device}
              onChange={(next) => setDevices((ds) => ds.map((d, k) => (k === j ? next : d)))}
              onRemove={() => setDevices((ds) => ds.filter((_, k) => k !== j))}
            />
          ))}
        </tbody>
      </table>
      {node.devices.length === 0 ? <p className="hint">No cards: a CPU-only node, planned against its RAM.</p> : null}

      <div className="button-row">
        <button
          type="button"
          className="secondary"
          aria-label={`Add card to ${title.toLowerCase()}`}
          onClick={() => setDevices((ds) => [...ds, { class: "h100-80g", count: 1, free: 1 }])}
        >
          Add card
        </button>
        {actions}
      </div>
    </fieldset>
  );
}

interface DeviceRowProps {
  label: string;
  /** The node's name in the panel ("Node 1"), the start of what a field says is wrong. */
  title: string;
  problemOf: ProblemOf;
  device: DeviceGroup;
  onChange: (next: DeviceGroup) => void;
  onRemove: () => void;
}

function DeviceRow({ label, title, problemOf, device, onChange, onRemove }: DeviceRowProps) {
  const id = useId();
  // A class the catalog knows, with no figure of its own, is picked from the list; anything else is custom.
  const custom = !isCatalogClass(device.class) || ownFigures(device);
  const withCounts = (next: Omit<DeviceGroup, "count" | "free">): DeviceGroup => ({
    ...next,
    count: device.count,
    free: device.free,
  });
  return (
    <tr>
      <td>
        <label htmlFor={`${id}-class`} className="visually-hidden">
          {label} class
        </label>
        <select
          id={`${id}-class`}
          // A narrow column cuts a long class name ("a100-80g-mig-3g.40gb"); the tooltip shows it whole.
          title={device.class}
          aria-invalid={problemOf("class") ? true : undefined}
          aria-describedby={problemOf("class") ? `${id}-class-error` : undefined}
          value={custom ? CUSTOM : device.class}
          onChange={(e) => {
            const value = e.target.value;
            onChange(
              value === CUSTOM
                ? withCounts({
                    class: custom ? device.class : CUSTOM_DEVICE.class,
                    memGib: device.memGib ?? CUSTOM_DEVICE.memGib!,
                  })
                : withCounts({ class: value }),
            );
          }}
        >
          {GROUPS.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ))}
          <option value={CUSTOM}>Custom class…</option>
        </select>
        {problemOf("class") ? (
          <span className="error" id={`${id}-class-error`}>
            {problemOf("class")}
          </span>
        ) : null}
        {custom ? (
          <div className="field-row">
            <div className="field">
              <FieldLabel htmlFor={`${id}-custom`} label={`${label} custom class`} visibleLabel="Custom class" />
              <input
                id={`${id}-custom`}
                type="text"
                value={device.class}
                onChange={(e) => onChange({ ...device, class: e.target.value.trim() })}
              />
            </div>
            <NumberField
              label={`${label} memory (GiB)`}
              visibleLabel="Memory (GiB)"
              value={device.memGib}
              min={0.1}
              max={MAX_DEVICE_MEM_GIB}
              step={0.01}
              hint="What the card reports (nvidia-smi MiB ÷ 1024)"
              onCommit={(v) => v !== undefined && onChange({ ...device, memGib: v })}
            />
            <CardSpeedFields label={label} device={device} onChange={onChange} />
          </div>
        ) : null}
      </td>
      <td>
        <NumberField
          label={`${label} count`}
          visibleLabel=""
          value={device.count}
          min={0}
          max={MAX_DEVICES_PER_GROUP}
          integer
          error={problemOf("count")}
          onCommit={(v) => v !== undefined && onChange({ ...device, count: v })}
        />
      </td>
      <td>
        <NumberField
          label={`${label} free`}
          visibleLabel=""
          value={device.free}
          min={0}
          max={MAX_DEVICES_PER_GROUP}
          integer
          error={problemOf("free")}
          // In the validation's words, at the field, and not taken: the plan keeps the last good cluster.
          check={(n) =>
            n > device.count
              ? `${title}, ${device.class}: ${n} free of ${device.count} ${device.count === 1 ? "card" : "cards"}: give at most ${device.count}.`
              : null
          }
          onCommit={(v) => v !== undefined && onChange({ ...device, free: v })}
        />
      </td>
      <td>
        <button
          type="button"
          className="secondary remove-card"
          onClick={onRemove}
          aria-label={`Remove ${label.toLowerCase()}`}
          title={`Remove ${label.toLowerCase()}`}
        >
          ×
        </button>
      </td>
    </tr>
  );
}

/** Whether a group gives figures of its own (memory, bandwidth, compute, memory kind) rather than the catalog's. */
function ownFigures(d: DeviceGroup): boolean {
  return d.memGib !== undefined || d.memGBps !== undefined || d.bf16Tflops !== undefined || d.memKind !== undefined;
}

const KIND_WORDS: Record<CardMemoryKind, string> = { hbm: "HBM", gddr: "GDDR", unified: "Unified (SoC)" };

/**
 * A custom card's speed figures: without its GB/s its speed is null, never guessed; without its TFLOPS prefill and
 * the first token are. The placeholders say what the card table holds for the class, or that nothing is known.
 */
function CardSpeedFields({ label, device, onChange }: Pick<DeviceRowProps, "label" | "device" | "onChange">) {
  const id = useId();
  const table = cardSpecOf(device.class);
  // An emptied field drops the key: the class says nothing, and the table's figure (or none) is used.
  const set = <K extends "memGBps" | "bf16Tflops" | "memKind">(key: K, value: DeviceGroup[K] | undefined) => {
    const next: DeviceGroup = { ...device };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const tableBw = table?.memBandwidthGBps ?? null;
  const tableTf = table?.tflops.bf16 ?? null;
  return (
    <>
      <NumberField
        label={`${label} memory bandwidth (GB/s)`}
        visibleLabel="GB/s"
        value={device.memGBps}
        min={1}
        max={MAX_CARD_GBPS}
        step={1}
        placeholder={tableBw !== null ? `${tableBw} (table)` : "unknown"}
        hint="The datasheet's memory bandwidth (RTX 4090: 1008); empty: no speed is estimated for this class"
        onCommit={(v) => set("memGBps", v)}
      />
      <NumberField
        label={`${label} dense BF16 TFLOPS`}
        visibleLabel="BF16 TFLOPS"
        value={device.bf16Tflops}
        min={0.1}
        max={MAX_CARD_TFLOPS}
        step={0.1}
        placeholder={tableTf !== null ? `${tableTf} (table)` : "unknown"}
        hint="Dense, without 2:4 sparsity; empty: prefill and the first token are not estimated"
        onCommit={(v) => set("bf16Tflops", v)}
      />
      <div className="field">
        <FieldLabel htmlFor={`${id}-kind`} label={`${label} memory kind`} visibleLabel="Memory" />
        <select
          id={`${id}-kind`}
          value={device.memKind ?? ""}
          onChange={(e) => {
            const v = e.target.value;
            set("memKind", (CARD_MEMORY_KINDS as readonly string[]).includes(v) ? (v as CardMemoryKind) : undefined);
          }}
        >
          <option value="">
            {table ? `${KIND_WORDS[table.kind as CardMemoryKind] ?? table.kind} (table)` : "GDDR (assumed)"}
          </option>
          {CARD_MEMORY_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** Downloads the cluster as Modelplan JSON: the file `npm run plan --cluster` and `npm run cluster` read. */
function ExportButton({ cluster }: { cluster: Cluster }) {
  return (
    <button
      type="button"
      className="secondary"
      onClick={async () => {
        const { clusterToJson } = await import("../cluster/json.ts");
        const url = URL.createObjectURL(new Blob([clusterToJson(cluster)], { type: "application/json" }));
        const a = document.createElement("a");
        a.href = url;
        a.download = "cluster.json";
        a.click();
        URL.revokeObjectURL(url);
      }}
    >
      Export JSON
    </button>
  );
}
