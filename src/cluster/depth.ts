/** How deep a parsed JSON value may nest before a recursive reader walks it: kept apart from the YAML bounds so that JSON readers (config.json in manual mode) do not load yaml. */

/**
 * Levels of nesting a cluster document may have: `kubectl get nodes -o json`
 * nests 7 deep (items → node → status → conditions → condition → field), a
 * Modelplan file 5; 64 leaves room for any tool's wrapping and stops long
 * before a recursive walk runs out of stack.
 */
export const MAX_DEPTH = 64;
export const TOO_DEEP = `it nests more than ${MAX_DEPTH} levels deep (lists in lists, or maps in maps); a cluster file nests a few levels: is this the right file?`;

/** Why a parsed JSON value is refused before a reader walks it, or null. */
export function jsonProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return null;
}
