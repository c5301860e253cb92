import { useEffect, useRef, useState } from "react";

/**
 * How far beyond the viewport a chart is drawn ahead of scrolling: two
 * option cards or so, so scrolling at reading speed never shows an empty bar.
 */
const AHEAD = "600px 0px";

/**
 * Whether an element is on or near the screen. Each option's chart is a
 * recharts tree whose selectors all rerun on a new context; with 50 options
 * drawing all of them made every slider move cost hundreds of milliseconds
 * (Chromium profile: recharts' reselect memoizers on top), so only the charts
 * a user can see are kept in step; the rest draw as they scroll into view.
 */
export function useNearViewport<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return undefined;
    }
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) setNear(last.isIntersecting);
    }, { rootMargin: AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, near];
}
