/** llama.cpp's defaults (common/common.h). */
import type { Sourced } from "../../units.ts";

/** llama.cpp defaults (common/common.h, builds b6000–b7xxx, 2025–2026). */
export const LLAMACPP_UBATCH: Sourced<number> = { value: 512, source: "llama.cpp common_params.n_ubatch = 512" };

export const LLAMACPP_BATCH: Sourced<number> = { value: 2048, source: "llama.cpp common_params.n_batch = 2048" };
