/**
 * The shapes the Hub's answers and the persisted snapshots must have, as zod
 * schemas: an answer that does not fit is refused in words naming the field,
 * never half-read into a plan (or a crash further down).
 * Model-info fields: the `?blobs=true` answer of GET /api/models/{id}/revision/{rev}
 * (https://huggingface.co/docs/hub/api#get-apimodelsrepoid-or-apimodelsrepoidrevisionrevision).
 */
import { z } from "zod";
import type { GgufHeader, RepoSnapshot } from "../plan/index.ts";

/**
 * The most files a model repo is read with. The largest real listings are a
 * few thousand (unsloth's GGUF repos: ~100 files; DeepSeek-R1's 163 shards;
 * checkpoint repos with every step's folder reach ~10k): 50,000 is far past
 * any of them, and still plans in well under a second.
 */
export const MAX_REPO_FILES = 50_000;
/** Longest repo path kept (the Hub's own limit on a file path is 1,000 characters, its docs' "Repository limitations"). */
const MAX_PATH_CHARS = 1000;

const bytes = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const sibling = z.object({
  rfilename: z.string().min(1).max(MAX_PATH_CHARS),
  size: bytes.optional(),
  blobId: z.string().max(128).optional(),
  lfs: z.object({ size: bytes.optional() }).partial().nullish(),
});

/** The fields of the model info this reader uses; others pass through unread. */
export const modelInfoSchema = z.object({
  id: z.string().max(200).optional(),
  sha: z.string().min(1, "no commit sha").max(64),
  siblings: z.array(sibling).max(MAX_REPO_FILES, `more than ${MAX_REPO_FILES.toLocaleString("en-US")} files`),
  safetensors: z.object({ total: z.number().nullish() }).partial().nullish(),
  gguf: z.object({ total: z.number().nullish() }).partial().nullish(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** A JSON file read whole (config.json, hf_quant_config.json): an object, nothing else. */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

const ggufValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.number()), z.array(z.boolean())]);
const ggufHeader: z.ZodType<GgufHeader> = z.object({
  metadata: z.record(z.string(), ggufValue),
  tensors: z.array(z.object({ name: z.string(), shape: z.array(z.number()), type: z.number() })).exactOptional(),
  tensorDataOffsetBytes: z.number().nonnegative(),
});

/** A snapshot as one is kept in storage: what comes back must be one the engine can take. */
export const snapshotSchema: z.ZodType<RepoSnapshot> = z.object({
  repo: z.string().min(1).max(200),
  sha: z.string().max(64),
  config: jsonObjectSchema.nullable(),
  files: z.array(z.object({ path: z.string().max(MAX_PATH_CHARS), sizeBytes: bytes })).max(MAX_REPO_FILES),
  paramsTotal: z.number().nullable(),
  ggufHeaders: z.record(z.string(), ggufHeader),
  extraJson: jsonObjectSchema.exactOptional(),
});

/** zod's first complaint, as "field: what is wrong", for a message that names the field. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "not valid";
  const where = issue.path.length > 0 ? `${issue.path.slice(0, 4).join(".")}: ` : "";
  return `${where}${issue.message.replace(/^Invalid input: /, "")}`.slice(0, 200);
}
