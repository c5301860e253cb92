/**
 * What the options are ranked by (issue 13), and the card-hour prices cost is figured from: the
 * engine's defaults (DEFAULT_PRICES_PER_CARD_HOUR, with their source and date) shown as placeholders,
 * a typed price carried in the link. A negative or non-number price is refused at its field
 * (NumberField), so the plan on screen stays the last good one.
 */
import { memo, useId } from "react";
import { DEFAULT_PRICES_PER_CARD_HOUR, RANK_BYS, type RankBy, type Workload } from "../plan/index.ts";
import { NumberField } from "./NumberField.tsx";

const RANK_LABELS: Record<RankBy, string> = {
  // Short enough for a phone's full-width select (a longer label was cut off at 375 px).
  "fewest-cards": "fewest cards (under 3 bits last)",
  throughput: "throughput per card",
  latency: "latency (time per token, then to first token)",
  context: "longest context",
  quality: "quality (bits per weight)",
  cost: "cost per million output tokens",
};

/** Dearer than any card-hour on offer today, so a typo of an extra digit or two is still taken. */
const MAX_DOLLARS_PER_HOUR = 1000;

interface RankControlsProps {
  rankBy: RankBy;
  prices: Readonly<Record<string, number>>;
  /** The card classes of the cluster: each gets a price field, beside those with a default. */
  gpuClasses: readonly string[];
  onChange: (patch: Pick<Workload, "rankBy" | "pricesPerCardHour">) => void;
}

export const RankControls = memo(function RankControls({ rankBy, prices, gpuClasses, onChange }: RankControlsProps) {
  const id = useId();
  const classes = [...new Set([...gpuClasses, ...Object.keys(DEFAULT_PRICES_PER_CARD_HOUR)])];
  return (
    <div className="rank-controls">
      <div className="field">
        <label htmlFor={`${id}-rank`}>Rank by</label>
        <select id={`${id}-rank`} value={rankBy} onChange={(e) => onChange({ rankBy: e.target.value as RankBy })}>
          {RANK_BYS.map((r) => (
            <option key={r} value={r}>
              {RANK_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <details className="prices">
        <summary>Prices per card-hour (for cost)</summary>
        <div className="price-table">
          {classes.map((cls) => {
            const known = Object.hasOwn(DEFAULT_PRICES_PER_CARD_HOUR, cls)
              ? DEFAULT_PRICES_PER_CARD_HOUR[cls]
              : undefined;
            return (
              <NumberField
                key={cls}
                label={`${cls} $ per card-hour`}
                value={Object.hasOwn(prices, cls) ? prices[cls] : undefined}
                min={0}
                max={MAX_DOLLARS_PER_HOUR}
                step={0.01}
                placeholder={known ? String(known.dollars) : "no default"}
                hint={known ? `Default: ${known.source}` : "No default: cost stays unknown until a price is given."}
                onCommit={(v) => {
                  const next = { ...prices };
                  if (v === undefined) delete next[cls];
                  else next[cls] = v;
                  onChange({ pricesPerCardHour: next });
                }}
              />
            );
          })}
        </div>
      </details>
    </div>
  );
});
