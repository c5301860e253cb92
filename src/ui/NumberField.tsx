import { useId, useState } from "react";

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
  /** Called with each valid value as it is typed, and with undefined when the field is emptied. */
  onCommit: (value: number | undefined) => void;
}

/**
 * A labelled number input that lets a user type through invalid states
 * ("0." on the way to "0.95") without the store rejecting each keystroke:
 * the text typed lives here until it is a valid number, and only valid
 * numbers reach the plan. A value out of range says what range it wants.
 */
export function NumberField({
  label,
  visibleLabel,
  value,
  min,
  max,
  step = 1,
  integer = false,
  placeholder,
  hint,
  onCommit,
}: NumberFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? (value === undefined ? "" : String(value));
  const problem = draft === null ? null : checkNumber(draft, min, max, integer);
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
          setDraft(next);
          if (next.trim() === "") onCommit(undefined);
          else if (checkNumber(next, min, max, integer) === null) onCommit(Number(next));
        }}
        onBlur={() => setDraft(null)}
      />
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {problem ? (
        <span className="error" id={`${id}-error`} role="alert">
          {problem}
        </span>
      ) : null}
    </div>
  );
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
