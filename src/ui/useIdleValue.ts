import { useEffect, useState } from "react";
import { flushSync } from "react-dom";

/** Past this the new value is drawn even if the page is never idle (requestIdleCallback's own timeout). */
const IDLE_TIMEOUT_MS = 500;

/**
 * A value that follows its input in an idle slice of its own: each caller's
 * update is drawn (flushSync) inside its own idle callback, so ten charts
 * catching up after a slider drag are ten short tasks, not one long one. It
 * was made for the recharts bars (a chart redrew through its own store in layout
 * effects, ~20-30 ms each on a loaded 2-core machine: three in one render were an
 * 83 ms long task, issue 19); the SVG bars are far cheaper, and still catch up a card at a time.
 */
export function useIdleValue<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (Object.is(shown, value)) return undefined;
    if (typeof requestIdleCallback !== "function") {
      const timer = setTimeout(() => setShown(value), 0);
      return () => clearTimeout(timer);
    }
    const id = requestIdleCallback(() => flushSync(() => setShown(value)), { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  }, [value, shown]);
  return shown;
}
