// @vitest-environment happy-dom
/**
 * Issue 20: a Hub failure keeps the last good plan visible under its
 * message, the link stays on it until a new repo is read, and the way on
 * that fits is offered (a countdown for 429/5xx, the catalog and manual mode
 * offline, the token field for gated). Drawn in a DOM over the fake Hub.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, test, vi } from "vitest";
import { PlanPage } from "../../src/app/App.tsx";
import { defaultChoices } from "../../src/app/defaults.ts";
import { tokenStore } from "../../src/hub/settings.ts";
import { createAppStore } from "../../src/state/appStore.ts";
import { fakeHub, loadRecording, type Fault } from "../hub/fakeHub.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NVFP4 = loadRecording("nvidia/Qwen3-235B-A22B-NVFP4");
const GATED = loadRecording("meta-llama/Llama-3.1-8B-Instruct");

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  vi.unstubAllGlobals();
});

function page(fault: Fault) {
  const hub = fakeHub({ recordings: [NVFP4, GATED], fault });
  vi.stubGlobal("fetch", hub.fetch);
  const store = createAppStore({ choices: defaultChoices(), linkNotices: [], hubUrl: "https://hub.test" });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  act(() =>
    root?.render(
      <QueryClientProvider client={client}>
        <PlanPage store={store} tokens={tokenStore(null)} />
      </QueryClientProvider>,
    ),
  );
  const el = host;
  return { el, store, hub };
}

function optionCards(el: HTMLElement): number {
  return el.querySelectorAll(".options-panel li, .options-panel article").length;
}

async function typeRepo(el: HTMLElement, repo: string): Promise<void> {
  const input = el.querySelector<HTMLInputElement>(".repo-form input");
  if (!input) throw new Error("no repo field");
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  await act(async () => {
    setValue?.call(input, repo);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  const button = [...el.querySelectorAll<HTMLButtonElement>(".repo-form button")].find((b) => b.textContent === "Plan");
  await act(async () => {
    button?.click();
    await new Promise((ok) => setTimeout(ok, 50));
  });
}

describe("a Hub failure after a good plan", () => {
  test.each([
    ["429", "rate-limit", "nvidia/Qwen3-235B-A22B-NVFP4", /limiting requests/, /Reading again in 120 s/],
    ["500", "server-error", "nvidia/Qwen3-235B-A22B-NVFP4", /status 500/, /Reading again in 10 s/],
    ["502 HTML", "bad-gateway", "nvidia/Qwen3-235B-A22B-NVFP4", /status 502/, /Reading again in 10 s/],
    ["offline", "offline", "nvidia/Qwen3-235B-A22B-NVFP4", /cannot reach the Hub/, /Bundled catalog/],
    // "@main", not the catalog's own commit: the bundled catalog would answer it with no request.
    ["401 gated", "none", "meta-llama/Llama-3.1-8B-Instruct@main", /gated/, /token/i],
    ["404-like 401", "none", "nobody/nothing", /no model "nobody\/nothing"/, /paste a read token/],
  ] as const)(
    "%s: the message, the way on, and the last plan still shown with the link on it",
    async (_name, fault, repo, message, way) => {
      const { el, store } = page(fault);
      const before = store.getState().choices;
      const cardsBefore = optionCards(el);
      expect(cardsBefore).toBeGreaterThan(0);
      await typeRepo(el, repo);
      // Offline, the query tries once more after react-query's 1 s backoff.
      await vi.waitFor(() => expect(el.querySelector(".repo-status")?.textContent).toMatch(message), { timeout: 5000 });
      expect(el.textContent).toMatch(way);
      // Gated: the access settings open by themselves on the token field.
      if (/gated/.source === message.source)
        expect(el.querySelector("details.hub-access")?.hasAttribute("open")).toBe(true);
      expect(el.textContent).toContain("Still showing the last plan");
      expect(optionCards(el)).toBe(cardsBefore);
      // The link is written from the choices: they have not moved.
      expect(store.getState().choices).toBe(before);
    },
  );

  test("a repo that reads moves the plan, and the link, to it (pinned to the commit read)", async () => {
    const { el, store } = page("none");
    await typeRepo(el, "nvidia/Qwen3-235B-A22B-NVFP4");
    await vi.waitFor(() => expect(store.getState().choices.repo).toBe("nvidia/Qwen3-235B-A22B-NVFP4"));
    expect(store.getState().choices.revision).toBe(NVFP4.info.sha);
    expect(el.textContent).not.toContain("Still showing the last plan");
  });
});

describe("offline, the bundled catalog's models (issue 19)", () => {
  async function pickFromCatalog(el: HTMLElement, repo: string): Promise<void> {
    await typeRepo(el, "nvidia/Qwen3-235B-A22B-NVFP4");
    await vi.waitFor(() => expect(el.textContent).toMatch(/Bundled catalog/), { timeout: 5000 });
    const select = [...el.querySelectorAll<HTMLSelectElement>(".offline-ways select")][0];
    if (!select) throw new Error("no catalog picker");
    expect([...select.options].map((o) => o.value)).toHaveLength(82);
    await act(async () => {
      select.value = repo;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const button = [...el.querySelectorAll<HTMLButtonElement>(".offline-ways button")].find(
      (b) => b.textContent === "Plan from the catalog",
    );
    await act(async () => button?.click());
  }

  test("a model with its files' sizes plans from its own chunk, with no request", async () => {
    const { el, store, hub } = page("offline");
    await pickFromCatalog(el, "microsoft/phi-4");
    const requests = hub.requests.length;
    await vi.waitFor(() => expect(store.getState().choices.repo).toBe("microsoft/phi-4"));
    await vi.waitFor(() => expect(el.querySelector(".model-summary")?.textContent).toContain("40 layers"));
    expect(hub.requests.length).toBe(requests);
  });

  test("a model with only its config.json opens manual mode with that config filled in, asking the weights' size", async () => {
    const { el } = page("offline");
    await pickFromCatalog(el, "zai-org/GLM-5");
    await vi.waitFor(() => expect(el.querySelector("details.manual-model")?.hasAttribute("open")).toBe(true));
    const config = el.querySelector<HTMLTextAreaElement>(".manual-form textarea");
    expect(JSON.parse(config?.value ?? "null")).toMatchObject({ architectures: ["GlmMoeDsaForCausalLM"] });
    expect(el.querySelector(".manual-form")?.textContent).toMatch(
      /holds zai-org\/GLM-5's config.json but not its files' sizes/,
    );
  });

  test("a model that declares its quantization only in hf_quant_config.json keeps it through manual mode (DeepSeek-V3.1-NVFP4)", async () => {
    const { el, store } = page("offline");
    await pickFromCatalog(el, "nvidia/DeepSeek-V3.1-NVFP4");
    await vi.waitFor(() => expect(el.querySelector("details.manual-model")?.hasAttribute("open")).toBe(true));
    const size = el.querySelector<HTMLInputElement>('.manual-form input[inputmode="decimal"]');
    if (!size) throw new Error("no size field");
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    await act(async () => {
      setValue?.call(size, "400");
      size.dispatchEvent(new Event("input", { bubbles: true }));
    });
    const form = el.querySelector<HTMLFormElement>(".manual-form");
    await act(async () => {
      form?.requestSubmit();
      await new Promise((ok) => setTimeout(ok, 50));
    });
    await vi.waitFor(() => expect(store.getState().choices.manual?.quantConfigJson).toContain('"quant_algo":"NVFP4"'));
    // The plan's artifact is the NVFP4 checkpoint, not an unquantized one of the same size.
    await vi.waitFor(() =>
      expect(el.querySelector("details.artifacts li")?.textContent).toContain("safetensors · nvfp4 ·"),
    );
  });
});
