import { memo, startTransition, useCallback, useId, useRef, useState } from "react";
import {
  DEFAULT_INPUT_TOKENS,
  DEFAULT_OUTPUT_TOKENS,
  MAX_REQUEST_TOKENS,
  requestTokensOf,
  workloadPoolTokens,
  type KvDtype,
  type Workload,
} from "../plan/index.ts";
import { formatCount, formatTokens } from "./format.ts";
import { MIN_CONTEXT_TOKENS, positionToTokens, SLIDER_STEPS, tokensToPosition } from "./logScale.ts";
import { NumberField } from "./NumberField.tsx";

interface ContextControlsProps {
  /** The committed workload (the store's, the link's). */
  workload: Workload;
  /** The context under the slider's thumb while it is dragged; null otherwise. */
  slidingContextTokens: number | null;
  /** The model's own longest context (stretched, when YaRN is on): the slider's right end. */
  maxContextTokens: number;
  /** The context the commands start for an asked one (the engine's contextFit: the model's limit past it, unless stretched). */
  plannedContextOf: (contextTokens: number) => number;
  /**
   * A context past the model's limit (contextFit): the one message, and whether a YaRN stretch can lift
   * it (the "Extend with YaRN" box is offered then, and whenever it is on). Null within the limit.
   */
  pastLimit: { message: string; yarnPossible: boolean } | null;
  /** Whether the plan stretches the model's positions with YaRN past its own context. */
  ropeScaling: boolean;
  onRopeScaling: (on: boolean) => void;
  /** Each move of the slider, in a transition: the plan follows without enumerating placements again. */
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

export function ContextControls({
  workload,
  slidingContextTokens,
  maxContextTokens,
  plannedContextOf,
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
  /**
   * The thumb's context, drawn in the move's own render: the page (and its plan) follows in a transition. On a
   * CPU 4× slower the page's render of each move was 10-25 ms of the input's task (issue 19, e2e/speed.spec.ts).
   */
  const [thumbTokens, setThumbTokens] = useState<number | null>(null);
  /** The same, for the end of the drag: read there, so the slider's handlers stay one function for the drag. */
  const thumb = useRef<number | null>(null);
  // The field keeps what was typed, past the model's limit too: the plan is made at the limit and says so once.
  const contextTokens = thumbTokens ?? slidingContextTokens ?? workload.contextTokens;
  const slide = useCallback(
    (tokens: number) => {
      thumb.current = tokens;
      setThumbTokens(tokens);
      startTransition(() => onSlide(tokens));
    },
    [onSlide],
  );
  const endSlide = useCallback(() => {
    const at = thumb.current;
    if (at === null) return;
    thumb.current = null;
    setThumbTokens(null);
    onSlideEnd(at);
  }, [onSlideEnd]);
  // One function per field for the page's life (onChange is the page's stable one): the fields are memos.
  const commitContext = useCallback(
    (v: number | undefined) => v !== undefined && onChange({ contextTokens: v }),
    [onChange],
  );
  const commitSequences = useCallback(
    (v: number | undefined) => v !== undefined && onChange({ sequences: v }),
    [onChange],
  );
  const commitInput = useCallback(
    (v: number | undefined) => v !== undefined && onChange({ inputTokens: v }),
    [onChange],
  );
  const commitOutput = useCallback(
    (v: number | undefined) => v !== undefined && onChange({ outputTokens: v }),
    [onChange],
  );
  const poolTokens = workloadPoolTokens(contextTokens, workload.sequences);
  // A request the commands' context refuses (the plan is made at the model's limit past it): said at the lengths,
  // as the CLI says it; before, the figures priced it without a word.
  const requestTokens = requestTokensOf(workload);
  const commandContext = plannedContextOf(contextTokens);
  const requestPast = requestTokens > commandContext;
  return (
    <div className="context-controls">
      <ContextSlider
        id={sliderId}
        // A typed context past the model's end leaves the thumb at the end.
        tokens={Math.min(contextTokens, max)}
        max={max}
        onSlide={slide}
        onSlideEnd={endSlide}
      />
      <div className="field-row">
        <NumberField
          label="Context tokens"
          value={contextTokens}
          min={MIN_CONTEXT_TOKENS}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={commitContext}
        />
        <NumberField
          label="Concurrent sequences"
          value={workload.sequences}
          min={1}
          max={MAX_SEQUENCES}
          integer
          onCommit={commitSequences}
        />
        <NumberField
          label="Input tokens"
          value={workload.inputTokens ?? DEFAULT_INPUT_TOKENS}
          min={1}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={commitInput}
        />
        <NumberField
          label="Output tokens"
          value={workload.outputTokens ?? DEFAULT_OUTPUT_TOKENS}
          min={1}
          max={MAX_REQUEST_TOKENS}
          integer
          onCommit={commitOutput}
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
      {requestPast ? (
        <p className="notice request-past-context" role="status">
          Input + output tokens ({formatCount(requestTokens)}) are more than the context ({formatCount(commandContext)}
          ): the commands refuse such a request. Raise the context to {formatCount(requestTokens)} or more to serve it;
          the speed figures price it as if it were served.
        </p>
      ) : null}
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

interface ContextSliderProps {
  id: string;
  /** The thumb's context, at most `max`. */
  tokens: number;
  max: number;
  onSlide: (contextTokens: number) => void;
  onSlideEnd: () => void;
}

/** The slider alone, a memo: the page's render of a move (a transition) passes it by, its thumb already drawn. */
const ContextSlider = memo(function ContextSlider({ id, tokens, max, onSlide, onSlideEnd }: ContextSliderProps) {
  return (
    <div className="field slider-field">
      <label htmlFor={id}>Context</label>
      <input
        id={id}
        type="range"
        min={0}
        max={SLIDER_STEPS}
        step={1}
        value={tokensToPosition(tokens, MIN_CONTEXT_TOKENS, max)}
        aria-valuetext={`${formatTokens(tokens)} tokens`}
        onChange={(e) => onSlide(positionToTokens(Number(e.target.value), MIN_CONTEXT_TOKENS, max))}
        onPointerUp={onSlideEnd}
        onKeyUp={onSlideEnd}
        onBlur={onSlideEnd}
      />
      <div className="slider-scale" aria-hidden="true">
        <span>{formatTokens(MIN_CONTEXT_TOKENS)}</span>
        <span>{formatTokens(max)}</span>
      </div>
    </div>
  );
});
