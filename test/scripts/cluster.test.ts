import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = (name: string) => `test/fixtures/inventory/${name}`;

/** Runs the command as a user does (npm run cluster runs tsx scripts/cluster.ts), from the project's root. */
function run(args: string[], input?: string) {
  const out = spawnSync(`${root}node_modules/.bin/tsx`, ["scripts/cluster.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    input,
    timeout: 30_000,
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("npm run cluster", { timeout: 60_000 }, () => {
  test("prints what it read from an nvidia-smi table", () => {
    const { code, stdout } = run([fixture("nvidia-smi-h100-sxm-80g-1.txt")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^nvidia-smi: 1 node, 8 GPUs of 1 class; host RAM unknown: set it\n {2}node-1: 8 × h100-80g, 8 free\n/,
    );
    expect(stdout).toMatch(/warning: nvidia-smi does not print the host name/);
  });

  test("--json prints Modelplan's cluster JSON and the warnings; the JSON reads back to the same cluster", () => {
    const { code, stdout } = run([fixture("scontrol-show-node-rtx3090-drain-1.txt"), "--json"]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as {
      format: string;
      cluster: unknown;
      warnings: { message: string; line?: number }[];
    };
    expect(out.format).toBe("slurm scontrol show node");
    expect(out.cluster).toEqual({
      // gres_type: the node's Gres=gpu:nvidia-rtx-3090:1, what an sbatch script asks for.
      nodes: [
        {
          id: "yigou-dev-102-68",
          fabric: "",
          host_mem_gib: 0,
          host_free_gib: 0,
          devices: [{ class: "rtx3090-24g", count: 1, free: 0, gres_type: "nvidia-rtx-3090" }],
        },
      ],
    });
    expect(out.warnings.some((w) => /IDLE\+DRAIN/.test(w.message))).toBe(true);
    expect(importCluster(JSON.stringify(out.cluster)).cluster?.nodes[0]?.devices).toEqual([
      { class: "rtx3090-24g", count: 1, free: 0, gresType: "nvidia-rtx-3090" },
    ]);
  });

  // A cluster file as a user writes it for issue 12: two DGX H100 on 400G InfiniBand (ConnectX-7, a NIC a card),
  // an EPYC server with 12 channels of DDR5-4800 (12 × 38.4 = 460.8 GB/s).
  const wires = [
    "nodes:",
    "  - { id: dgx-1, fabric: ib0, fabric_gbps: 400, host_mem_gib: 2048, host_free_gib: 1900,",
    "      devices: [{ class: h100-80g, count: 8, free: 8 }] }",
    "  - { id: epyc-1, host_mem_gib: 768, host_free_gib: 700, host_mem_gbps: 460.8, devices: [] }",
    "",
  ].join("\n");

  test("a YAML file's fabric_gbps and host_mem_gbps are read, printed, and carried in --json", () => {
    const text = run(["-"], wires);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("  dgx-1 on ib0 (400 Gbit/s): 8 × h100-80g, 8 free, 2048 GiB RAM (1900 free)\n");
    expect(text.stdout).toContain("  epyc-1: CPU only, 768 GiB RAM (700 free) at 460.8 GB/s\n");
    const json = JSON.parse(run(["-", "--json"], wires).stdout) as { cluster: { nodes: Record<string, unknown>[] } };
    expect(json.cluster.nodes[0]).toMatchObject({ fabric_gbps: 400 });
    expect(json.cluster.nodes[1]).toMatchObject({ host_mem_gbps: 460.8 });
  });

  test("a fabric_gbps of -400 is refused at its line, in words", () => {
    const { code, stderr } = run(["-"], wires.replace("fabric_gbps: 400", "fabric_gbps: -400"));
    expect(code).toBe(2);
    expect(stderr).toMatch(/line 2: .*the fabric's speed \(fabric_gbps\) must be above 0: leave it out when unknown/);
  });

  test("a file it cannot read: exit 2 and the reason", () => {
    const { code, stderr, stdout } = run(["no/such/cluster.json"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("cluster: cannot read no/such/cluster.json: no such file\n");
  });

  test("a file with no usable cluster: exit 2 and the messages with their lines", () => {
    const bad =
      '{ "nodes": [\n  { "id": "a", "host_mem_gib": 64, "host_free_gib": 64,\n    "devices": [ { "class": "h100-80g", "count": 2, "free": 5 } ] }\n] }\n';
    const { code, stderr } = run(["-"], bad);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /nothing imported \(modelplan-json\): line 3: Node 1 \(a\), h100-80g: 5 free of 2 cards: give at most 2\n$/,
    );
  });

  test("several problems: listed under one line, one each", () => {
    const bad =
      '{ "nodes": [\n  { "id": "a", "host_mem_gib": -1,\n    "devices": [ { "class": "h100-80g", "count": "2", "free": 1 } ] }\n] }\n';
    const { code, stderr } = run(["-"], bad);
    expect(code).toBe(2);
    expect(stderr.split("\n").slice(0, 2)).toEqual([
      "cluster: -: nothing imported (modelplan-json)",
      expect.stringMatching(/^ {2}line 2: Node 1 \(a\): the RAM is negative/),
    ]);
  });

  test("lgip is refused, saying what to paste instead", () => {
    const { code, stderr } = run([fixture("nvidia-smi-mig-lgip-h100-sxm-80g-1.txt")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/paste `nvidia-smi -L`/);
  });

  test("--help documents --json; a stray flag is exit 2", () => {
    const help = run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--json {3}print a JSON object/);
    const stray = run(["--yaml", fixture("nvidia-smi-l40s-1.txt")]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toBe("cluster: unknown flag --yaml: see --help\n");
  });

  test("the same warning on 2,000 nodes: ten lines and a count, not 2,000", () => {
    const nodes = Array.from({ length: 2000 }, (_, i) => ({
      id: `n${i}`,
      host_mem_gib: 64,
      host_free_gib: 64,
      rack: "r1",
      devices: [],
    }));
    const { code, stdout } = run(["-"], JSON.stringify({ nodes }));
    expect(code).toBe(0);
    const warnings = stdout.split("\n").filter((l) => l.startsWith("warning: "));
    expect(warnings).toHaveLength(11);
    expect(warnings.at(-1)).toBe("warning: … and 1,990 more");
  });
});
