/**
 * The commands that start each option (issue 6): what a user pastes on each
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
 * vLLM 0.19 (the version of the calibration sweep, shared/calibration/), from
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
 * `kv_reserve_tokens == 8192` by default). shared/notes/architectures.md §3 (written against
 * v0.1.2) says there is no GPU flag and the card comes from
 * CUDA_VISIBLE_DEVICES; the seed (shared/seeds/gpus.go.txt) says `ft serve`
 * gets "the model, address, card and served name". The current source settles
 * it: args.py defines `--gpu` ("entry i is TP rank i", an nvidia-smi index or
 * a GPU UUID, resolved in gpu_select.py), so the command uses --gpu; on a
 * release as old as v0.1.2 the same card is chosen with
 * CUDA_VISIBLE_DEVICES=<index> instead.
 */
import { resolveSettings } from "./settings.ts";
import { VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT } from "./kv.ts";
import { FREETOKEN_KV_RESERVE_TOKENS, FREETOKEN_MAX_RUNNING_REQUESTS, freetokenReserveTokens } from "./memory.ts";
import type { Artifact, ModelShape, PlanOption, Workload } from "./types.ts";

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
  /** The card to run on, for single-card engines (FreeToken); absent means the first (0). */
  gpuIndex?: number;
  /** How a vLLM replica spans nodes: vLLM's own multiprocessing flags (default) or a Ray cluster. */
  vllmLauncher?: "native" | "ray";
}

/** What an engine is told to load: the local directory when there is one, else the Hub repo. */
function modelSource(ctx: CommandContext): string {
  return ctx.modelPath ?? ctx.repo;
}

/** The option without its commands: what the planner has when it asks for them. */
export type CommandOption = Omit<PlanOption, "commands">;

/**
 * The command lines that start an option: one entry per process, and across
 * nodes one per node. A multi-node entry starts with a shell comment naming
 * its node ("# node-a (head)"), so a pasted block says where it belongs and
 * still runs as it is.
 */
export function commandsFor(option: CommandOption, ctx: CommandContext): string[] {
  switch (option.engine) {
    case "vllm":
      return vllmCommands(option, ctx);
    case "sglang":
      return sglangCommands(option, ctx);
    case "llamacpp":
      return llamacppCommands(option, ctx);
    case "freetoken":
      return [freetokenCommand(option, ctx)];
  }
}

// ---------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------

/** A flag with its value, or a bare switch (value undefined). */
type Arg = readonly [flag: string, value?: string | number];

/** Words a shell leaves alone; anything else is single-quoted. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** A placeholder the user must replace (<head-node-ip>): left bare so it cannot run unnoticed. */
const PLACEHOLDER = /^<[a-z0-9-]+>(:\d+)?$/;

/** Quote a word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  if (PLAIN_WORD.test(word) || PLACEHOLDER.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function line(program: readonly string[], args: readonly Arg[]): string {
  const words = [...program];
  for (const [flag, value] of args) {
    words.push(flag);
    if (value !== undefined) words.push(String(value));
  }
  return words.map(shellWord).join(" ");
}

function named(name: string, command: string): string {
  return `# ${name}\n${command}`;
}

/** The name of the i-th node of the option: its id when known, else a placeholder. */
function nodeName(ctx: CommandContext, index: number): string {
  // An id is printed in a comment line: a line break in it would end the comment.
  return ctx.nodeIds?.[index]?.replace(/[\r\n]+/g, " ") ?? `<node-${index + 1}>`;
}

/**
 * Where the other nodes reach the head: always a placeholder. A node's id
 * names it in the inventory, which is not an address the other nodes can
 * reach; an address is never invented.
 */
function headAddress(): string {
  return "<head-node-ip>";
}

/** The address of the i-th node (0 is the head): a placeholder for the same reason. */
function nodeAddress(index: number): string {
  return index === 0 ? headAddress() : `<node-${index + 1}-ip>`;
}

/**
 * The share of the card the engine is told to take (vLLM's utilization,
 * SGLang's static fraction): the user's setting, else the engine default the
 * plan itself used for this card (settings.ts), so the command asks for
 * exactly what the plan checked.
 */
function cardFraction(option: CommandOption, workload: Workload, which: "gpuMemoryUtilization" | "memFractionStatic"): number | undefined {
  const card = option.cards[option.worstCardIndex ?? 0];
  if (!card) return undefined;
  const p = option.placement;
  const fraction = resolveSettings(option.engine, card.physicalBytes, workload.settings, p.tensorParallel, workload.sequences)[which];
  if (!Number.isFinite(fraction) || fraction <= 0) return undefined;
  // Round down at the third decimal (past float noise): asking for a hair
  // less than planned is safe, a hair more could fail vLLM's own free-memory
  // check at startup.
  return Math.floor(fraction * 1000 + 1e-6) / 1000;
}

function pushFraction(args: Arg[], flag: string, fraction: number | undefined): void {
  if (fraction !== undefined) args.push([flag, fraction]);
}

function sequences(workload: Workload): number {
  return Math.max(1, Math.floor(workload.sequences));
}

// ---------------------------------------------------------------------------
// vLLM
// ---------------------------------------------------------------------------

function vllmServeArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { placement } = option;
  const { workload } = ctx;
  const settings = workload.settings;
  const args: Arg[] = [];
  if (ctx.revision !== "") args.push(["--revision", ctx.revision]);
  args.push(["--tensor-parallel-size", placement.tensorParallel]);
  if (placement.pipelineParallel > 1) args.push(["--pipeline-parallel-size", placement.pipelineParallel]);
  if (placement.expertParallel) args.push(["--enable-expert-parallel"]);
  args.push(["--max-model-len", workload.contextTokens]);
  // Only the user's own utilization. Without one the plan holds for the release's own default
  // (0.9 through 0.20, 0.92 from 0.21 with the CUDA-graph estimate inside it, settings.ts); pinning
  // the older 0.9 on a 0.21+ engine would shrink its pool below what was planned.
  if (settings.gpuMemoryUtilization !== undefined) pushFraction(args, "--gpu-memory-utilization", cardFraction(option, workload, "gpuMemoryUtilization"));
  if (ctx.shape.layerCaches.some((l) => l.kind === "compressed-mla")) {
    // DeepSeek-V4: its compressed cache exists only in the fp8_ds_mla layout the plan sized (kv.ts, 584-B
    // slots), and its tokenizer is its own; both flags are required ("--kv-cache-dtype fp8_ds_mla and
    // --tokenizer-mode deepseek_v4 are required for this model", the V4-Flash recipes).
    args.push(["--kv-cache-dtype", "fp8_ds_mla"], ["--tokenizer-mode", "deepseek_v4"]);
  } else if (workload.kvDtype === "fp8") args.push(["--kv-cache-dtype", "fp8"]);
  // Only the user's own cap: the plan sized vLLM's sampler warm-up with
  // max_num_seqs as settings.ts resolves it, so a cap taken from `sequences`
  // would start a different engine from the one planned (a larger one could
  // OOM in the warm-up, as gpt-oss-20b did at 0.95 in the calibration set).
  if (settings.maxNumSeqs !== undefined) args.push(["--max-num-seqs", settings.maxNumSeqs]);
  if (settings.maxNumBatchedTokens !== undefined) args.push(["--max-num-batched-tokens", settings.maxNumBatchedTokens]);
  if (settings.dtype !== undefined && settings.dtype !== "auto") args.push(["--dtype", settings.dtype]);
  if (settings.quantization !== undefined) args.push(["--quantization", settings.quantization]);
  if (settings.enforceEager === true) args.push(["--enforce-eager"]);
  return args;
}

/**
 * The environment a vLLM command needs: VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE
 * when the user's choice for a chunked-local model (Llama-4) differs from the
 * default of the vLLM the plan models (kv.ts), which the plan sized by.
 */
function vllmEnvironment(ctx: CommandContext): string[] {
  const wanted = ctx.workload.settings.vllmChunkedLocalHybridKv;
  if (wanted === undefined || wanted === VLLM_CHUNKED_LOCAL_HYBRID_DEFAULT) return [];
  if (!ctx.shape.layerCaches.some((l) => l.kind === "sliding" && l.chunked === true)) return [];
  return [`VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=${wanted ? 1 : 0}`];
}

function vllmCommands(option: CommandOption, ctx: CommandContext): string[] {
  const serve = [...vllmEnvironment(ctx), "vllm", "serve", modelSource(ctx)];
  const args = vllmServeArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(serve, args)];
  if (ctx.vllmLauncher === "ray") return vllmRayCommands(serve, args, nodes, ctx);
  return Array.from({ length: nodes }, (_, rank) => {
    const multi: Arg[] = [["--nnodes", nodes], ["--node-rank", rank], ["--master-addr", headAddress()]];
    // Every node but the head runs only workers: no API server of its own.
    if (rank > 0) multi.push(["--headless"]);
    const role = rank === 0 ? "head, serves the API" : `worker ${rank}`;
    return named(`${nodeName(ctx, rank)} (${role})`, line(serve, [...args, ...multi]));
  });
}

/**
 * Ray's default GCS port (ray start --head --port, default 6379; the port
 * vLLM's examples/online_serving/multi-node-serving.sh uses).
 */
const RAY_PORT = 6379;

function vllmRayCommands(serve: string[], args: Arg[], nodes: number, ctx: CommandContext): string[] {
  const head = named(`${nodeName(ctx, 0)} (head: Ray)`, line(["ray", "start"], [["--head"], ["--port", RAY_PORT]]));
  const workers = Array.from({ length: nodes - 1 }, (_, i) =>
    named(`${nodeName(ctx, i + 1)} (worker: joins Ray)`, line(["ray", "start"], [["--address", `${headAddress()}:${RAY_PORT}`]])),
  );
  const start = named(`${nodeName(ctx, 0)} (head, once every node has joined)`, line(serve, [...args, ["--distributed-executor-backend", "ray"]]));
  return [head, ...workers, start];
}

// ---------------------------------------------------------------------------
// SGLang
// ---------------------------------------------------------------------------

/** The example port of server_args.py's --dist-init-addr help ("192.168.0.2:25000"). */
const SGLANG_DIST_PORT = 25000;

function sglangArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { placement } = option;
  const { workload } = ctx;
  const args: Arg[] = [["--model-path", modelSource(ctx)]];
  if (ctx.revision !== "") args.push(["--revision", ctx.revision]);
  args.push(["--tp-size", placement.tensorParallel]);
  if (placement.pipelineParallel > 1) args.push(["--pp-size", placement.pipelineParallel]);
  // SGLang's MoE layers run expert parallel over the same ranks as tensor
  // parallel when --ep-size equals the TP width.
  if (placement.expertParallel) args.push(["--ep-size", placement.tensorParallel]);
  args.push(["--context-length", workload.contextTokens]);
  pushFraction(args, "--mem-fraction-static", cardFraction(option, workload, "memFractionStatic"));
  if (workload.kvDtype === "fp8") args.push(["--kv-cache-dtype", "fp8_e4m3"]);
  if (sequences(workload) > 1) args.push(["--max-running-requests", sequences(workload)]);
  return args;
}

function sglangCommands(option: CommandOption, ctx: CommandContext): string[] {
  const launch = ["python", "-m", "sglang.launch_server"];
  const args = sglangArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(launch, args)];
  return Array.from({ length: nodes }, (_, rank) => {
    const multi: Arg[] = [["--nnodes", nodes], ["--node-rank", rank], ["--dist-init-addr", `${headAddress()}:${SGLANG_DIST_PORT}`]];
    const role = rank === 0 ? "rank 0, serves the API" : `rank ${rank}`;
    return named(`${nodeName(ctx, rank)} (${role})`, line(launch, [...args, ...multi]));
  });
}

// ---------------------------------------------------------------------------
// llama.cpp
// ---------------------------------------------------------------------------

/** rpc-server's default port (tools/rpc/README.md: "endpoint : 127.0.0.1:50052"). */
const RPC_PORT = 50052;

/** "All layers" for --n-gpu-layers: any count past the model's layers means all of them (the README's `-ngl 99` idiom). */
const ALL_LAYERS = 999;

/** How llama-server finds the weights: by Hub repo and quant tag, or by the first file on disk. */
function llamacppModelArgs(ctx: CommandContext): Arg[] {
  const { artifact } = ctx;
  const first = artifact.files.find((f) => !/mmproj/i.test(f)) ?? artifact.name;
  // -hf downloads every part of a split set and the mmproj by itself, but it
  // cannot pin a commit and needs the quant tag: a local directory, or an
  // artifact without a tag, is named by its first file instead.
  if (ctx.modelPath === undefined && ctx.revision !== "" && artifact.quant !== "" && isHubRepo(ctx.repo)) {
    return [["-hf", `${ctx.repo}:${artifact.quant}`]];
  }
  // From disk a picture model's projector is its own file, named to --mmproj; a local directory's
  // files are named within it, so the command works from wherever it is run.
  const onDisk = (file: string): string => (ctx.modelPath === undefined ? file : `${ctx.modelPath.replace(/\/+$/, "")}/${file}`);
  const projector = artifact.projectorBytes > 0 ? artifact.files.find((f) => /mmproj/i.test(f)) : undefined;
  return projector === undefined ? [["-m", onDisk(first)]] : [["-m", onDisk(first)], ["--mmproj", onDisk(projector)]];
}

function isHubRepo(repo: string): boolean {
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo);
}

function llamacppKvArgs(kvDtype: Workload["kvDtype"]): Arg[] {
  if (kvDtype !== "q8_0" && kvDtype !== "q4_0") return [];
  // A quantized V cache needs flash attention (llama.cpp refuses it
  // otherwise); "on" rather than the default "auto" so it cannot silently
  // fall back on a backend without it.
  return [["-ctk", kvDtype], ["-ctv", kvDtype], ["-fa", "on"]];
}

function llamacppGpuArgs(option: CommandOption): Arg[] {
  const { placement } = option;
  if (placement.cpu) return [];
  const args: Arg[] = [["--n-gpu-layers", placement.gpuLayers < 0 ? ALL_LAYERS : placement.gpuLayers]];
  if (placement.cpuMoeLayers > 0) args.push(["--n-cpu-moe", placement.cpuMoeLayers]);
  if (placement.gpusPerNode > 1 && placement.nodes <= 1) {
    // Equal shares over cards of one class: the split the plan sized, where
    // the default would follow whatever memory happens to be free.
    args.push(["--split-mode", "layer"], ["--tensor-split", Array.from({ length: placement.gpusPerNode }, () => "1").join(",")]);
  }
  return args;
}

function llamacppServerArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { workload } = ctx;
  const settings = workload.settings;
  const slots = settings.parallel ?? sequences(workload);
  // --ctx-size is the whole pool, shared by the slots: context × sequences.
  const args: Arg[] = [...llamacppModelArgs(ctx), ["--ctx-size", workload.contextTokens * slots]];
  if (slots > 1) args.push(["--parallel", slots]);
  args.push(...llamacppGpuArgs(option), ...llamacppKvArgs(workload.kvDtype));
  if (settings.ubatch !== undefined) args.push(["-ub", settings.ubatch]);
  if (settings.batch !== undefined) args.push(["-b", settings.batch]);
  return args;
}

function llamacppCommands(option: CommandOption, ctx: CommandContext): string[] {
  const args = llamacppServerArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(["llama-server"], args)];
  const workers = Array.from({ length: nodes - 1 }, (_, i) => {
    return named(`${nodeName(ctx, i + 1)} (rpc worker)`, line(["rpc-server"], [["-H", "0.0.0.0"], ["-p", RPC_PORT]]));
  });
  const endpoints = Array.from({ length: nodes - 1 }, (_, i) => `${nodeAddress(i + 1)}:${RPC_PORT}`);
  const head = named(`${nodeName(ctx, 0)} (head, serves the API)`, line(["llama-server"], [...args, ["--rpc", endpoints.join(",")]]));
  return [...workers, head];
}

// ---------------------------------------------------------------------------
// FreeToken
// ---------------------------------------------------------------------------

function freetokenCommand(option: CommandOption, ctx: CommandContext): string {
  const { workload } = ctx;
  const args: Arg[] = [["--model", modelSource(ctx)]];
  const tp = Math.max(1, option.placement.tensorParallel);
  if (tp > 1) args.push(["--tp-size", tp]);
  // --gpu lists one card per tensor-parallel rank ("entry i is TP rank i").
  const firstCard = ctx.gpuIndex ?? 0;
  args.push(["--gpu", Array.from({ length: tp }, (_, rank) => firstCard + rank).join(",")]);
  args.push(["--max-seq-len-override", workload.contextTokens]);
  // Its default of 4 running requests sizes linear states and admits four sequences into the
  // KV: the plan sized `sequences`, so any other number is said, 1 included.
  if (sequences(workload) !== FREETOKEN_MAX_RUNNING_REQUESTS) args.push(["--max-running-requests", sequences(workload)]);
  // Past its 8,192-token floor the experts would take the memory the plan gave the KV, and
  // max_seq_len would be clamped to the floor: reserve what the sequences need.
  const reserve = freetokenReserveTokens(workload.contextTokens, sequences(workload));
  if (reserve > FREETOKEN_KV_RESERVE_TOKENS) args.push(["--kv-reserve-tokens", reserve]);
  return line(["ft", "serve"], args);
}

// ---------------------------------------------------------------------------
// Reading a command back
// ---------------------------------------------------------------------------

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
