/**
 * The commands that start each option: what a user pastes on each
 * node, for the engine's current CLI.
 *
 * A wrong flag costs more than a missing one: vLLM, SGLang and FreeToken parse
 * with argparse and refuse an unknown or renamed flag at once, and llama.cpp's
 * common_arg parser does the same. So every flag below is one the engine's own
 * source defines at the version cited next to it, and test/plan/commands.test.ts
 * checks each emitted flag against a table copied from those sources
 * (test/fixtures/commands/engine-flags.json).
 *
 * Flags and the versions they were read at:
 *
 * vLLM 0.19 (the version of the calibration sweep, test/fixtures/calibration/), from
 * vllm/engine/arg_utils.py `EngineArgs.add_cli_args` and the serve subcommand:
 *   --tensor-parallel-size, --pipeline-parallel-size, --enable-expert-parallel,
 *   --max-model-len, --gpu-memory-utilization, --kv-cache-dtype, --max-num-seqs,
 *   --max-num-batched-tokens, --dtype, --quantization, --enforce-eager,
 *   --revision, --distributed-executor-backend (ParallelConfig/CacheConfig/
 *   ModelConfig/SchedulerConfig groups); for DeepSeek-V4, --kv-cache-dtype
 *   fp8_ds_mla and --tokenizer-mode deepseek_v4, which its recipes require.
 *   Multi-node without Ray: --nnodes, --node-rank, --master-addr (ParallelConfig
 *   group: absent from the 0.11 arg_utils.py, present in 2026 releases) and
 *   --headless on every node but the first, as docs/serving/distributed_serving.md
 *   "Running vLLM with MultiProcessing" shows it (vllm-project/vllm#30509,
 *   Dec 2025). An older vLLM needs the Ray form (vllmLauncher: "ray").
 *
 * SGLang (sgl-project/sglang main, 2026), python/sglang/srt/server_args.py,
 * where each flag is derived from a ServerArgs field name:
 *   --model-path, --revision, --tp-size, --pp-size, --ep-size, --nnodes,
 *   --node-rank, --dist-init-addr, --context-length, --mem-fraction-static,
 *   --kv-cache-dtype (choices auto|fp8_e5m2|fp8_e4m3|bf16|…: there is no plain
 *   "fp8"), --max-running-requests. The old --enable-ep-moe switch is gone:
 *   expert parallel is --ep-size alone.
 *
 * llama.cpp (ggml-org/llama.cpp, 2026 builds, common/arg.cpp):
 *   -hf/--hf-repo <user>/<model>[:quant], -m/--model, -c/--ctx-size,
 *   -np/--parallel, -ngl/--n-gpu-layers, -sm/--split-mode, -ts/--tensor-split,
 *   -ncmoe/--n-cpu-moe, -ctk/--cache-type-k, -ctv/--cache-type-v,
 *   -fa/--flash-attn [on|off|auto] (it takes a value since mid-2025: a bare -fa
 *   would swallow the next word), -ub/--ubatch-size, -b/--batch-size,
 *   -mm/--mmproj, --rpc.
 *   tools/rpc/README.md: `rpc-server -H 0.0.0.0 -p 50052` on each worker, and
 *   50052 is rpc-server's default port.
 *
 * FreeToken (FlashML-org/FreeToken, python/freetoken/server/args.py at commit
 * 03fb0438): `ft serve --model … --gpu … --max-seq-len-override …
 * --max-running-requests … --kv-reserve-tokens …` (its args tests:
 * `kv_reserve_tokens == 8192` by default). docs/notes/architectures.md §3 (written against
 * v0.1.2) says there is no GPU flag and the card comes from
 * CUDA_VISIBLE_DEVICES; the seed (docs/seed/gpus.go.txt) says `ft serve`
 * gets "the model, address, card and served name". The current source settles
 * it: args.py defines `--gpu` ("entry i is TP rank i", an nvidia-smi index or
 * a GPU UUID, resolved in gpu_select.py), so the command uses --gpu; on a
 * release as old as v0.1.2 the same card is chosen with
 * CUDA_VISIBLE_DEVICES=<index> instead.
 */
import { resolveSettings } from "./settings.ts";
import type { ModelShape } from "./shapeTypes.ts";
import type { Artifact, PlanOption, Workload } from "./types.ts";

export interface CommandContext {
  /** "owner/name" as the user gave it. */
  repo: string;
  /** A local directory the weights are in: engines load from it, not from `repo` (PlanInput.modelPath). */
  modelPath?: string;
  /** The commit the plan was made at; "" when unknown (a local directory, manual mode). */
  revision: string;
  artifact: Artifact;
  shape: ModelShape;
  workload: Workload;
  /**
   * The nodes the option runs on, first one the head, when the planner knows
   * them (Placement.nodeIds). Absent or short, the missing names become
   * placeholders such as <node-2>. Ids name nodes in comments only: every
   * address stays a placeholder (<head-node-ip>), never invented.
   */
  nodeIds?: string[];
  /** Each of those nodes' CPU cores as the cluster says them (cpu_cores), null where it does not: llama.cpp's -t. */
  nodeCpuCores?: (number | null)[];
  /** The card to run on, for single-card engines (FreeToken); absent means the first (0). */
  gpuIndex?: number;
  /** How a vLLM replica spans nodes: vLLM's own multiprocessing flags (default) or a Ray cluster. */
  vllmLauncher?: "native" | "ray";
}

/** What an engine is told to load: the local directory when there is one, else the Hub repo. */
export function modelSource(ctx: CommandContext): string {
  return ctx.modelPath ?? ctx.repo;
}

/** The option without its commands: what the planner has when it asks for them. */
export type CommandOption = Omit<PlanOption, "commands">;

/** A flag with its value, or a bare switch (value undefined). */
export type Arg = readonly [flag: string, value?: string | number];

/** Words a shell leaves alone; anything else is single-quoted. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A placeholder the user must replace (<head-node-ip>): left bare so it cannot run unnoticed. */
const PLACEHOLDER = /^<[a-z0-9-]+>(:\d+)?$/;

/** Words already quoted: a plan's commands repeat the same flags, repos and numbers over hundreds of options. */
const quoted = new Map<string, string>();

/** Quote a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  const known = quoted.get(word);
  if (known !== undefined) return known;
  const made = PLAIN_WORD.test(word) || PLACEHOLDER.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
  // Bounded: a long session's contexts and node names must not grow it without end.
  if (quoted.size >= 4096) quoted.clear();
  quoted.set(word, made);
  return made;
}

export function line(program: readonly string[], args: readonly Arg[]): string {
  // Words gathered and joined once: a string grown a word at a time is a tree of pieces the plan then keeps
  // (every option's commands), several times the bytes of the flat line the join makes.
  const words: string[] = [];
  for (const word of program) words.push(shellWord(word));
  for (const [flag, value] of args) {
    words.push(shellWord(flag));
    // A number's digits, sign, point and exponent are all plain words.
    if (value !== undefined) words.push(typeof value === "number" ? String(value) : shellWord(value));
  }
  return words.join(" ");
}

export function named(name: string, command: string): string {
  return `# ${name}\n${command}`;
}

/** The name of the i-th node of the option: its id when known, else a placeholder. */
export function nodeName(ctx: CommandContext, index: number): string {
  // An id is printed in a comment line: a line break in it would end the comment.
  return ctx.nodeIds?.[index]?.replace(/[\r\n]+/g, " ") ?? `<node-${index + 1}>`;
}

/**
 * Where the other nodes reach the head: always a placeholder. A node's id
 * names it in the inventory, which is not an address the other nodes can
 * reach; an address is never invented.
 */
export function headAddress(): string {
  return "<head-node-ip>";
}

/** The address of the i-th node (0 is the head): a placeholder for the same reason. */
export function nodeAddress(index: number): string {
  return index === 0 ? headAddress() : `<node-${index + 1}-ip>`;
}

/**
 * The share of the card the engine is told to take (vLLM's utilization,
 * SGLang's static fraction): the user's setting, else the engine default the
 * plan itself used for this card (settings.ts), so the command asks for
 * exactly what the plan checked.
 */
export function cardFraction(
  option: CommandOption,
  workload: Workload,
  which: "gpuMemoryUtilization" | "memFractionStatic",
): number | undefined {
  const card = option.cards[option.worstCardIndex ?? 0];
  if (!card) return undefined;
  const p = option.placement;
  const fraction = resolveSettings(
    option.engine,
    card.physicalBytes,
    workload.settings,
    p.tensorParallel,
    workload.sequences,
  )[which];
  if (!Number.isFinite(fraction) || fraction <= 0) return undefined;
  // Round down at the third decimal (past float noise): asking for a hair
  // less than planned is safe, a hair more could fail vLLM's own free-memory
  // check at startup.
  return Math.floor(fraction * 1000 + 1e-6) / 1000;
}

export function pushFraction(args: Arg[], flag: string, fraction: number | undefined): void {
  if (fraction !== undefined) args.push([flag, fraction]);
}

export function sequences(workload: Workload): number {
  return Math.max(1, Math.floor(workload.sequences));
}

// ---------------------------------------------------------------------------
// vLLM

/**
 * Split one command entry back into its words, as a POSIX shell would:
 * single and double quotes, backslash escapes and line continuations; a `#`
 * at the start of a word comments out the rest of its line. An entry of
 * several lines (a named node's comment, then its command) gives the words of
 * its command. Throws on an unterminated quote, naming where it opened.
 */
export function splitArgv(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const flush = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  while (i < command.length) {
    const c = command[i] as string;
    if (c === "\\" && command[i + 1] === "\n") {
      i += 2;
    } else if (c === " " || c === "\t" || c === "\n") {
      flush();
      i += 1;
    } else if (c === "#" && !inWord) {
      while (i < command.length && command[i] !== "\n") i += 1;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' quote opened at character ${i + 1}`);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i = readDoubleQuoted(command, i, (text) => (word += text));
      inWord = true;
    } else if (c === "\\") {
      word += command[i + 1] ?? "";
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  flush();
  return words;
}

/** Read a "…" string from `start`; backslash escapes only $ ` " \ and newline there, as in sh. */
function readDoubleQuoted(command: string, start: number, append: (text: string) => void): number {
  let i = start + 1;
  while (i < command.length && command[i] !== '"') {
    const c = command[i] as string;
    const next = command[i + 1];
    if (c === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== "\n") append(next);
      i += 2;
    } else {
      append(c);
      i += 1;
    }
  }
  if (i >= command.length) throw new Error(`unterminated " quote opened at character ${start + 1}`);
  return i + 1;
}
