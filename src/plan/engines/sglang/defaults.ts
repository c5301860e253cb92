/** SGLang's defaults as the page's "Engine settings" shows them, each with its source. */
import type { SettingDefault } from "../engine.ts";
import type { ResolvedSettings } from "../../settings.ts";

export function sglangDefaults(r: ResolvedSettings): Record<string, SettingDefault> {
  return {
    memFractionStatic: {
      flag: "--mem-fraction-static",
      value: Math.round(r.memFractionStatic * 1000) / 1000,
      source:
        "SGLang server_args._handle_gpu_memory_settings (2026, after PR #15927): (total − reserve) ÷ total; reserve = 512 + chunked prefill × 1.5 (16,384 above 160 GB) + graph batch × 2 + TP/8 GiB + 8 MiB a piecewise graph size, ≥ 10 GiB above 60 GB",
    },
    kvCacheDtype: { flag: "--kv-cache-dtype", value: "auto", source: "SGLang server_args.kv_cache_dtype = auto" },
  };
}
