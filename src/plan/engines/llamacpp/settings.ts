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

/**
 * --kv-unified (-kvu) when --parallel is given, as the plan's commands always give it: off. llama.cpp v0.4.0's
 * common/common.h:573 `kv_unified = false`; llama-server turns it on only for automatic slots, when no
 * --parallel is given (tools/server/server.cpp:152-156: "using n_parallel = 4 and kv_unified = true"); the
 * flag itself, common/arg.cpp:1725-1731, "default: enabled if number of slots is auto".
 */
export const LLAMACPP_KV_UNIFIED: Sourced<false> = {
  value: false,
  source:
    "llama.cpp v0.4.0 common_params.kv_unified = false (common/common.h:573); llama-server turns it on only without --parallel (tools/server/server.cpp:152-156)",
};
