/**
 * Other quantizations of the same model: the Hub's derivatives of a base
 * model, found by the tag the Hub gives every repo whose card says
 * `base_model_relation: quantized` (`base_model:quantized:<repo>`).
 */
import { HubApiError, listModels } from "@huggingface/hub";
import { HubError, badResponseError, networkError, rateLimitError } from "./errors.ts";
import { resolvedFetch, type HubAccess } from "./read.ts";
import { onceMoreIfTimedOut } from "./timeout.ts";

export interface QuantizedChild {
  repo: string;
  downloads: number;
  likes: number;
  /** It ships GGUF files (tag "gguf"): llama.cpp artifacts rather than safetensors. */
  gguf: boolean;
  gated: boolean;
}

/** The most downloaded first; a page of this many is plenty to pick from. */
const MAX_CHILDREN = 50;

export function listQuantizedChildren(baseRepo: string, access: HubAccess): Promise<QuantizedChild[]> {
  return onceMoreIfTimedOut(() => listOnce(baseRepo, access), access.signal);
}

async function listOnce(baseRepo: string, access: HubAccess): Promise<QuantizedChild[]> {
  const children: QuantizedChild[] = [];
  try {
    for await (const m of listModels({
      search: { tags: [`base_model:quantized:${baseRepo}`] },
      additionalFields: ["tags"],
      sort: "downloads",
      limit: MAX_CHILDREN,
      hubUrl: access.hubUrl,
      fetch: resolvedFetch(access),
      ...(access.accessToken ? { accessToken: access.accessToken } : {}),
    })) {
      children.push({
        repo: m.name,
        downloads: m.downloads,
        likes: m.likes,
        gguf: (m.tags ?? []).includes("gguf"),
        gated: m.gated !== false,
      });
    }
  } catch (err) {
    if (err instanceof HubError) throw err;
    if (err instanceof HubApiError) {
      if (err.statusCode === 429) throw rateLimitError(429);
      throw badResponseError(
        access.hubUrl,
        `status ${err.statusCode} to the list of ${baseRepo}'s quantizations`,
        err.statusCode,
      );
    }
    if (err instanceof SyntaxError)
      throw badResponseError(access.hubUrl, `a list of ${baseRepo}'s quantizations that is not JSON`);
    throw networkError(access.hubUrl, err instanceof Error ? err.message : String(err));
  }
  return children;
}
