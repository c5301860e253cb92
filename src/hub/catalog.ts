/**
 * The bundled catalog: real snapshots of popular models, so the page plans
 * them with no network and the example plan works offline. Each entry was
 * copied from test/fixtures/models/ by scripts/build-catalog.ts and names
 * its sources; only models with a verbatim config.json and exact file sizes
 * are in it.
 */
import type { RepoSnapshot } from "../plan/index.ts";
import coder32b from "./catalog/Qwen__Qwen2.5-Coder-32B-Instruct.json" with { type: "json" };
import llama31_8b from "./catalog/meta-llama__Llama-3.1-8B-Instruct.json" with { type: "json" };
import phi4 from "./catalog/microsoft__phi-4.json" with { type: "json" };
import qwen25vl7b from "./catalog/Qwen__Qwen2.5-VL-7B-Instruct.json" with { type: "json" };
import mixtral from "./catalog/mistralai__Mixtral-8x7B-Instruct-v0.1.json" with { type: "json" };
import deepseekR1 from "./catalog/deepseek-ai__DeepSeek-R1.json" with { type: "json" };
import deepseekR1Gguf from "./catalog/unsloth__DeepSeek-R1-GGUF.json" with { type: "json" };

interface CatalogEntry {
  label: string;
  /** Where every fact of the snapshot was read. */
  source: string[];
  snapshot: RepoSnapshot;
}

// JSON imports are typed by their literal shape; each is a RepoSnapshot by construction (build-catalog.ts).
const ENTRIES: CatalogEntry[] = [
  coder32b,
  llama31_8b,
  phi4,
  qwen25vl7b,
  mixtral,
  deepseekR1,
  deepseekR1Gguf,
] as CatalogEntry[];

/**
 * The example plan's model: complete in the fixtures (verbatim config at
 * b472059, all 14 shards with exact sizes), and a size that makes splitting
 * interesting: 65.5 GB of bf16 weights on 80 GB cards.
 */
export const EXAMPLE_REPO = "Qwen/Qwen2.5-Coder-32B-Instruct";

/** When scripts/build-catalog.ts last wrote the entries (`git log -- src/hub/catalog/`): the date the page names for a bundled copy. */
export const CATALOG_COPIED = "2026-12-01";

export function catalogEntries(): { repo: string; label: string }[] {
  return ENTRIES.map((e) => ({ repo: e.snapshot.repo, label: e.label }));
}

/** The catalog's snapshot of a repo (case-insensitive, as the Hub treats repo ids), or undefined. */
export function catalogSnapshot(repo: string): RepoSnapshot | undefined {
  const wanted = repo.toLowerCase();
  return ENTRIES.find((e) => e.snapshot.repo.toLowerCase() === wanted)?.snapshot;
}

/** Where a catalog entry's facts came from, for the page's "source" line. */
export function catalogSource(repo: string): string[] | undefined {
  const wanted = repo.toLowerCase();
  return ENTRIES.find((e) => e.snapshot.repo.toLowerCase() === wanted)?.source;
}
