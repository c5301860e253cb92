/** llama.cpp's defaults as the page's "Engine settings" shows them, each with its source. */
import type { SettingDefault } from "../engine.ts";
import { LLAMACPP_BATCH, LLAMACPP_FLASH_ATTN, LLAMACPP_KV_UNIFIED, LLAMACPP_UBATCH } from "./settings.ts";
import type { ResolvedSettings } from "../../settings.ts";

export function llamacppDefaults(r: ResolvedSettings): Record<string, SettingDefault> {
  return {
    cacheTypeK: { flag: "-ctk", value: "f16", source: "llama.cpp common_params.cache_type_k = GGML_TYPE_F16" },
    cacheTypeV: { flag: "-ctv", value: "f16", source: "llama.cpp common_params.cache_type_v = GGML_TYPE_F16" },
    ubatch: { flag: "-ub", value: r.ubatch, source: LLAMACPP_UBATCH.source },
    batch: { flag: "-b", value: r.batch, source: LLAMACPP_BATCH.source },
    parallel: {
      flag: "--parallel",
      value: 1,
      source: "one slot per concurrent sequence of the plan (llama-server -np)",
    },
    flashAttn: { flag: "-fa", value: LLAMACPP_FLASH_ATTN.value, source: LLAMACPP_FLASH_ATTN.source },
    kvUnified: { flag: "--kv-unified", value: LLAMACPP_KV_UNIFIED.value, source: LLAMACPP_KV_UNIFIED.source },
  };
}
