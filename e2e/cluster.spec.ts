/**
 * Issue 19's big clusters in the panel: identical nodes are one row, edited once for all of them or split out
 * and edited one by one; a cluster of 1,000 distinct nodes draws only the rows in view. Each cluster comes in
 * through the Import dialog as Modelplan JSON, and what an edit did is read back from the page's own link.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { defaultChoices } from "../src/app/defaults.ts";
import { decodeLink } from "../src/state/link.ts";
import { routeNetwork, type Network } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

let network: Network;
let pageErrors: string[];
test.beforeEach(async ({ context, page }) => {
  network = await routeNetwork(context, ORIGIN);
  pageErrors = [];
  page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
  page.on("pageerror", (e) => pageErrors.push(e.message));
});
test.afterEach(() => {
  expect(network.blocked).toEqual([]);
  expect(pageErrors).toEqual([]);
});

/** A node as Modelplan JSON writes it (README's cluster format), one card kind. */
function node(id: string, fabric: string, ramGib: number, freeRamGib: number, cards: [string, number, number][]) {
  return {
    id,
    fabric,
    host_mem_gib: ramGib,
    host_free_gib: freeRamGib,
    devices: cards.map(([cls, count, free]) => ({ class: cls, count, free })),
  };
}

/** Pastes the cluster into the Import dialog and replaces the panel's with it. */
async function importCluster(page: Page, nodes: ReturnType<typeof node>[]): Promise<Locator> {
  await page.goto("/");
  const panel = page.getByRole("region", { name: "Cluster" });
  await panel.getByRole("button", { name: /Import/ }).click();
  await panel.getByLabel("Paste inventory").fill(JSON.stringify({ nodes }));
  await panel.getByRole("button", { name: "Read inventory" }).click();
  await expect(panel.getByText(/Read as modelplan-json/)).toBeVisible();
  await panel.getByRole("button", { name: "Replace the cluster" }).click();
  await expect(panel.locator(".cluster-summary")).toContainText(
    `${nodes.length.toLocaleString("en-US")} node${nodes.length === 1 ? "" : "s"}`,
  );
  return panel;
}

/** The cluster the page's link now carries. */
async function linkNodes(page: Page) {
  return decodeLink(await page.evaluate(() => window.location.hash), defaultChoices()).choices.cluster.nodes;
}

/** Scrolls the virtualized list to its end until `row` is drawn (rows are measured as drawn, so the end moves). */
async function scrollToEnd(panel: Locator, row: Locator): Promise<void> {
  const scroller = panel.locator(".cluster-nodes-scroll");
  await expect
    .poll(async () => {
      await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      return row.isVisible();
    })
    .toBe(true);
}

const DGX = "8 × h100-80g";
/** 40 DGX H100 on ib0 with one of the same kind busy (two cards in use) among them, an A100 node and a CPU node. */
const dgx = (n: number, free = 8) =>
  node(`dgx-${String(n).padStart(2, "0")}`, "ib0", 2048, 1800, [["h100-80g", 8, free]]);
const FORTY = [
  ...Array.from({ length: 20 }, (_, i) => dgx(i + 1)),
  dgx(21, 6),
  ...Array.from({ length: 20 }, (_, i) => dgx(i + 22)),
  node("a100-1", "roce", 1024, 1000, [["a100-80g", 4, 4]]),
  node("cpu-1", "", 512, 512, []),
];

test("40 identical nodes are one row, and an edit of it changes all 40 and only them", async ({ page }) => {
  const panel = await importCluster(page, FORTY);
  await expect(panel.locator(".cluster-summary")).toContainText("43 nodes, 332 GPUs of 2 classes");
  // One row for the 40, one for each odd node: the list is plain, not virtualized.
  await expect(panel.locator(".cluster-nodes > li")).toHaveCount(4);
  const title = `40 nodes of ${DGX}, ib0`;
  const group = panel.getByRole("group", { name: `${title}: dgx-01 … dgx-41` });
  await expect(group).toBeVisible();
  await expect(group.getByRole("spinbutton", { name: `${title} node count`, exact: true })).toHaveValue("40");
  await expect(group.getByRole("combobox", { name: `${title} fabric`, exact: true })).toHaveValue("ib0");
  await expect(group.getByRole("combobox", { name: `${title} card 1 class`, exact: true })).toHaveValue("h100-80g");
  await expect(group.getByRole("spinbutton", { name: `${title} card 1 count`, exact: true })).toHaveValue("8");
  await expect(panel.getByRole("group", { name: `Node 21: dgx-21` })).toBeVisible();

  // Two cards of each of the 40 in use: one field, the group's title follows, and the link holds it on every node.
  await group.getByRole("spinbutton", { name: `${title} card 1 free`, exact: true }).fill("4");
  await expect(panel.getByRole("group", { name: `40 nodes of ${DGX} (4 free), ib0: dgx-01 … dgx-41` })).toBeVisible();
  await expect
    .poll(async () => (await linkNodes(page)).map((n) => `${n.id} ${n.devices[0]?.free ?? "-"}`))
    .toEqual(
      FORTY.map((n) => `${n.id} ${n.id === "dgx-21" ? 6 : n.id.startsWith("dgx-") ? 4 : (n.devices[0]?.free ?? "-")}`),
    );
});

test("Split out: the 40 are edited one by one, a node changed alone leaves the group, which then reads 39", async ({
  page,
}) => {
  const panel = await importCluster(page, FORTY);
  await panel.getByRole("button", { name: "Split out" }).click();
  const header = panel.locator(".cluster-split");
  await expect(header).toHaveText(`40 nodes of ${DGX}, ib0: split out, edited one by one Edit as one group`);
  // 44 rows now (the header, the 40, three odd nodes): past the plain list's 24, so the list is virtualized.
  await expect(panel.locator(".cluster-nodes-scroll")).toBeVisible();
  const last = panel.getByRole("group", { name: "Node 41: dgx-41" });
  await scrollToEnd(panel, last);
  await last.getByRole("spinbutton", { name: "Node 41 RAM (GiB)", exact: true }).fill("4096");
  // The header is the list's first row: drawn again once the list is back at its top.
  await panel.locator(".cluster-nodes-scroll").evaluate((el) => el.scrollTo(0, 0));
  await expect(header).toContainText(`39 nodes of ${DGX}, ib0: split out`);

  await panel.getByRole("button", { name: "Edit as one group" }).click();
  const title = `39 nodes of ${DGX}, ib0`;
  const group = panel.getByRole("group", { name: `${title}: dgx-01 … dgx-40` });
  await expect(group.getByRole("spinbutton", { name: `${title} node count`, exact: true })).toHaveValue("39");
  await expect(
    panel
      .getByRole("group", { name: "Node 41: dgx-41" })
      .getByRole("spinbutton", { name: "Node 41 RAM (GiB)", exact: true }),
  ).toHaveValue("4096");
  await expect(panel.locator(".cluster-nodes > li")).toHaveCount(5);
  await expect
    .poll(async () =>
      (await linkNodes(page)).filter((n) => n.hostMemGib !== FORTY.find((f) => f.id === n.id)?.host_mem_gib),
    )
    .toEqual([expect.objectContaining({ id: "dgx-41", hostMemGib: 4096 })]);
});

test("1,000 distinct nodes: only the rows in view are drawn, the end scrolls into view, and a far row edits", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Each node its own RAM, so none group: 1,000 rows.
  const nodes = Array.from({ length: 1000 }, (_, i) =>
    node(`node-${String(i + 1).padStart(4, "0")}`, "ib0", 1000 + i, 512, [["h100-80g", 8, 8]]),
  );
  const panel = await importCluster(page, nodes);
  await expect(panel.locator(".cluster-summary")).toContainText("1,000 nodes, 8,000 GPUs of 1 class");
  const rows = panel.locator(".cluster-nodes > li");
  await expect(panel.getByRole("group", { name: "Node 1: node-0001" })).toBeVisible();
  // A screenful and the overscan, not 1,000; the box is as tall as all of them would be.
  expect(await rows.count()).toBeLessThanOrEqual(30);
  const scroller = panel.locator(".cluster-nodes-scroll");
  expect(await scroller.evaluate((el) => el.scrollHeight / el.clientHeight)).toBeGreaterThan(100);

  const far = panel.getByRole("group", { name: "Node 1000: node-1000" });
  await scrollToEnd(panel, far);
  expect(await rows.count()).toBeLessThanOrEqual(30);
  await expect(panel.getByRole("group", { name: "Node 1: node-0001" })).toHaveCount(0);
  await expect(far.getByRole("spinbutton", { name: "Node 1000 RAM (GiB)", exact: true })).toHaveValue("1999");

  await far.getByRole("spinbutton", { name: "Node 1000 RAM (GiB)", exact: true }).fill("4321");
  await expect.poll(async () => (await linkNodes(page)).map((n) => n.hostMemGib).slice(-3)).toEqual([1997, 1998, 4321]);
  expect((await linkNodes(page)).length).toBe(1000);
  await expect(far.getByRole("spinbutton", { name: "Node 1000 RAM (GiB)", exact: true })).toHaveValue("4321");
});

test("a custom card's GB/s typed at the panel gives its options a decode figure, and the link carries it", async ({
  page,
}) => {
  const lab = {
    id: "lab-1",
    fabric: "",
    host_mem_gib: 256,
    host_free_gib: 240,
    devices: [{ class: "lab-card", count: 2, free: 2, mem_gib: 80 }],
  };
  const panel = await importCluster(page, [lab]);
  const first = page.getByRole("article").first();
  await expect(first).toContainText("lab-card");
  // No figure for a class the table lacks: not estimated, and the basis says where to give it.
  await expect(first.locator(".option-speed").first()).toContainText("not estimated");
  await first.getByText("How these figures were obtained").first().click();
  await expect(first.locator(".speed-basis").first()).toContainText("give the card's GB/s");

  await panel.getByRole("spinbutton", { name: "Node 1 card 1 memory bandwidth (GB/s)", exact: true }).fill("2039");
  await expect(first.locator(".option-speed").first().locator("dd").first()).toHaveText(/^[\d,.]+ tok\/s$/);
  await expect(first.locator(".speed-basis").first()).toContainText(
    "lab-card (gddr, 2039 GB/s, figures as the cluster gives them",
  );
  await expect.poll(async () => (await linkNodes(page))[0]?.devices[0]?.memGBps).toBe(2039);
});
