/** llama.cpp (llama-server): GGUF on the CPU, a layer split over a node's cards, layers or experts in host RAM, and its commands. */
import { LLAMACPP_CONTEXT } from "../contextFlags.ts";
import type { EngineModel } from "../engine.ts";
import type { PoolCapacity } from "../../kv.ts";
import { llamacppCommands } from "./commands.ts";
import { llamacppDefaults } from "./defaults.ts";
import { evalCard, llamacppKvElementBytes } from "./evalCard.ts";
import { evalHost } from "./host.ts";
import { llamacppNotes } from "./notes.ts";
import { headCpuSplit, offloadSplit } from "./offload.ts";
import { llamacppOptions } from "./placements.ts";
import { pastContextWords } from "../pastContext.ts";
import { geometryOfFirst } from "../../geometries.ts";
import { type CardEval, fitsEval } from "../../layout.ts";
import type { Refusal, Workload } from "../../types.ts";

/** Why llama.cpp is not planned for DeepSeek-V4: how its GGUF caches the compressed attention was not checked against llama.cpp's source. */
const DSV4_UNMODELLED =
  "DeepSeek-V4's compressed attention is not modelled for llama.cpp: how its GGUF caches the window, the compressed entries and the indexer was not checked against llama.cpp's source. Plan it on vLLM.";

/** llama.cpp allocates exactly n_ctx = context × slots, no more: that is what its cache holds. */
function cacheCapacity(e: CardEval, w: Workload): PoolCapacity {
  const fits = fitsEval(e);
  return { tokens: fits ? w.contextTokens * e.settings.parallel : 0, concurrency: fits ? e.settings.parallel : 0 };
}

export const LLAMACPP: EngineModel = {
  // Its id, name, context flag and YaRN flags (contextFlags.ts: the page reads them before the engines load).
  ...LLAMACPP_CONTEXT,
  kvDtypes: ["auto", "f16", "q8_0", "q4_0"],
  kvElementBytes: (kv) => llamacppKvElementBytes(kv),
  defaults: llamacppDefaults,
  unmodelled: (shape) => (shape.layerCaches.some((l) => l.kind === "compressed-mla") ? DSV4_UNMODELLED : null),
  admits(a, shape, w) {
    const refusals: Refusal[] = [];
    if (LLAMACPP.unmodelled(shape) !== null) return { refusals, places: false };
    // Not a GGUF: placements() says so where it matters, on a cluster with only CPUs (no other engine runs there).
    if (a.format !== "gguf") return { refusals, places: true };
    if (!LLAMACPP.kvDtypes.includes(w.kvDtype)) {
      refusals.push({
        artifact: a.name,
        engine: "llamacpp",
        where: "any",
        reason: `llama.cpp has no KV cache type "${w.kvDtype}": use f16, q8_0 or q4_0`,
      });
      return { refusals, places: false };
    }
    if ((w.kvDtype === "q8_0" || w.kvDtype === "q4_0") && w.settings.flashAttn === "off") {
      // src/llama-context.cpp refuses it: "quantized V cache was requested, but this requires Flash Attention"
      // (older builds: "V cache quantization requires flash_attn").
      refusals.push({
        artifact: a.name,
        engine: "llamacpp",
        where: "any",
        reason: `llama.cpp quantizes the V cache (${w.kvDtype}) only with flash attention: -fa off with -ctv ${w.kvDtype} does not start; use -fa on or auto, or an f16 cache`,
      });
      return { refusals, places: false };
    }
    return { refusals, places: true };
  },
  placements: llamacppOptions,
  evalLayout(layout, ctx, w, contextTokens) {
    if (layout.host?.splitCpuLayers !== undefined) return headCpuSplit(layout, ctx, w, contextTokens);
    if (layout.host && (layout.host.mode === "moe" || layout.host.mode === "layers"))
      return offloadSplit(layout, ctx, w, contextTokens);
    const evals = layout.parts.map((p) => evalCard(layout, p, ctx, w, contextTokens));
    let host: CardEval | null = null;
    if (layout.host) {
      const offloaded = layout.artifact.bytes + layout.artifact.projectorBytes - layout.host.fixedBytes;
      host = evalHost(layout, ctx, w, contextTokens, offloaded, geometryOfFirst(ctx.shape, ctx.shape.layers));
    }
    return { evals, host, cpuLayers: 0 };
  },
  capacity: (_layout, _part, e, w) => cacheCapacity(e, w),
  // On the CPU the cache is in host RAM, allocated the same way.
  hostCapacity: cacheCapacity,
  pastModelContext(shape, contextTokens) {
    const past = pastContextWords(shape, contextTokens);
    if (past === null) return null;
    // src/llama-context.cpp warns "n_ctx_seq (N) > n_ctx_train (M) -- possible training context overflow" and
    // goes on; llama-server then caps each slot: "the slot context (N) exceeds the training context of the model (M) - capping".
    return {
      runs: true,
      words: `a context of ${past.asked} tokens runs past the ${past.own} the model was trained on: llama.cpp starts and warns of a possible training context overflow, and llama-server caps each slot at ${past.own} tokens, so the cache beyond that is allocated but unused`,
    };
  },
  startsOnFreeMemory: () => true,
  commands: llamacppCommands,
  layoutNotes: llamacppNotes,
};
