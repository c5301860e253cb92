/**
 * Paste, upload or drop an inventory; read it with the same importers as
 * `npm run cluster`; show what was read and what was not; replace the
 * cluster only when the user confirms. A bad import changes nothing.
 */
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { cardsLabel, groupNodes } from "../cluster/groups.ts";
import { importCluster, KUBECTL_NODES_ALLOWED, MAX_JSON_IMPORT_CHARS } from "../cluster/import.ts";
import { formatMessage, type ImportResult } from "../cluster/messages.ts";
import type { Cluster } from "../plan/index.ts";
import { readTextFile, TextFileInput } from "./TextFileInput.tsx";

interface ImportDialogProps {
  onImport: (cluster: Cluster) => void;
  onClose: () => void;
}

/**
 * A file larger than the importer's JSON limit is not an inventory: `kubectl get nodes -o json` is the
 * largest kind, and the 5 MiB limit before refused a 1,000-node cluster. A file's bytes are at least its
 * characters, so the importer takes whatever this lets through.
 */
const MAX_FILE_BYTES = MAX_JSON_IMPORT_CHARS;
/** Longest text the text box shows; a longer file is read but not drawn. */
const MAX_SHOWN_CHARS = 1_000_000;
const INVENTORY = `the inventory tool's output (nvidia-smi, kubectl, Slurm…; up to ${MAX_FILE_BYTES / 2 ** 20} MiB, about ${KUBECTL_NODES_ALLOWED.toLocaleString("en-US")} nodes of kubectl JSON)`;

export function ImportDialog({ onImport, onClose }: ImportDialogProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [dropError, setDropError] = useState<string | null>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  // Opened: the paste box takes the focus; closed (Cancel, Escape or an import): it goes back where it was (issue 17).
  useEffect(() => {
    const before = document.activeElement;
    textArea.current?.focus();
    return () => {
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  /** A file too long to show in the text box: read from here instead. */
  const [bigFile, setBigFile] = useState<string | null>(null);

  const read = (content: string, name: string) => {
    // A file of megabytes is not put in the text box: drawing (and later removing) 20 MB of text there
    // blocked the page for half a second (2,000 kubectl nodes, e2e/speed.spec.ts).
    setText(content.length > MAX_SHOWN_CHARS ? "" : content);
    setBigFile(content.length > MAX_SHOWN_CHARS ? content : null);
    setFileName(name);
    setResult(importCluster(content, name));
  };

  const onDrop = async (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (!file) return;
    const reading = await readTextFile(file, MAX_FILE_BYTES, INVENTORY);
    setDropError("error" in reading ? reading.error : null);
    if (!("error" in reading)) read(reading.text, reading.fileName);
  };

  return (
    <section
      className="import-dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        }
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => void onDrop(e)}
    >
      <h3 id={`${id}-title`}>Import a cluster</h3>
      <p className="hint">
        Paste or drop the output of nvidia-smi, rocm-smi, kubectl get nodes / describe node, Slurm scontrol show node or
        sinfo, ray status, a CSV, or Modelplan's own JSON or YAML. It stays in this page.
      </p>
      <div className="field grow">
        <label htmlFor={`${id}-text`}>Paste inventory</label>
        <textarea
          ref={textArea}
          id={`${id}-text`}
          rows={10}
          spellCheck={false}
          // An nvidia-smi table is ~90 columns of box drawing: a wrapped line breaks its columns apart.
          wrap="off"
          value={text}
          placeholder={
            bigFile !== null
              ? `${fileName ?? "the file"}: ${(bigFile.length / 1e6).toFixed(1)} MB, read from the file (too long to show here)`
              : undefined
          }
          onChange={(e) => {
            setText(e.target.value);
            setBigFile(null);
            setFileName(undefined);
            setResult(null);
          }}
        />
      </div>
      <TextFileInput
        label="Or upload a file"
        accept=".txt,.json,.yaml,.yml,.csv,.log,text/plain"
        maxBytes={MAX_FILE_BYTES}
        whatItShouldBe={INVENTORY}
        onText={read}
      />
      {dropError ? (
        <p className="error" role="alert">
          {dropError}
        </p>
      ) : null}
      <div className="button-row">
        <button
          type="button"
          onClick={() => setResult(importCluster(bigFile ?? text, fileName))}
          disabled={bigFile === null && text.trim() === ""}
        >
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
            {/* Identical nodes in one line: a review of 2,000 nodes is a few lines, not 2,000. */}
            {groupNodes(cluster).map((g) => {
              const n = g.node;
              const last = cluster.nodes[g.indices.at(-1) ?? 0]?.id ?? n.id;
              return (
                <li key={g.indices[0]}>
                  {g.indices.length > 1 ? `${g.indices.length.toLocaleString("en-US")} × ` : ""}
                  <code>{n.id}</code>
                  {g.indices.length > 1 ? (
                    <>
                      {" "}
                      … <code>{last}</code>
                    </>
                  ) : null}
                  : {cardsLabel(n)}
                  {n.hostMemGib > 0 ? `, ${n.hostMemGib} GiB RAM` : ""}
                  {n.fabric ? ` on ${n.fabric}` : ""}
                </li>
              );
            })}
          </ul>
          <button type="button" onClick={() => onConfirm(cluster)}>
            Replace the cluster
          </button>
        </>
      ) : null}
    </div>
  );
}
