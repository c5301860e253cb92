/**
 * The importers, in the order they are tried: each recognises its tool's
 * output by a mark only that tool prints, and reads it into nodes. What a
 * tool cannot tell (host RAM from nvidia-smi, a fabric from anything but
 * labels) is left empty and said in a warning; the page asks the user.
 */
import type { Reader } from "./reader.ts";
import { CSV_READER } from "./csv.ts";
import { K8S_READER } from "./k8s.ts";
import { NVIDIA_READER } from "./nvidia.ts";
import { RAY_READER } from "./ray.ts";
import { ROCM_READER } from "./rocm.ts";
import { SLURM_READER } from "./slurm.ts";

export const READERS: Reader[] = [CSV_READER, ROCM_READER, RAY_READER, NVIDIA_READER, SLURM_READER, K8S_READER];
