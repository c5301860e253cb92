/** What an importer is: it recognises its tool's output and reads it into nodes (readers.ts lists them in order). */
import type { ClusterNode } from "../plan/index.ts";
import type { ImportMessage } from "./messages.ts";

export interface Reading {
  nodes: ClusterNode[];
  warnings: ImportMessage[];
  errors: ImportMessage[];
  /** The format as read, when more precise than the reader's ("nvidia-smi -L"). */
  format?: string;
}

export interface Reader {
  /** The name the review shows: "nvidia-smi", "kubectl-describe", … */
  format: string;
  /** Whether the text is this tool's output. `structured` is the JSON/YAML value when the text parsed as one. */
  detect: (text: string, structured: unknown) => boolean;
  read: (text: string, structured: unknown) => Reading;
}
