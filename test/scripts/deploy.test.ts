/**
 * `npm run plan -- <model> --cluster F --deploy kubernetes|compose|slurm [--option ID|N]`
 * (issue 16): the manifest alone on stdout, bad kinds and undeployable
 * options in one line with exit code 2, and --json's deploy_targets.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../scripts/plan.ts";
import { fakeHub, loadRecording, serveFakeHub } from "../hub/fakeHub.ts";
import { documents } from "../deploy/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CODER = "Qwen/Qwen2.5-Coder-32B-Instruct";
const inventory = (name: string) => join(ROOT, "test", "fixtures", "inventory", name);
const V100 = inventory("nvidia-smi-query-csv-v100-1.txt");
const SLURM = inventory("scontrol-show-node-a100-8gpu-idle-1.txt");

const hub = fakeHub({ recordings: [loadRecording(CODER)] });
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await serveFakeHub(hub);
});
afterAll(async () => {
  await server.close();
});
const run = (argv: string[]) => main(argv, { HF_ENDPOINT: server.url });

interface JsonOut {
  options: {
    id: string;
    engine: string;
    gpus_per_node: number;
    deploy_targets: { kind: string; ok: boolean; reason?: string }[];
  }[];
}

describe("--deploy", () => {
  test("kubernetes: stdout is the first option's manifest and nothing else; every document parses", async () => {
    const json = JSON.parse((await run([CODER, "--cluster", V100, "--json"])).stdout) as JsonOut;
    const { code, stdout } = await run([CODER, "--cluster", V100, "--deploy", "kubernetes"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe(
      `# Modelplan: ${CODER}@b47205940b83b5b484577359f71ee7b88472df67, option ${json.options[0]?.id} (${json.options[0]?.engine}, original)`,
    );
    expect(documents(stdout).map((d) => d.kind)).toEqual(["PersistentVolumeClaim", "Deployment", "Service"]);
  });

  test("compose --option 2 writes the second option; --option <id> the same", async () => {
    const json = JSON.parse((await run([CODER, "--cluster", V100, "--json"])).stdout) as JsonOut;
    const second = json.options[1];
    if (!second) throw new Error("fewer than two options");
    const byPlace = await run([CODER, "--cluster", V100, "--deploy", "compose", "--option", "2"]);
    const byId = await run([CODER, "--cluster", V100, "--deploy", "compose", "--option", second.id]);
    expect(byPlace.code).toBe(0);
    expect(byPlace.stdout).toBe(byId.stdout);
    expect(byPlace.stdout).toContain(`option ${second.id} (`);
    const doc = documents(byPlace.stdout)[0] as {
      services: Record<string, { deploy: { resources: { reservations: { devices: { device_ids: string[] }[] } } } }>;
    };
    expect(doc.services[second.engine]?.deploy.resources.reservations.devices[0]?.device_ids).toHaveLength(
      second.gpus_per_node,
    );
  });

  test("slurm on the Slurm node: an sbatch script", async () => {
    const { code, stdout } = await run([CODER, "--cluster", SLURM, "--deploy", "slurm"]);
    expect(code).toBe(0);
    expect(stdout.split("\n").slice(0, 3)).toEqual([
      "#!/bin/bash",
      "#SBATCH --job-name=qwen2-5-coder-32b-instruct",
      "#SBATCH --nodes=1",
    ]);
  });

  test.each([
    [["--deploy", "helm"], '--deploy takes one of kubernetes, compose, slurm, not "helm"'],
    [
      ["--deploy", "slurm"],
      "--deploy slurm: the cluster was not imported from Slurm (no GRES type on the option's nodes), so its node ids are not known to be Slurm's: import `scontrol show node`, or use kubernetes or compose; this option can be deployed with --deploy kubernetes or compose",
    ],
    [["--deploy", "kubernetes", "--option", "99"], "--option 99: no such option; give 1 to"],
    [["--option", "1"], "--option chooses the option --deploy writes"],
  ])("%j: one line saying why and what can, exit code 2, nothing on stdout", async (extra, words) => {
    const { code, stdout, stderr } = await run([CODER, "--cluster", V100, ...extra]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toContain(words);
  });
});

test("--json: each option carries deploy_targets, with the reason where a kind does not apply", async () => {
  const out = JSON.parse((await run([CODER, "--cluster", V100, "--json"])).stdout) as JsonOut;
  for (const o of out.options) {
    expect(o.deploy_targets.map((t) => t.kind)).toEqual(["kubernetes", "compose", "slurm"]);
    expect(o.deploy_targets.slice(0, 2).every((t) => t.ok)).toBe(true);
    expect(o.deploy_targets[2]).toMatchObject({
      ok: false,
      reason: expect.stringContaining("not imported from Slurm") as unknown,
    });
  }
});
