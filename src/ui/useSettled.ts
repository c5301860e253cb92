import { startTransition, useEffect, useState } from "react";

/**
 * A value that follows its input once the input has rested for `delayMs`.
 * Not a result (the caller still derives everything from it with useMemo):
 * a brake on how often an expensive view redraws. The option charts use it
 * so that while the slider is dragged the figures and badges change every
 * frame and the recharts trees (a Chromium profile put them at two thirds
 * of a slider move's work) redraw when the hand pauses.
 */
export function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(settled, value)) return undefined;
    // A transition: the catch-up render yields to the next slider move instead of holding its frame.
    const timer = setTimeout(() => startTransition(() => setSettled(value)), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
