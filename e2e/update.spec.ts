/**
 * Issue 19, offline first: "Updates take effect on the next load, with a notice". A real service-worker
 * update, two releases served in turn from one origin (e2e/release.ts): the open page says a new version
 * was installed, the next load opens it, and a view the old page had not opened yet reloads into it
 * (vite-plugin-pwa's autoUpdate: the new worker takes the open page at once and Workbox drops the old
 * version's precache, src/app/staleChunk.ts). A first visit's own worker is no update: no notice; but a
 * first visit left open is taken by a later release's worker as any page is (another tab found it), and says so.
 */
import { expect, test, type Page } from "@playwright/test";
import { defaultChoices } from "../src/app/defaults.ts";
import { encodeLink } from "../src/state/link.ts";
import { routeNetwork } from "./hub.ts";
import { releaseNextVersion, serveCopyOfDist, type Site } from "./release.ts";

const NOTICE = "A new version of Modelplan was installed: it opens on the next load.";
/** What the next release's entry chunk runs last: the page says which release its code is. */
const MARK_NEXT = 'if (typeof document !== "undefined") document.documentElement.dataset["release"] = "next";';

/** A plan link (the example at 8,192 tokens of context): the stale-chunk reload keeps it. */
const LINK = encodeLink({ ...defaultChoices(), workload: { ...defaultChoices().workload, contextTokens: 8192 } });

let site: Site;
test.beforeEach(async () => {
  site = await serveCopyOfDist();
});
test.afterEach(async () => {
  await site.close();
});

/** Which release the page's code is: "next" once the changed entry chunk ran. */
function release(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.dataset["release"] ?? "first");
}

/** The page drew its plan and a service worker controls it (the first one claims the page: clientsClaim). */
async function openedUnderWorker(page: Page): Promise<void> {
  await expect(page.getByRole("article").first()).toBeVisible({ timeout: 20_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // Two frames on: whatever the page drew on the controller's change (React commits in a task of its own) is drawn.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined)))),
  );
}

/** Every address the page's caches hold (the service worker's precache). */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
}

/** No failed part on the page ("Something in … failed", src/app/PlanBoundary.tsx) and no other alert. */
async function nothingFailed(page: Page): Promise<void> {
  await expect(page.getByText(/^Something in .* failed/)).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
}

test("a version released since the last visit: the page says it was installed, a view not opened yet reloads into it, and the next load is it", async ({
  context,
  page,
}) => {
  const network = await routeNetwork(context, site.origin);
  // The first visit: its worker only caches this version, which is no update.
  await page.goto(`${site.origin}/#${LINK}`);
  await openedUnderWorker(page);
  await expect(page.getByText(NOTICE)).toHaveCount(0);

  const cachedBefore = await cachedUrls(page);
  const replaced = releaseNextVersion(site.dir, MARK_NEXT);
  expect(replaced.some((name) => /^Accuracy-[\w-]+\.js$/.test(name))).toBe(true);
  // The next visit opens the cached version, and the browser finds the new sw.js as it loads.
  await page.reload();
  await expect(page.getByText(NOTICE)).toBeVisible({ timeout: 15_000 });
  expect(await release(page)).toBe("first");
  // Workbox's own cleanup as the new worker activated, not this test's: every file the release replaced was
  // cached by the first version, and none is now.
  expect(cachedBefore.filter((url) => replaced.some((name) => url.endsWith(`/${name}`)))).toHaveLength(replaced.length);
  await expect
    .poll(async () => (await cachedUrls(page)).filter((url) => replaced.some((name) => url.endsWith(`/${name}`))))
    .toEqual([]);
  // The new worker took this page (skipWaiting, clientsClaim) and dropped the old precache: Accuracy's old chunk
  // is in no cache and not on the host, so opening the view loads the new version once, on the same plan link.
  const loads: string[] = [];
  page.on("load", () => loads.push(page.url()));
  const accuracy = page.getByText("Accuracy: what Modelplan predicts against what engines printed");
  await accuracy.click();
  await expect.poll(() => loads.length, { timeout: 15_000 }).toBe(1);
  expect(loads[0]).toBe(`${site.origin}/#${LINK}`);
  await openedUnderWorker(page);
  expect(await release(page)).toBe("next");
  // The version now open is the new one: nothing to announce.
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await nothingFailed(page);
  await accuracy.click();
  await expect(page.getByRole("region", { name: "Mean and worst error of each figure" })).toBeVisible();
  expect(network.blocked).toEqual([]);
});

test("a first visit left open, and the site opened in another tab after a release: both tabs say so, and the next load is it", async ({
  context,
  page,
}) => {
  const network = await routeNetwork(context, site.origin);
  await page.goto(`${site.origin}/`);
  await openedUnderWorker(page);
  await expect(page.getByText(NOTICE)).toHaveCount(0);

  releaseNextVersion(site.dir, MARK_NEXT);
  // The other tab opens the cached version; the browser finds the new sw.js as it loads, and the new worker takes
  // every tab of the site (skipWaiting), the first visit's too.
  const other = await context.newPage();
  await other.goto(`${site.origin}/`);
  await expect(other.getByText(NOTICE)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(NOTICE)).toBeVisible();
  expect(await release(page)).toBe("first");
  expect(await release(other)).toBe("first");

  await page.reload();
  await openedUnderWorker(page);
  expect(await release(page)).toBe("next");
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await nothingFailed(page);
  expect(network.blocked).toEqual([]);
});
