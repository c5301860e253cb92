/**
 * The plan's commands read back into processes: environment, program and
 * arguments, and which node runs which. The arguments stay exactly the
 * plan's; a deployment only replaces what the commands leave as placeholders
 * (<head-node-ip>, a node's rank) with what its orchestrator provides.
 */
import { splitArgv, type Engine, type PlanOption } from "../plan/index.ts";
import { DeployError } from "./types.ts";

/** One process of a command entry. */
export interface Process {
  /** VAR=value words before the program (VLLM_ALLOW_…=1). */
  env: [name: string, value: string][];
  /** "vllm serve", "python -m sglang.launch_server", "llama-server", "rpc-server", "ray start". */
  program: string[];
  /** Everything after the program, as the plan wrote it. */
  args: string[];
}

/** How the option's processes map onto nodes. */
export type Layout =
  | { kind: "single"; serve: Process }
  /** vLLM's own multi-node launcher or SGLang: every node runs the serve program with its rank; rank 0 serves the API. */
  | { kind: "ranks"; ranks: Process[] }
  /** vLLM over Ray: a head and workers join Ray, then the head serves. */
  | { kind: "ray"; head: Process; workers: Process[]; serve: Process }
  /** llama.cpp RPC: rpc-server on every node but the head, llama-server on the head. */
  | { kind: "rpc"; workers: Process[]; head: Process };

const ENV_WORD = /^[A-Z_][A-Z0-9_]*=/;

/** One command entry (its node comment dropped) as a process. */
export function processOf(entry: string): Process {
  const words = splitArgv(entry);
  const env: [string, string][] = [];
  while (words[0] !== undefined && ENV_WORD.test(words[0])) {
    const word = words.shift() as string;
    const at = word.indexOf("=");
    env.push([word.slice(0, at), word.slice(at + 1)]);
  }
  const first = words[0];
  const length =
    first === "vllm" || first === "ray" || first === "ft"
      ? 2
      : (first === "python" || first === "python3") && words[1] === "-m"
        ? 3
        : 1;
  if (words.length < length)
    throw new DeployError(`cannot read the command ${JSON.stringify(entry)}: it names no program`);
  return { env, program: words.slice(0, length), args: words.slice(length) };
}

/** The option's processes, by role. */
export function layoutOf(option: PlanOption): Layout {
  const processes = option.commands.map(processOf);
  const nodes = Math.max(1, option.placement.nodes);
  const [first] = processes;
  if (first === undefined) throw new DeployError(`option ${option.id} has no command`);
  if (nodes === 1 && processes.length === 1) return { kind: "single", serve: first };
  if (first.program.join(" ") === "ray start") {
    const serve = processes[processes.length - 1] as Process;
    return { kind: "ray", head: first, workers: processes.slice(1, -1), serve };
  }
  if (option.engine === "llamacpp") {
    const head = processes[processes.length - 1] as Process;
    return { kind: "rpc", workers: processes.slice(0, -1), head };
  }
  return { kind: "ranks", ranks: processes };
}

/** The port each engine serves on by default, and what it takes to listen beyond localhost. */
export interface Listen {
  port: number;
  /** Arguments added to the plan's so the server is reachable from outside its container or node. */
  args: string[];
}

/**
 * vLLM serves on 0.0.0.0:8000 by default (its Docker docs publish -p 8000:8000
 * with no --host); SGLang on 127.0.0.1:30000 (server_args.py host/port
 * defaults); llama-server on 127.0.0.1:8080 (its server image sets
 * LLAMA_ARG_HOST=0.0.0.0, a bare host does not).
 */
export function listenOf(engine: Engine): Listen {
  switch (engine) {
    case "vllm":
      return { port: 8000, args: [] };
    case "sglang":
      return { port: 30000, args: ["--host", "0.0.0.0"] };
    case "llamacpp":
      return { port: 8080, args: ["--host", "0.0.0.0"] };
    case "freetoken":
      return { port: 8000, args: [] };
  }
}

/** The path every engine answers 200 on once the model is loaded: vLLM's and SGLang's /health, llama-server's /health (503 while loading). */
export const HEALTH_PATH = "/health";

/**
 * The arguments with a flag's value replaced (`--node-rank 1` → `--node-rank
 * $(LWS_WORKER_INDEX)`), or with `replace` applied to every word; a flag the
 * arguments lack is an error, so a command whose shape changed is not deployed half-wired.
 */
export function withFlag(args: readonly string[], flag: string, value: (old: string) => string): string[] {
  const at = args.indexOf(flag);
  const old = args[at + 1];
  if (at < 0 || old === undefined) throw new DeployError(`the command has no ${flag} value to wire: ${args.join(" ")}`);
  return [...args.slice(0, at + 1), value(old), ...args.slice(at + 2)];
}

/** The arguments without a flag and its value (absent: as they are). */
export function withoutFlag(args: readonly string[], flag: string): string[] {
  const at = args.indexOf(flag);
  return at < 0 ? [...args] : [...args.slice(0, at), ...args.slice(at + 2)];
}

/**
 * The arguments with the head's address where the command leaves its placeholder: vLLM's --master-addr,
 * or --data-parallel-address for a data-parallel engine over nodes (which runs without --nnodes); SGLang's
 * --dist-init-addr, which keeps its port.
 */
export function withHead(engine: Engine, args: readonly string[], address: string): string[] {
  if (engine !== "vllm") return withFlag(args, "--dist-init-addr", (v) => v.replace("<head-node-ip>", address));
  return withFlag(
    args,
    args.includes("--data-parallel-address") ? "--data-parallel-address" : "--master-addr",
    () => address,
  );
}

/** A placeholder the plan's commands leave for the user (<head-node-ip>, <node-2-ip>); none may reach a deployment. */
export const PLACEHOLDER = /<[a-z0-9-]+>/;

/** Throws when a word still holds a placeholder: a deployment must not start with one. */
export function assertWired(words: readonly string[]): void {
  const left = words.find((w) => PLACEHOLDER.test(w));
  if (left !== undefined)
    throw new DeployError(`"${left}" is still a placeholder: Modelplan does not know what to put there`);
}
