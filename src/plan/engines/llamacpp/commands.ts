/**
 * llama-server's command line (and rpc-server's for hosts), each flag as llama.cpp's common/arg.cpp
 * names it.
 */
import {
  type Arg,
  type CommandContext,
  type CommandOption,
  line,
  named,
  nodeAddress,
  nodeName,
  sequences,
} from "../../commands.ts";
import type { YarnExtension } from "../../shapeTypes.ts";
import type { Workload } from "../../types.ts";

/**
 * A YaRN stretch, in common/arg.cpp's flags (ggml-org/llama.cpp, 2026 builds): --rope-scaling {none,linear,yarn},
 * --rope-scale N ("RoPE context scaling factor, expands context by a factor of N"), --yarn-orig-ctx N
 * ("YaRN: original context size of model (default: 0 = model training context size)").
 */
export function llamacppYarnArgs(y: YarnExtension): Arg[] {
  return [
    ["--rope-scaling", "yarn"],
    ["--rope-scale", y.factor],
    ["--yarn-orig-ctx", y.originalTokens],
  ];
}

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
  const onDisk = (file: string): string =>
    ctx.modelPath === undefined ? file : `${ctx.modelPath.replace(/\/+$/, "")}/${file}`;
  const projector = artifact.projectorBytes > 0 ? artifact.files.find((f) => /mmproj/i.test(f)) : undefined;
  return projector === undefined
    ? [["-m", onDisk(first)]]
    : [
        ["-m", onDisk(first)],
        ["--mmproj", onDisk(projector)],
      ];
}

function isHubRepo(repo: string): boolean {
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo);
}

function llamacppKvArgs(kvDtype: Workload["kvDtype"], flashAttn: Workload["settings"]["flashAttn"]): Arg[] {
  // The user's -fa, said as given; llama.cpp's default is auto (settings.ts LLAMACPP_FLASH_ATTN).
  if (kvDtype !== "q8_0" && kvDtype !== "q4_0") return flashAttn === undefined ? [] : [["-fa", flashAttn]];
  // A quantized V cache needs flash attention (llama.cpp refuses it
  // otherwise); "on" rather than the default "auto" so it cannot silently
  // fall back on a backend without it.
  return [
    ["-ctk", kvDtype],
    ["-ctv", kvDtype],
    ["-fa", "on"],
  ];
}

function llamacppGpuArgs(option: CommandOption): Arg[] {
  const { placement } = option;
  if (placement.cpu) return [];
  // -ngl counts the output layer too: layers below n_layer + 1 − ngl stay on the CPU (src/llama-model.cpp:1475),
  // so the plan's gpuLayers repeating layers and the output on the cards are -ngl gpuLayers + 1.
  const args: Arg[] = [["--n-gpu-layers", placement.gpuLayers < 0 ? ALL_LAYERS : placement.gpuLayers + 1]];
  if (placement.cpuMoeLayers > 0) args.push(["--n-cpu-moe", placement.cpuMoeLayers]);
  if (placement.tensorSplit !== undefined) {
    // The slots the plan sized for each device, in llama.cpp's device order (split.ts).
    args.push(["--split-mode", "layer"], ["--tensor-split", placement.tensorSplit.join(",")]);
  } else if (placement.gpusPerNode > 1 && placement.nodes <= 1) {
    // Equal shares over cards of one class: the split the plan sized, where
    // the default would follow whatever memory happens to be free.
    args.push(
      ["--split-mode", "layer"],
      ["--tensor-split", Array.from({ length: placement.gpusPerNode }, () => "1").join(",")],
    );
  }
  return args;
}

function llamacppServerArgs(option: CommandOption, ctx: CommandContext): Arg[] {
  const { workload } = ctx;
  const settings = workload.settings;
  const slots = settings.parallel ?? sequences(workload);
  // --ctx-size is the whole pool, shared by the slots: context × sequences.
  const args: Arg[] = [...llamacppModelArgs(ctx), ["--ctx-size", workload.contextTokens * slots]];
  if (ctx.shape.yarn) args.push(...llamacppYarnArgs(ctx.shape.yarn));
  // Always named, 1 included: without it llama-server picks 4 unified slots itself (measured on v0.4.0,
  // test/engine FINDINGS.md F9), four times the output buffer and wider windows than the plan holds.
  args.push(["--parallel", slots]);
  // One pool the slots share (kv.ts llamacppCells), where llama-server with --parallel gives each its own.
  if (settings.kvUnified === true) args.push(["--kv-unified"]);
  args.push(...llamacppGpuArgs(option), ...llamacppKvArgs(workload.kvDtype, settings.flashAttn));
  if (settings.ubatch !== undefined) args.push(["-ub", settings.ubatch]);
  if (settings.batch !== undefined) args.push(["-b", settings.batch]);
  return args;
}

/**
 * -t for a node whose cores the cluster says: the threads the plan's prompt speed assumes (speed/host.ts). Without it
 * rpc-server takes half the logical CPUs (tools/rpc/rpc-server.cpp `n_threads = hardware_concurrency()/2`) and
 * llama-server its own default.
 */
function threadArgs(ctx: CommandContext, index: number): Arg[] {
  const cores = ctx.nodeCpuCores?.[index];
  return cores === null || cores === undefined ? [] : [["-t", cores]];
}

export function llamacppCommands(option: CommandOption, ctx: CommandContext): string[] {
  const args = llamacppServerArgs(option, ctx);
  const nodes = Math.max(1, option.placement.nodes);
  if (nodes === 1) return [line(["llama-server"], args)];
  const workers = Array.from({ length: nodes - 1 }, (_, i) => {
    // -c keeps the tensors rpc-server receives in a local cache, so a restart does not send the weights again
    // (tools/rpc/rpc-server.cpp: "-c, --cache  enable local file cache"; -H, -p, -d, -t are its other flags).
    return named(
      `${nodeName(ctx, i + 1)} (rpc worker)`,
      line(["rpc-server"], [["-H", "0.0.0.0"], ["-p", RPC_PORT], ["-c"], ...threadArgs(ctx, i + 1)]),
    );
  });
  const endpoints = Array.from({ length: nodes - 1 }, (_, i) => `${nodeAddress(i + 1)}:${RPC_PORT}`);
  const head = named(
    `${nodeName(ctx, 0)} (head, serves the API)`,
    // On a cluster of CPUs the head's own CPU runs the first layers: its threads too.
    line(
      ["llama-server"],
      [...args, ...(option.placement.gpusPerNode === 0 ? threadArgs(ctx, 0) : []), ["--rpc", endpoints.join(",")]],
    ),
  );
  return [...workers, head];
}

// ---------------------------------------------------------------------------
// FreeToken
