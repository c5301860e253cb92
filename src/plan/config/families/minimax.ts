/** MiniMax: `attn_type_list`, 1 = softmax attention, 0 = lightning (linear) attention. MiniMax-M2 lists 1 on every layer. */
import type { ConfigFamily } from "./family.ts";
import { ModelError, numberList } from "../fields.ts";
import { requireLength } from "../geometry.ts";

export const MINIMAX: ConfigFamily = {
  name: "MiniMax (attn_type_list)",
  detects: (g) => numberList(g.text, "attn_type_list") !== undefined,
  layerCaches(g) {
    return requireLength(numberList(g.text, "attn_type_list") ?? [], g, "attn_type_list").map((v, i) => {
      if (v === 1) return g.full;
      throw new ModelError(
        `attn_type_list[${i}] is ${v}: MiniMax's lightning (linear) attention is not supported yet; only softmax layers (1) are.`,
        "attn_type_list",
      );
    });
  },
};
