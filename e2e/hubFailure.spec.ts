/**
 * Issue 20 in the built page: a Hub failure keeps the last good plan on
 * screen under its message, the link stays on it, and the way on that fits
 * is offered; a link carrying an absurd manual model is refused in words,
 * never a blank page.
 */
import { expect, test, type BrowserContext } from "@playwright/test";
import { deflateSync, strToU8 } from "fflate";
import { checksum } from "../src/state/link.ts";
import { allRecordings, fakeHub, type Fault } from "../test/hub/fakeHub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";
const HUB = "https://huggingface.co";

/** The Hub from the recordings with `fault` on, and a Retry-After the test chooses for a 429. */
async function routeHub(context: BrowserContext, fault: Fault, retryAfterS?: number): Promise<string[]> {
  const hub = fakeHub({ recordings: allRecordings(), fault });
  const seen: string[] = [];
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(ORIGIN)) return route.continue();
    if (!url.startsWith(`${HUB}/`)) return route.abort("blockedbyclient");
    const cors = {
      "access-control-allow-origin": ORIGIN,
      "access-control-allow-headers": "authorization, range, accept",
      "access-control-expose-headers": "*",
    };
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    seen.push(url);
    if (fault === "offline") return route.abort("internetdisconnected");
    const response = await hub.handle(
      new Request(url, { method: route.request().method(), headers: await route.request().allHeaders() }),
    );
    const extra = retryAfterS !== undefined && response.status === 429 ? { "retry-after": String(retryAfterS) } : {};
    return route.fulfill({
      status: response.status,
      headers: { ...Object.fromEntries(response.headers), ...cors, ...extra },
      body: Buffer.from(await response.arrayBuffer()),
    });
  });
  return seen;
}

test.describe("a Hub failure after a good plan", () => {
  for (const [name, fault, message] of [
    ["429", "rate-limit", /limiting requests/],
    ["500", "server-error", /status 500/],
    ["502 HTML", "bad-gateway", /status 502/],
    ["offline", "offline", /cannot reach the Hub/],
  ] as const) {
    test(`${name}: the message, the last plan still shown, the link unchanged`, async ({ page, context }) => {
      await routeHub(context, fault, 2);
      await page.goto("/");
      await expect(page.getByRole("article").first()).toBeVisible();
      const link = await page.evaluate(() => window.location.hash);
      const cards = await page.getByRole("article").count();
      await page.getByLabel("Hugging Face repo").fill("nvidia/Qwen3-235B-A22B-NVFP4");
      await page.getByRole("button", { name: "Plan" }).click();
      await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByText("Still showing the last plan")).toBeVisible();
      expect(await page.getByRole("article").count()).toBe(cards);
      expect(await page.evaluate(() => window.location.hash)).toBe(link);
      if (fault === "offline") await expect(page.getByRole("button", { name: "Plan from the catalog" })).toBeVisible();
      else await expect(page.getByRole("button", { name: "Retry now" })).toBeVisible();
    });
  }

  test("429 with Retry-After: 2 counts down and reads again by itself", async ({ page, context }) => {
    const seen = await routeHub(context, "rate-limit", 2);
    await page.goto("/");
    await page.getByLabel("Hugging Face repo").fill("nvidia/Qwen3-235B-A22B-NVFP4");
    await page.getByRole("button", { name: "Plan" }).click();
    await expect(page.getByText(/Reading again in [12] s/)).toBeVisible();
    const first = seen.length;
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(first);
  });
});

test("a link carrying a manual model with 2^32 layers opens a usable page that names the field", async ({
  page,
  context,
}) => {
  await routeHub(context, "none");
  const config = {
    architectures: ["LlamaForCausalLM"],
    model_type: "llama",
    num_hidden_layers: 2 ** 32,
    hidden_size: 4096,
    num_attention_heads: 32,
    num_key_value_heads: 8,
    vocab_size: 128256,
    intermediate_size: 14336,
    max_position_embeddings: 8192,
  };
  const wire = {
    r: "Qwen/Qwen2.5-Coder-32B-Instruct",
    v: "",
    c: [["n1", "ib0", 512, 500, [["h100-80g", 8, 8]]]],
    w: [8192, 1, "auto"],
    e: {},
    f: ["", "", "all", "none"],
    o: "",
    m: 0,
    x: ["huge", JSON.stringify(config), 16e9],
  };
  let binary = "";
  for (const b of deflateSync(strToU8(JSON.stringify(wire)))) binary += String.fromCharCode(b);
  const payload = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  await page.goto(`/#v2.${checksum(payload)}.${payload}`);
  await expect(page.getByText(/the manual model: config\.json's num_hidden_layers is 4,294,967,296/)).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
});
