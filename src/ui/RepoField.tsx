import { useId, useState } from "react";
import { artifactTotalBytes, type Artifact } from "../plan/index.ts";
import { formatGib } from "./format.ts";
import { ReadProgressLine } from "./ReadProgressLine.tsx";

/** Where the model's facts stand, as the page shows them under the field. */
export type RepoStatus =
  | { kind: "loading" }
  | { kind: "error"; message: string; errorKind: string }
  | {
      kind: "ready";
      summary: string;
      artifacts: Artifact[];
      sha: string;
      source: "catalog" | "hub" | "manual";
      /** Where the facts came from when more than the source says: the bundled copy the Hub was asked over, and why it is used. */
      sourceWords?: string;
    };

const SOURCE_WORDS = {
  catalog: "From the bundled catalog (no network)",
  hub: "Read from the Hub",
  manual: "Entered by hand (manual mode)",
} as const;

interface RepoFieldProps {
  repo: string;
  revision: string;
  status: RepoStatus;
  /** The bundled catalog's models, offered as the field is typed. */
  catalog: readonly { repo: string; label: string }[];
  /** Parses and reads the typed text; returns the reason it cannot, or null. */
  onRead: (text: string) => string | null;
  /** The Hub access settings (token, address), shown in a disclosure under the field. */
  access: React.ReactNode;
  /** Shown under an error: the way on that fits it (the ways to plan without the Hub, a retry countdown). */
  offline?: React.ReactNode;
  /** Beside the model's summary once it is read (e.g. its other quantizations). */
  extra?: React.ReactNode;
}

export function RepoField({ repo, revision, status, catalog, onRead, access, offline, extra }: RepoFieldProps) {
  const id = useId();
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = text ?? (revision !== "" && !/^[0-9a-f]{40}$/.test(revision) ? `${repo}@${revision}` : repo);
  const error = problem ?? (status.kind === "error" ? status.message : null);
  return (
    <div className="repo-field">
      <form
        className="repo-form"
        onSubmit={(e) => {
          e.preventDefault();
          const why = onRead(shown);
          setProblem(why);
          if (why === null) setText(null);
        }}
      >
        <div className="field grow">
          <label htmlFor={id}>Hugging Face repo</label>
          <input
            id={id}
            type="text"
            list={`${id}-catalog`}
            value={shown}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder="owner/name or a huggingface.co address"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-status`}
            onChange={(e) => {
              setText(e.target.value);
              setProblem(null);
            }}
          />
          <datalist id={`${id}-catalog`}>
            {catalog.map((c) => (
              <option key={c.repo} value={c.repo}>
                {c.label}
              </option>
            ))}
          </datalist>
        </div>
        <button type="submit">Plan</button>
      </form>
      <div id={`${id}-status`} className="repo-status" aria-live="polite">
        {error ? (
          <>
            <p className="error" role="alert">
              {error}
            </p>
            {status.kind === "error" && problem === null ? offline : null}
          </>
        ) : status.kind === "loading" ? (
          <>
            <p className="muted">Reading {repo} from the Hub…</p>
            <ReadProgressLine repo={repo} />
          </>
        ) : status.kind === "ready" ? (
          <>
            <p className="model-summary">{status.summary}</p>
            <ReadProgressLine repo={repo} />
            <p className="muted small">
              {status.sourceWords ?? SOURCE_WORDS[status.source]}
              {status.sha !== "" ? (
                <>
                  {" "}
                  at <code title={status.sha}>{status.sha.slice(0, 10)}</code>
                </>
              ) : null}
            </p>
          </>
        ) : null}
      </div>
      {status.kind === "ready" ? extra : null}
      {status.kind === "ready" ? <ArtifactList artifacts={status.artifacts} /> : null}
      {access}
    </div>
  );
}

function ArtifactList({ artifacts }: { artifacts: Artifact[] }) {
  if (artifacts.length === 0) return <p className="muted">No weight files found in this repo.</p>;
  return (
    <details className="artifacts" open={artifacts.length <= 4}>
      <summary>
        {artifacts.length} artifact{artifacts.length === 1 ? "" : "s"} found
      </summary>
      <ul>
        {artifacts.map((a) => (
          <li key={a.name}>
            <span className="artifact-name">{a.name}</span>{" "}
            <span className="muted">
              {a.format} · {a.quant} · {formatGib(artifactTotalBytes(a))}
              {a.bitsPerWeight > 0 ? ` · ${a.bitsPerWeight.toFixed(2)} bits/weight` : ""}
              {a.files.length > 1 ? ` · ${a.files.length} files` : ""}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
