// @vitest-environment happy-dom
/**
 * Issue 20: a failure in one part of the page shows a message and a way
 * back, never a blank page. Rendered in a DOM (happy-dom), where React's
 * error boundaries run as in the browser.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, type ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, test, vi } from "vitest";
import { PlanPage } from "../../src/app/App.tsx";
import { defaultChoices } from "../../src/app/defaults.ts";
import { loadManual } from "../../src/app/loadManual.ts";
import { PlanBoundary } from "../../src/app/PlanBoundary.tsx";
import { tokenStore } from "../../src/hub/settings.ts";
import { createAppStore } from "../../src/state/appStore.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
});

function mount(node: ReactNode): HTMLElement {
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  act(() => root?.render(node));
  return host;
}

function Thrower({ fail }: { fail: boolean }) {
  if (fail) throw new RangeError("Invalid array length");
  return <p>the plan</p>;
}

describe("the plan's error boundary", () => {
  test("a part that throws shows the message and the way back; new inputs try again", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const run = vi.fn();
    const view = (fail: boolean, key: number) => (
      <PlanBoundary part="the plan" leave={{ label: "Open without the link's model", run }} resetKey={key}>
        <Thrower fail={fail} />
      </PlanBoundary>
    );
    const el = mount(view(true, 1));
    expect(el.textContent).toContain("Something in the plan failed, so it is not shown: Invalid array length");
    const leave = [...el.querySelectorAll("button")].find((b) => b.textContent === "Open without the link's model");
    act(() => leave?.click());
    expect(run).toHaveBeenCalledOnce();
    // The same inputs keep the message; new ones draw the part again.
    act(() => root?.render(view(false, 1)));
    expect(el.textContent).toContain("Something in the plan failed");
    act(() => root?.render(view(false, 2)));
    expect(el.textContent).toBe("the plan");
    spy.mockRestore();
  });
});

describe("the page with a manual model past the ceilings (as manual mode or an old link would hand it)", () => {
  test.each([2 ** 32, 1e12, 1e308, 1e6])(
    "%d layers: the page draws, says why with the field named, and offers the way back",
    async (layers) => {
      const choices = {
        ...defaultChoices(),
        manual: {
          name: "huge",
          configJson: JSON.stringify({
            architectures: ["LlamaForCausalLM"],
            model_type: "llama",
            num_hidden_layers: layers,
            hidden_size: 4096,
            num_attention_heads: 32,
            num_key_value_heads: 8,
            vocab_size: 128256,
            intermediate_size: 14336,
            max_position_embeddings: 8192,
          }),
          weightsBytes: 16e9,
        },
      };
      const store = createAppStore({ choices, linkNotices: [], hubUrl: "https://huggingface.co" });
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const started = performance.now();
      const el = mount(
        <QueryClientProvider client={client}>
          <PlanPage store={store} tokens={tokenStore(null)} />
        </QueryClientProvider>,
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(el.textContent).toContain("Modelplan");
      // Manual mode's reader is a chunk of its own (issue 19): the message comes once it is in.
      await act(() => loadManual());
      await vi.waitFor(() =>
        expect(el.textContent).toMatch(/num_hidden_layers is .*no real model has more than 1,024/),
      );
      expect(el.textContent).toContain("Ways to run it");
      expect(store.getState().choices.manual).toBeDefined();
      const back = [...el.querySelectorAll("button")].find((b) =>
        /Open without the link's model|example/.test(b.textContent ?? ""),
      );
      expect(back?.textContent).toBe("Open without the link's model");
      act(() => back?.click());
      expect(store.getState().choices.manual).toBeUndefined();
      expect(store.getState().choices.repo).toBe(defaultChoices().repo);
    },
  );
});
