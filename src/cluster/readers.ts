/**
 * The importers, in the order they are tried: each recognises its tool's
 * output by a mark only that tool prints, and reads it into nodes. What a
 * tool cannot tell (host RAM from nvidia-smi, a fabric from anything but
 * labels) is left empty and said in a warning; the page asks the user.
 */
import type { ClusterNode } from "../plan/types.ts";
import type { ImportMessage } from "./messages.ts";
import { CSV_READER } from "./csv.ts";
import { K8S_READER } from "./k8s.ts";
import { NVIDIA_READER } from "./nvidia.ts";
import { RAY_READER } from "./ray.ts";
import { ROCM_READER } from "./rocm.ts";
import { SLURM_READER } from "./slurm.ts";

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

export const READERS: Reader[] = [CSV_READER, ROCM_READER, RAY_READER, NVIDIA_READER, SLURM_READER, K8S_READER];
