/**
 * Manual mode, for when the Hub cannot be reached: the user pastes or uploads
 * a config.json and says how many bytes the weights take. The snapshot has
 * one weights file of that size, so the engine sizes it like any other.
 */
import { ModelError, shapeFromConfig } from "../plan/index.ts";
import { ConfigJsonError, readConfigJson } from "./configJson.ts";
import type { RepoSnapshot } from "../plan/index.ts";
import { configCeilingError } from "./limits.ts";

/** config.json files are a few kB; anything this large was pasted by mistake. */
const MAX_CONFIG_CHARS = 1_000_000;

/**
 * hf_quant_config.json as the engine reads it (src/plan/config/model.ts quantMethodOf, artifacts.ts
 * modeloptQuant: `quantization`, its algorithms and quantized layers), less `exclude_modules`, which it
 * does not read and which is most of the file (10 kB of DeepSeek-V3.1-NVFP4's): a link has room for the rest.
 */
export function quantConfigEssentials(hfQuantConfig: unknown): Record<string, unknown> | null {
  if (typeof hfQuantConfig !== "object" || hfQuantConfig === null || Array.isArray(hfQuantConfig)) return null;
  const whole = hfQuantConfig as Record<string, unknown>;
  const q = whole["quantization"];
  if (typeof q !== "object" || q === null || Array.isArray(q)) return whole;
  const { exclude_modules: _unread, ...kept } = q as Record<string, unknown>;
  return { ...whole, quantization: kept };
}

export function snapshotFromManual(
  configJsonText: string,
  weightsBytes: number,
  name?: string,
  /** hf_quant_config.json, for a model that declares its quantization there (a catalog pick); absent: none. */
  quantConfigJsonText?: string,
): RepoSnapshot | { error: string } {
  if (configJsonText.length > MAX_CONFIG_CHARS)
    return { error: "that text is over 1 MB: paste the model's config.json, which is a few kB" };
  let config: unknown;
  try {
    config = readConfigJson(configJsonText);
  } catch (err) {
    const where = err instanceof ConfigJsonError ? ` (${err.message.replace(/^not JSON: /, "")})` : "";
    return { error: `that is not valid JSON${where}: paste the whole config.json, from { to }` };
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    return { error: "config.json must be a JSON object ({ … }): paste the model's config.json" };
  }
  if (!Number.isFinite(weightsBytes) || weightsBytes <= 0) {
    return { error: "give the weights' size: the sum of the *.safetensors files, in GB as the Hub lists them" };
  }
  const record = config as Record<string, unknown>;
  // Before the engine sees it: 2^32 layers would throw while the page draws, 10^6 would block it for seconds.
  const tooLarge = configCeilingError(record);
  if (tooLarge) return { error: tooLarge };
  try {
    // Read the shape now so a config the engine cannot size is refused here, in words.
    shapeFromConfig(record, null);
  } catch (err) {
    if (err instanceof ModelError) return { error: err.message };
    // Anything else the engine throws on it is still this config's fault, and said as such.
    return {
      error: `this config.json could not be sized (${err instanceof Error ? err.message.slice(0, 200) : String(err)}): check it is a model's config.json`,
    };
  }
  const quant = quantObjectOf(quantConfigJsonText);
  const label = name?.trim() || (typeof record._name_or_path === "string" && record._name_or_path) || "manual model";
  return {
    repo: label,
    sha: "",
    config: record,
    files: [
      { path: "config.json", sizeBytes: new TextEncoder().encode(configJsonText).length },
      { path: "model.safetensors", sizeBytes: Math.round(weightsBytes) },
    ],
    paramsTotal: null,
    ggufHeaders: {},
    ...(quant ? { extraJson: { "hf_quant_config.json": quant } } : {}),
  };
}

/** The quant file's object, or null where there is none or it is not a JSON object (the link reader said so). */
function quantObjectOf(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    return quantConfigEssentials(JSON.parse(text));
  } catch {
    return null;
  }
}
