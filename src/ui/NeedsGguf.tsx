/**
 * Why a CPU-only cluster gets no option for a safetensors repo, said where the options would be:
 * on CPUs the planner runs llama.cpp, which loads GGUF files only (its README: "llama.cpp requires
 * the model to be stored in the GGUF file format", https://github.com/ggml-org/llama.cpp#obtaining-and-quantizing-models),
 * and the repo's GGUF quantizations on the Hub, each planned in one click (issue 17, defect 3).
 */
import type { QuantizedChild } from "../hub/derivatives.ts";
import { ChildList, type ChildrenState } from "./QuantizedChildren.tsx";

interface NeedsGgufProps {
  repo: string;
  /** The repo's quantizations as the Hub lists them (asked for when this shows). */
  state: ChildrenState;
  onPlan: (repo: string) => void;
}

export function NeedsGguf({ repo, state, onPlan }: NeedsGgufProps) {
  return (
    <div className="notice needs-gguf" role="note">
      <p>
        <strong>
          This cluster has no GPU, and on CPUs only llama.cpp runs here: it loads GGUF files, and {repo} has only
          safetensors.
        </strong>{" "}
        Plan a GGUF quantization of it, or add GPU nodes to the cluster.
      </p>
      {state.kind === "loading" ? (
        <p className="muted small">Asking the Hub for GGUF quantizations of {repo}…</p>
      ) : null}
      {state.kind === "error" ? (
        <p className="muted small">The Hub could not list its quantizations: {state.message}</p>
      ) : null}
      {state.kind === "ready" ? (
        <ChildList baseRepo={repo} items={ggufOnly(state.children)} onPlan={onPlan} what="GGUF quantizations" />
      ) : null}
    </div>
  );
}

function ggufOnly(children: QuantizedChild[]): QuantizedChild[] {
  return children.filter((c) => c.gguf);
}
