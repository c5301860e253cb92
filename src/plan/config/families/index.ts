/**
 * Which layer caches what, family by family: the families are tried in this
 * order and the first that recognises the config reads it. The order matters
 * where fields overlap: DeepSeek-V4's compress ratios before MLA, Kimi-Linear's
 * linear layers before plain MLA, and the conventions (Gemma-2/3, Cohere2,
 * Qwen2, Mistral sliding windows) last, since they read any config.
 */
import { CONVENTIONS } from "./conventions.ts";
import { DEEPSEEK_V4 } from "./deepseekV4.ts";
import type { ConfigFamily } from "./family.ts";
import { KIMI_LINEAR } from "./kimiLinear.ts";
import { LAYER_TYPES } from "./layerTypes.ts";
import { LLAMA4 } from "./llama4.ts";
import { MIMO } from "./mimo.ts";
import { MINIMAX } from "./minimax.ts";
import { MLA } from "./mla.ts";
import { NEMOTRON_H } from "./nemotronH.ts";
import { NEMOTRON_NAS } from "./nemotronNas.ts";
import { QWEN_NEXT } from "./qwenNext.ts";
import type { Geometry } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

export const FAMILIES: readonly ConfigFamily[] = [
  DEEPSEEK_V4,
  KIMI_LINEAR,
  MLA,
  NEMOTRON_NAS,
  NEMOTRON_H,
  LAYER_TYPES,
  MIMO,
  MINIMAX,
  QWEN_NEXT,
  LLAMA4,
  CONVENTIONS,
];

/** The per-layer caches, from whichever field the config uses to say which layer is which. */
export function layerCachesOf(g: Geometry, attentionHeads: number): LayerCache[] {
  for (const family of FAMILIES) if (family.detects(g)) return family.layerCaches(g, attentionHeads);
  // CONVENTIONS reads any config, so this is never reached.
  return CONVENTIONS.layerCaches(g, attentionHeads);
}
