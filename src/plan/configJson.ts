/**
 * config.json as Python's json.dumps writes it. Python writes non-finite
 * floats as bare `Infinity`, `-Infinity` and `NaN`, which JSON.parse refuses:
 * NVIDIA's Nemotron-3-Super config.json carries `"time_step_limit": [0.0,
 * Infinity]`, so a strict parse would turn a real model into "not JSON".
 * Outside strings they are read as ±1e999 (±Infinity) and null; inside
 * strings nothing changes.
 */

export function parseConfigJson(text: string): unknown {
  return JSON.parse(withoutNonFinite(text));
}

function withoutNonFinite(text: string): string {
  if (!/Infinity|NaN/.test(text)) return text;
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (text.startsWith("-Infinity", i)) {
      out += "-1e999";
      i += "-Infinity".length - 1;
    } else if (text.startsWith("Infinity", i)) {
      out += "1e999";
      i += "Infinity".length - 1;
    } else if (text.startsWith("NaN", i)) {
      out += "null";
      i += "NaN".length - 1;
    } else {
      out += ch;
    }
  }
  return out;
}
