/**
 * The Deploy panel on a real plan (Qwen2.5-Coder-32B on the half-busy V100
 * host, nvidia-smi), rendered to markup: the manifest with copy and download,
 * and for a kind that does not apply, why and which can.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { DeployPanel } from "../../src/ui/DeployPanel.tsx";
import { inventory, planOf } from "../deploy/fixtures.ts";

describe("DeployPanel", async () => {
  const p = await planOf("Qwen/Qwen2.5-Coder-32B-Instruct", inventory("nvidia-smi-query-csv-v100-1.txt"));
  const option = p.options[0];
  if (!option) throw new Error("no option");

  test("opens on the first kind that applies (Kubernetes), with the manifest, a copy and a download button", () => {
    const html = renderToStaticMarkup(<DeployPanel plan={p} option={option} />);
    expect(html).toMatch(/<input type="radio"[^>]*checked=""[^>]*value="kubernetes"/);
    expect(html).toContain("kind: Deployment");
    expect(html).toContain("Copy qwen2-5-coder-32b-instruct-");
    expect(html).toContain("Download qwen2-5-coder-32b-instruct-");
  });

  test("Compose pins the free V100s by device id", () => {
    const html = renderToStaticMarkup(<DeployPanel plan={p} option={option} initialKind="compose" />);
    expect(html).toContain("device_ids:");
    expect(html).toContain("Download compose.yaml");
  });

  test("Slurm on an nvidia-smi inventory: the reason and the kinds that can, no manifest", () => {
    const html = renderToStaticMarkup(<DeployPanel plan={p} option={option} initialKind="slurm" />);
    expect(html).toContain('role="note"');
    expect(html).toContain("the cluster was not imported from Slurm");
    expect(html).toContain("Kubernetes or Compose can deploy it.");
    expect(html).not.toContain("<pre");
  });
});
