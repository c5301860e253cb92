/**
 * Each engine's name, its context flag and the flags that stretch a model's positions with YaRN, apart
 * from the engine models (index.ts): the page's context check (contextFit.ts) runs on the first screen,
 * before the engines are needed, and the engine models take these same entries (one home for each).
 */
import type { Arg } from "../commands.ts";
import type { Engine } from "../types.ts";
import type { YarnExtension } from "../shapeTypes.ts";
import { llamacppYarnArgs } from "./llamacpp/commands.ts";
import { sglangYarnArgs } from "./sglang/commands.ts";
import { vllmYarnArgs } from "./vllm/commands.ts";

export interface EngineContextFlags {
  readonly id: Engine;
  readonly label: string;
  /** The flag that sets the context: vLLM --max-model-len, SGLang --context-length, llama.cpp --ctx-size. */
  readonly contextFlag: string;
  /** The flags that stretch the positions with YaRN; null where the engine has none. */
  yarnArgs(y: YarnExtension): Arg[] | null;
}

export const VLLM_CONTEXT: EngineContextFlags = {
  id: "vllm",
  label: "vLLM",
  contextFlag: "--max-model-len",
  yarnArgs: vllmYarnArgs,
};
export const SGLANG_CONTEXT: EngineContextFlags = {
  id: "sglang",
  label: "SGLang",
  contextFlag: "--context-length",
  yarnArgs: sglangYarnArgs,
};
export const LLAMACPP_CONTEXT: EngineContextFlags = {
  id: "llamacpp",
  label: "llama.cpp",
  contextFlag: "--ctx-size",
  yarnArgs: llamacppYarnArgs,
};
export const FREETOKEN_CONTEXT: EngineContextFlags = {
  id: "freetoken",
  label: "FreeToken",
  contextFlag: "--max-seq-len-override",
  // python/freetoken/server/args.py (03fb0438) defines no rope-scaling flag.
  yarnArgs: () => null,
};

/** In the engines' order (index.ts ENGINE_ORDER). */
export const ENGINE_CONTEXT_FLAGS: readonly EngineContextFlags[] = [
  VLLM_CONTEXT,
  SGLANG_CONTEXT,
  LLAMACPP_CONTEXT,
  FREETOKEN_CONTEXT,
];
