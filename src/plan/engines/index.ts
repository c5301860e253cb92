/**
 * The engines Modelplan plans for, in the order the plan walks them (and
 * lists their refusals). A new engine is its folder and one line here.
 */
import type { CommandContext, CommandOption } from "../commands.ts";
import type { EngineModel, PastContext, SettingDefault } from "./engine.ts";
import { FREETOKEN } from "./freetoken/index.ts";
import { LLAMACPP } from "./llamacpp/index.ts";
import { SGLANG } from "./sglang/index.ts";
import { VLLM } from "./vllm/index.ts";
import { resolveSettings } from "../settings.ts";
import type { ModelShape } from "../shapeTypes.ts";
import type { Engine, KvDtype } from "../types.ts";

export const ENGINE_MODELS: Readonly<Record<Engine, EngineModel>> = {
  vllm: VLLM,
  sglang: SGLANG,
  llamacpp: LLAMACPP,
  freetoken: FREETOKEN,
};

/** The engines in the order they are planned: vLLM, SGLang, llama.cpp, FreeToken. */
export const ENGINE_ORDER: readonly EngineModel[] = [VLLM, SGLANG, LLAMACPP, FREETOKEN];

export function engineModel(engine: Engine): EngineModel {
  return ENGINE_MODELS[engine];
}

/** Whether an engine takes a KV cache dtype. */
export function kvDtypeAllowed(engine: Engine, kv: KvDtype): boolean {
  return ENGINE_MODELS[engine].kvDtypes.includes(kv);
}

/** Bytes of one KV element of an engine's cache for a model run at `modelDtypeBytes`. */
export function kvElementBytes(engine: Engine, kv: KvDtype, modelDtypeBytes: number): number {
  return ENGINE_MODELS[engine].kvElementBytes(kv, modelDtypeBytes);
}

/**
 * The defaults an engine would use on a card of `cardMemoryBytes`, by the
 * engine's own flag names, each with its source: what the page shows in the
 * "Engine settings" disclosure.
 */
export function engineDefaults(
  engine: Engine,
  cardMemoryBytes: number,
  gpuClass = "",
  vllmVersion?: string,
): Required<Record<string, SettingDefault>> {
  const r = resolveSettings(engine, cardMemoryBytes, vllmVersion === undefined ? {} : { vllmVersion }, 1, 1, gpuClass);
  return ENGINE_MODELS[engine].defaults(r);
}

/**
 * The command lines that start an option: one entry per process, and across
 * nodes one per node. A multi-node entry starts with a shell comment naming
 * its node ("# node-a (head)"), so a pasted block says where it belongs and
 * still runs as it is.
 */
export function commandsFor(option: CommandOption, ctx: CommandContext): string[] {
  return ENGINE_MODELS[option.engine].commands(option, ctx);
}

/** What an engine does with a context past the model's own (vLLM and SGLang refuse it, llama.cpp starts); null within it. */
export function pastModelContext(engine: Engine, shape: ModelShape, contextTokens: number): PastContext | null {
  return ENGINE_MODELS[engine].pastModelContext(shape, contextTokens);
}

export type { EngineModel, PastContext, SettingDefault } from "./engine.ts";
