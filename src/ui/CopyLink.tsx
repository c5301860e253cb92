import { memo, useState } from "react";
import type { Choices } from "../state/choices.ts";
import { useModule } from "./useModule.ts";

/**
 * The link's writer (fflate's deflate, ~5 KB gzipped) is not needed to draw
 * the first screen: it loads as this button first draws, long before a click.
 */
const loadWriter = () => import("../state/linkWriter.ts");

type CopyState = { kind: "idle" } | { kind: "copied" } | { kind: "manual"; link: string };

/**
 * Copies the plan's link, made now (not after the address bar's debounce).
 * Where the clipboard is refused (an insecure origin, a denied permission),
 * the link is shown selected for the user to copy. A memo: the choices do not change while the slider is
 * dragged (the store takes the context on release), so the page's render on each move passes it by.
 */
export const CopyLink = memo(function CopyLink({ choices }: { choices: Choices }) {
  const [state, setState] = useState<CopyState>({ kind: "idle" });
  const writer = useModule(loadWriter, true);
  // Until the writer is in, the note waits: a link with no manual model always carries it.
  const carriesManual = choices.manual === undefined || writer === null || writer.linkCarriesManual(choices);
  async function copy() {
    const link = (await loadWriter()).currentLink(window.location.href, choices);
    try {
      await navigator.clipboard.writeText(link);
      setState({ kind: "copied" });
      window.setTimeout(() => setState({ kind: "idle" }), 2000);
    } catch {
      setState({ kind: "manual", link });
    }
  }
  return (
    <div className="copy-link">
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
      <span className="copy-state" role="status">
        {state.kind === "copied" ? "Link copied" : ""}
      </span>
      {carriesManual ? null : (
        <p className="muted small">
          The link cannot carry this hand-entered config.json (it would pass 8 KB): whoever opens it must enter the same
          config.json and size.
        </p>
      )}
      {state.kind === "manual" ? (
        <label className="manual-link">
          Copy this link
          <input type="text" readOnly value={state.link} onFocus={(e) => e.currentTarget.select()} autoFocus />
        </label>
      ) : null}
    </div>
  );
});
