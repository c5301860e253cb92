import { useId, useMemo, useState } from "react";
import { DEPLOY_KINDS, deployTargets, tryDeploy, type DeployKind, type Manifest } from "../deploy/index.ts";
import type { Plan, PlanOption } from "../plan/index.ts";
import { downloadText } from "./download.ts";
import { useCopy } from "./useCopy.ts";

const KIND_LABEL: Record<DeployKind, string> = { kubernetes: "Kubernetes", compose: "Compose", slurm: "Slurm" };

interface DeployPanelProps {
  plan: Plan;
  option: PlanOption;
  /** The kind shown first; absent, the first that applies to the option. */
  initialKind?: DeployKind;
}

/**
 * The option's deployment (issue 16): Kubernetes, Compose or Slurm, with a
 * copy button and a download. A kind that does not apply says why and which
 * can, rather than being hidden: the user learns what to import or choose.
 */
export function DeployPanel({ plan, option, initialKind }: DeployPanelProps) {
  const targets = useMemo(
    () => deployTargets(option, plan.cluster, plan.workload.settings.vllmVersion),
    [option, plan.cluster, plan.workload.settings.vllmVersion],
  );
  const [kind, setKind] = useState<DeployKind>(initialKind ?? targets.find((t) => t.ok)?.kind ?? "kubernetes");
  const result = useMemo(() => tryDeploy(kind, { option, plan }), [kind, option, plan]);
  const name = useId();
  return (
    <div className="deploy-panel">
      <fieldset>
        <legend>Deploy with</legend>
        {DEPLOY_KINDS.map((k) => (
          <label key={k}>
            <input type="radio" name={name} value={k} checked={k === kind} onChange={() => setKind(k)} />{" "}
            {KIND_LABEL[k]}
          </label>
        ))}
      </fieldset>
      {typeof result === "string" ? (
        <p className="deploy-refused" role="note">
          {refusal(result, targets)}
        </p>
      ) : (
        <ManifestView manifest={result} />
      )}
    </div>
  );
}

/** The reason, and the kinds that can deploy the option. */
function refusal(reason: string, targets: ReturnType<typeof deployTargets>): string {
  const can = targets.filter((t) => t.ok).map((t) => KIND_LABEL[t.kind]);
  return `${reason.replace(/^\w+: /, "")}.${can.length > 0 ? ` ${can.join(" or ")} can deploy it.` : ""}`;
}

function ManifestView({ manifest }: { manifest: Manifest }) {
  const { id, state, copy } = useCopy(manifest.text);
  function download() {
    downloadText(
      manifest.text,
      manifest.fileName,
      manifest.kind === "slurm" ? "text/x-shellscript" : "application/yaml",
    );
  }
  return (
    <div className="command">
      <pre id={id} tabIndex={0} aria-label={`${KIND_LABEL[manifest.kind]} deployment, ${manifest.fileName}`}>
        <code>{manifest.text}</code>
      </pre>
      <button type="button" onClick={() => void copy()}>
        Copy {manifest.fileName}
      </button>
      <button type="button" className="secondary" onClick={download}>
        Download {manifest.fileName}
      </button>
      <span className="copy-state" role="status">
        {state === "copied" ? "Copied" : state === "manual" ? "Press Ctrl+C (⌘C) to copy the selected text" : ""}
      </span>
    </div>
  );
}
