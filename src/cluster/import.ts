/**
 * Text in, cluster out: recognises what was pasted or dropped, reads it with
 * the matching importer, checks the result with the same validation as a
 * hand-written file, and says in one line what it read and what it could
 * not. Never throws: a reader's bug becomes an error message, and a bad
 * import returns no cluster, so it changes nothing.
 */
import type { Cluster } from "../plan/index.ts";
import { importModelplan, isModelplanCluster, parseStructured } from "./json.ts";
import { formatMessage, note, type ImportMessage, type ImportResult } from "./messages.ts";
import { gaps, summarize } from "./summary.ts";
import { validateCluster } from "./validate.ts";
import type { Reading } from "./reader.ts";
import { READERS } from "./readers.ts";

export type { ImportMessage, ImportResult } from "./messages.ts";

/**
 * A paste past this is not an inventory (the largest text sample is 20 KB);
 * refusing it keeps the page responsive. JSON (kubectl get nodes -o json, at
 * ~12 KB a node with its images list) may be longer: JSON.parse reads 64 MiB
 * in well under a second, where the YAML parser would take minutes.
 */
export const MAX_IMPORT_CHARS = 5 * 1024 * 1024;
export const MAX_JSON_IMPORT_CHARS = 64 * 1024 * 1024;
/** What a kubectl JSON node weighs (~12 KB with its images list, e2e/speed.spec.ts builds one). */
const KUBECTL_CHARS_PER_NODE = 12_000;
/** The nodes of kubectl get nodes -o json the JSON limit holds, in thousands: what the messages say it allows. */
export const KUBECTL_NODES_ALLOWED = Math.floor(MAX_JSON_IMPORT_CHARS / KUBECTL_CHARS_PER_NODE / 1000) * 1000;

export function importCluster(text: string, fileName?: string): ImportResult {
  try {
    return importText(text, fileName);
  } catch (e) {
    return failed("unknown", [note(`could not read this text: ${e instanceof Error ? e.message : String(e)}`)]);
  }
}

function importText(raw: string, fileName?: string): ImportResult {
  if (typeof raw !== "string") return failed("unknown", [note("nothing to import: paste text or drop a file")]);
  const jsonShaped = /^\s*[[{]/.test(raw);
  if (raw.length > (jsonShaped ? MAX_JSON_IMPORT_CHARS : MAX_IMPORT_CHARS)) {
    return failed("unknown", [
      note(
        `the text is ${raw.length.toLocaleString("en-US")} characters; an inventory is far smaller: paste only the tool's output ` +
          `(at most ${(MAX_IMPORT_CHARS / 2 ** 20).toFixed(0)} MiB of text, or ${(MAX_JSON_IMPORT_CHARS / 2 ** 20).toFixed(0)} MiB of JSON: about ${KUBECTL_NODES_ALLOWED.toLocaleString("en-US")} nodes of kubectl get nodes -o json)`,
      ),
    ]);
  }
  const text = raw.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (text.trim() === "") return failed("unknown", [note("nothing to import: the text is empty")]);

  const structured = looksStructured(text, fileName) ? parseStructured(text) : null;
  if (structured?.refused) return failed(isYaml(text) ? "yaml" : "json", structured.errors);
  if (structured && structured.errors.length === 0 && isModelplanCluster(structured.value)) {
    const { cluster, errors, warnings } = importModelplan(structured);
    return finish(isYaml(text) ? "modelplan-yaml" : "modelplan-json", cluster, errors, warnings);
  }
  for (const reader of READERS) {
    if (!reader.detect(text, structured?.value)) continue;
    const reading = reader.read(text, structured?.value);
    return fromReading(reading.format ?? reader.format, reading);
  }
  if (structured && structured.errors.length > 0 && /^\s*[[{]/.test(text)) {
    return failed("modelplan-json", structured.errors);
  }
  return failed("unknown", [
    note(
      "could not tell what this is. Modelplan reads its own JSON or YAML, CSV, nvidia-smi (table, -L, --query-gpu … --format=csv, mig -lgi), rocm-smi, kubectl get nodes -o json|yaml, kubectl describe node, Slurm scontrol show node / sinfo, and ray status",
    ),
  ]);
}

function fromReading(format: string, reading: Reading): ImportResult {
  if (reading.errors.length > 0 || reading.nodes.length === 0) {
    const errors =
      reading.errors.length > 0 ? reading.errors : [note(`read it as ${format}, but found no nodes or cards in it`)];
    return failed(format, errors, reading.warnings);
  }
  const checked = validateCluster({ nodes: reading.nodes });
  // A reader that validated its own rows (CSV) already said what was filled in.
  const fresh = checked.warnings.filter((w) => !reading.warnings.some((r) => r.message === w.message));
  return finish(format, checked.cluster, checked.errors, [...reading.warnings, ...fresh]);
}

function finish(
  format: string,
  cluster: Cluster | null,
  errors: ImportMessage[],
  warnings: ImportMessage[],
): ImportResult {
  if (!cluster || errors.length > 0) return failed(format, errors, warnings);
  const summary = [summarize(cluster), ...gaps(cluster)].join("; ");
  return { cluster, format, summary, warnings, errors: [] };
}

function failed(format: string, errors: ImportMessage[], warnings: ImportMessage[] = []): ImportResult {
  const first = errors[0];
  return {
    cluster: null,
    format,
    summary: first
      ? `nothing imported: ${formatMessage(first)}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`
      : "nothing imported",
    warnings,
    errors,
  };
}

/**
 * Whether to try the text as JSON or YAML: a file so named, a JSON start, or
 * a YAML document with a key Modelplan or Kubernetes writes. Anything else
 * (a table, `-L`, `Name: value` describe output) is not parsed as YAML: the
 * YAML parser's failures are slow to build, and an import should answer at
 * once.
 */
function looksStructured(text: string, fileName?: string): boolean {
  if (fileName && /\.(json|ya?ml)$/i.test(fileName)) return true;
  const first =
    text
      .split("\n")
      .find((l) => l.trim() !== "" && !l.trim().startsWith("#"))
      ?.trim() ?? "";
  if (/^[[{]/.test(first) || first === "---") return true;
  if (/^(nodes|kind|apiVersion|items|metadata)\s*:/m.test(text)) return true;
  return /^"?[\w.-]+\/[\w./-]+"?\s*:\s/.test(first);
}

function isYaml(text: string): boolean {
  return !/^\s*[[{]/.test(text.replace(/^[^\S\n]*#.*\n/gm, ""));
}
