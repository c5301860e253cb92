/**
 * The KV figures of an option, in the words its engine means (issue 17, defect 4). vLLM and SGLang
 * preallocate a pool from what is left after the weights (kvPoolBytes, kvPoolTokens: the engine's
 * "GPU KV cache size" line); llama.cpp allocates a cache of exactly context × slots (the worst card's
 * kvBytes), and the plan's kvPoolBytes is then what is left on that card, not a pool.
 */
import type { PlanOption } from "../plan/index.ts";
import { formatGib, formatTokens } from "./format.ts";
import { sequencesHeld as sequences } from "./verdict.ts";

export interface KvFigure {
  term: string;
  value: string;
}

export function kvFigures(option: PlanOption): KvFigure[] {
  if (option.engine !== "llamacpp") {
    return [
      {
        term: "KV pool per card",
        value: `${formatGib(option.kvPoolBytes)} · ${formatTokens(option.kvPoolTokens)} tokens`,
      },
      { term: "Sequences at once", value: sequences(option.maxConcurrency) },
    ];
  }
  const worst = option.cards[option.worstCardIndex ?? 0] ?? option.cards[0];
  if (!worst) return [];
  const where = option.placement.cpu ? "in RAM" : "per card";
  const figures: KvFigure[] = [];
  // On the CPU the plan reports no token count for the cache (kvPoolTokens 0): the GiB alone is said.
  const tokens =
    option.kvPoolTokens > 0
      ? ` for ${formatTokens(option.kvPoolTokens)} tokens (context × ${sequences(option.maxConcurrency)} slots)`
      : " for the context × slots";
  figures.push({ term: `KV cache ${where}`, value: `${formatGib(worst.kvBytes)}${tokens}` });
  figures.push({
    term: option.placement.cpu ? "RAM left" : "Left on the fullest card",
    value: formatGib(worst.leftBytes),
  });
  return figures;
}
