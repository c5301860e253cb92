/**
 * A context longer than the model's own, in the words every engine's message shares: the model's limit
 * and where its files set it, and the YaRN stretch that would lift it where the model's makers publish one.
 */
import type { ModelShape, YarnExtension } from "../shapeTypes.ts";

/** The model's own longest context, or 0 when its files do not say. */
export function modelContextTokens(shape: ModelShape): number {
  return shape.maxContextTokens > 0 ? shape.maxContextTokens : 0;
}

/** The asked and the model's own context, formatted, when the asked one is past the model's; null when within it. */
export function pastContextWords(shape: ModelShape, contextTokens: number): { asked: string; own: string } | null {
  const most = modelContextTokens(shape);
  if (most === 0 || contextTokens <= most) return null;
  return { asked: tokens(contextTokens), own: tokens(most) };
}

function tokens(n: number): string {
  return n.toLocaleString("en-US");
}

/** Where the model's limit comes from, in words: "config.json's max_position_embeddings", "the GGUF's qwen3.context_length". */
export function contextLimitSource(shape: ModelShape): string {
  const key = shape.contextKey ?? "max_position_embeddings";
  const file = key.endsWith(".context_length") ? `the GGUF's ${key}` : `config.json's ${key}`;
  return shape.ropeScaling !== undefined ? `${file} with its rope_scaling (${shape.ropeScaling})` : file;
}

/**
 * The families whose makers publish a YaRN extension, by config model_type and GGUF architecture, and
 * the native context the stretch is made over. Qwen2.5 and Qwen3 (dense and MoE): "Qwen3 natively
 * supports context lengths of up to 32,768 tokens … add rope_scaling {"rope_type":"yarn","factor":4.0,
 * "original_max_position_embeddings":32768}" (huggingface.co/Qwen/Qwen3-8B, "Processing Long Texts";
 * the same block on huggingface.co/Qwen/Qwen2.5-7B-Instruct). Qwen3's config says 40,960 because it
 * reserves room for the answer past the 32,768 native positions.
 */
const YARN_NATIVE_TOKENS: Readonly<Record<string, number>> = {
  qwen2: 32_768,
  qwen2_moe: 32_768,
  qwen2moe: 32_768,
  qwen3: 32_768,
  qwen3_moe: 32_768,
  qwen3moe: 32_768,
};

/** The YaRN stretch that reaches `contextTokens`, or why this model has none. */
export function yarnFor(shape: ModelShape, contextTokens: number): YarnExtension | { why: string } {
  if (shape.ropeScaling !== undefined)
    return {
      why: `its files already set rope scaling (${shape.ropeScaling}), which is how it reaches ${tokens(shape.maxContextTokens)}; its makers publish no second stretch`,
    };
  const native = YARN_NATIVE_TOKENS[shape.architecture];
  if (native === undefined)
    return {
      why: `its makers publish no YaRN extension for ${shape.architecture} (Modelplan knows Qwen2.5's and Qwen3's)`,
    };
  const originalTokens = Math.min(native, modelContextTokens(shape));
  // vLLM and SGLang derive original × factor positions (vllm/config/model.py _get_and_verify_max_len, yarn):
  // the factor is rounded up to two decimals so that product is never short of the asked context.
  const factor = Math.ceil((contextTokens / originalTokens) * 100) / 100;
  return { factor, originalTokens };
}

/** The positions a YaRN stretch gives, as vLLM derives them (int(original × factor)). */
export function yarnContextTokens(y: YarnExtension): number {
  return Math.floor(y.originalTokens * y.factor);
}

/** The rope_scaling block both vLLM's --hf-overrides and SGLang's --json-model-override-args take. */
export function yarnRopeScalingJson(y: YarnExtension): string {
  return JSON.stringify({
    rope_scaling: { rope_type: "yarn", factor: y.factor, original_max_position_embeddings: y.originalTokens },
  });
}
