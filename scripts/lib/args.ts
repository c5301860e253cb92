/**
 * The flags of `npm run plan`, with the engines' own names, read
 * into the engine's Workload. Every bad value is a one-line error naming the
 * flag and what it takes.
 */
import type { EngineSettings, KvDtype, RankBy, Workload } from "../../src/plan/index.ts";
import { KV_DTYPES, MAX_REQUEST_TOKENS, RANK_BYS, vllmProfileFor } from "../../src/plan/index.ts";
import { DEPLOY_KINDS, type DeployKind } from "../../src/deploy/index.ts";

export interface PlanArgs {
  model: string;
  clusterFile: string;
  /** null: the default (8,192, or the model's own maximum when shorter). */
  contextTokens: number | null;
  json: boolean;
  help: boolean;
  revision: string | null;
  workload: Omit<Workload, "contextTokens">;
  /** --deploy: print this kind of manifest for the chosen option instead of the report. */
  deploy: DeployKind | null;
  /** --option: the option's id, or its 1-based place in the ranking; null is the first. */
  option: string | null;
}

export class UsageError extends Error {}

type Kind = "int" | "fraction" | "choice" | "flag" | "text";

interface FlagSpec {
  names: string[];
  kind: Kind;
  choices?: readonly string[];
  /** An int flag's largest value, where it is tighter than MAX_INT: said in the message. */
  max?: number;
  help: string;
}

/** The MTP tokens of a --speculative-config (vLLM's JSON); anything but an MTP method is refused in one line. */
function mtpTokensOf(text: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(
      `--speculative-config takes vLLM's JSON, e.g. '{"method":"mtp","num_speculative_tokens":3}', not ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  const c = (parsed ?? {}) as { method?: unknown; num_speculative_tokens?: unknown };
  const n = c.num_speculative_tokens;
  if (
    typeof c.method !== "string" ||
    !/mtp/i.test(c.method) ||
    typeof n !== "number" ||
    !Number.isInteger(n) ||
    n < 1 ||
    n > 16
  ) {
    throw new UsageError(
      `--speculative-config: Modelplan plans the model's own MTP drafter only: '{"method":"mtp","num_speculative_tokens":N}' with N from 1 to 16`,
    );
  }
  return n;
}

export const FLAGS: Record<string, FlagSpec> = {
  cluster: {
    names: ["--cluster"],
    kind: "text",
    help: "the cluster: Modelplan's JSON or YAML, or anything the cluster importer reads (nvidia-smi, kubectl, Slurm, CSV, …)",
  },
  context: {
    names: ["--context", "--max-model-len", "--ctx-size", "-c"],
    kind: "int",
    help: "tokens of one sequence (default 8192, or the model's maximum when shorter)",
  },
  ropeScaling: {
    names: ["--rope-scaling", "--extend-context"],
    kind: "choice",
    choices: ["yarn"],
    help: "a context past the model's own: stretch its positions with YaRN (Qwen2.5, Qwen3), and the commands carry the flags (vLLM --hf-overrides, SGLang --json-model-override-args, llama.cpp --rope-scaling yarn); without it such a context is planned at the model's limit",
  },
  sequences: {
    names: ["--sequences"],
    kind: "int",
    help: "sequences served at once: the KV pool holds context × sequences (default 1)",
  },
  inputTokens: {
    names: ["--input-tokens"],
    kind: "int",
    max: MAX_REQUEST_TOKENS,
    help: "prompt tokens of one request, for prefill and time to first token (default 1024)",
  },
  rankBy: {
    names: ["--rank-by"],
    kind: "choice",
    choices: RANK_BYS,
    help: "what ranks the options: fewest-cards (default), throughput (output tok/s per card), latency (time per output token, then to the first), context, quality (bits per weight up to 16), cost ($ per million output tokens)",
  },
  price: {
    names: ["--price"],
    kind: "text",
    help: "dollars per card-hour by class, for cost: class=dollars, several separated by commas (e.g. h100-80g=2.5,l40s-48g=0.9); h100-80g, a100-80g and h200-141g have defaults",
  },
  outputTokens: {
    names: ["--output-tokens"],
    kind: "int",
    max: MAX_REQUEST_TOKENS,
    help: "tokens each request generates, for time per output token and throughput (default 256)",
  },
  revision: {
    names: ["--revision"],
    kind: "text",
    help: "a branch, tag or commit of the Hub repo (or write owner/name@rev)",
  },
  kvDtype: {
    names: ["--kv-cache-dtype", "-ctk", "--cache-type-k", "-ctv", "--cache-type-v"],
    kind: "choice",
    choices: KV_DTYPES,
    help: "KV cache element type: auto, fp8 (vLLM, SGLang); f16, q8_0, q4_0 (llama.cpp -ctk/-ctv)",
  },
  gpuMemoryUtilization: {
    names: ["--gpu-memory-utilization"],
    kind: "fraction",
    help: "vLLM: the fraction of each card's TOTAL memory it may use",
  },
  maxNumSeqs: { names: ["--max-num-seqs"], kind: "int", help: "vLLM: the most sequences in one batch" },
  maxNumBatchedTokens: {
    names: ["--max-num-batched-tokens"],
    kind: "int",
    help: "vLLM: tokens per step (drives the activation peak)",
  },
  dtype: {
    names: ["--dtype"],
    kind: "choice",
    choices: ["auto", "bfloat16", "float16", "float32", "half", "float", "bf16"],
    help: "vLLM: weights' dtype override (auto, bfloat16, float16/half, float32/float)",
  },
  quantization: {
    names: ["--quantization", "-q"],
    kind: "choice",
    choices: ["fp8"],
    help: "vLLM: quantize the weights at load (fp8)",
  },
  enforceEager: { names: ["--enforce-eager"], kind: "flag", help: "vLLM: no CUDA graphs" },
  vllmVersion: {
    names: ["--vllm-version"],
    kind: "text",
    help: "vLLM: the release to plan for, as vllm --version prints it (e.g. 0.15, 0.10.1); releases differ in what their profile run holds (default: none named, which plans the newest, 0.29 and later)",
  },
  speculativeConfig: {
    names: ["--speculative-config"],
    kind: "text",
    help: `vLLM/SGLang: speculative decoding with the model's own MTP block, as vLLM takes it: '{"method":"mtp","num_speculative_tokens":3}' (loads the checkpoint's mtp.* weights)`,
  },
  memFractionStatic: {
    names: ["--mem-fraction-static"],
    kind: "fraction",
    help: "SGLang: the fraction of each card for weights and KV",
  },
  ubatch: {
    names: ["--ubatch-size", "-ub"],
    kind: "int",
    help: "llama.cpp: physical batch (compute buffers grow with it)",
  },
  batch: { names: ["--batch-size", "-b"], kind: "int", help: "llama.cpp: logical batch" },
  parallel: { names: ["--parallel", "-np"], kind: "int", help: "llama.cpp: slots" },
  flashAttn: {
    names: ["--flash-attn", "-fa"],
    kind: "choice",
    choices: ["on", "off", "auto"],
    help: "llama.cpp: flash attention on, off or auto (llama.cpp's default, on where the backend has it); off makes the compute buffer grow with the context",
  },
  kvUnified: {
    names: ["--kv-unified", "-kvu"],
    kind: "flag",
    help: "llama.cpp: one KV pool of context × sequences cells the slots share (llama-server --kv-unified; off by default when --parallel is given): sliding windows shrink, the attention's mask spans the whole pool",
  },
  json: { names: ["--json"], kind: "flag", help: "print { model, options, refused } as JSON" },
  deploy: {
    names: ["--deploy"],
    kind: "choice",
    choices: DEPLOY_KINDS,
    help: "print the chosen option's deployment as YAML (kubernetes, compose) or an sbatch script (slurm), nothing else on stdout",
  },
  option: {
    names: ["--option"],
    kind: "text",
    help: "with --deploy: the option, by its id or its place in the ranking (1 is the first, the default)",
  },
  help: { names: ["--help", "-h"], kind: "flag", help: "this text" },
};

const BY_NAME = new Map(Object.entries(FLAGS).flatMap(([key, spec]) => spec.names.map((n) => [n, key] as const)));

/** Limits that catch a typo, not a judgement: no card has 2^31 tokens of context. */
const MAX_INT = 2 ** 31 - 1;

function readValue(flag: string, spec: FlagSpec, raw: string | undefined): string | number {
  if (raw === undefined || (raw.startsWith("-") && spec.kind !== "int" && spec.kind !== "fraction")) {
    throw new UsageError(`${flag} needs a value: ${spec.help}`);
  }
  switch (spec.kind) {
    case "int": {
      // Number() reads "0x400" as 1024 and "0b11" as 3: a count is written in decimal, so those are refused (as
      // --price's "0x10" is), not taken as a number the user did not type.
      const n = /^\s*[+-]?0[xob]/i.test(raw) ? NaN : Number(raw.replace(/_/g, ""));
      const max = spec.max ?? MAX_INT;
      if (!Number.isInteger(n) || n < 1 || n > max)
        throw new UsageError(
          `${flag} takes a whole number from 1 ${spec.max === undefined ? "up" : `to ${spec.max.toLocaleString("en-US")}`}, not "${raw}"`,
        );
      return n;
    }
    case "fraction": {
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0 || n > 1)
        throw new UsageError(`${flag} takes a fraction above 0 and at most 1 (e.g. 0.9), not "${raw}"`);
      return n;
    }
    case "choice":
      if (!spec.choices?.includes(raw))
        throw new UsageError(`${flag} takes one of ${spec.choices?.join(", ")}, not "${raw}"`);
      return raw;
    default:
      return raw;
  }
}

const DTYPE_ALIASES: Record<string, EngineSettings["dtype"]> = { half: "float16", float: "float32", bf16: "bfloat16" };

export function parsePlanArgs(argv: readonly string[]): PlanArgs {
  const values = new Map<string, string | number | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = BY_NAME.get(flag);
    if (key === undefined) {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${flag}: see --help`);
      positional.push(arg);
      continue;
    }
    const spec = FLAGS[key];
    if (!spec) continue;
    if (spec.kind === "flag") {
      // A switch is on by being there: "--kv-unified=off" would otherwise turn it on.
      if (eq > 0)
        throw new UsageError(
          `${flag} takes no value (got ${JSON.stringify(arg.slice(eq + 1))}): give ${flag} to turn it on, leave it out for off`,
        );
      values.set(key, true);
      continue;
    }
    const raw = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    const value = readValue(flag, spec, raw);
    const before = values.get(key);
    // -ctk and -ctv are one choice here: the engine sizes K and V with one dtype.
    if (key === "kvDtype" && before !== undefined && before !== value)
      throw new UsageError(
        `K and V cache types differ (${before}, ${value}): Modelplan plans one KV cache dtype; give one`,
      );
    values.set(key, value);
  }
  const help = values.get("help") === true;
  if (help)
    return {
      model: "",
      clusterFile: "",
      contextTokens: null,
      json: false,
      help,
      revision: null,
      workload: { sequences: 1, kvDtype: "auto", settings: {} },
      deploy: null,
      option: null,
    };
  if (positional.length === 0)
    throw new UsageError("give a model: a Hub repo (owner/name) or a local directory; see --help");
  if (positional.length > 1)
    throw new UsageError(`one model at a time: got ${positional.map((p) => `"${p}"`).join(", ")}`);
  const clusterFile = values.get("cluster");
  if (typeof clusterFile !== "string") throw new UsageError("give the cluster: --cluster <file>; see --help");

  if (values.has("option") && !values.has("deploy"))
    throw new UsageError("--option chooses the option --deploy writes: give --deploy kubernetes, compose or slurm too");
  const settings: EngineSettings = {};
  const num = (key: string) => {
    const v = values.get(key);
    return typeof v === "number" ? v : undefined;
  };
  const set = <K extends keyof EngineSettings>(k: K, v: EngineSettings[K] | undefined) => {
    if (v !== undefined) settings[k] = v;
  };
  set("gpuMemoryUtilization", num("gpuMemoryUtilization"));
  set("maxNumSeqs", num("maxNumSeqs"));
  set("maxNumBatchedTokens", num("maxNumBatchedTokens"));
  set("memFractionStatic", num("memFractionStatic"));
  set("ubatch", num("ubatch"));
  set("batch", num("batch"));
  set("parallel", num("parallel"));
  const flashAttn = values.get("flashAttn");
  if (flashAttn === "on" || flashAttn === "off" || flashAttn === "auto") settings.flashAttn = flashAttn;
  const dtype = values.get("dtype");
  if (typeof dtype === "string") set("dtype", DTYPE_ALIASES[dtype] ?? (dtype as EngineSettings["dtype"]));
  if (values.get("quantization") === "fp8") settings.quantization = "fp8";
  if (values.get("enforceEager") === true) settings.enforceEager = true;
  if (values.get("kvUnified") === true) settings.kvUnified = true;
  if (values.get("ropeScaling") === "yarn") settings.ropeScaling = "yarn";
  const speculative = values.get("speculativeConfig");
  if (typeof speculative === "string") settings.speculativeMtpTokens = mtpTokensOf(speculative);
  const vllmVersion = values.get("vllmVersion");
  if (typeof vllmVersion === "string") {
    const profile = vllmProfileFor(vllmVersion);
    if ("error" in profile) throw new UsageError(`--vllm-version: ${profile.error}`);
    settings.vllmVersion = vllmVersion;
  }

  return {
    model: positional[0] ?? "",
    clusterFile,
    contextTokens: num("context") ?? null,
    json: values.get("json") === true,
    help: false,
    revision: typeof values.get("revision") === "string" ? (values.get("revision") as string) : null,
    workload: {
      sequences: num("sequences") ?? 1,
      kvDtype: (values.get("kvDtype") as KvDtype | undefined) ?? "auto",
      settings,
      ...optionalTokens("inputTokens", num("inputTokens")),
      ...(values.get("rankBy") !== undefined ? { rankBy: values.get("rankBy") as RankBy } : {}),
      ...(typeof values.get("price") === "string"
        ? { pricesPerCardHour: parsePrices(values.get("price") as string) }
        : {}),
      ...optionalTokens("outputTokens", num("outputTokens")),
    },
    deploy: (values.get("deploy") as DeployKind | undefined) ?? null,
    option: typeof values.get("option") === "string" ? (values.get("option") as string) : null,
  };
}

/** A price as a person writes one: digits, an optional fraction and exponent; not hex, not a sign. */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** `--price h100-80g=2.5,l40s-48g=0.9`: dollars per card-hour by class; anything else is refused naming the pair. */
function parsePrices(text: string): Record<string, number> {
  const prices: Record<string, number> = {};
  for (const pair of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const [cls, raw, extra] = pair.split("=");
    // A decimal: Number() would also take "0x10" (16) without a word.
    if (
      !cls ||
      raw === undefined ||
      extra !== undefined ||
      !DECIMAL.test(raw.trim()) ||
      !Number.isFinite(Number(raw))
    ) {
      throw new UsageError(
        `--price takes class=dollars per card-hour (a number 0 or more), e.g. h100-80g=2.5; not "${pair.slice(0, 60)}"`,
      );
    }
    const name = cls.trim();
    if (Object.hasOwn(prices, name)) {
      throw new UsageError(`--price names "${name.slice(0, 60)}" twice: give each card class one price`);
    }
    prices[name] = Number(raw);
  }
  return prices;
}

/** A request length given on the command line, or nothing (the engine's default then). */
function optionalTokens<K extends "inputTokens" | "outputTokens">(
  key: K,
  n: number | undefined,
): Partial<Record<K, number>> {
  return n === undefined ? {} : ({ [key]: n } as Partial<Record<K, number>>);
}

export function helpText(): string {
  const rows = Object.values(FLAGS).map(
    (s) => `  ${s.names.join(", ")}${s.kind === "flag" ? "" : " <value>"}\n      ${s.help}`,
  );
  return [
    "Usage: npm run plan -- <model> --cluster <file> [--context N] [--json] [engine settings]",
    "",
    "Plans every way to serve <model> on the cluster, best first, with the reason for each configuration turned down.",
    "",
    "<model> is either",
    "  a Hub repo: owner/name, owner/name@revision or a huggingface.co address, read at HF_ENDPOINT",
    "    (default https://huggingface.co); a gated or private repo needs HF_TOKEN=hf_… (read token);",
    "  or a local directory as a download leaves it: config.json with *.safetensors (and their index),",
    "    or *.gguf files (split sets and mmproj included), in sub-folders too; or one .gguf file.",
    "  When the Hub cannot be reached, the models of the bundled catalog are planned from it (said on stderr).",
    "  A Hub request that stalls for HF_HUB_TIMEOUT seconds (default 10) is tried once more, then named (exit 1).",
    "",
    "Options:",
    ...rows,
    "",
    "An engine setting left out is that engine's own default at the version src/plan/engines/<engine>/ cites.",
    "",
    'Output: a ranked summary; with --json, { "model": {repo, sha, shape…, artifacts}, "options": [...], "refused": [...] },',
    "  each option with the seed's names (artifact, format, engine, cpu, gpu_class, fabric, gpus_per_node, nodes,",
    "  need_gb, have_gb, hosts, free_now, bits_per_weight, weights_gb, context_gb, engine_gb, expert_parallel)",
    "  plus fits, max_context, kv_pool_gb, kv_pool_tokens, max_concurrency and command (cpu_hosts: the nodes that",
    "  lend llama.cpp's RPC only their CPU, a card row's cpu_node naming such a host), and its speed at the",
    "  workload (decode_tps, prefill_tps, ttft_ms, tpot_ms, throughput_tps: null when not estimated, speed_basis",
    "  says why and what was assumed); the workload and the ranking: fits_workload (every sequence of the context",
    "  held at once, where fits is that it starts), replicas and replicas_free_now (copies the cluster holds, on",
    "  free cards now), data_parallel (the ranks of its one engine), cost_per_mtok ($ per million output tokens,",
    "  null without a price) and what_to_buy: [{change, cards_added, class}]; each refusal with",
    "  artifact, engine, where and reason, and deploy_targets: [{kind, ok, reason}] for kubernetes, compose and slurm.",
    "  With --context past the model's limit, context_limit: {asked_tokens, planned_tokens, model_limit_tokens, yarn, extended, message}.",
    "  GB here are GiB (2^30 bytes). Warnings go to stderr.",
    "",
    "Exit codes: 0 planned; 2 a bad argument, path, file or repo (one line on stderr says which); 1 the Hub could not be read.",
  ].join("\n");
}
