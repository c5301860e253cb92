/**
 * Issue 19, offline first: once the page was opened, a plan link opens with
 * no network (the service worker's precache: the app shell, every chunk, the
 * bundled catalog), and the page says it is offline.
 */
import { expect, test } from "@playwright/test";
import { encodeLink } from "../src/state/link.ts";
import { routeNetwork } from "./hub.ts";

const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

test("a plan link opens offline from the service worker's copy, and the page says it is offline", async ({
  context,
  page,
}) => {
  const network = await routeNetwork(context, ORIGIN);
  await page.goto("/");
  await expect(page.getByRole("article").first()).toBeVisible({ timeout: 30_000 });
  // The worker installed its precache and controls the next load.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
  const link = encodeLink({
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
  const offline = await context.newPage();
  await offline.goto(`/#${link}`);
  console.log("navigator.onLine in the offline page:", await offline.evaluate(() => navigator.onLine));
  await expect(offline.getByText(/^Offline:/)).toBeVisible();
  // A catalog model (DeepSeek-R1's GGUF quants) is planned with no request.
  await expect(offline.getByRole("article").first()).toBeVisible({ timeout: 30_000 });
  await expect(offline.locator(".model-summary")).toContainText("61 layers");
  expect(network.blocked).toEqual([]);
});
