import { useSyncExternalStore } from "react";
import { readProgressOf, subscribeReadProgress } from "../hub/readProgress.ts";

/** "GGUF headers: 3 of 10 read (6.0 MB)": how far a repo's header reads are, while they run. */
export function ReadProgressLine({ repo }: { repo: string }) {
  const progress = useSyncExternalStore(
    subscribeReadProgress,
    () => readProgressOf(repo),
    () => undefined,
  );
  if (!progress || progress.headersTotal === 0) return null;
  const mb = (progress.bytesRead / 1e6).toFixed(1);
  const planned = progress.snapshot ? ": planned from the first; the rest refine it" : "";
  return (
    <p className="muted small" role="status">
      GGUF headers: {progress.headersRead} of {progress.headersTotal} read ({mb} MB){planned}
    </p>
  );
}
