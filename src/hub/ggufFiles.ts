/**
 * Which GGUF headers a repo's reading needs: the first part of each artifact.
 * A split set (`-00001-of-00003`) shares one header in its first part; an
 * `mmproj` file is a picture model's projector, not an artifact of its own,
 * so its header is not read (issue 2: artifacts).
 */
import { parseGgufShardFilename } from "@huggingface/gguf";

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function isProjector(path: string): boolean {
  return /mmproj/i.test(baseName(path));
}

export function ggufHeaderPaths(paths: readonly string[]): string[] {
  return paths.filter((path) => {
    if (!path.toLowerCase().endsWith(".gguf") || isProjector(path)) return false;
    const shard = parseGgufShardFilename(path);
    // Only the first part carries the model's keys; later parts hold split.* and tensors.
    return shard === null || Number(shard.shard) === 1;
  });
}
