/**
 * Paste, upload or drop an inventory; read it with the same importers as
 * `npm run cluster`; show what was read and what was not; replace the
 * cluster only when the user confirms. A bad import changes nothing.
 */
import { useId, useState, type DragEvent } from "react";
import { importCluster } from "../cluster/import.ts";
import { formatMessage, type ImportResult } from "../cluster/messages.ts";
import type { Cluster } from "../plan/types.ts";

interface ImportDialogProps {
  onImport: (cluster: Cluster) => void;
  onClose: () => void;
}

/** A file larger than this is not an inventory; reading it would only stall the page. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export function ImportDialog({ onImport, onClose }: ImportDialogProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB: an inventory is far smaller; pick the tool's output`);
      return;
    }
    setFileError(null);
    const content = await file.text();
    setText(content);
    setFileName(file.name);
    setResult(importCluster(content, file.name));
  };

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    void readFile(e.dataTransfer.files[0]);
  };

  return (
    <section className="import-dialog" aria-labelledby={`${id}-title`} onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <h3 id={`${id}-title`}>Import a cluster</h3>
      <p className="hint">
        Paste or drop the output of nvidia-smi, rocm-smi, kubectl get nodes / describe node, Slurm scontrol show node or sinfo, ray status, a CSV, or
        Modelplan's own JSON or YAML. It stays in this page.
      </p>
      <div className="field grow">
        <label htmlFor={`${id}-text`}>Paste inventory</label>
        <textarea
          id={`${id}-text`}
          rows={10}
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFileName(undefined);
            setResult(null);
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>Or upload a file</label>
        <input id={`${id}-file`} type="file" accept=".txt,.json,.yaml,.yml,.csv,.log,text/plain" onChange={(e) => void readFile(e.target.files?.[0])} />
        {fileError ? (
          <span className="error" role="alert">
            {fileError}
          </span>
        ) : null}
      </div>
      <div className="button-row">
        <button type="button" onClick={() => setResult(importCluster(text, fileName))} disabled={text.trim() === ""}>
          Read inventory
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
      {result ? <ImportReview result={result} onConfirm={(cluster) => onImport(cluster)} /> : null}
    </section>
  );
}

function ImportReview({ result, onConfirm }: { result: ImportResult; onConfirm: (cluster: Cluster) => void }) {
  const { cluster } = result;
  return (
    <div className="import-review" role="status" aria-live="polite">
      <p>
        <strong>{result.format === "unknown" ? "Not recognised" : `Read as ${result.format}`}:</strong> {result.summary}
      </p>
      {result.errors.length > 0 ? (
        <>
          <p className="error">Nothing was imported. What is wrong:</p>
          <ul className="import-errors">
            {result.errors.map((m, i) => (
              <li key={i}>{formatMessage(m)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {result.warnings.length > 0 ? (
        <>
          <p>What it could not read, or guessed:</p>
          <ul className="import-warnings">
            {result.warnings.map((m, i) => (
              <li key={i}>{formatMessage(m)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {cluster ? (
        <>
          <ul className="import-nodes">
            {cluster.nodes.map((n) => (
              <li key={n.id}>
                <code>{n.id}</code>: {n.devices.length === 0 ? "CPU only" : n.devices.map((d) => `${d.count} × ${d.class} (${d.free} free)`).join(", ")}
                {n.hostMemGib > 0 ? `, ${n.hostMemGib} GiB RAM` : ""}
                {n.fabric ? ` on ${n.fabric}` : ""}
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => onConfirm(cluster)}>
            Replace the cluster
          </button>
        </>
      ) : null}
    </div>
  );
}
