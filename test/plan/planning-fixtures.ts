/**
 * Real models for the planning tests: configs and file sizes from
 * test/fixtures/calibration/ (copied from shared/fixtures with their sources),
 * read through the same shapeFromConfig the app uses.
 */
import { readFileSync } from "node:fs";
import { shapeFromConfig } from "../../src/plan/index.ts";
import type { Artifact, ClusterNode, DeviceGroup, ModelShape } from "../../src/plan/index.ts";

interface Entry {
  config: Record<string, unknown>;
  params?: number;
  bytes?: number;
  safetensorsBytes?: number;
  gguf?: Record<string, number>;
}

const dir = new URL("../fixtures/calibration/", import.meta.url);
const planning = JSON.parse(readFileSync(new URL("planning-models.json", dir), "utf8")) as Record<string, Entry>;
const calibration = (JSON.parse(readFileSync(new URL("models.json", dir), "utf8")) as { models: Record<string, Entry> })
  .models;

function entry(repo: string): Entry {
  const e = planning[repo] ?? calibration[repo];
  if (!e) throw new Error(`no fixture for ${repo}`);
  return e;
}

/** The model's shape, from its real config.json. */
export function shapeOf(repo: string): ModelShape {
  const e = entry(repo);
  return shapeFromConfig(e.config, e.params ?? null);
}

/** The repository's own safetensors, weighing what its shards (or params × 2 bytes) weigh. */
export function originalOf(repo: string): Artifact {
  const e = entry(repo);
  const shape = shapeOf(repo);
  const bytes = e.safetensorsBytes ?? e.bytes ?? (e.params ?? 0) * 2;
  const params = shape.paramsTotal ?? e.params ?? 0;
  const expertParams = shape.moe?.routedExpertParams ?? 0;
  return {
    name: "original",
    format: "safetensors",
    files: ["model.safetensors"],
    bytes,
    projectorBytes: 0,
    quant: shape.quantMethod || "bf16",
    bitsPerWeight: params > 0 ? (bytes * 8) / params : 0,
    expertBytes: params > 0 ? Math.round((bytes * expertParams) / params) : 0,
  };
}

/** One of the repository's GGUF files, with its real size. */
export function ggufOf(repo: string, file: string, quant: string): Artifact {
  const bytes = entry(repo).gguf?.[file];
  if (bytes === undefined) throw new Error(`no size for ${file}`);
  return {
    name: file,
    format: "gguf",
    files: [file],
    bytes,
    projectorBytes: 0,
    quant,
    bitsPerWeight: 0,
    expertBytes: 0,
  };
}

/** A node with some cards of one class. */
export function node(
  id: string,
  fabric: string,
  devices: DeviceGroup[],
  hostMemGib = 1024,
  hostFreeGib = hostMemGib,
): ClusterNode {
  return { id, fabric, hostMemGib, hostFreeGib, devices };
}

export function cards(cls: string, count: number, free = count): DeviceGroup {
  return { class: cls, count, free };
}

export const GIB = 2 ** 30;
