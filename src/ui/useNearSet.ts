import { useCallback, useEffect, useRef, useState } from "react";

/**
 * How far beyond the viewport an option counts as near: two option cards
 * or so, so scrolling at reading speed never shows an empty chart.
 */
const AHEAD = "600px 0px";

export interface NearSet {
  /** Whether the element of `key` is on or near the screen (as of this render). */
  isNear: (key: string) => boolean;
  /** A ref callback for the element of `key`; the same function for the same key, so React never re-attaches it. */
  refFor: (key: string) => (element: Element | null) => void;
}

/**
 * Which of a list's elements are on or near the screen, from one
 * IntersectionObserver for the whole list. The list, not each item, knows
 * it: while the slider is dragged the list hands an option far below the
 * same (settled) props as before, so React skips it outright rather than
 * rendering 50 cards to find that 47 show nothing new (CPU profile of the
 * speed test: 52 card renders and their commit were a third of a move's JS).
 * Without IntersectionObserver (old browsers, jsdom) everything is near.
 */
export function useNearSet(): NearSet {
  const [near, setNear] = useState<ReadonlySet<string>>(() => new Set());
  const observer = useRef<IntersectionObserver | null>(null);
  const keyOf = useRef(new WeakMap<Element, string>());
  const elementOf = useRef(new Map<string, Element>());
  const refs = useRef(new Map<string, (element: Element | null) => void>());
  const supported = typeof IntersectionObserver !== "undefined";

  useEffect(() => {
    if (!supported) return undefined;
    const io = new IntersectionObserver(
      (entries) => {
        setNear((previous) => {
          let next: Set<string> | null = null;
          for (const entry of entries) {
            const key = keyOf.current.get(entry.target);
            if (key === undefined || previous.has(key) === entry.isIntersecting) continue;
            next ??= new Set(previous);
            if (entry.isIntersecting) next.add(key);
            else next.delete(key);
          }
          return next ?? previous;
        });
      },
      { rootMargin: AHEAD },
    );
    observer.current = io;
    for (const element of elementOf.current.values()) io.observe(element);
    return () => {
      io.disconnect();
      observer.current = null;
    };
  }, [supported]);

  const refFor = useCallback((key: string) => {
    let ref = refs.current.get(key);
    if (!ref) {
      ref = (element: Element | null) => {
        const before = elementOf.current.get(key);
        if (before && before !== element) {
          observer.current?.unobserve(before);
          elementOf.current.delete(key);
        }
        if (!element) {
          // Unmounted: forget the key, so a long session of plans does not pile up dead ones.
          refs.current.delete(key);
          setNear((previous) => (previous.has(key) ? withoutKey(previous, key) : previous));
        }
        if (element) {
          keyOf.current.set(element, key);
          elementOf.current.set(key, element);
          observer.current?.observe(element);
        }
      };
      refs.current.set(key, ref);
    }
    return ref;
  }, []);

  return { isNear: supported ? (key) => near.has(key) : () => true, refFor };
}

function withoutKey(set: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(set);
  next.delete(key);
  return next;
}
