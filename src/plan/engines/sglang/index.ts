/** SGLang: mem_fraction_static of the card, its token pool (sliding layers at 0.8), tensor/pipeline/expert parallel, and its commands. */
import { SGLANG_CONTEXT } from "../contextFlags.ts";
import { cardsOnly, type EngineModel } from "../engine.ts";
import { pastContextWords } from "../pastContext.ts";
import { servingAdmits } from "../serving/admits.ts";
import { DP_ATTENTION_FAMILIES } from "../serving/dpAttentionFamilies.ts";
import { servingOptions } from "../serving/placements.ts";
import { sglangCommands } from "./commands.ts";
import { sglangDefaults } from "./defaults.ts";
import { sglangEvalCard, sglangKvElementBytes } from "./evalCard.ts";
import { sglangCapacity, sglangStateSlotsPerRequest } from "./kv.ts";

/** Why SGLang is not planned for DeepSeek-V4: its pool layout for the compressed cache was not checked against SGLang's source. */
const DSV4_UNMODELLED =
  "DeepSeek-V4's compressed attention (window, 4×/128× compressed entries, indexer keys, compressor states) is not modelled for SGLang: its pool layout for it was not checked against SGLang's source. Plan it on vLLM.";

export const SGLANG: EngineModel = {
  // Its id, name, context flag and YaRN flags (contextFlags.ts: the page reads them before the engines load).
  ...SGLANG_CONTEXT,
  kvDtypes: ["auto", "fp8"],
  kvElementBytes: sglangKvElementBytes,
  defaults: sglangDefaults,
  unmodelled: (shape) => (shape.layerCaches.some((l) => l.kind === "compressed-mla") ? DSV4_UNMODELLED : null),
  admits: (a, shape, w) => servingAdmits(SGLANG, a, shape, w),
  placements: (a, c, out) => servingOptions(a, "sglang", c, out),
  evalLayout: cardsOnly(sglangEvalCard),
  capacity: (_layout, part, e, w, shape, poolBytes) =>
    sglangCapacity(part.kv, e.elementBytes, poolBytes, w.contextTokens, sglangStateSlotsPerRequest(shape.architecture)),
  pastModelContext(shape, contextTokens) {
    const past = pastContextWords(shape, contextTokens);
    if (past === null) return null;
    // sglang/srt/configs/model_config.py _derive_context_length: the same check, unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1.
    return {
      runs: false,
      words: `a context of ${past.asked} tokens is longer than the model's own ${past.own}: SGLang refuses --context-length ${contextTokens} at start-up ("User-specified context_length is greater than the derived context_length"); choose ${past.own} or less, or extend the model's positions (a rope_scaling override) first`,
    };
  },
  startsOnFreeMemory: () => true,
  commands: sglangCommands,
  // A family's known bad builds under DP attention, said on the option (one array for every option: the slider asks each move).
  layoutNotes: (layout, shape) =>
    (layout.placement.dpAttention === true ? DP_ATTENTION_FAMILIES.get(shape.architecture)?.caution : undefined) ??
    NO_NOTES,
};

const NO_NOTES: string[] = [];
