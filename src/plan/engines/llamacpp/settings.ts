/** llama.cpp's defaults (common/common.h). */
import type { Sourced } from "../../units.ts";

/** llama.cpp defaults (common/common.h, builds b6000–b7xxx, 2025–2026). */
export const LLAMACPP_UBATCH: Sourced<number> = { value: 512, source: "llama.cpp common_params.n_ubatch = 512" };

export const LLAMACPP_BATCH: Sourced<number> = { value: 2048, source: "llama.cpp common_params.n_batch = 2048" };

/** -fa's default since it took a value (ggml-org/llama.cpp common/common.h at de93b991682fa46acabb813641f7f6b884ad5dd0: `flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO`). */
export const LLAMACPP_FLASH_ATTN: Sourced<"auto"> = {
  value: "auto",
  source: "llama.cpp common_params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO (common/common.h)",
};
