import { memo, useId, useState } from "react";

const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
function formatNumber(n: number): string {
  return NUMBER.format(n);
}

interface NumberFieldProps {
  /** The accessible name: unique on the page ("Node 1 card 2 count"). */
  label: string;
  /**
   * What the eye sees instead, where the context already says the rest (a
   * "Count" column header, a "Node 1" legend): "" shows nothing. The full
   * label stays as visually hidden text, so the name a screen reader hears is
   * still unique.
   */
  visibleLabel?: string;
  /** The committed value; undefined shows the placeholder (an engine default). */
  value: number | undefined;
  min: number;
  max: number;
  step?: number;
  integer?: boolean;
  placeholder?: string;
  /** A line under the field: the flag and the default's source. */
  hint?: string;
  /**
   * What is wrong with the committed value, said by the caller (the cluster's validation: "Node 1
   * (dgx-1), h100-80g: 9 free of 4 cards: give at most 4"): the field is marked and names it.
   */
  error?: string | undefined;
  /** A check past the range, in words, on a typed number: a value it refuses is not committed. */
  check?: (value: number) => string | null;
  /** Called with each valid value as it is typed, and with undefined when the field is emptied. */
  onCommit: (value: number | undefined) => void;
}

/**
 * A labelled number input that lets a user type through invalid states
 * ("0." on the way to "0.95") without the store rejecting each keystroke:
 * the text typed lives here until it is a valid number, and only valid
 * numbers reach the plan. A value out of range says what range it wants.
 * A memo: React writes an input's name and type again on every update of it (react-dom 19's updateInput), so a
 * field redrawn with its parent on each slider move was three attribute writes and a style invalidation a move.
 */
export const NumberField = memo(function NumberField({
  label,
  visibleLabel,
  value,
  min,
  max,
  step = 1,
  integer = false,
  placeholder,
  hint,
  error,
  check,
  onCommit,
}: NumberFieldProps) {
  const id = useId();
  // The text typed, the value it was typed over and the last it committed: a value changed from elsewhere
  // (a preset, an import) drops the text.
  const [typing, setTyping] = useState<Typing | null>(null);
  const draft =
    typing !== null && (value === typing.base || (typing.committed.length > 0 && value === typing.committed[0]))
      ? typing.text
      : null;
  const text = draft ?? (value === undefined ? "" : String(value));
  const refused = (t: string) =>
    checkNumber(t, min, max, integer) ?? (t.trim() === "" ? null : (check?.(Number(t)) ?? null));
  // A refused value stays in the field with its reason, and the plan keeps the last good one, said: before, leaving
  // the field put the old number back without a word (issue 17: "a negative count reverts silently").
  const typed = draft === null ? null : refused(draft);
  const kept = value === undefined ? "the default" : formatNumber(value);
  const problem = typed !== null ? `${typed} The plan keeps ${kept}.` : (error ?? null);
  const describedBy = [hint ? `${id}-hint` : "", problem ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} visibleLabel={visibleLabel} />
      <input
        id={id}
        type="number"
        inputMode={integer ? "numeric" : "decimal"}
        min={min}
        max={max}
        step={step}
        value={text}
        placeholder={placeholder}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => {
          const next = e.target.value;
          const commit = next.trim() === "" ? undefined : refused(next) === null ? Number(next) : null;
          const base = draft !== null && typing !== null ? typing.base : value;
          const committed: Typing["committed"] =
            commit !== null ? [commit] : draft !== null && typing ? typing.committed : [];
          setTyping({ text: next, base, committed });
          if (commit !== null) onCommit(commit);
        }}
        onBlur={() => {
          if (draft === null || refused(draft) === null) setTyping(null);
        }}
      />
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {problem ? (
        // A typed refusal is announced as it happens; the caller's (a validation also listed above) is read with the field.
        <span className="error" id={`${id}-error`} role={typed !== null ? "alert" : undefined}>
          {problem}
        </span>
      ) : null}
    </div>
  );
});

/** A draft: its text, the committed value it was typed over, and the value it last committed (none: []). */
interface Typing {
  text: string;
  base: number | undefined;
  committed: [number | undefined] | [];
}

/** A label whose accessible name is `label`, showing `visibleLabel` when given (see NumberFieldProps). */
export function FieldLabel({
  htmlFor,
  label,
  visibleLabel,
}: {
  htmlFor: string;
  label: string;
  visibleLabel?: string | undefined;
}) {
  if (visibleLabel === undefined) return <label htmlFor={htmlFor}>{label}</label>;
  if (visibleLabel === "") {
    return (
      <label htmlFor={htmlFor} className="visually-hidden">
        {label}
      </label>
    );
  }
  return (
    <label htmlFor={htmlFor}>
      <span className="visually-hidden">{label}</span>
      <span aria-hidden="true">{visibleLabel}</span>
    </label>
  );
}

/** Why a typed value is not usable, or null when it is. Empty is usable: it means the default. */
export function checkNumber(text: string, min: number, max: number, integer: boolean): string | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  const range = `${formatNumber(min)} to ${formatNumber(max)}`;
  if (!Number.isFinite(n)) return `Enter a number from ${range}.`;
  if (integer && !Number.isInteger(n)) return `Enter a whole number from ${range}.`;
  if (n < min || n > max) return `Enter a number from ${range}.`;
  return null;
}
