/**
 * The bundled catalog's snapshots: real snapshots of the models people
 * serve, so the page plans them with no network. The example's is in the
 * first chunk (the first screen plans it); every other model's is a chunk
 * of its own, fetched when it is first planned and kept by the service
 * worker with the app, so eighty models cost the first screen nothing
 * (issue 19). Each was copied from test/fixtures/ by scripts/build-catalog.ts
 * and names its sources; the list itself is in catalogIndex.ts.
 */
import type { RepoSnapshot } from "../plan/index.ts";
import example from "./catalog/Qwen__Qwen2.5-Coder-32B-Instruct.json" with { type: "json" };
import { catalogFileName, catalogIndexEntry, EXAMPLE_REPO, type CatalogWeights } from "./catalogIndex.ts";

export interface CatalogEntry {
  label: string;
  weights: CatalogWeights;
  /** Where every fact of the snapshot was read. */
  source: string[];
  /** What the build cut from the snapshot's files to what the engine reads, and from what (scripts/lib/compactQuant.ts). */
  compacted?: CatalogCompaction[];
  snapshot: RepoSnapshot;
}

/** A key of one of the snapshot's files cut to what the engine reads: MiniMax-M3-NVFP4's 22,422-layer map, 3.0 MB. */
export interface CatalogCompaction {
  file: string;
  /** The key path inside the file, dot-separated. */
  key: string;
  why: string;
  /** The full key's entry count, and its file's size as 2-space JSON (the size the snapshot's files list gives it). */
  entries: number;
  bytes: number;
  /** The entries kept: each layer's name, and how many of the full file's entries have its value (itself included). */
  kept: { layer: string; of: number }[];
  /** Where the full file was read. */
  source: string;
}

/** The example's entry: a RepoSnapshot by construction (build-catalog.ts); JSON imports are typed by their literal shape. */
export const EXAMPLE_ENTRY = example as CatalogEntry;

/**
 * The other models, as text: a config may hold Python's bare `Infinity`
 * (Nemotron-3-Super), which only the config reader takes, not JSON.parse.
 * The example is left out: it is in the first chunk already; so are the index and the day (catalogIndex.ts).
 */
const CHUNKS = import.meta.glob<string>(
  [
    "./catalog/*.json",
    "!./catalog/index.json",
    "!./catalog/copied.json",
    "!./catalog/Qwen__Qwen2.5-Coder-32B-Instruct.json",
  ],
  { query: "?raw", import: "default" },
);

/** A catalog model's entry (case-insensitive, as the Hub treats repo ids), loaded on first use; undefined if not in it. */
export async function loadCatalogEntry(repo: string): Promise<CatalogEntry | undefined> {
  const entry = catalogIndexEntry(repo);
  if (!entry) return undefined;
  if (entry.repo === EXAMPLE_REPO) return EXAMPLE_ENTRY;
  const load = CHUNKS[`./catalog/${catalogFileName(entry.repo)}`];
  if (!load) return undefined;
  const [text, { readConfigJson }] = await Promise.all([load(), import("./configJson.ts")]);
  return readConfigJson(text) as CatalogEntry;
}
