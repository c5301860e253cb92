/**
 * Issue 16 in the browser: each kind of deployment downloaded from an
 * option's Deploy panel, against the built site with the Hub routed to
 * test/fixtures/hub. The example plan's cluster gives Kubernetes and Compose;
 * Slurm needs a cluster read from Slurm, so the Lambda node's scontrol output is imported.
 */
import { expect, test, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { routeNetwork } from "./hub.ts";

/** The preview server's origin; E2E_ORIGIN lets a second checkout on the same machine use its own port. */
const ORIGIN = process.env["E2E_ORIGIN"] ?? "http://127.0.0.1:4173";

test.beforeEach(async ({ context }) => {
  await routeNetwork(context, ORIGIN);
});

async function download(page: Page, kind: "Kubernetes" | "Compose" | "Slurm"): Promise<{ name: string; text: string }> {
  const option = page.getByRole("article").first();
  const panel = option.locator(".deploy-panel");
  await panel.getByRole("radio", { name: kind }).check();
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    panel.getByRole("button", { name: /^Download / }).click(),
  ]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(path, "utf8") };
}

async function openDeploy(page: Page): Promise<void> {
  const option = page.getByRole("article").first();
  await option.getByRole("button", { name: "Commands" }).click();
  await option.getByText("Deploy: Kubernetes, Compose, Slurm").click();
}

test("Kubernetes and Compose download from the example plan; Slurm says why not and what can", async ({ page }) => {
  await page.goto("/");
  await openDeploy(page);
  const k8s = await download(page, "Kubernetes");
  expect(k8s.name).toMatch(/\.yaml$/);
  const kinds = parseAllDocuments(k8s.text).map((d) => (d.toJS() as { kind: string }).kind);
  expect(kinds.includes("Deployment") || kinds.includes("LeaderWorkerSet")).toBe(true);
  // The example plan's first option runs on one node of the DGX pair: one Compose service. Its cluster
  // names no card, so Docker is asked for a count, and the file says to pin them.
  const compose = await download(page, "Compose");
  expect(compose.name).toBe("compose.yaml");
  expect(compose.text).toMatch(
    /^# the inventory did not name the free cards: Docker takes the first \d+; set device_ids to the free ones$/m,
  );
  const panel = page.getByRole("article").first().locator(".deploy-panel");
  await panel.getByRole("radio", { name: "Slurm" }).check();
  await expect(panel.getByRole("note")).toContainText("not imported from Slurm");
});

test("a cluster imported from Slurm downloads an sbatch script", async ({ page }) => {
  await page.goto("/");
  const scontrol = readFileSync(
    new URL("../test/fixtures/inventory/scontrol-show-node-a100-8gpu-idle-1.txt", import.meta.url),
    "utf8",
  );
  await page.getByRole("button", { name: /Import/ }).click();
  await page.getByLabel("Paste inventory").fill(scontrol);
  await page.getByRole("button", { name: "Read inventory" }).click();
  await page.getByRole("button", { name: "Replace the cluster" }).click();
  await expect(page.getByRole("article").first().getByRole("heading", { level: 3 })).toContainText("a100-40g");
  await openDeploy(page);
  const script = await download(page, "Slurm");
  expect(script.name).toMatch(/\.sbatch$/);
  expect(script.text).toMatch(/^#!\/bin\/bash\n#SBATCH --job-name=/);
  expect(script.text).toContain("#SBATCH --nodelist=lambda-hyperplane01");
});
