/**
 * `npm run cluster -- <file> [--json]`
 *
 * Reads a cluster inventory with the page's own importers and says what it
 * read. See HELP.
 */
import { basename } from "node:path";
import { importCluster } from "../src/cluster/import.ts";
import { clusterToJson } from "../src/cluster/json.ts";
import { formatMessage, type ImportResult } from "../src/cluster/messages.ts";
import { InputError, readInventoryFile, readInventoryStdin } from "./lib/input.ts";
import { firstLines, printable, printableLines } from "./lib/printable.ts";
import type { DeviceGroup } from "../src/plan/index.ts";

/** Exit code for anything the user gave that cannot be read: a bad flag, path or file. */
const EXIT_INPUT = 2;

export const HELP = `Usage: npm run cluster -- <file> [--json]

Reads a cluster inventory with the same importers as the page, and prints
what it read and what it could not.

<file>   a path, or - for standard input. Formats, recognised by content:
         Modelplan's cluster JSON or YAML, CSV, nvidia-smi (the table, -L,
         --query-gpu=... --format=csv, mig -lgi), rocm-smi, kubectl get nodes
         -o json|yaml, kubectl describe node, Slurm scontrol show node / sinfo
         / slurm.conf, ray status.
--json   print a JSON object instead of the summary:
           { "format": "nvidia-smi",
             "summary": "1 node, 8 GPUs of 1 class; host RAM unknown: set it",
             "cluster": { "nodes": [ { "id", "fabric", "host_mem_gib",
                          "host_free_gib", "fabric_gbps"?, "host_mem_gbps"?, "cpu_cores"?,
                          "devices": [ { "class", "count", "free",
                          "mem_gib"?, "mem_gbps"?, "bf16_tflops"?,
                          "mem_kind"? } ] } ] },
             "warnings": [ { "message", "line"?, "node"?, "field"? } ] }
         "cluster" is Modelplan's cluster JSON, the file
         \`npm run plan -- <model> --cluster <file>\` takes.
--help   this text.

Exit codes: 0 when a cluster was read; 2 when the file cannot be read or
holds no usable cluster (the messages go to standard error, with line
numbers where they have one).
`;

interface Args {
  file: string;
  json: boolean;
}

function parseArgs(argv: string[]): Args | "help" | string {
  let file: string | undefined;
  let json = false;
  for (const arg of argv) {
    if (arg === "--help" || arg === "-h") return "help";
    else if (arg === "--json") json = true;
    else if (arg.startsWith("-") && arg !== "-") return `unknown flag ${arg}: see --help`;
    else if (file === undefined) file = arg;
    else return `one file at a time: ${file} and ${arg} given`;
  }
  if (file === undefined) return "no file given: npm run cluster -- <file> [--json]";
  return { file, json };
}

function report(result: ImportResult, json: boolean): string {
  if (json) {
    const cluster = result.cluster ? (JSON.parse(clusterToJson(result.cluster)) as unknown) : null;
    return `${JSON.stringify({ format: result.format, summary: result.summary, cluster, warnings: result.warnings }, null, 2)}\n`;
  }
  const lines = [`${result.format}: ${result.summary}`];
  for (const node of result.cluster?.nodes ?? []) {
    const cards =
      node.devices.length === 0
        ? "CPU only"
        : node.devices.map((d) => `${d.count} × ${printable(d.class)}${ownFigures(d)}, ${d.free} free`).join("; ");
    const ram = node.hostMemGib > 0 ? `, ${node.hostMemGib} GiB RAM (${node.hostFreeGib} free)` : "";
    const ramSpeed =
      (node.hostMemGBps !== undefined ? ` at ${node.hostMemGBps} GB/s` : "") +
      (node.cpuCores !== undefined ? `, ${node.cpuCores} CPU cores` : "");
    const fabricSpeed = node.fabricGbps !== undefined ? ` (${node.fabricGbps} Gbit/s)` : "";
    const fabric = node.fabric ? ` on ${printable(node.fabric)}${fabricSpeed}` : fabricSpeed;
    lines.push(`  ${printable(node.id)}${fabric}: ${cards}${ram}${ramSpeed}`);
  }
  lines.push(...firstLines(result.warnings.map(formatMessage), "warning: "));
  // Ids, classes and cell values inside the messages came from the file too.
  return `${printableLines(lines.join("\n"))}\n`;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  if (typeof args === "string") {
    process.stderr.write(`cluster: ${printableLines(args)}\n`);
    return EXIT_INPUT;
  }
  const file = printable(args.file);
  let text: string;
  try {
    text = args.file === "-" ? await readInventoryStdin() : await readInventoryFile(args.file);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    process.stderr.write(`cluster: cannot read ${file}: ${err.message}\n`);
    return EXIT_INPUT;
  }
  const result = importCluster(text, args.file === "-" ? undefined : basename(args.file));
  if (!result.cluster) {
    const head = `cluster: ${file}: nothing imported (${result.format})`;
    const [only] = result.errors;
    // One problem is one line; several are listed under the first line, at most MAX_MESSAGES_SHOWN of them.
    const shown =
      result.errors.length === 1 && only
        ? [`${head}: ${formatMessage(only)}`]
        : [head, ...firstLines(result.errors.map(formatMessage), "  ")];
    process.stderr.write(`${printableLines(shown.join("\n"))}\n`);
    return EXIT_INPUT;
  }
  process.stdout.write(report(result, args.json));
  return 0;
}

process.exitCode = await main(process.argv.slice(2)).catch((err: unknown) => {
  // A bug of ours still ends in one line, not a stack trace the user has to read.
  process.stderr.write(
    `cluster: internal error, please report it: ${printableLines(err instanceof Error ? err.message : String(err))}\n`,
  );
  return 1;
});

/** What a group says of its cards beyond the class: " (20 GiB, 448 GB/s, 59.8 BF16 TFLOPS, gddr)", or "". */
function ownFigures(d: DeviceGroup): string {
  const said = [
    d.memGib !== undefined ? `${d.memGib} GiB` : "",
    d.memGBps !== undefined ? `${d.memGBps} GB/s` : "",
    d.bf16Tflops !== undefined ? `${d.bf16Tflops} BF16 TFLOPS` : "",
    d.memKind ?? "",
  ].filter((s) => s !== "");
  return said.length === 0 ? "" : ` (${said.join(", ")})`;
}
