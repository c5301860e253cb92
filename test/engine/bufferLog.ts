/**
 * llama.cpp's own buffer lines, read from its log (ggml-org/llama.cpp v0.4.0):
 * `load_tensors: <buft> model buffer size = X MiB` (src/llama-model.cpp),
 * `<buft> output buffer size` (src/llama-context.cpp output_reserve),
 * `llama_kv_cache: size = X MiB (N cells, L layers, s/S seqs), K (t): …, V (t): …` (src/llama-kv-cache.cpp),
 * `llama_memory_recurrent: size = …, R (f32): …, S (f32): …` (src/llama-memory-recurrent.cpp),
 * `sched_reserve: <buft> compute buffer size = X MiB` (src/llama-context.cpp). Sizes print as MiB
 * with two decimals, so a figure read here is exact to ±0.005 MiB.
 */
export const MIB = 2 ** 20;

export interface KvLine {
  mib: number;
  cells: number;
  layers: number;
  kType: string;
}

export interface BufferLog {
  /** Model buffers by buffer type: CPU_Mapped (the file, mapped), CPU_REPACK / AMX (repacked copies). */
  modelMib: Record<string, number>;
  outputMib: number;
  kv: KvLine[];
  recurrentMib: number;
  computeMib: number;
  nCtx: number;
  nUbatch: number;
  flashAttn: string;
  kvUnified: boolean;
}

function all(text: string, re: RegExp): RegExpExecArray[] {
  return [...text.matchAll(new RegExp(re.source, "g"))];
}

function one(text: string, re: RegExp, what: string): RegExpExecArray {
  const m = re.exec(text);
  if (!m) throw new Error(`llama.cpp's log has no ${what} line (looked for ${re.source})`);
  return m;
}

export function readModelBuffers(modelLog: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of all(modelLog, /load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB/))
    out[m[1] ?? ""] = Number(m[2]);
  if (Object.keys(out).length === 0) throw new Error("llama.cpp's log has no model buffer line");
  return out;
}

export function readContext(log: string): Omit<BufferLog, "modelMib"> {
  const kv = all(
    log,
    /llama_kv_cache: size =\s+([\d.]+) MiB \(\s*(\d+) cells,\s+(\d+) layers,[^)]*\), K \((\w+)\)/,
  ).map((m) => ({
    mib: Number(m[1]),
    cells: Number(m[2]),
    layers: Number(m[3]),
    kType: m[4] ?? "",
  }));
  const rs = all(log, /llama_memory_recurrent: size =\s+([\d.]+) MiB/).reduce((s, m) => s + Number(m[1]), 0);
  return {
    outputMib: Number(one(log, /output buffer size =\s+([\d.]+) MiB/, "output buffer")[1]),
    kv,
    recurrentMib: rs,
    computeMib: all(log, /sched_reserve:\s+\S+ compute buffer size =\s+([\d.]+) MiB/).reduce(
      (s, m) => s + Number(m[1]),
      0,
    ),
    nCtx: Number(one(log, /llama_context: n_ctx\s+=\s+(\d+)/, "n_ctx")[1]),
    nUbatch: Number(one(log, /llama_context: n_ubatch\s+=\s+(\d+)/, "n_ubatch")[1]),
    flashAttn: one(log, /llama_context: flash_attn\s+=\s+(\w+)/, "flash_attn")[1] ?? "",
    kvUnified: one(log, /llama_context: kv_unified\s+=\s+(\w+)/, "kv_unified")[1] === "true",
  };
}
