import { useId, useState } from "react";

export type CopyState = "idle" | "copied" | "manual";

/**
 * Copy a text to the clipboard, for a <pre id={id}> that shows it. Where the
 * clipboard is refused (an insecure origin, a denied permission) the text is
 * selected instead, for Ctrl+C by hand; "copied" clears after 2 s.
 */
export function useCopy(text: string): { id: string; state: CopyState; copy: () => Promise<void> } {
  const [state, setState] = useState<CopyState>("idle");
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
      window.setTimeout(() => setState("idle"), 2000);
    } catch {
      setState("manual");
      const pre = document.getElementById(id);
      const selection = window.getSelection();
      if (pre && selection) selection.selectAllChildren(pre);
    }
  }
  return { id, state, copy };
}
