import { useCallback, useEffect, useRef, useState } from "react";

/**
 * How far beyond the viewport an option counts as near: two option cards
 * or so, so scrolling at reading speed never shows an empty chart.
 */
const AHEAD_PX = 600;
const AHEAD = `${AHEAD_PX}px 0px`;

export interface NearSet {
  /** Whether the element of `key` is on the screen (as of this render): its figures follow every slider move. */
  isOnScreen: (key: string) => boolean;
  /** Whether it is on or near the screen: its chart is drawn. */
  isNear: (key: string) => boolean;
  /** A ref callback for the element of `key`; the same function for the same key, so React never re-attaches it. */
  refFor: (key: string) => RefCallback;
}

type Keys = ReadonlySet<string>;
type RefCallback = (element: Element | null) => (() => void) | undefined;

/**
 * Which of a list's elements are on the screen, and which near it, from two
 * IntersectionObservers for the whole list. The list, not each item, knows
 * it: while the slider is dragged the list hands an option off screen the
 * same (settled) props as before, so React skips it outright rather than
 * rendering 50 cards to find that 47 show nothing new (CPU profile of the
 * speed test: 52 card renders and their commit were a third of a move's JS),
 * and only what the user sees is laid out again each frame.
 * Without IntersectionObserver (old browsers, jsdom) everything is on screen.
 */
export function useNearSet(): NearSet {
  const [onScreen, setOnScreen] = useState<Keys>(() => new Set());
  const [near, setNear] = useState<Keys>(() => new Set());
  const observers = useRef<IntersectionObserver[]>([]);
  const keyOf = useRef(new WeakMap<Element, string>());
  const elementOf = useRef(new Map<string, Element>());
  const refs = useRef(new Map<string, RefCallback>());
  /** The observers have reported once: from then on they alone say what is near. */
  const reported = useRef(false);
  const supported = typeof IntersectionObserver !== "undefined";

  useEffect(() => {
    if (!supported) return undefined;
    const follow = (set: React.Dispatch<React.SetStateAction<Keys>>) => (entries: IntersectionObserverEntry[]) => {
      reported.current = true;
      set((previous) => {
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
    };
    const made = [
      new IntersectionObserver(follow(setOnScreen)),
      new IntersectionObserver(follow(setNear), { rootMargin: AHEAD }),
    ];
    observers.current = made;
    for (const element of elementOf.current.values()) for (const o of made) o.observe(element);
    return () => {
      for (const o of made) o.disconnect();
      observers.current = [];
    };
  }, [supported]);

  const refFor = useCallback(
    (key: string) => {
      let ref = refs.current.get(key);
      if (!ref) {
        // A cleanup per element, not ref(null): it says which element left (issue 17, defect 1: the charts
        // vanished when every card moved to another group).
        ref = (element: Element | null) => {
          if (!element) return undefined;
          keyOf.current.set(element, key);
          elementOf.current.set(key, element);
          for (const o of observers.current) o.observe(element);
          // Until the observers first report: said now, in the commit that adds the card (one layout for all of
          // them), so the first screen's cards draw their bars before it is first painted. Not after: a card added
          // during a slider drag forced a layout of the whole list in React's commit (156 of a 164 ms task at
          // load 3 per core, Long Animation Frame timing), and the observers say it a frame later anyway.
          if (supported && !reported.current) {
            const { top, bottom } = element.getBoundingClientRect();
            const height = window.innerHeight;
            if (bottom >= 0 && top <= height) setOnScreen((previous) => withKey(previous, key));
            if (bottom >= -AHEAD_PX && top <= height + AHEAD_PX) setNear((previous) => withKey(previous, key));
          }
          return () => {
            for (const o of observers.current) o.unobserve(element);
            if (elementOf.current.get(key) === element) elementOf.current.delete(key);
            // Moved, not gone, when the same commit attaches it again (a card changing group): keep the ref
            // and the key's state, or React sees a new ref and detaches and re-attaches it once more.
            queueMicrotask(() => {
              if (elementOf.current.has(key)) return;
              refs.current.delete(key);
              setOnScreen((previous) => withoutKey(previous, key));
              setNear((previous) => withoutKey(previous, key));
            });
          };
        };
        refs.current.set(key, ref);
      }
      return ref;
    },
    [supported],
  );

  if (!supported) return { isOnScreen: everything, isNear: everything, refFor };
  return { isOnScreen: (key) => onScreen.has(key), isNear: (key) => near.has(key), refFor };
}

function everything(): boolean {
  return true;
}

function withKey(set: Keys, key: string): Keys {
  if (set.has(key)) return set;
  const next = new Set(set);
  next.add(key);
  return next;
}

function withoutKey(set: Keys, key: string): Keys {
  if (!set.has(key)) return set;
  const next = new Set(set);
  next.delete(key);
  return next;
}
