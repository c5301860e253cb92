/**
 * NVIDIA's Qwen3.5-122B-A10B-NVFP4 (test/fixtures/configs, from its Hub config.json) planned for vLLM on one
 * RTX PRO 6000, its checkpoint the 0.22.1 log's loaded 73.22 GiB (no speculative decoding; newer.jsonl) plus
 * the bf16 MTP layer its quantization_config leaves out ("mtp*"): the MTP tests' one option, with or without
 * `--speculative-config` naming MTP.
 */
import {
  GIB,
  mtpWeightBytes,
  plan,
  shapeFromConfig,
  type Artifact,
  type Cluster,
  type EngineSettings,
  type PlanOption,
} from "../../src/plan/index.ts";
import { loadConfig } from "./fixture.ts";

export const qwen35Config = loadConfig("nvidia__Qwen3.5-122B-A10B-NVFP4");
export const qwen35Shape = shapeFromConfig(qwen35Config, null);

const artifact: Artifact = {
  name: "original",
  format: "safetensors",
  files: [],
  bytes: 73.22 * GIB + mtpWeightBytes(qwen35Shape),
  projectorBytes: 0,
  quant: "modelopt_fp4",
  bitsPerWeight: 0,
  expertBytes: 0,
};

const cluster: Cluster = {
  nodes: [
    {
      id: "n",
      fabric: "",
      hostMemGib: 512,
      hostFreeGib: 512,
      devices: [{ class: "rtxpro6000-96g", count: 1, free: 1 }],
    },
  ],
};

export function qwen35VllmOption(settings: EngineSettings): PlanOption {
  const o = plan(
    { repo: "nvidia/Qwen3.5-122B-A10B-NVFP4", revision: "", shape: qwen35Shape, artifacts: [artifact] },
    cluster,
    { contextTokens: 32768, sequences: 1, kvDtype: "auto", settings },
  ).options.find((x) => x.engine === "vllm");
  if (!o) throw new Error("no vLLM option on one RTX PRO 6000");
  return o;
}
