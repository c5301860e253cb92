/**
 * Llama-2-7B in Q4_0 (3.82 GB), the model of llama.cpp's own CUDA scoreboard
 * (discussion #15013; row lcpp-15013-rtx-4090-faon of test/fixtures/speed/measured.jsonl):
 * its config.json and the GGUF artifact, for the tests that plan it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shapeFromConfig, type Artifact } from "../../src/plan/index.ts";

export const llama2Config = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "fixtures", "speed", "meta-llama__Llama-2-7b-hf.config.json"), "utf8"),
) as Record<string, unknown>;
export const llama2Shape = shapeFromConfig(llama2Config, 6.74e9);
export const llama2Q4: Artifact = {
  name: "llama-2-7b.Q4_0.gguf",
  format: "gguf",
  files: ["llama-2-7b.Q4_0.gguf"],
  bytes: 3.82e9,
  projectorBytes: 0,
  quant: "Q4_0",
  bitsPerWeight: 4.53,
  expertBytes: 0,
};
