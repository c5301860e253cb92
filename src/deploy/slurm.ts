/**
 * Slurm, for clusters imported from it: one sbatch script that asks for the
 * option's nodes (by name) and cards (by GRES type when known), and starts
 * each node's process with srun, the head's address and each rank filled in
 * from the job's own node list.
 */
import { shellWord } from "../plan/index.ts";
import { header } from "./common.ts";
import { groupOn } from "./devices.ts";
import { inventoryName, objectName } from "./names.ts";
import { layoutOf, listenOf, withFlag, withHead, type Process } from "./serve.ts";
import { DeployError, type DeployInput, type Manifest } from "./types.ts";

/** Why the option cannot be an sbatch script, or null when it can. */
export function slurmProblem(input: DeployInput): string | null {
  const { option } = input;
  const ids = option.placement.nodeIds ?? [];
  // A CPU option names no node; the cluster still has to be Slurm's for the script to mean anything.
  const fromSlurm = option.placement.cpu
    ? input.plan.cluster.nodes.some((n) => n.devices.some((d) => d.gresType !== undefined))
    : ids.length > 0 && ids.every((_, i) => groupOn(option, input.plan.cluster, i)?.gresType !== undefined);
  if (!fromSlurm) {
    return "the cluster was not imported from Slurm (no GRES type on the option's nodes), so its node ids are not known to be Slurm's: import `scontrol show node`, or use kubernetes or compose";
  }
  if (option.commands[0]?.includes("ray start"))
    return "vLLM over Ray: the script is written for vLLM's own multi-node launcher (the plan's default); start Ray by hand, or use kubernetes";
  return null;
}

/** A word for the script: quoted for sh, with the script's own variables ($HEAD) expanded inside double quotes. */
function word(w: string): string {
  if (!w.includes("${")) return shellWord(w);
  // Only the ${NAME} references this script wrote expand; everything else is escaped for double quotes.
  return `"${w.replace(/(\$\{[A-Z_]+(\[\d+\])?\})|([\\"`$])/g, (m, ref: string | undefined) => (ref ? m : `\\${m}`))}"`;
}

function line(words: readonly string[]): string {
  return words.map(word).join(" ");
}

function env(p: Process): string[] {
  return p.env.map(([n, v]) => `${n}=${v}`);
}

export function slurmScript(input: DeployInput): Manifest {
  const problem = slurmProblem(input);
  if (problem !== null) throw new DeployError(`slurm: ${problem}`);
  const { option } = input;
  const p = option.placement;
  const nodes = Math.max(1, p.nodes);
  const ids = (p.nodeIds ?? []).map((id) => inventoryName("node", id));
  const gresType = p.cpu ? "" : inventoryName("gres", groupOn(option, input.plan.cluster, 0)?.gresType ?? "");
  const directives = [
    `--job-name=${objectName(input.plan.repo)}`,
    `--nodes=${nodes}`,
    "--ntasks-per-node=1",
    ...(p.cpu ? [] : [`--gres=gpu:${gresType ? `${gresType}:` : ""}${p.gpusPerNode}`]),
    ...(ids.length === nodes ? [`--nodelist=${ids.join(",")}`] : []),
  ];
  const listen = listenOf(option.engine);
  const layout = layoutOf(option);
  const body: string[] = [
    "set -euo pipefail",
    "# The job's nodes in order; the first is the head. Slurm sets CUDA_VISIBLE_DEVICES to the cards it allotted.",
    'mapfile -t NODES < <(scontrol show hostnames "$SLURM_JOB_NODELIST")',
    'HEAD="${NODES[0]}"',
  ];
  const on = (i: number, words: string[], background: boolean) =>
    `srun --nodes=1 --ntasks=1 --nodelist="\${NODES[${i}]}" ${line(words)}${background ? " &" : ""}`;
  switch (layout.kind) {
    case "single":
      body.push(on(0, [...env(layout.serve), ...layout.serve.program, ...layout.serve.args, ...listen.args], false));
      break;
    case "ranks":
      layout.ranks.forEach((proc, rank) => {
        let args = proc.args;
        args = withHead(option.engine, args, "${HEAD}");
        if (rank === 0) args = [...args, ...listen.args];
        body.push(on(rank, [...env(proc), ...proc.program, ...args], true));
      });
      body.push("wait");
      break;
    case "rpc":
      layout.workers.forEach((proc, i) => body.push(on(i + 1, [...env(proc), ...proc.program, ...proc.args], true)));
      {
        const args = withFlag(layout.head.args, "--rpc", (v) =>
          v.replace(/<node-(\d+)-ip>/g, (_, k: string) => `\${NODES[${Number(k) - 1}]}`),
        );
        // llama-server connects to every worker as it loads: wait until each rpc-server accepts.
        layout.workers.forEach((proc, i) => {
          const port = proc.args[proc.args.indexOf("-p") + 1] ?? "50052";
          body.push(`until (exec 3<>"/dev/tcp/\${NODES[${i + 1}]}/${Number(port)}") 2>/dev/null; do sleep 1; done`);
        });
        body.push(on(0, [...env(layout.head), ...layout.head.program, ...args, ...listen.args], false));
      }
      break;
    case "ray":
      throw new DeployError("slurm: vLLM over Ray is not written as a script");
  }
  const left = body.find((l) => /<[a-z0-9-]+>/.test(l));
  if (left !== undefined) throw new DeployError(`slurm: a placeholder is left in ${left}`);
  const notes = [
    "the Hub token comes from HF_TOKEN in the submitting shell (sbatch exports it) or ~/.cache/huggingface/token; never written here",
  ];
  const text = [
    "#!/bin/bash",
    ...directives.map((d) => `#SBATCH ${d}`),
    ...header(input, undefined, notes),
    ...body,
  ].join("\n");
  return { kind: "slurm", fileName: `${objectName(input.plan.repo)}.sbatch`, text: `${text}\n` };
}
