import { useEffect, useState } from "react";

/**
 * A module loaded the first time it is wanted, or null until it is in: for
 * code the first screen does not draw (manual mode's config reader and its
 * json5, issue 19), whose caller derives everything from it with useMemo.
 * One load per loader: the bundler's dynamic import is cached, so a second
 * caller of the same loader gets the same module.
 */
export function useModule<T>(load: () => Promise<T>, wanted: boolean): T | null {
  const [loaded, setLoaded] = useState<{ load: () => Promise<T>; module: T } | null>(null);
  useEffect(() => {
    if (!wanted || loaded?.load === load) return undefined;
    let live = true;
    void load().then((module) => {
      if (live) setLoaded({ load, module });
    });
    return () => {
      live = false;
    };
  }, [load, wanted, loaded]);
  return loaded?.load === load ? loaded.module : null;
}
