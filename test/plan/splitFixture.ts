/**
 * A plan with a llama.cpp --tensor-split: Llama-3.3-70B-Instruct Q4_K_M (42.5 GB as the Hub prints the file:
 * bartowski's Q4_K_M of the same 70B geometry, https://huggingface.co/bartowski/Meta-Llama-3.1-70B-Instruct-GGUF/blob/1188ae22973458db73c69653b08c36f0aec9d463/Meta-Llama-3.1-70B-Instruct-Q4_K_M.gguf)
 * on a box with an RTX 4090 and an RTX 3090, where no one card holds it. The split tests, the command form's and the
 * plan worker's all plan it.
 */
import type { Cluster, PlanInput } from "../../src/plan/index.ts";
import { shapeOf } from "./planning-fixtures.ts";

export const LLAMA70_Q4KM: PlanInput = {
  repo: "meta-llama/Llama-3.3-70B-Instruct",
  revision: "",
  shape: shapeOf("meta-llama/Llama-3.3-70B-Instruct"),
  artifacts: [
    {
      name: "Llama-3.3-70B-Instruct-Q4_K_M.gguf",
      format: "gguf",
      files: ["Llama-3.3-70B-Instruct-Q4_K_M.gguf"],
      bytes: 42.5e9,
      projectorBytes: 0,
      quant: "Q4_K_M",
      bitsPerWeight: 0,
      expertBytes: 0,
    },
  ],
};

export const RTX4090_AND_3090: Cluster = {
  nodes: [
    {
      id: "box",
      fabric: "",
      hostMemGib: 128,
      hostFreeGib: 128,
      devices: [
        { class: "rtx4090-24g", count: 1, free: 1 },
        { class: "rtx3090-24g", count: 1, free: 1 },
      ],
    },
  ],
};
