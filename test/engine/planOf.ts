/**
 * Modelplan's plan for a GGUF on disk, read as the app reads a Hub file: @huggingface/gguf
 * parses the header, src/hub's headerFromParse keeps what the engine needs, and the barrel's
 * readModel + plan place it on one CPU-only node.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import { gguf } from "@huggingface/gguf";
import { headerFromParse } from "../../src/hub/gguf.ts";
import { plan, readModel, type CardLoad, type KvDtype, type RepoSnapshot } from "../../src/plan/index.ts";

export interface PlannedCpu {
  load: CardLoad;
  vocabSize: number;
  /** The weights the plan expects llama.cpp's CPU build to repack into a second buffer (Artifact.cpuRepack). */
  repackedBytes: number;
  /** What the CPU option tells the user beyond its figures. */
  notes: string[];
}

/** The llama.cpp CPU option's load for `sequences` slots of `contextTokens` each. */
export async function planCpu(
  path: string,
  w: {
    contextTokens: number;
    sequences: number;
    kvDtype: KvDtype;
    ubatch: number;
    flashAttn: "on" | "off" | "auto";
    /** llama-server --kv-unified: the plan's setting for a unified cache. */
    kvUnified?: boolean;
  },
): Promise<PlannedCpu> {
  const parse = await gguf(path, { allowLocalFile: true });
  const name = basename(path);
  const snapshot: RepoSnapshot = {
    repo: `engine-test/${name}`,
    sha: "",
    config: null,
    paramsTotal: null,
    files: [{ path: name, sizeBytes: statSync(path).size }],
    ggufHeaders: { [name]: headerFromParse(parse) },
  };
  const { shape, artifacts } = readModel(snapshot);
  const cluster = { nodes: [{ id: "cpu", fabric: "", hostMemGib: 4096, hostFreeGib: 4096, devices: [] }] };
  const workload = {
    contextTokens: w.contextTokens,
    sequences: w.sequences,
    kvDtype: w.kvDtype,
    settings: {
      ubatch: w.ubatch,
      batch: w.ubatch,
      parallel: w.sequences,
      flashAttn: w.flashAttn,
      ...(w.kvUnified === true ? { kvUnified: true } : {}),
    },
  };
  const p = plan({ repo: snapshot.repo, revision: "", shape, artifacts }, cluster, workload);
  const cpu = p.options.find((o) => o.engine === "llamacpp" && o.placement.cpu);
  const load = cpu?.cards[0];
  if (!load)
    throw new Error(`the plan offers no llama.cpp CPU option for ${name}: ${JSON.stringify(p.refused.slice(0, 3))}`);
  const repackedBytes = artifacts.find((a) => a.name === cpu?.artifact)?.cpuRepack?.copyBytes ?? 0;
  return { load, vocabSize: shape.vocabSize, repackedBytes, notes: cpu?.notes ?? [] };
}
