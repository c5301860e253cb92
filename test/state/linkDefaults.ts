/** The page's defaults as the link codec's tests see them: a repo, one 8 × H100 node, a workload. */
import type { Choices } from "../../src/state/choices.ts";

export const LINK_DEFAULTS: Choices = {
  repo: "Qwen/Qwen3-32B",
  revision: "",
  cluster: {
    nodes: [
      {
        id: "node-1",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 1900,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      },
    ],
  },
  workload: { contextTokens: 32768, sequences: 1, kvDtype: "auto", settings: {} },
  filters: { artifact: "", engine: "", fit: "all", groupBy: "none" },
  selectedOptionId: "",
  commandIndex: 0,
};
