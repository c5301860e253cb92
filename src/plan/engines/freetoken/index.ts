/** FreeToken: one card with the experts in pinned host RAM, for a mixture of experts larger than the card, on its known-good models. */
import { FREETOKEN_CONTEXT } from "../contextFlags.ts";
import type { EngineModel } from "../engine.ts";
import { freetokenCapacity } from "./capacity.ts";
import { freetokenCommand } from "./commands.ts";
import { freetokenDefaults } from "./defaults.ts";
import { FREETOKEN_KV_ELEMENT_BYTES, freetokenEvalCard } from "./evalCard.ts";
import { freetokenOptions } from "./placements.ts";
import { evalHost } from "../llamacpp/host.ts";
import { weightParts } from "../../weights.ts";

export const FREETOKEN: EngineModel = {
  // Its id, name, context flag and YaRN flags (contextFlags.ts: the page reads them before the engines load).
  ...FREETOKEN_CONTEXT,
  kvDtypes: ["auto"],
  kvElementBytes: () => FREETOKEN_KV_ELEMENT_BYTES,
  defaults: freetokenDefaults,
  unmodelled: () => null,
  // FreeToken is offered quietly: a KV dtype it does not take simply leaves it out.
  admits: (a, _shape, w) => ({ refusals: [], places: a.format !== "gguf" && FREETOKEN.kvDtypes.includes(w.kvDtype) }),
  placements: freetokenOptions,
  evalLayout(layout, ctx, w, contextTokens) {
    const evals = layout.parts.map((p) => freetokenEvalCard(layout, p, ctx, w, contextTokens));
    // The experts in pinned host RAM, costed with llama.cpp's host accounting.
    const wp = weightParts(ctx.shape, layout.artifact);
    const host = layout.host ? evalHost(layout, ctx, w, contextTokens, wp.expertLayerBytes * wp.moeLayers, null) : null;
    return { evals, host, cpuLayers: 0 };
  },
  capacity: (layout, part, e, w, shape) => freetokenCapacity(layout, part, e, w, shape),
  pastModelContext: () => null,
  // python/freetoken/server/args.py (03fb0438) defines no rope-scaling flag.
  startsOnFreeMemory: () => true,
  commands: (option, ctx) => [freetokenCommand(option, ctx)],
};
