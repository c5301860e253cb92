/**
 * The real llama.cpp (node-llama-cpp 3.21.1's prebuilt CPU binary, llama.cpp v0.4.0), driven
 * through the addon node-llama-cpp itself wraps. Its public createContext first simulates the
 * context in a no_alloc copy of the model (which crashes on qwen3next), pads n_ctx and adds one
 * to n_ubatch on sliding-window models; the addon takes llama_context_params as given
 * (node-llama-cpp llama/addon/AddonContext.cpp: n_ubatch = n_batch = batchSize,
 * n_ctx = contextSize, n_seq_max = sequences; kv_unified stays llama.cpp's default, false).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";

interface AddonModel {
  init(): Promise<boolean>;
  dispose(): Promise<void>;
}
interface AddonContext {
  init(): Promise<boolean>;
  dispose(): Promise<void>;
}
interface Bindings {
  AddonModel: new (
    path: string,
    params: { addonExports: Bindings; gpuLayers: number; useMmap: boolean; checkTensors: boolean },
  ) => AddonModel;
  AddonContext: new (model: AddonModel, params: Record<string, number | boolean | string>) => AddonContext;
}

/** What a context is created with: llama.cpp's own parameter names. */
export interface ContextParams {
  /** n_ctx: cells over all sequences. */
  nCtx: number;
  /** n_ubatch (= n_batch here). */
  nUbatch: number;
  nSeqMax: number;
  /** -fa: "auto" is llama.cpp's default (llama_context_default_params), which the CPU resolves to on. */
  flashAttn: boolean | "auto";
  /** ggml type of K and V: 1 f16, 8 q8_0, 2 q4_0. */
  cacheType: 1 | 8 | 2;
}

let engine: { llama: Llama; bindings: Bindings; log: string[]; variant: string } | null = null;

/** node-llama-cpp hands log lines over in a microtask batch: let the last ones arrive. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

async function start(): Promise<NonNullable<typeof engine>> {
  if (engine) return engine;
  const log: string[] = [];
  // build: "never": the prebuilt binary or an error, never a download or a compile at test time.
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.debug,
    logger: (_level, message) => log.push(message),
  });
  const bindings = (llama as unknown as { _bindings: Bindings })._bindings;
  await settle();
  const variant = /libggml-cpu-([\w-]+)\.so/.exec(log.join("\n"))?.[1] ?? "unknown";
  engine = { llama, bindings, log, variant };
  return engine;
}

/** The loaded model's log, and a function that creates a context and returns that context's log. */
export async function loadModel(
  path: string,
): Promise<{ modelLog: string; context(p: ContextParams): Promise<string>; dispose(): Promise<void> }> {
  const e = await start();
  e.log.length = 0;
  const model = new e.bindings.AddonModel(path, {
    addonExports: e.bindings,
    gpuLayers: 0,
    useMmap: true,
    checkTensors: false,
  });
  const loaded = await model.init();
  await settle();
  if (!loaded)
    throw new Error(`llama.cpp could not load ${path}:\n${e.log.filter((l) => /error|failed/i.test(l)).join("\n")}`);
  const modelLog = e.log.join("\n");
  return {
    modelLog,
    async context(p) {
      e.log.length = 0;
      const ctx = new e.bindings.AddonContext(model, {
        contextSize: p.nCtx,
        batchSize: p.nUbatch,
        sequences: p.nSeqMax,
        flashAttention: p.flashAttn,
        threads: 1,
        kvCacheKeyType: p.cacheType,
        kvCacheValueType: p.cacheType,
      });
      const ok = await ctx.init();
      await ctx.dispose();
      await settle();
      const text = e.log.join("\n");
      if (!ok)
        throw new Error(
          `llama.cpp could not create the context ${JSON.stringify(p)}:\n${text
            .split("\n")
            .filter((l) => /error|failed/i.test(l))
            .join("\n")}`,
        );
      return text;
    },
    dispose: () => model.dispose(),
  };
}

/** Which CPU build ggml chose for this host (libggml-cpu-<variant>.so): it decides weight repacking. */
export async function cpuVariant(): Promise<string> {
  return (await start()).variant;
}

/** The prebuilt libraries node-llama-cpp loads (its @node-llama-cpp/linux-x64 package). */
const LIB_DIR = join(
  dirname(createRequire(import.meta.url).resolve("@node-llama-cpp/linux-x64")),
  "..",
  "bins",
  "linux-x64",
);

/**
 * Contexts with a unified KV cache, which the addon cannot ask for: llama.cpp's C API through
 * python3's ctypes (test/engine/unified.py), the same libraries. Returns the model's log and each
 * context's.
 */
export function unifiedContexts(
  path: string,
  contexts: readonly (ContextParams & { unified: boolean })[],
): { modelLog: string; contextLogs: string[] } {
  const args = contexts.map((c) =>
    [c.nCtx, c.nSeqMax, c.nUbatch, c.unified ? 1 : 0, c.flashAttn === "auto" ? -1 : c.flashAttn ? 1 : 0].join(","),
  );
  if (contexts.some((c) => c.cacheType !== 1)) throw new Error("unified.py creates f16 caches only");
  const run = spawnSync("python3", [join(import.meta.dirname, "unified.py"), LIB_DIR, path, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
  });
  if (run.error)
    throw new Error(
      `python3 is needed for the unified-cache cases (llama.cpp's C API through ctypes): ${run.error.message}`,
    );
  if (run.status !== 0)
    throw new Error(`unified.py failed (${run.status}): ${run.stderr.split("\n").slice(-5).join("\n")}`);
  const [modelLog = "", ...contextLogs] = run.stderr.split(/^=== context .*$/m);
  return { modelLog, contextLogs };
}
