/**
 * The bundled catalog's index: every model's name, label and commit, all the
 * page loads before one is picked (a few kB). Each model's snapshot is a
 * chunk of its own, loaded when it is planned (src/hub/catalog.ts), so
 * eighty models cost the first screen nothing but this list. Written by
 * scripts/build-catalog.ts from test/fixtures/models/ and test/fixtures/configs/.
 */
import copied from "./catalog/copied.json" with { type: "json" };
import index from "./catalog/index.json" with { type: "json" };

/**
 * What the catalog holds of a model's weights: their files with exact sizes
 * (it plans with no network), or only its config.json (the Hub lists the
 * files when it can be reached; offline, the user gives the weights' size).
 */
export type CatalogWeights = "files" | "manual";

export interface CatalogIndexEntry {
  repo: string;
  label: string;
  /** The commit the snapshot was read at; "" when the sources did not say. */
  sha: string;
  weights: CatalogWeights;
}

const ENTRIES = index as CatalogIndexEntry[];

/**
 * The example plan's model: complete in the fixtures (verbatim config at
 * b472059, all 14 shards with exact sizes), and a size that makes splitting
 * interesting: 65.5 GB of bf16 weights on 80 GB cards.
 */
export const EXAMPLE_REPO = "Qwen/Qwen2.5-Coder-32B-Instruct";

/**
 * The day scripts/build-catalog.ts last changed the entries (it writes catalog/copied.json; a rebuild
 * of the same facts keeps the day): the date the page names for a bundled copy.
 */
export const CATALOG_COPIED: string = copied.copied;

/** Every model in the catalog, in the index's order (the complete ones first). */
export function catalogIndex(): readonly CatalogIndexEntry[] {
  return ENTRIES;
}

/** The models that plan with no network: their weights' files are in the catalog. */
export function catalogEntries(): { repo: string; label: string }[] {
  return ENTRIES.filter((e) => e.weights === "files").map((e) => ({ repo: e.repo, label: e.label }));
}

/** The index entry of a repo (case-insensitive, as the Hub treats repo ids), or undefined. */
export function catalogIndexEntry(repo: string): CatalogIndexEntry | undefined {
  const wanted = repo.toLowerCase();
  return ENTRIES.find((e) => e.repo.toLowerCase() === wanted);
}

/** The commit of a repo the catalog answers for with no network (its files are known), or undefined. */
export function catalogSha(repo: string): string | undefined {
  const entry = catalogIndexEntry(repo);
  return entry?.weights === "files" ? entry.sha : undefined;
}

/** The chunk file a model's snapshot is in, as scripts/build-catalog.ts names it. */
export function catalogFileName(repo: string): string {
  return `${repo.replace("/", "__")}.json`;
}
