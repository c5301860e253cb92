/** vLLM (V1 engine, 0.10 and later): its budget by release, its paged KV, tensor/pipeline/expert parallel, and its commands. */
import { VLLM_CONTEXT } from "../contextFlags.ts";
import { cardsOnly, type EngineModel } from "../engine.ts";
import { pastContextWords } from "../pastContext.ts";
import { servingAdmits } from "../serving/admits.ts";
import { servingOptions } from "../serving/placements.ts";
import { vllmFreeMemoryOk } from "./budget.ts";
import { vllmCommands } from "./commands.ts";
import { vllmDefaults } from "./defaults.ts";
import { vllmEvalCard, vllmKvElementBytes } from "./evalCard.ts";
import { vllmCachedGeometry, vllmCapacity } from "./kv.ts";

export const VLLM: EngineModel = {
  // Its id, name, context flag and YaRN flags (contextFlags.ts: the page reads them before the engines load).
  ...VLLM_CONTEXT,
  kvDtypes: ["auto", "fp8"],
  kvElementBytes: vllmKvElementBytes,
  defaults: vllmDefaults,
  unmodelled: () => null,
  admits: (a, shape, w) => servingAdmits(VLLM, a, shape, w),
  placements: (a, c, out) => servingOptions(a, "vllm", c, out),
  evalLayout: cardsOnly(vllmEvalCard),
  capacity: (_layout, part, e, w, _shape, poolBytes) =>
    vllmCapacity(
      vllmCachedGeometry(part.kv, e.settings.chunkedLocalHybridKv),
      e.elementBytes,
      poolBytes,
      w.contextTokens,
      e.settings.maxNumBatchedTokens,
    ),
  pastModelContext(shape, contextTokens) {
    const past = pastContextWords(shape, contextTokens);
    if (past === null) return null;
    // vllm/config/model.py (0.10–0.19) raises "User-specified max_model_len (N) is greater than the derived
    // max_model_len (max_position_embeddings=M or model_max_length=None in model's config.json)" unless
    // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, which its own message warns may give NaNs or out-of-bounds errors.
    return {
      runs: false,
      words: `a context of ${past.asked} tokens is longer than the model's own ${past.own}: vLLM refuses --max-model-len ${contextTokens} at start-up ("User-specified max_model_len is greater than the derived max_model_len"); choose ${past.own} or less, or extend the model's positions (a rope_scaling override) first`,
    };
  },
  startsOnFreeMemory: vllmFreeMemoryOk,
  commands: vllmCommands,
};
