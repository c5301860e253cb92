/** FreeToken's defaults as the page's "Engine settings" shows them, each with its source. */
import type { SettingDefault } from "../engine.ts";
import { FREETOKEN_MEMORY_RATIO } from "./settings.ts";

export function freetokenDefaults(): Record<string, SettingDefault> {
  return {
    memoryRatio: {
      flag: "--memory-ratio",
      value: FREETOKEN_MEMORY_RATIO,
      source: "FreeToken v0.1.2 --memory-ratio 0.9 of free VRAM (docs/notes/architectures.md §3)",
    },
    kvCacheDtype: {
      flag: "(none)",
      value: "bf16",
      source: "FreeToken allocates bf16 paged KV for every model (docs/notes/architectures.md §2.1)",
    },
  };
}
