/**
 * The calibration tests' case: Llama-3.1-8B-Instruct on one H100 at --gpu-memory-utilization 0.95,
 * max-model-len 8192, the plan's vLLM TP1 option for it, and the startup logs of
 * test/fixtures/logs/calibration-quotes.json (llm-d-incubation/llm-d-planner PR #205's raw vLLM logs: each record names its URL).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { plan, readModel, type PlanOption, type Workload } from "../../src/plan/index.ts";
import { snapshotOf } from "../plan/fixture.ts";

const RECORDS = (
  JSON.parse(
    // A path, not import.meta.url: a DOM test (happy-dom) gives modules an http: URL, which readFileSync does not take.
    readFileSync(join(import.meta.dirname, "..", "fixtures", "logs", "calibration-quotes.json"), "utf8"),
  ) as {
    records: { id: string; quote: string[] }[];
  }
).records;

/** One record's startup lines, as a user would paste them. */
export function quote(id: string): string {
  const r = RECORDS.find((x) => x.id === id);
  if (!r) throw new Error(`no record ${id}`);
  return r.quote.join("\n");
}

/** vLLM 0.19's startup of the case itself. */
export const VLLM_019_LLAMA8B_H100 = "vllm0190-h100-llama-3-1-8b-instruct-tp1pp1-8192";

export const workload: Workload = {
  contextTokens: 8192,
  sequences: 1,
  kvDtype: "auto",
  settings: { gpuMemoryUtilization: 0.95 },
};

function vllmTp1(): PlanOption {
  const snapshot = snapshotOf("meta-llama__Llama-3.1-8B-Instruct");
  const { shape, artifacts } = readModel(snapshot);
  const p = plan(
    { repo: snapshot.repo, revision: snapshot.sha, shape, artifacts },
    {
      nodes: [
        {
          id: "h1",
          fabric: "",
          hostMemGib: 1024,
          hostFreeGib: 1000,
          devices: [{ class: "h100-80g", count: 1, free: 1 }],
        },
      ],
    },
    workload,
  );
  const found = p.options.find(
    (o) => o.engine === "vllm" && o.artifact === "original" && o.placement.tensorParallel === 1,
  );
  if (!found) throw new Error("no vLLM TP1 option for Llama-3.1-8B on an H100");
  return found;
}

/** The plan's vLLM TP1 option for the case. */
export const option = vllmTp1();
