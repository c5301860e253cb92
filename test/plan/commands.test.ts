/**
 * The commands that start each option (issue 6), read back the way the
 * engine would read them: each command is split into argv, and every flag is
 * checked against the option it starts and against the flags the engine
 * really defines at the cited version (test/fixtures/commands/engine-flags.json,
 * each entry with the source line that defines it). A renamed flag fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { commandsFor, splitArgv, type CommandContext, type CommandOption } from "../../src/plan/index.ts";
import { resolveSettings } from "../../src/plan/index.ts";
import { cardLoad, plan } from "../../src/plan/index.ts";
import { readModel } from "../../src/plan/index.ts";
import { loadConfig, snapshotOf } from "./fixture.ts";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { Artifact, CardLoad, Engine, ModelShape, Placement, Workload } from "../../src/plan/index.ts";

interface EngineFlags {
  version: string;
  programs: string[][];
  flags: Record<string, string>;
  values: Record<string, string[]>;
}
const FLAGS = JSON.parse(
  readFileSync(new URL("../fixtures/commands/engine-flags.json", import.meta.url), "utf8"),
) as Record<Engine, EngineFlags>;

/**
 * unsloth/DeepSeek-R1-GGUF's UD-IQ1_S split set at unsloth's last commit,
 * sizes from its LFS pointers (shared/fixtures/models/unsloth__DeepSeek-R1-GGUF.json).
 */
const R1_SHA = "c1cd3da7ff0130842ea01b16f714c13181dd429e";
const R1_IQ1S: Artifact = {
  name: "DeepSeek-R1-UD-IQ1_S",
  format: "gguf",
  files: [
    "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf",
    "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00002-of-00003.gguf",
    "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00003-of-00003.gguf",
  ],
  bytes: 49349193664 + 49397904416 + 41484340384,
  projectorBytes: 0,
  quant: "UD-IQ1_S",
  bitsPerWeight: 1.67,
  expertBytes: 0,
};

const SAFETENSORS: Artifact = {
  name: "original",
  format: "safetensors",
  files: ["model-00001-of-00030.safetensors"],
  bytes: 141_107_412_992,
  projectorBytes: 0,
  quant: "bf16",
  bitsPerWeight: 16,
  expertBytes: 0,
};

/** The shape matters to commands only through the option; a minimal dense one. */
const SHAPE: ModelShape = {
  architecture: "llama",
  layers: 80,
  hiddenSize: 8192,
  attentionHeads: 64,
  kvHeads: 8,
  headDim: 128,
  vocabSize: 128256,
  maxContextTokens: 131072,
  dtype: "bfloat16",
  paramsTotal: 70_553_706_496,
  moe: null,
  layerCaches: [],
  hasVision: false,
  quantMethod: "",
};

/** An H100 80GB reports 81,559 MiB (src/plan/cards.ts). */
const H100_BYTES = 81559 * 2 ** 20;

function card(gpuClass: string, physicalBytes: number, usableFraction: number, cards: number): CardLoad {
  return cardLoad({
    gpuClass,
    cards,
    role: "",
    weightsBytes: 0,
    kvBytes: 0,
    engineBytes: 0,
    usableBytes: physicalBytes * usableFraction,
    physicalBytes,
  });
}

function placement(p: Partial<Placement>): Placement {
  return {
    cpu: false,
    gpuClass: "h100-80g",
    fabric: "",
    gpusPerNode: 1,
    nodes: 1,
    tensorParallel: 1,
    pipelineParallel: 1,
    expertParallel: false,
    cpuMoeLayers: 0,
    gpuLayers: -1,
    ...p,
  };
}

function option(engine: Engine, artifact: Artifact, where: Partial<Placement>): CommandOption {
  const p = placement(where);
  return {
    id: `${artifact.name}|${engine}|test`,
    artifact: artifact.name,
    format: artifact.format,
    engine,
    placement: p,
    bitsPerWeight: artifact.bitsPerWeight,
    cards: p.cpu ? [] : [card(p.gpuClass, H100_BYTES, 0.9, p.gpusPerNode * p.nodes)],
    needBytes: 0,
    haveBytes: 0,
    worstCardIndex: 0,
    hosts: 1,
    freeNow: true,
    fits: true,
    maxContextTokens: 131072,
    kvPoolBytes: 0,
    kvPoolTokens: 0,
    maxConcurrency: 1,
    moreCardsNeeded: 0,
  };
}

function ctx(artifact: Artifact, workload: Partial<Workload>, extra: Partial<CommandContext> = {}): CommandContext {
  return {
    repo: artifact.format === "gguf" ? "unsloth/DeepSeek-R1-GGUF" : "meta-llama/Llama-3.3-70B-Instruct",
    revision: artifact.format === "gguf" ? R1_SHA : "6f6073b423013f6a7d4d9f39144961bfbfbc386b",
    artifact,
    shape: SHAPE,
    workload: { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {}, ...workload },
    ...extra,
  };
}

/** A command read back: its program words and its flags with their values (a bare switch has ""). */
interface Parsed {
  program: string[];
  flags: Map<string, string>;
  argv: string[];
}

function isFlag(word: string): boolean {
  return /^--?[A-Za-z]/.test(word);
}

function parse(entry: string, engine: Engine): Parsed {
  const argv = splitArgv(entry);
  const program = FLAGS[engine].programs.find((p) => p.every((w, i) => argv[i] === w));
  if (!program) throw new Error(`"${argv.slice(0, 3).join(" ")}" is not a program of ${engine}`);
  const flags = new Map<string, string>();
  for (let i = program.length; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (!isFlag(word)) continue;
    const next = argv[i + 1];
    const value = next !== undefined && !isFlag(next) ? next : "";
    expect(flags.has(word), `${word} given twice in: ${entry}`).toBe(false);
    flags.set(word, value);
  }
  return { program, flags, argv };
}

/** Every flag is one the engine defines, and every value of a closed set is one of its choices. */
function expectRealFlags(entry: string, engine: Engine): void {
  const { flags } = parse(entry, engine);
  const table = FLAGS[engine];
  for (const [flag, value] of flags) {
    expect(Object.keys(table.flags), `${flag} is not a ${engine} flag at ${table.version}`).toContain(flag);
    const choices = table.values[flag];
    if (choices) expect(choices, `${flag} ${value}`).toContain(value);
  }
}

function only(entries: string[]): string {
  expect(entries).toHaveLength(1);
  return entries[0] as string;
}

describe("vLLM", () => {
  test("one node: every flag says what the option is", () => {
    const opt = option("vllm", SAFETENSORS, { tensorParallel: 2, gpusPerNode: 2 });
    const c = ctx(SAFETENSORS, { contextTokens: 32768 });
    const entry = only(commandsFor(opt, c));
    const { program, flags, argv } = parse(entry, "vllm");
    expect(program).toEqual(["vllm", "serve"]);
    expect(argv[2]).toBe("meta-llama/Llama-3.3-70B-Instruct");
    expect(flags.get("--revision")).toBe(c.revision);
    expect(flags.get("--tensor-parallel-size")).toBe("2");
    expect(flags.get("--max-model-len")).toBe("32768");
    // No utilization set: the engine keeps its release's own default (0.9 to 0.20, 0.92 from 0.21), which
    // the plan held for both; pinning 0.9 on a 0.21+ engine would shrink its pool below the plan's.
    expect(flags.has("--gpu-memory-utilization")).toBe(false);
    expect(flags.has("--pipeline-parallel-size")).toBe(false);
    expect(flags.has("--enable-expert-parallel")).toBe(false);
    expect(flags.has("--kv-cache-dtype")).toBe(false);
    expect(flags.has("--max-num-seqs")).toBe(false);
    expectRealFlags(entry, "vllm");
  });

  test("the workload's settings become the engine's own flags", () => {
    const opt = option("vllm", SAFETENSORS, { tensorParallel: 4, gpusPerNode: 4, expertParallel: true });
    const c = ctx(SAFETENSORS, {
      sequences: 16,
      kvDtype: "fp8",
      settings: {
        gpuMemoryUtilization: 0.95,
        maxNumSeqs: 64,
        maxNumBatchedTokens: 4096,
        dtype: "float32",
        quantization: "fp8",
        enforceEager: true,
      },
    });
    const entry = only(commandsFor(opt, c));
    const { flags } = parse(entry, "vllm");
    expect(flags.get("--gpu-memory-utilization")).toBe("0.95");
    expect(flags.get("--kv-cache-dtype")).toBe("fp8");
    expect(flags.get("--max-num-seqs")).toBe("64");
    expect(flags.get("--max-num-batched-tokens")).toBe("4096");
    expect(flags.get("--dtype")).toBe("float32");
    expect(flags.get("--quantization")).toBe("fp8");
    expect(flags.get("--enforce-eager")).toBe("");
    expect(flags.get("--enable-expert-parallel")).toBe("");
    expectRealFlags(entry, "vllm");
  });

  test("sequences alone leave vLLM's scheduler cap at the default the plan sized", () => {
    const entry = only(commandsFor(option("vllm", SAFETENSORS, {}), ctx(SAFETENSORS, { sequences: 4 })));
    expect(parse(entry, "vllm").flags.has("--max-num-seqs")).toBe(false);
  });

  test("across nodes: one named line per node, the head serving, the others headless", () => {
    const opt = option("vllm", SAFETENSORS, {
      tensorParallel: 8,
      pipelineParallel: 2,
      gpusPerNode: 8,
      nodes: 2,
      fabric: "ib0",
    });
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}, { nodeIds: ["dgx-a", "dgx-b"] }));
    expect(entries).toHaveLength(2);
    entries.forEach((entry, rank) => {
      expect(entry.split("\n")[0]).toMatch(new RegExp(`^# ${["dgx-a", "dgx-b"][rank]} `));
      const { flags } = parse(entry, "vllm");
      expect(flags.get("--tensor-parallel-size")).toBe("8");
      expect(flags.get("--pipeline-parallel-size")).toBe("2");
      expect(flags.get("--nnodes")).toBe("2");
      expect(flags.get("--node-rank")).toBe(String(rank));
      // Ids name nodes; the address the others reach the head at is the user's to fill in.
      expect(flags.get("--master-addr")).toBe("<head-node-ip>");
      expect(flags.has("--headless")).toBe(rank > 0);
      expectRealFlags(entry, "vllm");
    });
  });

  test("unknown hosts are placeholders, never invented names", () => {
    const opt = option("vllm", SAFETENSORS, { tensorParallel: 8, pipelineParallel: 3, gpusPerNode: 8, nodes: 3 });
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}));
    expect(entries.map((e) => e.split("\n")[0])).toEqual([
      "# <node-1> (head, serves the API)",
      "# <node-2> (worker 1)",
      "# <node-3> (worker 2)",
    ]);
    for (const entry of entries) expect(parse(entry, "vllm").flags.get("--master-addr")).toBe("<head-node-ip>");
  });

  test("with Ray: start the head, join the workers, then serve on the Ray backend", () => {
    const opt = option("vllm", SAFETENSORS, { tensorParallel: 8, pipelineParallel: 2, gpusPerNode: 8, nodes: 2 });
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}, { nodeIds: ["n1", "n2"], vllmLauncher: "ray" }));
    expect(entries).toHaveLength(3);
    const [head, worker, serve] = entries.map((e) => parse(e, "vllm"));
    expect(head?.program).toEqual(["ray", "start"]);
    expect(head?.flags.has("--head")).toBe(true);
    expect(worker?.flags.get("--address")).toBe("<head-node-ip>:6379");
    expect(serve?.program).toEqual(["vllm", "serve"]);
    expect(serve?.flags.get("--distributed-executor-backend")).toBe("ray");
    for (const entry of entries) expectRealFlags(entry, "vllm");
  });
});

describe("vLLM: one data-parallel engine over nodes", () => {
  // DP 16 × TP 1 on two nodes of 8, as docs/serving/data_parallel_deployment.md runs DP 4 on two nodes:
  // the head with the API, the other --headless from its first rank; the same global size on both.
  const opt = option("vllm", SAFETENSORS, {
    tensorParallel: 1,
    gpusPerNode: 8,
    nodes: 2,
    expertParallel: true,
    dataParallel: 16,
  });

  test("each node its own ranks, the head's address and the docs' RPC port; no --nnodes", () => {
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}, { nodeIds: ["dgx-1", "dgx-2"] }));
    expect(entries.map((e) => e.split("\n")[0])).toEqual([
      "# dgx-1 (head, serves the API; DP ranks 0–7)",
      "# dgx-2 (DP ranks 8–15)",
    ]);
    entries.forEach((entry, rank) => {
      const { flags } = parse(entry, "vllm");
      expect(flags.get("--data-parallel-size")).toBe("16");
      expect(flags.get("--data-parallel-size-local")).toBe("8");
      expect(flags.get("--data-parallel-start-rank")).toBe(rank === 0 ? undefined : "8");
      expect(flags.get("--data-parallel-address")).toBe("<head-node-ip>");
      expect(flags.get("--data-parallel-rpc-port")).toBe("13345");
      expect(flags.has("--headless")).toBe(rank > 0);
      // "include the `--enable-expert-parallel` CLI arg (on all nodes in the multi-node case)"
      expect(flags.has("--enable-expert-parallel")).toBe(true);
      expect(flags.has("--nnodes") || flags.has("--node-rank") || flags.has("--master-addr")).toBe(false);
      expectRealFlags(entry, "vllm");
    });
  });

  test("with Ray: every node joins, then one command on the head places all ranks (--data-parallel-backend ray)", () => {
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}, { vllmLauncher: "ray" }));
    expect(entries).toHaveLength(3);
    const [head, worker, serve] = entries.map((e) => parse(e, "vllm"));
    expect(head?.program).toEqual(["ray", "start"]);
    expect(worker?.flags.get("--address")).toBe("<head-node-ip>:6379");
    expect(serve?.flags.get("--data-parallel-backend")).toBe("ray");
    expect(serve?.flags.get("--data-parallel-size-local")).toBe("8");
    expect(serve?.flags.has("--data-parallel-address")).toBe(false);
    for (const entry of entries) expectRealFlags(entry, "vllm");
  });
});

describe("SGLang", () => {
  test("one node, fp8 KV spelled as SGLang spells it", () => {
    const opt = option("sglang", SAFETENSORS, { tensorParallel: 4, gpusPerNode: 4, expertParallel: true });
    const entry = only(
      commandsFor(
        opt,
        ctx(SAFETENSORS, {
          contextTokens: 65536,
          kvDtype: "fp8",
          sequences: 8,
          settings: { memFractionStatic: 0.871 },
        }),
      ),
    );
    const { program, flags } = parse(entry, "sglang");
    expect(program).toEqual(["python", "-m", "sglang.launch_server"]);
    expect(flags.get("--model-path")).toBe("meta-llama/Llama-3.3-70B-Instruct");
    expect(flags.get("--tp-size")).toBe("4");
    expect(flags.get("--ep-size")).toBe("4");
    expect(flags.get("--context-length")).toBe("65536");
    expect(flags.get("--mem-fraction-static")).toBe("0.871");
    expect(flags.get("--kv-cache-dtype")).toBe("fp8_e4m3");
    expect(flags.get("--max-running-requests")).toBe("8");
    expectRealFlags(entry, "sglang");
  });

  test("without a setting, the static fraction is the one the plan sized the card with", () => {
    const opt = option("sglang", SAFETENSORS, { tensorParallel: 8, gpusPerNode: 8 });
    const { flags } = parse(only(commandsFor(opt, ctx(SAFETENSORS, {}))), "sglang");
    const planned = resolveSettings("sglang", H100_BYTES, {}, 8, 1).memFractionStatic;
    const asked = Number(flags.get("--mem-fraction-static"));
    // Never more than planned, and within the third decimal of it.
    expect(asked).toBeLessThanOrEqual(planned);
    expect(planned - asked).toBeLessThan(0.001);
  });

  test("across nodes: each rank names itself and the head's init address", () => {
    const opt = option("sglang", SAFETENSORS, { tensorParallel: 16, gpusPerNode: 8, nodes: 2 });
    const entries = commandsFor(opt, ctx(SAFETENSORS, {}, { nodeIds: ["h1"] }));
    expect(entries).toHaveLength(2);
    entries.forEach((entry, rank) => {
      const { flags } = parse(entry, "sglang");
      expect(flags.get("--nnodes")).toBe("2");
      expect(flags.get("--node-rank")).toBe(String(rank));
      expect(flags.get("--dist-init-addr")).toBe("<head-node-ip>:25000");
      expectRealFlags(entry, "sglang");
    });
    expect(entries[1]?.split("\n")[0]).toBe("# <node-2> (rank 1)");
  });
});

describe("llama.cpp", () => {
  test("from the Hub by repo and quant tag; the context is the whole pool of the slots", () => {
    const opt = option("llamacpp", R1_IQ1S, { gpusPerNode: 2, tensorParallel: 1, gpuLayers: -1 });
    const entry = only(commandsFor(opt, ctx(R1_IQ1S, { contextTokens: 8192, sequences: 4 })));
    const { program, flags } = parse(entry, "llamacpp");
    expect(program).toEqual(["llama-server"]);
    expect(flags.get("-hf")).toBe("unsloth/DeepSeek-R1-GGUF:UD-IQ1_S");
    expect(flags.get("--ctx-size")).toBe(String(8192 * 4));
    expect(flags.get("--parallel")).toBe("4");
    expect(Number(flags.get("--n-gpu-layers"))).toBeGreaterThanOrEqual(SHAPE.layers);
    expect(flags.get("--split-mode")).toBe("layer");
    expect(flags.get("--tensor-split")).toBe("1,1");
    expectRealFlags(entry, "llamacpp");
  });

  test("a local copy starts from the first part of the split set", () => {
    const entry = only(commandsFor(option("llamacpp", R1_IQ1S, {}), ctx(R1_IQ1S, {}, { revision: "" })));
    const { flags } = parse(entry, "llamacpp");
    expect(flags.get("-m")).toBe("DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf");
    expect(flags.has("-hf")).toBe(false);
    // One slot named: llama-server left alone would run 4 (llama.cpp v0.4.0, test/engine FINDINGS.md F9).
    expect(flags.get("--parallel")).toBe("1");
  });

  test("a local directory (npm run plan ./dir) is named in the command, so it runs from anywhere and never goes to the Hub", () => {
    const local = { modelPath: "/srv/models/DeepSeek-R1-GGUF/" };
    const entry = only(commandsFor(option("llamacpp", R1_IQ1S, {}), ctx(R1_IQ1S, {}, local)));
    const { flags } = parse(entry, "llamacpp");
    expect(flags.get("-m")).toBe(
      "/srv/models/DeepSeek-R1-GGUF/DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf",
    );
    expect(flags.has("-hf")).toBe(false);
    const vllm = parse(
      only(
        commandsFor(option("vllm", SAFETENSORS, {}), ctx(SAFETENSORS, {}, { modelPath: "/srv/models/Llama-3.3-70B" })),
      ),
      "vllm",
    );
    expect(vllm.argv.slice(0, 3)).toEqual(["vllm", "serve", "/srv/models/Llama-3.3-70B"]);
    const sglang = parse(
      only(
        commandsFor(
          option("sglang", SAFETENSORS, {}),
          ctx(SAFETENSORS, {}, { modelPath: "/srv/models/Llama-3.3-70B" }),
        ),
      ),
      "sglang",
    );
    expect(sglang.flags.get("--model-path")).toBe("/srv/models/Llama-3.3-70B");
  });

  test("a picture model from disk names its projector file", () => {
    const artifact: Artifact = {
      ...R1_IQ1S,
      files: ["mmproj-F16.gguf", "model-Q4_K_M.gguf"],
      projectorBytes: 876_000_000,
    };
    const { flags } = parse(
      only(commandsFor(option("llamacpp", artifact, {}), ctx(artifact, {}, { revision: "" }))),
      "llamacpp",
    );
    expect(flags.get("-m")).toBe("model-Q4_K_M.gguf");
    expect(flags.get("--mmproj")).toBe("mmproj-F16.gguf");
  });

  test("experts in RAM, fewer layers on the card, and a quantized KV with flash attention on", () => {
    const opt = option("llamacpp", R1_IQ1S, { gpuLayers: 40, cpuMoeLayers: 58 });
    const entry = only(commandsFor(opt, ctx(R1_IQ1S, { kvDtype: "q8_0" })));
    const { flags } = parse(entry, "llamacpp");
    // 40 repeating layers and the output on the card: llama.cpp's -ngl counts the output (src/llama-model.cpp:1475).
    expect(flags.get("--n-gpu-layers")).toBe("41");
    expect(flags.get("--n-cpu-moe")).toBe("58");
    expect(flags.get("-ctk")).toBe("q8_0");
    expect(flags.get("-ctv")).toBe("q8_0");
    expect(flags.get("-fa")).toBe("on");
    expect(flags.has("--split-mode")).toBe(false);
    expectRealFlags(entry, "llamacpp");
  });

  test("on the CPU: no --n-gpu-layers at all", () => {
    const opt = option("llamacpp", R1_IQ1S, { cpu: true, gpuClass: "", gpusPerNode: 0 });
    const entry = only(commandsFor(opt, ctx(R1_IQ1S, { settings: { ubatch: 1024, batch: 4096 } })));
    const { flags } = parse(entry, "llamacpp");
    expect(flags.has("--n-gpu-layers")).toBe(false);
    expect(flags.get("-ub")).toBe("1024");
    expect(flags.get("-b")).toBe("4096");
    expectRealFlags(entry, "llamacpp");
  });

  test("across nodes: rpc-server on each worker, --rpc naming them on the head", () => {
    const opt = option("llamacpp", R1_IQ1S, { gpusPerNode: 1, nodes: 3 });
    const entries = commandsFor(opt, ctx(R1_IQ1S, {}, { nodeIds: ["a", "b"] }));
    expect(entries).toHaveLength(3);
    const parsed = entries.map((e) => parse(e, "llamacpp"));
    expect(parsed.map((p) => p.program[0])).toEqual(["rpc-server", "rpc-server", "llama-server"]);
    expect(parsed[0]?.flags.get("-p")).toBe("50052");
    expect(parsed[2]?.flags.get("--rpc")).toBe("<node-2-ip>:50052,<node-3-ip>:50052");
    expect(entries[0]?.split("\n")[0]).toBe("# b (rpc worker)");
    expect(entries[2]?.split("\n")[0]).toBe("# a (head, serves the API)");
    for (const entry of entries) expectRealFlags(entry, "llamacpp");
  });
});

describe("FreeToken", () => {
  test("one card by index, its context flag, and its request cap", () => {
    const opt = option("freetoken", SAFETENSORS, {});
    const entry = only(commandsFor(opt, ctx(SAFETENSORS, { contextTokens: 32768, sequences: 2 }, { gpuIndex: 3 })));
    const { program, flags } = parse(entry, "freetoken");
    expect(program).toEqual(["ft", "serve"]);
    expect(flags.get("--model")).toBe("meta-llama/Llama-3.3-70B-Instruct");
    expect(flags.get("--gpu")).toBe("3");
    expect(flags.get("--max-seq-len-override")).toBe("32768");
    expect(flags.get("--max-running-requests")).toBe("2");
    expectRealFlags(entry, "freetoken");
  });

  test("one sequence is said (--max-running-requests 1): FreeToken's default of 4 would admit four into the KV the plan sized for one", () => {
    const { flags } = parse(
      only(commandsFor(option("freetoken", SAFETENSORS, {}), ctx(SAFETENSORS, { sequences: 1 }))),
      "freetoken",
    );
    expect(flags.get("--max-running-requests")).toBe("1");
    // 8,192 tokens are within its 8,192-token KV floor: no reserve to ask for.
    expect(flags.has("--kv-reserve-tokens")).toBe(false);
    const four = parse(
      only(commandsFor(option("freetoken", SAFETENSORS, {}), ctx(SAFETENSORS, { sequences: 4 }))),
      "freetoken",
    );
    expect(four.flags.has("--max-running-requests")).toBe(false);
  });

  test("past its 8,192-token floor the command reserves the sequences' KV, or the experts take it and max_seq_len is clamped to 8,192", () => {
    const entry = only(
      commandsFor(option("freetoken", SAFETENSORS, {}), ctx(SAFETENSORS, { contextTokens: 32768, sequences: 2 })),
    );
    const { flags } = parse(entry, "freetoken");
    expect(flags.get("--kv-reserve-tokens")).toBe("65536");
    expectRealFlags(entry, "freetoken");
  });

  test("tensor parallel names one card per rank", () => {
    const { flags } = parse(
      only(
        commandsFor(
          option("freetoken", SAFETENSORS, { tensorParallel: 2, gpusPerNode: 2 }),
          ctx(SAFETENSORS, {}, { gpuIndex: 2 }),
        ),
      ),
      "freetoken",
    );
    expect(flags.get("--tp-size")).toBe("2");
    expect(flags.get("--gpu")).toBe("2,3");
  });
});

describe("splitArgv", () => {
  test("reads quotes, escapes, continuations and comments as a shell does", () => {
    expect(
      splitArgv(`# node a\nllama-server -m '/models/my model.gguf' \\\n  --ctx-size "8192" a\\ b "x\\"y"`),
    ).toEqual(["llama-server", "-m", "/models/my model.gguf", "--ctx-size", "8192", "a b", 'x"y']);
  });

  test("a path with spaces survives the round trip through the command", () => {
    const artifact: Artifact = { ...R1_IQ1S, files: ["My Models/it's-00001-of-00003.gguf"] };
    const entry = only(commandsFor(option("llamacpp", artifact, {}), ctx(artifact, {}, { revision: "" })));
    expect(parse(entry, "llamacpp").flags.get("-m")).toBe("My Models/it's-00001-of-00003.gguf");
  });

  test("an unterminated quote is an error that says where it opened", () => {
    expect(() => splitArgv(`vllm serve 'oops`)).toThrow(/unterminated ' quote opened at character 12/);
  });
});

/**
 * Every option the real planner makes, for real repositories on a mixed
 * cluster (two 8 × H100 nodes on InfiniBand, a 2 × RTX 4090 workstation, a
 * 512 GB CPU server), read back flag by flag against its own placement.
 */
describe("the planner's own options, read back", () => {
  const cluster = {
    nodes: [
      {
        id: "dgx-a",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 1800,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      },
      {
        id: "dgx-b",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 1800,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      },
      {
        id: "ws",
        fabric: "",
        hostMemGib: 128,
        hostFreeGib: 100,
        devices: [{ class: "rtx4090-24g", count: 2, free: 2 }],
      },
      { id: "cpu", fabric: "", hostMemGib: 512, hostFreeGib: 480, devices: [] },
    ],
  };
  const workload: Workload = { contextTokens: 16384, sequences: 2, kvDtype: "auto", settings: {} };
  const cases = [
    "Qwen__Qwen3-30B-A3B",
    "meta-llama__Llama-3.1-8B-Instruct",
    "deepseek-ai__DeepSeek-R1",
    "unsloth__DeepSeek-R1-GGUF",
    // 93 GB of bf16: one H100 does not hold it, two stages of one card each do.
    "mistralai__Mixtral-8x7B-Instruct-v0.1",
  ].flatMap((name) => {
    const snapshot = snapshotOf(name);
    const { shape, artifacts } = readModel(snapshot);
    return plan({ repo: snapshot.repo, revision: snapshot.sha, shape, artifacts }, cluster, workload).options.map(
      (o) => [`${name} ${o.id}`, o] as const,
    );
  });

  test("the planner made options of vLLM, SGLang and llama.cpp, one node and several, to read", () => {
    const engines = new Set(cases.map(([, o]) => o.engine));
    for (const engine of ["vllm", "sglang", "llamacpp"] as const) expect(engines.has(engine), engine).toBe(true);
    expect(cases.some(([, o]) => o.placement.nodes > 1)).toBe(true);
    expect(cases.some(([, o]) => o.placement.cpu)).toBe(true);
    // Stages within one node and data-parallel engines, for vLLM and SGLang both.
    for (const engine of ["vllm", "sglang"] as const) {
      const of = cases.filter(([, o]) => o.engine === engine).map(([, o]) => o.placement);
      expect(
        of.some((p) => p.nodes === 1 && p.pipelineParallel > 1),
        `${engine} TP × PP in a node`,
      ).toBe(true);
      expect(
        of.some((p) => (p.dataParallel ?? 1) > 1),
        `${engine} data parallel`,
      ).toBe(true);
    }
  });

  test.each(cases)("%s", (_name, o) => {
    const p = o.placement;
    expect(o.commands.length).toBeGreaterThan(0);
    for (const entry of o.commands) expectRealFlags(entry, o.engine);
    const serving = parse(o.commands[o.commands.length - 1] as string, o.engine).flags;
    switch (o.engine) {
      case "vllm":
      case "sglang": {
        expect(o.commands).toHaveLength(Math.max(1, p.nodes));
        const first = parse(o.commands[0] as string, o.engine).flags;
        const tp = o.engine === "vllm" ? "--tensor-parallel-size" : "--tp-size";
        const pp = o.engine === "vllm" ? "--pipeline-parallel-size" : "--pp-size";
        expect(first.get(tp)).toBe(String(p.tensorParallel));
        expect(first.get(pp)).toBe(p.pipelineParallel > 1 ? String(p.pipelineParallel) : undefined);
        expect(first.get(o.engine === "vllm" ? "--max-model-len" : "--context-length")).toBe(
          String(workload.contextTokens),
        );
        expect(first.has(o.engine === "vllm" ? "--enable-expert-parallel" : "--ep-size")).toBe(p.expertParallel);
        const dp = p.dataParallel ?? 1;
        // A vLLM DP engine over nodes names each node's ranks instead (--data-parallel-size-local, start rank).
        const spansDp = o.engine === "vllm" && dp > 1 && p.nodes > 1;
        expect(first.get("--nnodes")).toBe(p.nodes > 1 && !spansDp ? String(p.nodes) : undefined);
        expect(first.get("--data-parallel-size-local")).toBe(spansDp ? String(dp / p.nodes) : undefined);
        expect(first.get(o.engine === "vllm" ? "--data-parallel-size" : "--dp-size")).toBe(
          dp > 1 ? String(dp) : undefined,
        );
        // The ranks the flags start are the cards the option takes.
        expect(p.tensorParallel * p.pipelineParallel * dp).toBe(p.gpusPerNode * Math.max(1, p.nodes));
        break;
      }
      case "llamacpp":
        expect(o.commands).toHaveLength(Math.max(1, p.nodes));
        expect(serving.get("--ctx-size")).toBe(String(workload.contextTokens * workload.sequences));
        expect(serving.get("--parallel")).toBe(String(workload.sequences));
        expect(serving.has("--n-gpu-layers")).toBe(!p.cpu);
        expect(serving.get("--n-cpu-moe")).toBe(p.cpuMoeLayers > 0 ? String(p.cpuMoeLayers) : undefined);
        break;
      case "freetoken":
        expect(serving.get("--max-seq-len-override")).toBe(String(workload.contextTokens));
        break;
    }
  });
});

describe("vLLM and Llama-4's chunked local attention", () => {
  const maverick = shapeFromConfig(loadConfig("meta-llama__Llama-4-Maverick-17B-128E-Instruct"), null);
  const opt = option("vllm", SAFETENSORS, { tensorParallel: 8, gpusPerNode: 8 });

  test("turning vLLM's hybrid manager off for the chunks (the plan then costs every layer whole) starts vLLM with VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0", () => {
    const entry = only(
      commandsFor(opt, ctx(SAFETENSORS, { settings: { vllmChunkedLocalHybridKv: false } }, { shape: maverick })),
    );
    const argv = splitArgv(entry);
    expect(argv[0]).toBe("VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=0");
    expect(argv.slice(1, 3)).toEqual(["vllm", "serve"]);
    expectRealFlags(argv.slice(1).join(" "), "vllm");
  });

  test("at vLLM's own default, or for a model without chunks, the command carries no environment", () => {
    expect(splitArgv(only(commandsFor(opt, ctx(SAFETENSORS, {}, { shape: maverick }))))[0]).toBe("vllm");
    expect(
      splitArgv(only(commandsFor(opt, ctx(SAFETENSORS, { settings: { vllmChunkedLocalHybridKv: false } }))))[0],
    ).toBe("vllm");
  });
});

describe("a YaRN stretch past the model's own context (issue 17, defect 5)", () => {
  const yarn = { factor: 6.11, originalTokens: 32_768 };
  test.each([
    ["vllm", SAFETENSORS, "--hf-overrides"],
    ["sglang", SAFETENSORS, "--json-model-override-args"],
    ["llamacpp", R1_IQ1S, "--rope-scaling"],
  ] as const)("%s: the stretch's flags are the engine's own", (engine, artifact, flag) => {
    const opt = option(engine, artifact, { tensorParallel: 1, gpusPerNode: 1 });
    const c = ctx(artifact, { contextTokens: 200_000 }, { shape: { ...SHAPE, yarn } });
    const entry = commandsFor(opt, c)[0] ?? "";
    expectRealFlags(entry, engine);
    expect(parse(entry, engine).flags.has(flag)).toBe(true);
  });
  test("llama.cpp: --rope-scale is the factor and --yarn-orig-ctx the native context", () => {
    const opt = option("llamacpp", R1_IQ1S, { tensorParallel: 1, gpusPerNode: 1 });
    const { flags } = parse(commandsFor(opt, ctx(R1_IQ1S, {}, { shape: { ...SHAPE, yarn } }))[0] ?? "", "llamacpp");
    expect([flags.get("--rope-scaling"), flags.get("--rope-scale"), flags.get("--yarn-orig-ctx")]).toEqual([
      "yarn",
      "6.11",
      "32768",
    ]);
  });
});
