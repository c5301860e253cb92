/**
 * The importers, in the order they are tried: each recognises its tool's
 * output by a mark only that tool prints, and reads it into nodes. What a
 * tool cannot tell (host RAM from nvidia-smi, a fabric from anything but
 * labels) is left empty and said in a warning; the page asks the user.
 */
import type { ClusterNode } from "../plan/types.ts";
import type { ImportMessage } from "./messages.ts";

export interface Reading {
  nodes: ClusterNode[];
  warnings: ImportMessage[];
  errors: ImportMessage[];
  /** Validation warnings the reader has already said in its own words (by field suffix). */
  quiet?: string[];
}

export interface Reader {
  /** The name the review shows: "nvidia-smi", "kubectl-describe", … */
  format: string;
  /** Whether the text is this tool's output. `structured` is the JSON/YAML value when the text parsed as one. */
  detect: (text: string, structured: unknown) => boolean;
  read: (text: string, structured: unknown) => Reading;
}

export const READERS: Reader[] = [];
