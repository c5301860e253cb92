/**
 * The terminal with a context past the model's limit (issue 17, defect 5), on a local download of
 * Qwen/Qwen3-8B (config.json from huggingface.co/Qwen/Qwen3-8B: max_position_embeddings 40,960).
 * Before: "does not fit (0 more cards)" on every option, beside `--max-model-len 200000`.
 */
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../scripts/plan.ts";
import { loadConfig } from "../plan/fixture.ts";
import { writeDgxCluster } from "./dgxCluster.ts";

const work = mkdtempSync(join(tmpdir(), "modelplan-past-context-"));
const model = join(work, "Qwen3-8B");
mkdirSync(model);
const { _source: _, ...config } = loadConfig("Qwen__Qwen3-8B");
writeFileSync(join(model, "config.json"), JSON.stringify(config));
writeFileSync(join(model, "model.safetensors"), "");
truncateSync(join(model, "model.safetensors"), 16_381_470_720); // sparse; a stand-in size, 8.19 B × 2 bytes
const cluster = writeDgxCluster(work);

describe("--context past the model's limit", () => {
  test("--context 200000: planned at 40,960, said once on stderr with the YaRN flags, and no option 'does not fit'", async () => {
    const { code, stdout, stderr } = await main([model, "--cluster", cluster, "--context", "200000"], {});
    expect(code).toBe(0);
    expect(stdout).not.toContain("does not fit");
    expect(stdout).not.toContain("--max-model-len 200000");
    expect(stdout).toContain("--max-model-len 40960");
    const said = stderr.split("\n").filter((l) => l.includes("past the model's limit"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("limit of 40,960 (config.json's max_position_embeddings): planned at 40,960");
    expect(said[0]).toContain("vLLM: --hf-overrides");
    expect(said[0]).toContain("llama.cpp: --rope-scaling yarn --rope-scale 6.11 --yarn-orig-ctx 32768");
    expect(said[0]).toContain("Plan it so with --rope-scaling yarn.");
  });

  test("--rope-scaling yarn: planned at 200,000 with the stretch in each command", async () => {
    const { code, stdout } = await main(
      [model, "--cluster", cluster, "--context", "200000", "--rope-scaling", "yarn", "--json"],
      {},
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as {
      options: { engine: string; fits: boolean; command: string }[];
      context_limit: Record<string, unknown>;
    };
    expect(out.context_limit).toMatchObject({
      asked_tokens: 200_000,
      planned_tokens: 200_000,
      model_limit_tokens: 40_960,
      yarn: { factor: 6.11, original_tokens: 32_768 },
      extended: true,
    });
    const first = out.options[0];
    expect(first?.fits).toBe(true);
    for (const o of out.options) {
      expect(o.command).toMatch(/--max-model-len 200000|--context-length 200000/);
      expect(o.command).toContain(
        '"rope_scaling":{"rope_type":"yarn","factor":6.11,"original_max_position_embeddings":32768}',
      );
    }
  });
});
