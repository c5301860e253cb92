/**
 * A context asked past the model's own limit, decided once before the plan (issue 17, defect 5): planned
 * at the limit with one message naming the limit, where it comes from and the rope scaling that would lift
 * it with each engine's flags; or, when the user asks for YaRN and the model's family has one, planned
 * with the stretch, whose flags the commands then carry. Before, the terminal said "does not fit (0 more
 * cards)" and still printed --max-model-len 200000, and the page clamped the field without a word.
 */
import { line } from "./commands.ts";
import { ENGINE_CONTEXT_FLAGS } from "./engines/contextFlags.ts";
import { contextLimitSource, modelContextTokens, yarnContextTokens, yarnFor } from "./engines/pastContext.ts";
import type { ModelShape, YarnExtension } from "./shapeTypes.ts";

export interface ContextFit {
  /** The shape to plan with: the model's own, or with its positions stretched by YaRN when that was asked and possible. */
  shape: ModelShape;
  /** The context to plan at: the asked one, or the model's limit when it is past it and not stretched. */
  contextTokens: number;
  /** The one message for a context past the model's limit; null within it. */
  message: string | null;
  /** The YaRN stretch that reaches the asked context, whether used or not; null when the model has none. */
  yarn: YarnExtension | null;
  /** Whether the plan uses the stretch. */
  extended: boolean;
}

function tokens(n: number): string {
  return n.toLocaleString("en-US");
}

/** Each engine's flags for the stretch and the context, "vLLM: --hf-overrides '…' --max-model-len 200000". */
export function yarnFlagWords(y: YarnExtension, contextTokens: number): string {
  return ENGINE_CONTEXT_FLAGS.flatMap((e) => {
    const args = e.yarnArgs(y);
    return args === null ? [] : [`${e.label}: ${line([], [...args, [e.contextFlag, contextTokens]])}`];
  }).join("; ");
}

/** The context and shape to plan with for an asked context, and what to say when it is past the model's limit. */
export function contextFit(shape: ModelShape, contextTokens: number, ropeScaling: "yarn" | undefined): ContextFit {
  const limit = modelContextTokens(shape);
  if (limit === 0 || contextTokens <= limit)
    return { shape, contextTokens, message: null, yarn: null, extended: false };
  const past = `A context of ${tokens(contextTokens)} tokens is past the model's limit of ${tokens(limit)} (${contextLimitSource(shape)})`;
  const y = yarnFor(shape, contextTokens);
  if ("why" in y) {
    const asked = ropeScaling === "yarn" ? "YaRN was asked for, but " : "No rope scaling lifts it here: ";
    return {
      shape,
      contextTokens: limit,
      message: `${past}: planned at ${tokens(limit)}. ${asked}${y.why}.`,
      yarn: null,
      extended: false,
    };
  }
  const stretch = `YaRN factor ${y.factor} over its native ${tokens(y.originalTokens)} positions (${tokens(yarnContextTokens(y))} in all)`;
  const flags = yarnFlagWords(y, contextTokens);
  if (ropeScaling === "yarn") {
    const stretched: ModelShape = { ...shape, maxContextTokens: yarnContextTokens(y), yarn: y };
    // vLLM's rotary cos/sin cache grows with the stretch (YaRN's cache is original × factor rows).
    delete stretched.ropeCacheRows;
    return {
      shape: stretched,
      contextTokens,
      message: `${past}: planned with ${stretch}, as the commands set it (${flags}). Past the native positions, answers are as good as the model's makers say YaRN keeps them; nothing here measures it.`,
      yarn: y,
      extended: true,
    };
  }
  return {
    shape,
    contextTokens: limit,
    message: `${past}: planned at ${tokens(limit)}. ${stretch} would lift it: ${flags}.`,
    yarn: y,
    extended: false,
  };
}

/**
 * The tokens of KV cache a workload asks each replica to hold at once: every sequence at the full context. The
 * page's "token pool" line; what a pool really holds is the engine's block accounting (option.maxConcurrency).
 */
export function workloadPoolTokens(contextTokens: number, sequences: number): number {
  return contextTokens * Math.max(1, sequences);
}
