/**
 * What an import says back: the cluster it read (or nothing), and in words
 * what it could not read, with where (line of the pasted text, node, field).
 */
import type { Cluster } from "../plan/index.ts";

export interface ImportMessage {
  message: string;
  /** 1-based line of the pasted text the message is about, when known. */
  line?: number;
  /** The node's id (or "#3" when it has none yet). */
  node?: string;
  /** The node's place in the list (0-based), so the panel can mark the field even when two nodes share an id. */
  nodeIndex?: number;
  /** The field, as the user wrote it: "devices[0].count", "host_mem_gib". */
  field?: string;
}

export interface ImportResult {
  /** The cluster read, or null when nothing usable was read (a bad import changes nothing). */
  cluster: Cluster | null;
  /** The format recognised: "modelplan-json", "nvidia-smi", "kubectl-describe", … or "unknown". */
  format: string;
  /** One line for the review step: "3 nodes, 24 GPUs of 2 classes, 1 MIG card; fabric unknown: set it". */
  summary: string;
  warnings: ImportMessage[];
  errors: ImportMessage[];
}

/** A message with only the keys that have values (exactOptionalPropertyTypes forbids `line: undefined`). */
export function note(
  message: string,
  where: {
    line?: number | undefined;
    node?: string | undefined;
    nodeIndex?: number | undefined;
    field?: string | undefined;
  } = {},
): ImportMessage {
  const out: ImportMessage = { message };
  if (where.line !== undefined) out.line = where.line;
  if (where.node !== undefined) out.node = where.node;
  if (where.nodeIndex !== undefined) out.nodeIndex = where.nodeIndex;
  if (where.field !== undefined) out.field = where.field;
  return out;
}

/** "line 12: …" prefix for a terminal or a list in the page. */
export function formatMessage(m: ImportMessage): string {
  return m.line !== undefined ? `line ${m.line}: ${m.message}` : m.message;
}
