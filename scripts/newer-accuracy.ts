/**
 * The "before" of issue 15: what the current engine plans for every 2026
 * startup in test/fixtures/calibration/newer.jsonl (the shared set) and
 * newer-found.jsonl (logs found since), against what the engines printed.
 *   npx tsx scripts/newer-accuracy.ts
 *
 * Each vLLM/SGLang record is planned through `plan()` on a one-node cluster of
 * exactly the run's cards, sized to the total the log printed (CUDA's figure,
 * so the budget is the engine's own), for the release the log names (reduced
 * to major.minor when vllmProfileFor refuses the string as printed). The
 * weights are an independent prediction only where a source states the
 * checkpoint's bytes (models.json, or the log's own "Checkpoint size" line);
 * otherwise the loaded weights are the input and only the accounting around
 * them (KV pool, fit) is compared. Nothing here is fitted.
 */
import { readFileSync } from "node:fs";
import { GIB, kvBytesPerToken, plan, resolveSettings, shapeFromConfig, type Artifact, type Cluster, type Engine, type KvDtype, type ModelShape, type PlanOption, type Workload } from "../src/plan/index.ts";
import { vllmProfileFor } from "../src/plan/index.ts";
import type { CalibrationModel, CalibrationRecord } from "../src/calibration/accuracy.ts";

const root = new URL("../test/fixtures/", import.meta.url);
const MIB = 2 ** 20;
/** nvidia-smi's total less what CUDA reports (memory.ts DRIVER_RESERVED_BYTES): added back so the plan's budget is the logged total. */
const DRIVER_RESERVED_GIB = 468 / 1024;

interface NewerRecord extends CalibrationRecord {
  quote: string[];
}

function jsonl(name: string): NewerRecord[] {
  return readFileSync(new URL(`calibration/${name}`, root), "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as NewerRecord);
}

/** The config (test/fixtures/configs) each record's model is read from, and why that file. */
const CONFIG_OF: [RegExp, string][] = [
  [/^meta-llama\/Llama-3\.1-8B/, "calibration:meta-llama/Llama-3.1-8B-Instruct"],
  [/^Qwen\/Qwen3-235B-A22B.*FP8/, "Qwen__Qwen3-235B-A22B-FP8"],
  [/^Qwen\/Qwen3-32B/, "Qwen__Qwen3-32B"],
  [/^Qwen\/Qwen3-8B/, "Qwen__Qwen3-8B"],
  [/^openai\/gpt-oss-120b/, "openai__gpt-oss-120b"],
  [/^nvidia\/Qwen3\.5-122B-A10B-NVFP4/, "nvidia__Qwen3.5-122B-A10B-NVFP4"],
  [/^MiniMax-M2\.7/, "MiniMaxAI__MiniMax-M2.7"],
  [/^deepseek-ai\/DeepSeek-V4-Flash/, "deepseek-ai__DeepSeek-V4-Flash"],
  [/^zai-org\/GLM-5\.2/, "zai-org__GLM-5.2"],
  // The same base model quantized by NVIDIA: its geometry is Qwen3.6-27B's.
  [/Qwen3\.6-27B/, "nvidia__Qwen3.6-27B-NVFP4"],
];

const calibrationModels = (JSON.parse(readFileSync(new URL("calibration/models.json", root), "utf8")) as { models: Record<string, CalibrationModel> }).models;

function configOf(model: string): { config: Record<string, unknown>; file: string; params: number | null } | null {
  const hit = CONFIG_OF.find(([re]) => re.test(model));
  if (!hit) return null;
  const file = hit[1];
  if (file.startsWith("calibration:")) {
    const m = calibrationModels[file.slice("calibration:".length)];
    return m ? { config: m.config, file: "calibration/models.json", params: m.params ?? null } : null;
  }
  return { config: JSON.parse(readFileSync(new URL(`configs/${file}.config.json`, root), "utf8")) as Record<string, unknown>, file: `configs/${file}.config.json`, params: null };
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The catalog class a log's card is closest to (for its compute capability and the A100 rule); the memory is the log's. */
function classOf(gpu: string): string | null {
  const table: [RegExp, string][] = [
    [/B200/i, "b200-180g"], [/GH200/i, "gh200-96g"], [/H100/i, "h100-80g"], [/A40\b/i, "a40-48g"], [/RTX PRO 6000/i, "rtxpro6000-96g"],
    [/5090/i, "rtx5090-32g"], [/3090/i, "rtx3090-24g"], [/24 GB-class/i, "rtx3090-24g"], [/RTX PRO 4500/i, "rtxpro4500-32g"],
  ];
  return table.find(([re]) => re.test(gpu))?.[1] ?? null;
}

/** The release the plan is made for: the log's string if the engine reads it, else its major.minor. */
function releaseOf(version: string | null): { release: string | undefined; accepted: boolean } {
  if (version === null) return { release: undefined, accepted: false };
  if (!("error" in vllmProfileFor(version))) return { release: version, accepted: true };
  const m = /(\d+\.\d+)/.exec(version);
  return { release: m?.[1], accepted: false };
}

function kvDtypeOf(r: NewerRecord): KvDtype {
  return /^fp8/i.test(r.kv_dtype) ? "fp8" : "auto";
}

interface Row {
  id: string;
  release: string;
  accepted: string;
  ran: boolean;
  fits: boolean | null;
  weights: [number, number, string] | null;
  kv: [number, number] | null;
  note: string;
}

function pct(p: number, m: number): number {
  return ((p - m) / m) * 100;
}

function artifactFor(r: NewerRecord, shape: ModelShape, params: number | null, tp: number): { art: Artifact; source: string } | null {
  const ms = r.measured;
  const checkpoint = num(ms["checkpoint_size_gib"]);
  // SGLang prints the weights as "mem usage"; a failed load has only the thread's expected figure.
  const loaded = num(ms["weights_gib_per_card"]) ?? num(ms["weights_mem_usage_GB_label_is_GiB"]) ?? num(r.derived["expected_weights_per_card_gib"]);
  let bytes: number;
  let source: string;
  if (params !== null) {
    bytes = params * 2;
    source = "params × 2 (models.json)";
  } else if (checkpoint !== null) {
    bytes = checkpoint * GIB;
    source = "checkpoint size the log printed";
  } else if (loaded !== null) {
    bytes = loaded * tp * GIB;
    source = "INPUT: the log's loaded weights × TP";
  } else return null;
  const art: Artifact = { name: "original", format: "safetensors", files: [], bytes, projectorBytes: 0, quant: shape.quantMethod || shape.dtype, bitsPerWeight: 0, expertBytes: 0 };
  return { art, source };
}

function predict(r: NewerRecord): Row {
  const { release, accepted } = releaseOf(r.engine === "vllm" ? r.engine_version : null);
  const minor = /(\d+\.\d+)/.exec(r.engine_version ?? "")?.[1] ?? "?";
  const row: Row = { id: r.id, release: r.engine === "vllm" ? minor : r.engine.replace(/ .*/, ""), accepted: r.engine === "vllm" ? (accepted ? "yes" : "NO") : "-", ran: !/failed/i.test(r.id), fits: null, weights: null, kv: null, note: "" };
  const cfg = configOf(r.model);
  if (!cfg) {
    row.note = "config missing in test/fixtures";
    return row;
  }
  const shape = shapeFromConfig(cfg.config, cfg.params);
  const engine: Engine | null = r.engine === "vllm" ? "vllm" : r.engine === "sglang" ? "sglang" : null;
  if (!engine) {
    // llama.cpp: the whole cache at n_ctx, f16, against the buffers it printed.
    const ms = r.measured as Record<string, unknown>;
    const main = Array.isArray(ms["main_KV_MiB_per_device"]) ? (ms["main_KV_MiB_per_device"] as number[]).reduce((a, b) => a + b, 0) : null;
    const indexer = Array.isArray(ms["indexer_KV_MiB_per_device"]) ? (ms["indexer_KV_MiB_per_device"] as number[]).reduce((a, b) => a + b, 0) : 0;
    if (main !== null && r.context !== null) {
      row.kv = [(kvBytesPerToken(shape.layerCaches, 2) * r.context) / MIB, main + indexer];
      row.note = `llama.cpp KV MiB, all devices (main ${main} + DSA indexer ${indexer} printed)`;
    } else row.note = "llama.cpp: only nvidia-smi totals printed";
    return row;
  }
  const cls = classOf(r.gpu);
  const total = num(r.gpu_mem_gib);
  if (!cls) {
    row.note = "card not mapped (unified-memory GB10)";
    return row;
  }
  const tp = r.tp;
  const a = artifactFor(r, shape, cfg.params, tp);
  if (!a) {
    row.note = "no weights figure to plan with";
    return row;
  }
  const cluster: Cluster = {
    nodes: [{ id: "n0", fabric: "", hostMemGib: 2048, hostFreeGib: 2048, devices: [{ class: cls, count: r.gpus, free: r.gpus, ...(total !== null ? { memGib: total + DRIVER_RESERVED_GIB } : {}) }] }],
  };
  const settings: Workload["settings"] = {};
  const util = num(r.gpu_mem_util);
  if (engine === "vllm") {
    if (util !== null) settings.gpuMemoryUtilization = util;
    if (release !== undefined) settings.vllmVersion = release;
    const seqs = num(r.measured["max_num_seqs"]);
    const mnbt = num(r.measured["max_num_batched_tokens"]);
    if (seqs !== null) settings.maxNumSeqs = seqs;
    if (mnbt !== null) settings.maxNumBatchedTokens = mnbt;
  }
  const context = typeof r.context === "number" ? r.context : 8192;
  const workload: Workload = { contextTokens: context, sequences: 1, kvDtype: kvDtypeOf(r), settings };
  let options: PlanOption[];
  try {
    options = plan({ repo: r.model, revision: "", shape, artifacts: [a.art] }, cluster, workload).options.filter((o) => o.engine === engine);
  } catch (e) {
    row.note = `plan() threw: ${(e as Error).message.slice(0, 80)}`;
    return row;
  }
  const o = options.find((x) => x.placement.tensorParallel === tp && x.placement.pipelineParallel === 1);
  if (!o) {
    const other = options[0];
    // A narrower width that fits is what the plan offers; that is not a refusal of the run's own width.
    row.fits = other ? null : false;
    if (other && engine === "sglang") {
      const ms = r.measured;
      const post = num(ms["avail_mem_after_load_GB_label_is_GiB"]);
      const w = num(ms["weights_mem_usage_GB_label_is_GiB"]);
      const kv = (num(ms["K_size_GB_label_is_GiB"]) ?? 0) + (num(ms["V_size_GB_label_is_GiB"]) ?? 0);
      const cardBytes = (total ?? 178.35) * GIB;
      const f = resolveSettings("sglang", cardBytes, {}, tp).memFractionStatic;
      if (post !== null && w !== null && kv > 0) {
        // SGLang's pool = free after load − free before load × (1 − fraction).
        const pred = post - (post + w) * (1 - f);
        row.kv = [pred, kv];
        row.note = `SGLang fraction ${f.toFixed(3)} (engine default at TP${tp}); implied by the log ${(1 - (post - kv) / (post + w)).toFixed(4)}; plan itself offers TP${other.placement.tensorParallel}`;
        return row;
      }
    }
    const p = plan({ repo: r.model, revision: "", shape, artifacts: [a.art] }, cluster, workload);
    const why = p.refused.filter((x) => x.engine === engine).map((x) => `${x.where}: ${x.reason}`).slice(0, 2).join("; ");
    row.note = other ? `plan offers TP${other.placement.tensorParallel} PP${other.placement.pipelineParallel}, not TP${tp}` : `refused: ${why.slice(0, 160)}`;
    return row;
  }
  row.fits = o.fits;
  const card = o.cards[0];
  if (!card) return row;
  const loaded = num(r.measured["weights_gib_per_card"]) ?? num(r.measured["weights_mem_usage_GB_label_is_GiB"]);
  if (loaded !== null) row.weights = [card.weightsBytes / GIB, loaded, a.source];
  const kvMeasured = engine === "sglang"
    ? (num(r.measured["K_size_GB_label_is_GiB"]) ?? 0) + (num(r.measured["V_size_GB_label_is_GiB"]) ?? 0)
    : num(r.measured["kv_available_gib_per_card"]);
  const pool = (card.usableBytes - card.weightsBytes - card.engineBytes) / GIB;
  if (kvMeasured !== null && kvMeasured > 0) row.kv = [pool, kvMeasured];
  row.note = `budget ${(card.usableBytes / GIB).toFixed(2)} GiB, engine ${(card.engineBytes / GIB).toFixed(2)} GiB; weights: ${a.source}`;
  return row;
}

function fmt(x: number): string {
  return x.toFixed(2).padStart(7);
}

const sets: [string, NewerRecord[]][] = [["newer.jsonl (shared)", jsonl("newer.jsonl")], ["newer-found.jsonl", jsonl("newer-found.jsonl")]];
const all: Row[] = [];
for (const [name, records] of sets) {
  console.log(`\n== ${name}: ${records.length} records`);
  console.log(`${"id".padEnd(78)} ${"release".padEnd(8)} str? ran   fits   | weights pred / log   err%  | KV pred / log   err%   | note`);
  for (const r of records) {
    const row = predict(r);
    all.push(row);
    const w = row.weights ? `${fmt(row.weights[0])} /${fmt(row.weights[1])} ${pct(row.weights[0], row.weights[1]).toFixed(1).padStart(6)}` : " ".repeat(30);
    const k = row.kv ? `${fmt(row.kv[0])} /${fmt(row.kv[1])} ${pct(row.kv[0], row.kv[1]).toFixed(1).padStart(6)}` : " ".repeat(30);
    const verdict = row.fits === null ? "  -  " : row.fits === row.ran ? (row.ran ? " ok  " : " ok  ") : row.ran ? "FREF " : "FFIT ";
    console.log(`${row.id.slice(0, 78).padEnd(78)} ${row.release.slice(0, 8).padEnd(8)} ${row.accepted.padEnd(4)} ${String(row.ran).padEnd(5)} ${verdict} | ${w} | ${k} | ${row.note}`);
  }
}

// Mean |error| per release, over the rows that compared a figure.
const byRelease = new Map<string, Row[]>();
for (const r of all) byRelease.set(r.release, [...(byRelease.get(r.release) ?? []), r]);
console.log("\n== mean |error| per release (weights only where the checkpoint bytes were independent of the log's loaded figure)");
for (const [rel, rows] of [...byRelease.entries()].sort()) {
  const kv = rows.filter((x) => x.kv).map((x) => Math.abs(pct(x.kv![0], x.kv![1])));
  const w = rows.filter((x) => x.weights && !x.weights[2].startsWith("INPUT")).map((x) => Math.abs(pct(x.weights![0], x.weights![1])));
  const mean = (a: number[]) => (a.length ? (a.reduce((s, e) => s + e, 0) / a.length).toFixed(2) + "%" : "-");
  const wrong = rows.filter((x) => x.fits !== null && x.fits !== x.ran).length;
  console.log(`  ${rel.padEnd(10)} records ${rows.length}  KV n=${kv.length} mean ${mean(kv).padStart(7)}  weights n=${w.length} mean ${mean(w).padStart(7)}  wrong verdicts ${wrong}`);
}
const kvAll = all.filter((x) => x.kv && x.release !== "llama.cpp").map((x) => Math.abs(pct(x.kv![0], x.kv![1])));
console.log(`\nAll KV pools (vLLM + SGLang): n=${kvAll.length}, mean |error| ${(kvAll.reduce((s, e) => s + e, 0) / Math.max(1, kvAll.length)).toFixed(2)}%`);
console.log(`False fits: ${all.filter((x) => !x.ran && x.fits === true).map((x) => x.id).join(", ") || "none"}`);
console.log(`False refusals: ${all.filter((x) => x.ran && x.fits === false).map((x) => x.id).join(", ") || "none"}`);
console.log(`Version strings the engine refuses as printed: ${all.filter((x) => x.accepted === "NO").map((x) => x.id).join(", ") || "none"}`);
