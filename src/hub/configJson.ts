/**
 * config.json as Python's json.dumps writes it, read with json5: Python
 * writes non-finite floats as bare `Infinity`, `-Infinity` and `NaN`, which
 * JSON.parse refuses (NVIDIA's Nemotron-3-Super config.json carries
 * `"time_step_limit": [0.0, Infinity]`). JSON.parse runs first, being an
 * order of magnitude faster on a safetensors index of thousands of entries;
 * json5 only reads what it refuses. NaN becomes null, as the engine's
 * hand-made reader (src/plan/configJson.ts) made it, so both read alike.
 */
import JSON5 from "json5";
import { jsonProblem } from "../cluster/depth.ts";

export class ConfigJsonError extends Error {}

export function readConfigJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    try {
      value = JSON5.parse(text, (_key, v: unknown) => (typeof v === "number" && Number.isNaN(v) ? null : v));
    } catch (err) {
      throw new ConfigJsonError(
        `not JSON: ${err instanceof Error ? err.message.replace(/^JSON5: /, "") : String(err)}`,
      );
    }
  }
  // A config nested past any real one would overflow the engine's recursive readers: said about the file.
  const problem = jsonProblem(value);
  if (problem) throw new ConfigJsonError(problem);
  return value;
}
