/** SGLang's defaults as the page's "Engine settings" shows them, each with its source. */
import type { SettingDefault } from "../engine.ts";
import type { ResolvedSettings } from "../../settings.ts";

export function sglangDefaults(r: ResolvedSettings): Record<string, SettingDefault> {
  return {
    memFractionStatic: {
      flag: "--mem-fraction-static",
      value: Math.round(r.memFractionStatic * 1000) / 1000,
      source: "SGLang server_args._handle_gpu_memory_settings (2025–2026): (total − reserve) ÷ total, reserve ≥ 10 GiB above 60 GB",
    },
    kvCacheDtype: { flag: "--kv-cache-dtype", value: "auto", source: "SGLang server_args.kv_cache_dtype = auto" },
  };
}
