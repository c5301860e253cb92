/** MiMo-V2 (XiaomiMiMo): `hybrid_layer_pattern`, 0 = full attention, 1 = sliding window with its own `swa_*` heads. */
import type { ConfigFamily } from "./family.ts";
import { ModelError, numberList } from "../fields.ts";
import { requireLength, slidingLayer } from "../geometry.ts";

export const MIMO: ConfigFamily = {
  name: "MiMo-V2 (hybrid_layer_pattern)",
  detects: (g) => numberList(g.text, "hybrid_layer_pattern") !== undefined,
  layerCaches(g) {
    return requireLength(numberList(g.text, "hybrid_layer_pattern") ?? [], g, "hybrid_layer_pattern").map((v, i) => {
      if (v === 0) return g.full;
      if (v === 1) return slidingLayer(g);
      throw new ModelError(
        `hybrid_layer_pattern[${i}] is ${v}; only 0 (full) and 1 (sliding) are known.`,
        "hybrid_layer_pattern",
      );
    });
  },
};
