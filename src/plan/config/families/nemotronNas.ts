/**
 * Nemotron-NAS (Llama-3.3-Nemotron-Super): per-layer `block_configs`, KV heads by n_heads_in_group, or
 * no attention at all.
 */
import type { ConfigFamily } from "./family.ts";
import { isRecord, ModelError, positiveInt } from "../fields.ts";
import { type Geometry, requireLength } from "../geometry.ts";
import type { LayerCache } from "../../shapeTypes.ts";

/**
 * Nemotron-NAS (Llama-3.3-Nemotron-Super): `block_configs` per layer, with
 * attention.n_heads_in_group (KV heads = heads ÷ that), or no attention at
 * all (no_op / replace_with_linear), as vLLM's DeciLM model reads it.
 */
export function blockConfigCaches(g: Geometry, blocks: unknown[], attentionHeads: number): LayerCache[] {
  return blocks.map((block, i): LayerCache => {
    const attn = isRecord(block) ? block["attention"] : undefined;
    if (!isRecord(attn)) {
      throw new ModelError(`block_configs[${i}] has no attention entry: its cache is unknown.`, "block_configs");
    }
    if (attn["no_op"] === true || attn["replace_with_linear"] === true) return { kind: "none" };
    const group = positiveInt(attn, "n_heads_in_group", `block_configs[${i}].attention sets its KV heads`);
    if (attentionHeads % group !== 0) {
      throw new ModelError(
        `block_configs[${i}].attention.n_heads_in_group ${group} does not divide ${attentionHeads} heads.`,
        "block_configs",
      );
    }
    return { ...g.full, kvHeads: attentionHeads / group };
  });
}

export const NEMOTRON_NAS: ConfigFamily = {
  name: "Nemotron-NAS (block_configs)",
  detects: (g) => Array.isArray(g.text["block_configs"]),
  layerCaches: (g, attentionHeads) =>
    blockConfigCaches(g, requireLength(g.text["block_configs"] as unknown[], g, "block_configs"), attentionHeads),
};
