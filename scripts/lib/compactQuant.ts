/**
 * The catalog's copy of a ModelOpt hf_quant_config.json, cut to what the engine reads (issue 19).
 * `quantization.quantized_layers` maps every layer × tensor to its algorithm (MiniMax-M3-NVFP4:
 * 22,422 entries: its catalog chunk was 3,048 kB of the service worker's 6,970 KiB precache, 15.8 kB now),
 * while src/plan/artifacts.ts (modeloptQuant) reads only which values appear and whether there are
 * any. One layer is kept per distinct value, the first one upstream lists, and the entry records
 * what was cut, so a reader of the catalog can tell the copy from the file.
 */
import type { CatalogCompaction } from "../../src/hub/catalog.ts";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const WHY =
  "the engine reads only which quant_algo values appear (src/plan/artifacts.ts, modeloptQuant): one layer kept per distinct value, in upstream order";

/**
 * The file with one `quantized_layers` entry per distinct value, and what was cut; the file as it
 * is (compaction null) when it has no such map. Values compare as their JSON, so a layer with
 * another group_size under the same algorithm is kept as well.
 */
export function compactQuantConfig(
  quant: Record<string, unknown>,
  bytes: number,
  source: string,
): { json: Record<string, unknown>; compaction: CatalogCompaction | null } {
  const q = quant["quantization"];
  const layers = isRecord(q) ? q["quantized_layers"] : undefined;
  if (!isRecord(q) || !isRecord(layers)) return { json: quant, compaction: null };
  const first = new Map<string, { layer: string; of: number }>();
  const keptLayers: Record<string, unknown> = {};
  for (const [layer, value] of Object.entries(layers)) {
    const key = JSON.stringify(value);
    const seen = first.get(key);
    if (seen) {
      seen.of++;
      continue;
    }
    first.set(key, { layer, of: 1 });
    keptLayers[layer] = value;
  }
  return {
    json: { ...quant, quantization: { ...q, quantized_layers: keptLayers } },
    compaction: {
      file: "hf_quant_config.json",
      key: "quantization.quantized_layers",
      why: WHY,
      entries: Object.keys(layers).length,
      bytes,
      kept: [...first.values()],
      source,
    },
  };
}
