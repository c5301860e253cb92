/** Searches over a monotone predicate, for the slider's path: each probe evaluates a card. */

/**
 * The fewest k in [1, most] for which `fits(k)` holds (`fits` monotone: more never fits less), or `most`
 * when none does. It starts from `hint`, the last answer, and gallops away from it: a slider step moves
 * the answer by a layer or two, so most moves probe twice where a bisection over 80 layers probes eight.
 * Any hint gives the same answer; one outside [1, most] bisects the whole range.
 */
export function fewestFitting(fits: (k: number) => boolean, most: number, hint: number): number {
  // The answer lies in (lo, hi]; fits(hi) is known to hold.
  let lo: number;
  let hi: number;
  if (hint < 1 || hint > most) {
    if (!fits(most)) return most;
    lo = 0;
    hi = most;
  } else if (fits(hint)) {
    hi = hint;
    lo = 0;
    for (let step = 1; hi - step >= 1; step *= 2) {
      const probe = hi - step;
      if (!fits(probe)) {
        lo = probe;
        break;
      }
      hi = probe;
    }
  } else {
    lo = hint;
    hi = most;
    for (let step = 1; ; step *= 2) {
      const probe = lo + step;
      if (probe >= most) {
        if (!fits(most)) return most;
        break;
      }
      if (fits(probe)) {
        hi = probe;
        break;
      }
      lo = probe;
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
