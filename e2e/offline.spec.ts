/**
 * Issue 19, offline first: once the page was opened, a plan link opens with
 * no network (the service worker's precache: the app shell, every chunk, the
 * bundled catalog), and the page says it is offline (a new version taking
 * over mid-visit: e2e/update.spec.ts, two releases served in turn); a catalog model known by its
 * config.json alone plans offline with the weights' size given by hand; a
 * repo read in an earlier visit plans from that read, and says so.
 */
import { expect, test, type Page } from "@playwright/test";
import { encodeLink } from "../src/state/link.ts";
import { routeNetwork } from "./hub.ts";

const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

/** DeepSeek-R1's GGUF quants (a catalog model) on one 8 × H100 node: a plan link the catalog answers. */
const R1_LINK = encodeLink({
  repo: "unsloth/DeepSeek-R1-GGUF",
  revision: "",
  cluster: {
    nodes: [
      {
        id: "n1",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 2048,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      },
    ],
  },
  workload: { contextTokens: 4096, sequences: 1, kvDtype: "auto", settings: {} },
  filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
  selectedOptionId: "",
  commandIndex: 0,
});

/** The service worker has installed its precache (it controls the next load). */
async function workerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

test("a plan link opens offline from the service worker's copy, and the page says it is offline", async ({
  context,
  page,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible({ timeout: 30_000 });
  // The worker installed its precache and controls the next load.
  await workerReady(page);
  await context.setOffline(true);
  const offline = await context.newPage();
  await offline.goto(`/#${R1_LINK}`);
  console.log("navigator.onLine in the offline page:", await offline.evaluate(() => navigator.onLine));
  await expect(offline.getByText(/^Offline:/)).toBeVisible();
  // A catalog model (DeepSeek-R1's GGUF quants) is planned with no request.
  await expect(offline.getByRole("article").first()).toBeVisible({ timeout: 30_000 });
  await expect(offline.locator(".model-summary")).toContainText("61 layers");
  expect(network.blocked).toEqual([]);
});

test("with the Hub unreachable, a catalog model known by its config.json alone opens manual mode with it filled in, and plans once the weights' size is given", async ({
  page,
}) => {
  await page.route("https://huggingface.co/**", (route) => route.abort("internetdisconnected"));
  await page.goto("/");
  await page.getByLabel("Hugging Face repo").fill("someone/not-in-the-catalog");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("cannot reach the Hub", { timeout: 15_000 });
  await page.getByLabel("Bundled catalog (plans with no network)").selectOption("Qwen/Qwen3-8B");
  await page.getByRole("button", { name: "Plan from the catalog" }).click();
  // Its config.json as the catalog holds it (test/fixtures/models/Qwen__Qwen3-8B.json, verbatim): 36 layers, 8 KV heads.
  const config = page.getByLabel("config.json", { exact: true });
  await expect(config).toContainText('"num_hidden_layers": 36');
  await expect(page.getByLabel("Name for the commands (optional)")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByLabel("Weights' size").fill("16.4");
  await page.getByRole("button", { name: "Plan this model" }).click();
  await expect(page.locator(".model-summary")).toContainText("36 layers · 8 KV heads · 40,960 ctx");
  await expect(page.getByText("Entered by hand (manual mode)")).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
});

test("with the Hub unreachable, a typed repo the catalog holds is the one offered under the message", async ({
  page,
}) => {
  await page.route("https://huggingface.co/**", (route) => route.abort("internetdisconnected"));
  await page.goto("/");
  // Typed in another case, as the Hub takes it.
  await page.getByLabel("Hugging Face repo").fill("qwen/qwen3-8b");
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("cannot reach the Hub", { timeout: 15_000 });
  await expect(page.getByLabel("Bundled catalog (plans with no network)")).toHaveValue("Qwen/Qwen3-8B");
  await page.getByRole("button", { name: "Plan from the catalog" }).click();
  await expect(page.getByLabel("config.json", { exact: true })).toContainText('"num_hidden_layers": 36');
});

test("with the Hub unreachable, a repo read in an earlier visit is planned from that read, and says so", async ({
  context,
  page,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  const repo = "togethercomputer/RedPajama-INCITE-7B-Base";
  await page.goto("/");
  await page.getByLabel("Hugging Face repo").fill(repo);
  await page.getByRole("button", { name: "Plan", exact: true }).click();
  // GPT-NeoX 7B: 32 layers (its config.json num_hidden_layers, recorded).
  await expect(page.locator(".model-summary")).toContainText("32 layers", { timeout: 30_000 });
  // The read is kept in this browser (localStorage, written a moment after the read).
  await expect.poll(() => page.evaluate(() => localStorage.getItem("modelplan.queries.v2") ?? "")).toContain(repo);

  const later = await context.newPage();
  await later.route("https://huggingface.co/**", (route) => route.abort("internetdisconnected"));
  await later.goto("/");
  await later.getByLabel("Hugging Face repo").fill(repo);
  await later.getByRole("button", { name: "Plan", exact: true }).click();
  await expect(
    later.getByText("Kept in this browser from an earlier read of the Hub: the Hub did not answer"),
  ).toBeVisible({
    timeout: 15_000,
  });
  await expect(later.locator(".model-summary")).toContainText("32 layers");
  await expect(later.getByRole("alert")).toHaveCount(0);
  expect(network.blocked).toEqual([]);
});
