/**
 * The way on after a 429 or a 5xx: wait what the Hub asked (Retry-After),
 * counting down where the user can see it, then read again by itself; or
 * retry now.
 */
import { useEffect, useState } from "react";

export function RetryCountdown({ seconds, onRetry }: { seconds: number; onRetry: () => void }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) {
      onRetry();
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, onRetry]);
  return (
    <p className="retry-countdown" role="status">
      {left > 0 ? `Reading again in ${left} s…` : "Reading again…"}{" "}
      <button type="button" className="secondary" onClick={onRetry}>
        Retry now
      </button>
    </p>
  );
}
