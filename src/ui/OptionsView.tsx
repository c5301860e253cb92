import { memo, useEffect, useId, useState, useSyncExternalStore } from "react";
import { flushSync } from "react-dom";
import type { Artifact, PlanOption, Refusal } from "../plan/index.ts";
import { ENGINES, type Filters, type FitFilter, type GroupBy } from "../state/choices.ts";
import { downloadText } from "./download.ts";
import { artifactLabel, engineName, formatCount, formatTokens } from "./format.ts";
import { OptionCard } from "./OptionCard.tsx";
import { bestOfEach, filterOptions, groupOptions } from "./rows.ts";
import { useNearSet } from "./useNearSet.ts";
import { TradeOff } from "./TradeOff.tsx";
import { useSettled } from "./useSettled.ts";
import { catchUp, type CatchUp } from "./catchUp.ts";
import { workloadVerdict, type WorkloadVerdict } from "./verdict.ts";

/** The JSON/CSV writers (and the terminal's JSON shape) load when a download is asked for, not with the first screen. */
const exportPlan = () => import("./exportPlan.ts");

interface OptionsViewProps {
  options: PlanOption[];
  refused: Refusal[];
  artifacts: Artifact[];
  modelMaxContextTokens: number;
  /** Sequences asked for at once: with more than one, each option says whether it holds them. */
  sequences?: number;
  /** While the slider moves between rests: the context the full plan is not yet made for (null: the plan is current). */
  catchingUpToTokens?: number | null;
  filters: Filters;
  /** Said in place of the options when there are none and the plan's refusals cannot say why (see NeedsGguf). */
  whyNone?: React.ReactNode;
  selectedOptionId: string;
  onFilters: (patch: Partial<Filters>) => void;
  onSelect: (optionId: string) => void;
  /** The command form for the selected option. */
  renderCommands: (option: PlanOption) => React.ReactNode;
}

/**
 * How long the slider must rest before options far off screen (and every chart) redraw: shorter than a
 * glance, longer than the gap between two frames of a drag (16 ms) or two auto-repeated arrow keys (~33 ms).
 */
const SETTLE_MS = 100;

/** FreeToken is not a name a user knows: the filter says what it is (FlashML-org/FreeToken, docs/seed/gpus.go.txt). */
const ENGINE_FILTER_LABELS: Partial<Record<Filters["engine"], string>> = {
  freetoken: "FreeToken (one card, a mixture of experts' experts in host RAM)",
};

const FIT_LABELS: Record<FitFilter, string> = { all: "every option", fits: "those that fit", free: "those free now" };
const GROUP_LABELS: Record<GroupBy, string> = { none: "rank only", artifact: "artifact", engine: "engine" };

export function OptionsView(props: OptionsViewProps) {
  const {
    options,
    refused,
    artifacts,
    modelMaxContextTokens,
    catchingUpToTokens = null,
    sequences = 1,
    whyNone,
    filters,
    selectedOptionId,
    onFilters,
    onSelect,
    renderCommands,
  } = props;
  // Every layout, or the best of each artifact × engine (the default): a view choice, not the link's.
  const [everyLayout, setEveryLayout] = useState(false);
  const filtered = filterOptions(options, filters);
  const leaders = bestOfEach(filtered, selectedOptionId);
  const shown = everyLayout ? filtered : leaders.best;
  // One timer for the whole list: the options as of the slider's last rest. The cards catch up to them one
  // idle slice at a time (catchUp.ts), those on screen first, then those near it.
  const settledOptions = useSettled(options, SETTLE_MS);
  const [caught] = useState(() => catchUp<PlanOption>((notify) => flushSync(notify)));
  const { isOnScreen, isNear, refFor } = useNearSet();
  useEffect(() => {
    caught.follow(settledOptions, optionKey, (id) => (isOnScreen(id) ? 0 : isNear(id) ? 1 : 2));
    // The screen's cards as of the rest are what comes first; a scroll afterwards does not reorder the queue.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [caught, settledOptions]);
  const groups = groupOptions(shown, filters.groupBy);
  const quantOf = new Map(artifacts.map((a) => [a.name, a.quant]));
  const fitting = options.filter((o) => o.fits).length;
  const holding = options.filter((o) => o.fits && o.fitsWorkload === true).length;
  const held = sequences > 1 ? ` (${formatCount(holding)} hold your ${formatCount(sequences)} sequences at once)` : "";
  return (
    <div className="options-view">
      <Toolbar filters={filters} artifacts={artifacts} onFilters={onFilters} />
      <p className="summary" aria-live="polite">
        {catchingUpToTokens !== null
          ? `Catching up: the layouts below are the last plan's, re-checked at ${formatTokens(catchingUpToTokens)} tokens; ${formatCount(fitting)} of ${formatCount(options.length)} fit. The plan for this context is made when the slider rests.`
          : `${formatCount(fitting)} of ${formatCount(options.length)} options fit at this context${held}${shown.length !== options.length ? `; showing ${formatCount(shown.length)}` : ""}.`}
      </p>
      <p className="layouts-toggle">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void exportPlan().then((m) =>
              downloadText(m.planJsonText(options), "modelplan-options.json", "application/json"),
            )
          }
        >
          Download the options (JSON)
        </button>{" "}
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void exportPlan().then((m) => downloadText(m.planCsvText(options), "modelplan-options.csv", "text/csv"))
          }
        >
          Download the options (CSV)
        </button>{" "}
        {leaders.others > 0 || everyLayout ? (
          <button
            type="button"
            className="secondary"
            aria-pressed={everyLayout}
            onClick={() => setEveryLayout(!everyLayout)}
          >
            {everyLayout
              ? "Show the best layout of each artifact and engine"
              : `Show every layout (${formatCount(leaders.others)} more)`}
          </button>
        ) : null}
      </p>
      {selectedOptionId !== "" && !options.some((o) => o.id === selectedOptionId) ? (
        <p className="notice small" role="status">
          The option you opened no longer runs this way at this workload: the plan found the ways below instead (see Why
          not? for the rest).{" "}
          <button type="button" className="secondary" onClick={() => onSelect("")}>
            Close it
          </button>
        </p>
      ) : null}
      <Legend mtp={options.some((o) => o.cards.some((c) => (c.mtpWeightsBytes ?? 0) > 0))} />
      {shown.length === 0 ? (
        options.length === 0 && whyNone ? (
          whyNone
        ) : (
          <p className="empty">
            {options.length > 0
              ? "No option passes these filters."
              : refused.length > 0
                ? "No way to run this model on this cluster: see why below, or add cards."
                : "No way to run this model on this cluster: add cards."}
          </p>
        )
      ) : null}
      {groups.map((group) => (
        <section
          key={group.key}
          className="option-group"
          aria-label={group.title === "" ? "Ranked options" : group.title}
        >
          {group.title !== "" ? <h3 className="group-title">{group.title}</h3> : null}
          <ol className="option-list">
            {group.options.map((o) => {
              const verdict = workloadVerdict(o, sequences, options);
              return (
                <li key={o.id}>
                  <CaughtUpCard
                    caught={caught}
                    id={o.id}
                    // Off screen, the card shows what it last caught up to: the same props on every slider move,
                    // so React passes it by. Until it has caught up once, it is drawn with the option itself.
                    live={isOnScreen(o.id) || caught.get(o.id) === undefined ? o : null}
                    near={isNear(o.id)}
                    cardRef={refFor(o.id)}
                    quant={quantOf.get(o.artifact) ?? ""}
                    modelMaxContextTokens={modelMaxContextTokens}
                    selected={o.id === selectedOptionId}
                    onSelect={onSelect}
                    verdictTone={verdict?.tone ?? ""}
                    verdictText={verdict?.text ?? ""}
                  >
                    {o.id === selectedOptionId ? renderCommands(o) : null}
                  </CaughtUpCard>
                </li>
              );
            })}
          </ol>
        </section>
      ))}
      <TradeOff options={settledOptions} artifacts={artifacts} />
      <WhyNot refused={refused} />
    </div>
  );
}

function optionKey(option: PlanOption): string {
  return option.id;
}

interface CaughtUpCardProps extends Omit<React.ComponentProps<typeof OptionCard>, "option" | "settled" | "verdict"> {
  caught: CatchUp<PlanOption>;
  id: string;
  /** The newest option, on screen (or before the card first caught up); null off it. */
  live: PlanOption | null;
  /** The verdict in strings, so an unchanged one leaves the card's props unchanged. */
  verdictTone: WorkloadVerdict["tone"] | "";
  verdictText: string;
}

/**
 * A card that follows the list's catch-up: its chart (and, off screen, its figures) are the option as of the
 * slider's last rest, drawn in an idle slice of its own (catchUp.ts) rather than with every other card at once.
 */
const CaughtUpCard = memo(function CaughtUpCard({
  caught,
  id,
  live,
  verdictTone,
  verdictText,
  ...card
}: CaughtUpCardProps) {
  const snapshot = () => caught.get(id);
  // The same snapshot when the page is rendered to a string (the link fuzzer's renderToString): nothing caught up yet.
  const settled = useSyncExternalStore((listener) => caught.subscribe(id, listener), snapshot, snapshot);
  const shown = live ?? settled;
  const chart = settled ?? live;
  if (!shown || !chart) return null;
  const verdict = verdictTone === "" ? null : { tone: verdictTone, text: verdictText };
  return <OptionCard {...card} option={shown} settled={chart} verdict={verdict} />;
});

/** The filters: redrawn when they or the artifacts change, not on each frame of a slider drag. */
const Toolbar = memo(function Toolbar({
  filters,
  artifacts,
  onFilters,
}: Pick<OptionsViewProps, "filters" | "artifacts" | "onFilters">) {
  return (
    <div className="toolbar" role="group" aria-label="Filter and group the options">
      <Select
        label="Artifact"
        value={filters.artifact}
        onChange={(v) => onFilters({ artifact: v })}
        choices={[
          ["", "all artifacts"],
          ...artifacts.map((a): [string, string] => [
            a.name,
            a.quant !== "" && a.quant !== a.name ? `${artifactLabel(a.name)} (${a.quant})` : artifactLabel(a.name),
          ]),
        ]}
      />
      <Select
        label="Engine"
        value={filters.engine}
        onChange={(v) => onFilters({ engine: v as Filters["engine"] })}
        choices={[
          ["", "all engines"],
          ...ENGINES.map((e): [string, string] => [e, ENGINE_FILTER_LABELS[e] ?? engineName(e)]),
        ]}
      />
      <Select
        label="Show"
        value={filters.fit}
        onChange={(v) => onFilters({ fit: v as FitFilter })}
        choices={Object.entries(FIT_LABELS)}
      />
      <Select
        label="Group by"
        value={filters.groupBy}
        onChange={(v) => onFilters({ groupBy: v as GroupBy })}
        choices={Object.entries(GROUP_LABELS)}
      />
    </div>
  );
});

function Select({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: string;
  choices: [string, string][];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** `mtp`: some option loads the MTP block (speculative decoding with MTP on), drawn as its own band. */
const Legend = memo(function Legend({ mtp }: { mtp: boolean }) {
  return (
    <ul className="legend" aria-label="What the bars show">
      <li className="key part-weights">weights</li>
      {mtp ? <li className="key part-mtp">MTP weights (speculative decoding)</li> : null}
      <li className="key part-kv">context (KV)</li>
      <li className="key part-engine">engine</li>
      <li className="key part-free">free (of the engine&apos;s usable share)</li>
      <li className="key part-over">over</li>
      <li className="key physical">card&apos;s physical memory</li>
    </ul>
  );
});

/** Refusals can number in the hundreds on a big cluster: their list is only built when opened. */
function WhyNot({ refused }: { refused: Refusal[] }) {
  const [open, setOpen] = useState(false);
  if (refused.length === 0) return null;
  return (
    <details className="why-not" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Why not? ({formatCount(refused.length)} configurations turned down)</summary>
      {open ? (
        <ul>
          {refused.map((r, i) => (
            <li key={i}>
              <span className="where">
                {engineName(r.engine)} · {artifactLabel(r.artifact)} · {r.where}
              </span>
              : {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
