import { startTransition, useEffect, useState } from "react";

/**
 * How many of a view's `total` parts to draw: one more each frame, from the first. Issue 19: the Accuracy view
 * drawn at once was one 75–115 ms task even with its tables windowed, 42–73 ms of it layout, mostly of its ten
 * release tables (Long Animation Frame timing); a part a frame keeps each task under 50 ms. A server render (no
 * window, no frames) draws all.
 */
export function useStaged(total: number): number {
  const [shown, setShown] = useState(() => (typeof window === "undefined" ? total : 1));
  useEffect(() => {
    if (shown >= total) return undefined;
    // After the frame that paints this part: the next is its own task.
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      // In a transition, so React renders the part in slices it yields between (a plain update renders in one).
      timer = window.setTimeout(() => startTransition(() => setShown((n) => n + 1)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [shown, total]);
  return shown;
}
