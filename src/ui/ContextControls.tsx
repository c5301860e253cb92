import { useId } from "react";
import { DEFAULT_INPUT_TOKENS, DEFAULT_OUTPUT_TOKENS, type KvDtype, type Workload } from "../plan/index.ts";
import { formatTokens } from "./format.ts";
import { MIN_CONTEXT_TOKENS, positionToTokens, SLIDER_STEPS, tokensToPosition } from "./logScale.ts";
import { NumberField } from "./NumberField.tsx";

interface ContextControlsProps {
  /** The committed workload (the store's, the link's). */
  workload: Workload;
  /** The context under the slider's thumb while it is dragged; null otherwise. */
  slidingContextTokens: number | null;
  /** The model's own longest context (stretched, when YaRN is on): the slider's right end. */
  maxContextTokens: number;
  /**
   * A context past the model's limit (contextFit): the one message, and whether a YaRN stretch can lift
   * it (the "Extend with YaRN" box is offered then, and whenever it is on). Null within the limit.
   */
  pastLimit: { message: string; yarnPossible: boolean } | null;
  /** Whether the plan stretches the model's positions with YaRN past its own context. */
  ropeScaling: boolean;
  onRopeScaling: (on: boolean) => void;
  /** Each move of the slider: the plan follows without enumerating placements again. */
  onSlide: (contextTokens: number) => void;
  /** The drag (or key press) is over: the context becomes the plan's. */
  onSlideEnd: (contextTokens: number) => void;
  onChange: (patch: Partial<Omit<Workload, "settings">>) => void;
  /** The "Engine settings" disclosure, placed under the controls. */
  children?: React.ReactNode;
}

const KV_DTYPES: { value: KvDtype; label: string }[] = [
  { value: "auto", label: "auto (model's)" },
  { value: "fp8", label: "fp8 (vLLM, SGLang)" },
  { value: "f16", label: "f16 (llama.cpp)" },
  { value: "q8_0", label: "q8_0 (llama.cpp)" },
  { value: "q4_0", label: "q4_0 (llama.cpp)" },
];

/** Largest sequences-at-once the page offers; vLLM's own --max-num-seqs default is 256 (1024 on large cards). */
const MAX_SEQUENCES = 4096;

/** Longest prompt or answer the page takes for the speed figures: past any model's context today. */
const MAX_REQUEST_TOKENS = 10_000_000;

export function ContextControls({
  workload,
  slidingContextTokens,
  maxContextTokens,
  pastLimit,
  ropeScaling,
  onRopeScaling,
  onSlide,
  onSlideEnd,
  onChange,
  children,
}: ContextControlsProps) {
  const sliderId = useId();
  const kvId = useId();
  const limitId = useId();
  const yarnId = useId();
  const max = Math.max(maxContextTokens, MIN_CONTEXT_TOKENS);
  // The field keeps what was typed, past the model's limit too: the plan is made at the limit and says so once.
  const contextTokens = slidingContextTokens ?? workload.contextTokens;
  const sliderTokens = Math.min(contextTokens, max);
  const endSlide = () => {
    if (slidingContextTokens !== null) onSlideEnd(slidingContextTokens);
  };
  const poolTokens = contextTokens * workload.sequences;
  return (
    <div className="context-controls">
      <div className="field slider-field">
        <label htmlFor={sliderId}>Context</label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          value={tokensToPosition(sliderTokens, MIN_CONTEXT_TOKENS, max)}
          aria-valuetext={`${formatTokens(sliderTokens)} tokens`}
          onChange={(e) => onSlide(positionToTokens(Number(e.target.value), MIN_CONTEXT_TOKENS, max))}
          onPointerUp={endSlide}
          onKeyUp={endSlide}
          onBlur={endSlide}
        />
        <div className="slider-scale" aria-hidden="true">
          <span>{formatTokens(MIN_CONTEXT_TOKENS)}</span>
          <span>{formatTokens(max)}</span>
        </div>
      </div>
      <div className="field-row">
        <NumberField
          label="Context tokens"
          value={contextTokens}
          min={MIN_CONTEXT_TOKENS}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={(v) => {
            if (v !== undefined) onChange({ contextTokens: v });
          }}
        />
        <NumberField
          label="Concurrent sequences"
          value={workload.sequences}
          min={1}
          max={MAX_SEQUENCES}
          integer
          onCommit={(v) => {
            if (v !== undefined) onChange({ sequences: v });
          }}
        />
        <NumberField
          label="Input tokens"
          value={workload.inputTokens ?? DEFAULT_INPUT_TOKENS}
          min={1}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={(v) => {
            if (v !== undefined) onChange({ inputTokens: v });
          }}
        />
        <NumberField
          label="Output tokens"
          value={workload.outputTokens ?? DEFAULT_OUTPUT_TOKENS}
          min={1}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={(v) => {
            if (v !== undefined) onChange({ outputTokens: v });
          }}
        />
        <div className="field wide">
          <label htmlFor={kvId}>KV cache dtype</label>
          <select id={kvId} value={workload.kvDtype} onChange={(e) => onChange({ kvDtype: e.target.value as KvDtype })}>
            {KV_DTYPES.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {pastLimit || ropeScaling ? (
        <div className="past-limit">
          {pastLimit ? (
            <p className="notice" id={limitId} role="status">
              {pastLimit.message}
            </p>
          ) : null}
          {pastLimit?.yarnPossible || ropeScaling ? (
            <div className="field checkbox">
              <input
                id={yarnId}
                type="checkbox"
                checked={ropeScaling}
                aria-describedby={pastLimit ? limitId : undefined}
                onChange={(e) => onRopeScaling(e.target.checked)}
              />
              <label htmlFor={yarnId}>Extend with YaRN rope scaling (the commands carry its flags)</label>
            </div>
          ) : null}
        </div>
      ) : null}
      <p className="hint">
        Token pool: {formatTokens(contextTokens)} × {workload.sequences} = {formatTokens(poolTokens)} tokens of KV cache
        per replica.
      </p>
      {children}
    </div>
  );
}
