import { memo, useId, useMemo } from "react";
import type { PlanOption } from "../plan/index.ts";
import {
  artifactLabel,
  engineName,
  formatCount,
  formatMs,
  formatTokens,
  formatTps,
  parallelismLabel,
  placementLabel,
} from "./format.ts";
import { AXIS_PX, CardBars, ROW_PX } from "./CardBars.tsx";
import { kvFigures } from "./kvFigures.ts";
import type { WorkloadVerdict } from "./verdict.ts";
import { cardBarRows, optionBadges, type CardBarRow } from "./rows.ts";
import { useIdleValue } from "./useIdleValue.ts";

interface OptionCardProps {
  /** What the card's figures and badges show: the live option on screen, the settled one off it (see OptionsView). */
  option: PlanOption;
  /** The same option as of the slider's last rest: what the chart and the per-card rows draw. */
  settled: PlanOption;
  /** On or near the screen: the chart is drawn. */
  near: boolean;
  /** Lets the list observe whether this card is near the screen. */
  cardRef: (element: Element | null) => (() => void) | undefined;
  /** The artifact's quantization label ("bf16", "Q4_K_M"). */
  quant: string;
  /** The model's own longest context: the cap on "longest context that fits". */
  modelMaxContextTokens: number;
  selected: boolean;
  onSelect: (optionId: string) => void;
  /** With more than one sequence asked for: whether it holds them, and which layout does (verdict.ts). */
  verdict?: WorkloadVerdict | null;
  /** The command form for this option, when it is the selected one. */
  children?: React.ReactNode;
}

/**
 * One option. While the slider is dragged, an option on the screen follows every frame, and one
 * off it follows once the slider rests: a user cannot see it change, and redrawing 50 of them every frame
 * is what made dragging stutter. Its chart and per-card rows follow the same rest, in a deferred render.
 */
function OptionCardView({
  option,
  settled,
  near,
  cardRef,
  quant,
  modelMaxContextTokens,
  selected,
  onSelect,
  verdict = null,
  children,
}: OptionCardProps) {
  const titleId = useId();
  return (
    <article
      ref={cardRef}
      className={`option${option.fits ? "" : " unfit"}${selected ? " selected" : ""}`}
      aria-labelledby={titleId}
      data-option-id={option.id}
    >
      <OptionBody
        option={option}
        chartOption={settled}
        near={near}
        titleId={titleId}
        quant={quant}
        modelMaxContextTokens={modelMaxContextTokens}
        selected={selected}
        onSelect={onSelect}
        verdictTone={verdict?.tone ?? ""}
        verdictText={verdict?.text ?? ""}
      />
      {selected ? <div className="option-commands">{children}</div> : null}
    </article>
  );
}

interface OptionBodyProps {
  option: PlanOption;
  /** The option as of the slider's last rest: what the chart draws. */
  chartOption: PlanOption;
  near: boolean;
  titleId: string;
  quant: string;
  modelMaxContextTokens: number;
  selected: boolean;
  onSelect: (optionId: string) => void;
  /** Strings, not an object, so the memo sees an unchanged verdict as unchanged. */
  verdictTone: WorkloadVerdict["tone"] | "";
  verdictText: string;
}

const OptionBody = memo(function OptionBody({
  option,
  chartOption,
  near,
  titleId,
  quant,
  modelMaxContextTokens,
  selected,
  onSelect,
  verdictTone,
  verdictText,
}: OptionBodyProps) {
  // The per-card figures are the chart's words: they follow the chart (the slider's rest), so a drag
  // re-lays out only the badge and the figures above, not every row of every card on screen.
  const rows = useMemo(() => cardBarRows(chartOption), [chartOption]);
  const label = useMemo(() => rows.map(describeRow).join("; "), [rows]);
  const badges = optionBadges(option);
  const split = parallelismLabel(option.placement);
  const capped = option.maxContextTokens >= modelMaxContextTokens;
  return (
    <>
      <header className="option-head">
        <h3 id={titleId}>{placementLabel(option.placement)}</h3>
        <ul className="badges" aria-label="Standing">
          {badges.map((b) => (
            <li key={b.text} className={`badge ${b.tone}`}>
              {b.text}
            </li>
          ))}
        </ul>
      </header>
      {verdictTone !== "" ? <p className={`verdict ${verdictTone}`}>{verdictText}</p> : null}
      {/* What the figures do not say (why it ranks low, a build that answers wrong): the engine's words, else unseen. */}
      {option.notes !== undefined && option.notes.length > 0 ? (
        <ul className="option-notes small" aria-label="Notes">
          {option.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <p className="option-what">
        <strong>{engineName(option.engine)}</strong> · {artifactLabel(option.artifact)}
        {quant !== "" && quant !== option.artifact ? ` (${quant})` : ""} ·{" "}
        {option.bitsPerWeight > 0 ? `${option.bitsPerWeight.toFixed(2)} bits/weight` : "bits/weight unknown"}
        {split !== "" ? ` · ${split}` : ""}
      </p>
      <dl className="option-figures">
        <div>
          <dt>Longest context that fits</dt>
          <dd>
            {option.maxContextTokens > 0
              ? `${formatTokens(option.maxContextTokens)} tokens${capped ? " (the model's max)" : ""}`
              : "none"}
          </dd>
        </div>
        {kvFigures(option).map((f) => (
          <div key={f.term}>
            <dt>{f.term}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
        {option.replicas !== undefined ? (
          <div>
            <dt>Copies the cluster holds</dt>
            <dd>
              {formatCount(option.replicas)}, {formatCount(option.replicasFreeNow ?? 0)} on free cards now
              {option.dataParallel !== undefined && option.dataParallel > 1
                ? ` (${formatCount(option.dataParallel)} per node as one data-parallel server)`
                : ""}
            </dd>
          </div>
        ) : (
          <div>
            <dt>Nodes that could host it</dt>
            <dd>{option.hosts}</dd>
          </div>
        )}
      </dl>
      <WhatToBuy option={option} short={verdictTone === "warn"} />
      <Speed option={option} />
      <Bars rows={rows} near={near} label={label} />
      <ul className="card-rows">
        {rows.map((r, i) => (
          <li key={i}>
            <span className="card-label">{r.label}</span> <RowFigures row={r} />
          </li>
        ))}
      </ul>
      <div className="option-actions">
        <button
          type="button"
          className={selected ? "secondary" : ""}
          aria-expanded={selected}
          onClick={() => onSelect(selected ? "" : option.id)}
        >
          {selected ? "Hide commands" : "Commands"}
        </button>
      </div>
    </>
  );
});

/** Under a refused or short option: the engine's smallest changes to the cluster that would run it. */
function WhatToBuy({ option, short }: { option: PlanOption; short: boolean }) {
  const changes = option.whatToBuy ?? [];
  if (changes.length === 0 || (option.fits && !short)) return null;
  return (
    <div className="what-to-buy">
      <p className="small">{option.fits ? "To hold every sequence asked for:" : "To make it fit:"}</p>
      <ul>
        {changes.map((c) => (
          <li key={c.change}>{c.change}</li>
        ))}
      </ul>
    </div>
  );
}

/** What the option delivers, with how each figure was obtained one click away. */
function Speed({ option }: { option: PlanOption }) {
  const s = option.speed;
  if (!s) return null;
  return (
    <div className="option-speed">
      <dl className="option-figures">
        <div>
          <dt>Decode, one user</dt>
          <dd>{formatTps(s.decodeTps)}</dd>
        </div>
        <div>
          <dt>Throughput, {formatCount(s.sequencesRun)} at once</dt>
          <dd>{formatTps(s.throughputTps)}</dd>
        </div>
        <div>
          <dt>Time to first token</dt>
          <dd>{formatMs(s.ttftMs)}</dd>
        </div>
        <div>
          <dt>Cost per million output tokens</dt>
          <dd>
            {option.costPerMtok === undefined || option.costPerMtok === null
              ? "no price for these cards"
              : `$${option.costPerMtok.toFixed(2)}`}
          </dd>
        </div>
      </dl>
      <details className="speed-basis">
        <summary>How these figures were obtained</summary>
        <p>{s.basis}</p>
      </details>
    </div>
  );
}

/** The chart, drawn only near the screen, from the option as of the slider's last rest (in an idle slice of its own). */
function Bars({ rows: settledRows, near, label }: { rows: CardBarRow[]; near: boolean; label: string }) {
  const rows = useIdleValue(settledRows);
  const placeholder = <div className="bars-placeholder" style={{ height: rows.length * ROW_PX + AXIS_PX }} />;
  return (
    <div className="bars" role="img" aria-label={label}>
      {near ? <CardBars rows={rows} /> : placeholder}
    </div>
  );
}

function RowFigures({ row }: { row: CardBarRow }) {
  return (
    <span className="figures">
      <span className="key part-weights">weights {row.weightsGib.toFixed(1)}</span>
      {row.mtpGib > 0 ? <span className="key part-mtp">MTP weights {row.mtpGib.toFixed(1)}</span> : null}
      <span className="key part-kv">KV {row.kvGib.toFixed(1)}</span>
      <span className="key part-engine">engine {row.engineGib.toFixed(1)}</span>
      {row.overGib > 0 ? (
        <span className="key part-over">over by {row.overGib.toFixed(1)}</span>
      ) : (
        <span className="key part-free">free {row.freeGib.toFixed(1)}</span>
      )}
      <span className="of">
        of {row.usableGib.toFixed(1)} usable / {row.physicalGib.toFixed(1)} GiB
      </span>
    </span>
  );
}

function describeRow(r: CardBarRow): string {
  const rest = r.overGib > 0 ? `over the usable share by ${r.overGib.toFixed(1)}` : `${r.freeGib.toFixed(1)} free`;
  const mtp = r.mtpGib > 0 ? `, MTP weights ${r.mtpGib.toFixed(1)}` : "";
  return `${r.label}: weights ${r.weightsGib.toFixed(1)}${mtp}, KV ${r.kvGib.toFixed(1)}, engine ${r.engineGib.toFixed(1)}, ${rest}, of ${r.usableGib.toFixed(1)} usable and ${r.physicalGib.toFixed(1)} GiB physical`;
}

/** Re-renders only when what it shows changes: a card off screen is skipped outright while the slider moves. */
export const OptionCard = memo(OptionCardView);
