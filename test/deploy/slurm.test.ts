/**
 * sbatch scripts for clusters read from Slurm: the Lambda Hyperplane node
 * (scontrol show node, Gres=gpu:a100:8). Each script is parsed by bash
 * itself (`bash -n`), and each srun line read back word by word.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { duplicateNode, updateNode } from "../../src/cluster/model.ts";
import { deploy, DeployError } from "../../src/deploy/index.ts";
import { DEFAULT_WORKLOAD, plan, readModel, splitArgv, type Cluster } from "../../src/plan/index.ts";
import { snapshotOf } from "../plan/fixture.ts";
import { inventory, optionOf, planOf, spread } from "./fixtures.ts";

const CODER = "Qwen/Qwen2.5-Coder-32B-Instruct";
const R1_GGUF = "unsloth/DeepSeek-R1-GGUF";
const LAMBDA = "scontrol-show-node-a100-8gpu-idle-1.txt";
const work = mkdtempSync(join(tmpdir(), "modelplan-sbatch-"));

/** bash's own parse of the script: a quoting mistake is a syntax error here. */
function bashParses(script: string): void {
  const file = join(work, "job.sbatch");
  writeFileSync(file, script);
  execFileSync("bash", ["-n", file]);
}

function directives(script: string): string[] {
  return script
    .split("\n")
    .filter((l) => l.startsWith("#SBATCH "))
    .map((l) => l.slice("#SBATCH ".length));
}

/** The srun lines, each as the words its command runs (srun's own flags and a trailing & cut). */
function sruns(script: string): string[][] {
  return script
    .split("\n")
    .filter((l) => l.startsWith("srun "))
    .map((l) => {
      const words = splitArgv(l.replace(/ &$/, ""));
      return words.slice(words.findIndex((w) => w.startsWith("--nodelist=")) + 1);
    });
}

/** The Lambda node cut to one card, duplicated onto one fabric: two nodes a replica must span. */
function twoOneCardNodes(): Cluster {
  let c = duplicateNode(
    inventory(LAMBDA, (t) => t.replaceAll("gpu:a100:8", "gpu:a100:1")),
    0,
    1,
  );
  c.nodes.forEach((_, i) => (c = updateNode(c, i, { fabric: "ib0" })));
  return c;
}

describe("Slurm", () => {
  test("one node: --nodes, --gres by GRES type and count, --nodelist by name, srun running the plan's command", async () => {
    const p = await planOf(CODER, inventory(LAMBDA));
    for (const option of p.options) {
      const script = deploy("slurm", { option, plan: p }).text;
      bashParses(script);
      expect(directives(script)).toEqual([
        "--job-name=qwen2-5-coder-32b-instruct",
        "--nodes=1",
        "--ntasks-per-node=1",
        `--gres=gpu:a100:${option.placement.gpusPerNode}`,
        "--nodelist=lambda-hyperplane01",
      ]);
      const listen = option.engine === "vllm" ? [] : ["--host", "0.0.0.0"];
      expect(sruns(script)).toEqual([[...splitArgv(option.commands[0] ?? ""), ...listen]]);
      expect(script).not.toMatch(/hf_[A-Za-z0-9]{6}/);
    }
  });

  test("two nodes: one srun per node with the plan's rank, the head's address from the job's own node list", async () => {
    const cluster = twoOneCardNodes();
    const p = await planOf(CODER, cluster);
    const option = optionOf(p, (o) => o.engine === "vllm" && o.placement.nodes === 2, "two-node vLLM option");
    const script = deploy("slurm", { option, plan: p }).text;
    bashParses(script);
    expect(directives(script)).toContain(`--nodelist=${cluster.nodes.map((n) => n.id).join(",")}`);
    expect(directives(script)).toContain("--gres=gpu:a100:1");
    const lines = sruns(script);
    expect(lines).toHaveLength(2);
    lines.forEach((words, rank) => {
      const plan = splitArgv(option.commands[rank] ?? "");
      // Word for word the plan's, but --master-addr: splitArgv leaves the variable as written, for the shell to expand.
      expect(words).toEqual(plan.map((w, i) => (plan[i - 1] === "--master-addr" ? "${HEAD}" : w)));
      expect(words[words.indexOf("--node-rank") + 1]).toBe(String(rank));
    });
    expect(script).toMatch(/^mapfile -t NODES < <\(scontrol show hostnames "\$SLURM_JOB_NODELIST"\)$/m);
    expect(script.trimEnd().endsWith("wait")).toBe(true);
  });

  test("vLLM's DP engine over four Lambda nodes: the plan's commands, --data-parallel-address the job's head", () => {
    // DeepSeek-R1's recorded file list (641 GiB) on four nodes of 8 × A100 40 GB: one DP engine with EP.
    let cluster = duplicateNode(inventory(LAMBDA), 0, 3);
    cluster.nodes.forEach((_, i) => (cluster = updateNode(cluster, i, { fabric: "ib0" })));
    const s = snapshotOf("deepseek-ai__DeepSeek-R1");
    const { shape, artifacts } = readModel(s);
    const p = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, DEFAULT_WORKLOAD);
    const option = optionOf(
      p,
      (o) => (o.placement.dataParallel ?? 1) > 1 && o.placement.nodes > 1,
      "a DP engine over nodes",
    );
    const script = deploy("slurm", { option, plan: p }).text;
    bashParses(script);
    expect(directives(script)).toContain("--gres=gpu:a100:8");
    const lines = sruns(script);
    expect(lines).toHaveLength(option.placement.nodes);
    lines.forEach((words, rank) => {
      const planned = splitArgv(option.commands[rank] ?? "");
      expect(words).toEqual(planned.map((w, i) => (planned[i - 1] === "--data-parallel-address" ? "${HEAD}" : w)));
      expect(words.includes("--headless")).toBe(rank > 0);
    });
  });

  test("llama.cpp RPC: rpc-server on the workers, llama-server on the head once each worker accepts, --rpc naming the workers", async () => {
    const cluster = twoOneCardNodes();
    const p = await planOf(R1_GGUF, cluster);
    const one = optionOf(p, (o) => o.engine === "llamacpp" && o.placement.cpu, "llama.cpp option");
    const gpu = {
      ...one,
      placement: { ...one.placement, cpu: false, gpuClass: "a100-40g", gpusPerNode: 1, gpuLayers: -1 },
    };
    const option = spread(
      p,
      gpu,
      cluster.nodes.map((n) => n.id),
    );
    const script = deploy("slurm", { option, plan: p }).text;
    bashParses(script);
    const lines = sruns(script);
    expect(lines[0]).toEqual(splitArgv(option.commands[0] ?? ""));
    const head = lines[1] ?? [];
    expect(head[head.indexOf("--rpc") + 1]).toBe("${NODES[1]}:50052");
    expect(script).toContain('until (exec 3<>"/dev/tcp/${NODES[1]}/50052") 2>/dev/null; do sleep 1; done');
  });

  test("a cluster not read from Slurm is refused, saying what to import or use instead", async () => {
    const p = await planOf(CODER, inventory("nvidia-smi-h100-sxm-80g-1.txt"));
    expect(() => deploy("slurm", { option: p.options[0]!, plan: p })).toThrow(
      /^slurm: the cluster was not imported from Slurm .*import `scontrol show node`, or use kubernetes or compose$/,
    );
  });

  test("a node id that could inject shell is refused, not quoted into the script", async () => {
    const lambda = inventory(LAMBDA);
    const cluster = updateNode(lambda, 0, { id: "gpu1;reboot" });
    const p = await planOf(CODER, cluster);
    expect(() => deploy("slurm", { option: p.options[0]!, plan: p })).toThrow(DeployError);
    expect(() => deploy("slurm", { option: p.options[0]!, plan: p })).toThrow(
      /node id "gpu1;reboot" holds characters a manifest or script cannot carry safely/,
    );
  });
});
