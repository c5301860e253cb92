/**
 * Which GGUF headers a repo's reading needs: the first part of each artifact,
 * grouped exactly as the engine groups them (src/plan/artifacts.ts ggufSets):
 * a split set (`-00001-of-00003`) shares one header in its first part, and is
 * skipped when a part is missing (it cannot load); an `mmproj` file is a
 * picture model's projector, not an artifact, so its header is not read.
 */
import { ggufSets } from "../plan/index.ts";

export { isProjector } from "../plan/index.ts";

export function ggufHeaderPaths(paths: readonly string[]): string[] {
  // Sizes do not change the grouping; only paths are known before the read.
  return ggufSets(paths.map((path) => ({ path, sizeBytes: 0 }))).flatMap((set) =>
    set.parts[0] ? [set.parts[0].path] : [],
  );
}
