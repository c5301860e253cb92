/**
 * A React root in happy-dom for tests that drive a component live (act, effects, transitions): a fresh host
 * element and root before each test, unmounted and removed after it.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach } from "vitest";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export function liveRoot(): { readonly root: Root; readonly host: HTMLElement } {
  let root: Root | null = null;
  let host: HTMLElement | null = null;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    const r = root;
    if (r) act(() => r.unmount());
    host?.remove();
  });
  return {
    get root() {
      if (root === null) throw new Error("liveRoot: no root outside a test");
      return root;
    },
    get host() {
      if (host === null) throw new Error("liveRoot: no host outside a test");
      return host;
    },
  };
}
