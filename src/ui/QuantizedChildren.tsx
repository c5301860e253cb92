/**
 * Other quantizations of the model: asked of the Hub only when the
 * user opens the list, each one planned in one click.
 */
import type { QuantizedChild } from "../hub/derivatives.ts";

export type ChildrenState =
  | { kind: "closed" }
  | { kind: "loading" }
  | { kind: "error"; message: string }
  | { kind: "ready"; children: QuantizedChild[] };

interface QuantizedChildrenProps {
  baseRepo: string;
  state: ChildrenState;
  onOpen: (open: boolean) => void;
  onPlan: (repo: string) => void;
}

export function QuantizedChildren({ baseRepo, state, onOpen, onPlan }: QuantizedChildrenProps) {
  const open = state.kind !== "closed";
  return (
    <div className="quantized-children">
      <button type="button" aria-expanded={open} onClick={() => onOpen(!open)}>
        Other quantizations
      </button>
      {state.kind === "loading" ? <p className="muted small">Asking the Hub for quantizations of {baseRepo}…</p> : null}
      {state.kind === "error" ? (
        <p className="error" role="alert">
          {state.message}
        </p>
      ) : null}
      {state.kind === "ready" ? <ChildList baseRepo={baseRepo} items={state.children} onPlan={onPlan} /> : null}
    </div>
  );
}

export function ChildList({
  baseRepo,
  items,
  onPlan,
  what = "quantizations",
}: {
  baseRepo: string;
  items: QuantizedChild[];
  onPlan: (repo: string) => void;
  what?: string;
}) {
  if (items.length === 0)
    return (
      <p className="muted small">
        The Hub lists no {what} of {baseRepo}.
      </p>
    );
  return (
    <ul className="children-list" aria-label={`${what.charAt(0).toUpperCase()}${what.slice(1)} of ${baseRepo}`}>
      {items.map((c) => (
        <li key={c.repo}>
          <button type="button" className="link-button" aria-label={`Plan ${c.repo}`} onClick={() => onPlan(c.repo)}>
            {c.repo}
          </button>{" "}
          <span className="muted small">
            {c.gguf ? "GGUF (llama.cpp)" : "safetensors"}
            {c.gated ? " · gated" : ""}
            {c.downloads > 0 ? ` · ${c.downloads.toLocaleString("en-US")} downloads` : ""}
          </span>
        </li>
      ))}
    </ul>
  );
}
