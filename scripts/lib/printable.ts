/**
 * Text from outside (a GGUF header, the Hub's model id, an inventory's node
 * ids) made safe to print for a person: control characters would let a
 * crafted value retitle or clear the terminal (issue 20: ESC sequences in a
 * header string did both), and a 9 MB value became a 2 MB error line.
 * `--json` needs none of this: JSON.stringify escapes every control character.
 */

/** A value longer than this is cut: the longest real repo id or node id seen is under 100 characters. */
export const MAX_VALUE_CHARS = 120;
/** A printed line longer than this is cut: the longest command line a plan prints (multi-node vLLM) is under 1,000. */
export const MAX_LINE_CHARS = 2000;

/**
 * C0 and C1 controls, DEL, and the bidirectional overrides and isolates that
 * reorder what a terminal shows (Unicode TR#36 §2.4, "Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One value for a person: controls shown as "?", tabs and newlines as spaces, cut to `max` characters. */
export function printable(value: string, max = MAX_VALUE_CHARS): string {
  const clean = value.replace(/[\t\n]/g, " ").replace(UNPRINTABLE, "?");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Lines for a person: each with its controls shown as "?" and cut to MAX_LINE_CHARS; the line breaks kept. */
export function printableLines(text: string): string {
  return text
    .split("\n")
    .map((line) => printable(line, MAX_LINE_CHARS))
    .join("\n");
}

/** Messages listed for a person before "… and N more": the rest are mostly the same problem on other nodes. */
export const MAX_MESSAGES_SHOWN = 10;

/** The first MAX_MESSAGES_SHOWN lines, and a count of the rest. */
export function firstLines(lines: readonly string[], prefix = ""): string[] {
  const shown = lines.slice(0, MAX_MESSAGES_SHOWN).map((l) => `${prefix}${l}`);
  if (lines.length > MAX_MESSAGES_SHOWN)
    shown.push(`${prefix}… and ${(lines.length - MAX_MESSAGES_SHOWN).toLocaleString("en-US")} more`);
  return shown;
}
