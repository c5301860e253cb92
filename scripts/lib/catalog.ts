/**
 * The bundled catalog read from its files, for the terminal and the tests:
 * Node has no import.meta.glob (the page's loader, src/hub/catalog.ts), and
 * a command plans one model, so reading its file at once costs nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry } from "../../src/hub/catalog.ts";
import { readConfigJson } from "../../src/hub/configJson.ts";
import { catalogFileName, catalogIndexEntry } from "../../src/hub/catalogIndex.ts";
import type { RepoSnapshot } from "../../src/plan/index.ts";

export { catalogEntries, catalogIndex, EXAMPLE_REPO } from "../../src/hub/catalogIndex.ts";

const DIR = join(import.meta.dirname, "..", "..", "src", "hub", "catalog");

/** Any catalog model's entry (case-insensitive), or undefined: the same text the page's chunk holds, read the same way. */
export function catalogEntry(repo: string): CatalogEntry | undefined {
  const entry = catalogIndexEntry(repo);
  if (!entry) return undefined;
  return readConfigJson(readFileSync(join(DIR, catalogFileName(entry.repo)), "utf8")) as CatalogEntry;
}

/** The snapshot of a model the catalog plans with no network (its files are known), or undefined. */
export function catalogSnapshot(repo: string): RepoSnapshot | undefined {
  const entry = catalogEntry(repo);
  return entry?.weights === "files" ? entry.snapshot : undefined;
}

/** Where a catalog entry's facts came from. */
export function catalogSource(repo: string): string[] | undefined {
  return catalogEntry(repo)?.source;
}
