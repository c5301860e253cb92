import { useId } from "react";
import type { EngineSettings as Settings, SettingDefault, SettingDefaults, VllmReleaseChoice } from "../plan/index.ts";
import { NumberField } from "./NumberField.tsx";

interface EngineSettingsProps {
  settings: Settings;
  /**
   * The engines' defaults the shown plan was made with (Plan.settingDefaults: on the cluster's largest card,
   * for the settings' vLLM release), or null before a plan is made: the page's thread runs no engine code.
   */
  defaults: SettingDefaults | null;
  onSet: <K extends keyof Settings>(key: K, value: Settings[K] | undefined) => void;
  onReset: () => void;
}

/** llama.cpp's -fa values (off: the compute buffer holds each layer's KQ, growing with the context). */
const FLASH_ATTN_MODES = ["on", "off", "auto"] as const;

/** The largest batch/context figure a field accepts: vLLM's own limit is the model length, far below this. */
const MAX_TOKENS_FIELD = 1_048_576;

/** No plan yet: no defaults to grey in. */
const NO_DEFAULTS: Readonly<Record<string, SettingDefault>> = {};

/**
 * Issue 8's settings behind a disclosure: each field shows the engine's own
 * flag and, as its placeholder, the default the engine would use on this
 * cluster's cards, with the source of that default on hover and under it.
 */
export function EngineSettings({ settings, defaults: planned, onSet, onReset }: EngineSettingsProps) {
  const defaults = {
    vllm: planned?.engines.vllm.defaults ?? NO_DEFAULTS,
    sglang: planned?.engines.sglang.defaults ?? NO_DEFAULTS,
    llamacpp: planned?.engines.llamacpp.defaults ?? NO_DEFAULTS,
  };
  const release = releaseSelect(settings.vllmVersion, planned);
  const changed = Object.keys(settings).length;
  return (
    <details className="engine-settings">
      <summary>Engine settings{changed > 0 ? <span className="count"> ({changed} changed)</span> : null}</summary>
      <p className="hint">
        Empty fields use each engine&apos;s own default (shown greyed). These go into the plan link.
        {planned ? null : " The defaults show once the plan is made."}
      </p>
      <fieldset>
        <legend>vLLM</legend>
        <div className="field-grid">
          <SettingNumber
            label="GPU memory utilization"
            d={defaults.vllm["gpuMemoryUtilization"]}
            value={settings.gpuMemoryUtilization}
            min={0.05}
            max={1}
            step={0.01}
            onCommit={(v) => onSet("gpuMemoryUtilization", v)}
          />
          <SettingNumber
            label="Max sequences"
            d={defaults.vllm["maxNumSeqs"]}
            value={settings.maxNumSeqs}
            min={1}
            max={65536}
            integer
            onCommit={(v) => onSet("maxNumSeqs", v)}
          />
          <SettingNumber
            label="Max batched tokens"
            d={defaults.vllm["maxNumBatchedTokens"]}
            value={settings.maxNumBatchedTokens}
            min={16}
            max={MAX_TOKENS_FIELD}
            integer
            onCommit={(v) => onSet("maxNumBatchedTokens", v)}
          />
          <SettingSelect
            label="Weights dtype"
            d={defaults.vllm["dtype"]}
            value={settings.dtype ?? ""}
            options={["auto", "bfloat16", "float16", "float32"]}
            onChange={(v) => onSet("dtype", v === "" ? undefined : (v as NonNullable<Settings["dtype"]>))}
          />
          <SettingSelect
            label="Runtime quantization"
            value={settings.quantization ?? ""}
            options={["fp8"]}
            emptyLabel="none (default)"
            hint="--quantization: weights quantized as they load"
            onChange={(v) => onSet("quantization", v === "fp8" ? "fp8" : undefined)}
          />
          <SettingSelect
            label="Hybrid KV cache for chunked attention (Llama-4)"
            value={
              settings.vllmChunkedLocalHybridKv === undefined ? "" : settings.vllmChunkedLocalHybridKv ? "on" : "off"
            }
            options={["on", "off"]}
            emptyLabel="vLLM's default"
            hint="VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE: off makes every layer hold the whole context"
            onChange={(v) => onSet("vllmChunkedLocalHybridKv", v === "" ? undefined : v === "on")}
          />
          <SettingSelect
            label="vLLM release"
            value={release.value}
            options={release.options}
            emptyLabel={planned ? `newest (${planned.vllmRelease.newest})` : "newest"}
            wide
            hint="What the start-up profile holds inside the budget differs by release: 0.21+ reserves the CUDA-graph estimate there and defaults to utilization 0.92; 0.11.1–0.16 sorted the vocabulary in the sampler (about 2.5 times the activation peak); 0.10 held less with tensor parallelism. 0.26 runs dense models on its V2 runner with no estimate inside; 0.27 prints consumed/peak accounting; 0.29's V2 runner captures its graphs in profiling. Not named: the newest release is planned"
            onChange={(v) => onSet("vllmVersion", v === "" ? undefined : v)}
          />
          {planned ? (
            <p className="hint wide" role="note">
              Planned for: {planned.vllmRelease.assumption}
            </p>
          ) : null}
          <SettingCheckbox
            label="Enforce eager (no CUDA graphs)"
            d={defaults.vllm["enforceEager"]}
            checked={settings.enforceEager === true}
            onChange={(on) => onSet("enforceEager", on ? true : undefined)}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>SGLang</legend>
        <div className="field-grid">
          <SettingNumber
            label="Static memory fraction"
            d={defaults.sglang["memFractionStatic"]}
            value={settings.memFractionStatic}
            min={0.05}
            max={1}
            step={0.01}
            onCommit={(v) => onSet("memFractionStatic", v)}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>llama.cpp</legend>
        <div className="field-grid">
          <SettingNumber
            label="Micro-batch"
            d={defaults.llamacpp["ubatch"]}
            value={settings.ubatch}
            min={1}
            max={MAX_TOKENS_FIELD}
            integer
            onCommit={(v) => onSet("ubatch", v)}
          />
          <SettingNumber
            label="Batch"
            d={defaults.llamacpp["batch"]}
            value={settings.batch}
            min={1}
            max={MAX_TOKENS_FIELD}
            integer
            onCommit={(v) => onSet("batch", v)}
          />
          <SettingNumber
            label="Parallel slots"
            d={defaults.llamacpp["parallel"]}
            value={settings.parallel}
            min={1}
            max={4096}
            integer
            onCommit={(v) => onSet("parallel", v)}
          />
          <SettingSelect
            label="Flash attention"
            d={defaults.llamacpp["flashAttn"]}
            value={settings.flashAttn ?? ""}
            options={FLASH_ATTN_MODES}
            onChange={(v) =>
              onSet(
                "flashAttn",
                FLASH_ATTN_MODES.find((m) => m === v),
              )
            }
          />
          <SettingCheckbox
            label="Unified KV cache (one pool the slots share)"
            d={defaults.llamacpp["kvUnified"]}
            checked={settings.kvUnified === true}
            onChange={(on) => onSet("kvUnified", on ? true : undefined)}
          />
        </div>
      </fieldset>
      <p className="hint">
        The KV cache dtype above sets vLLM&apos;s and SGLang&apos;s --kv-cache-dtype and llama.cpp&apos;s -ctk/-ctv.
      </p>
      <button type="button" className="secondary" onClick={onReset} disabled={changed === 0}>
        Reset to engine defaults
      </button>
    </details>
  );
}

/**
 * The release select's value and entries: a release the select itself set is one of the plan's choices; one
 * typed elsewhere (a link's "0.15.0") shows under the range the plan put it in. Before a plan, the release as given.
 */
function releaseSelect(
  version: string | undefined,
  planned: SettingDefaults | null,
): { value: string; options: readonly VllmReleaseChoice[] } {
  if (!planned)
    return { value: version ?? "", options: version === undefined ? [] : [{ value: version, label: version }] };
  const { choices, chosen } = planned.vllmRelease;
  const value = version === undefined ? "" : choices.some((c) => c.value === version) ? version : chosen;
  return { value, options: choices };
}

/** The line under a setting, in a few words: its flag and default. Where the default comes from is one click away (Source). */
function hintOf(d: SettingDefault | undefined): string | undefined {
  return d ? `${d.flag} · default ${String(d.value)}` : undefined;
}

/** The default's source (a file and line of the engine, a release note), behind a toggle: issue 17 read the citations as a wall. */
function Source({ d }: { d: SettingDefault | undefined }) {
  return d ? (
    <details className="setting-source">
      <summary>Source</summary>
      <span className="hint">{d.source}</span>
    </details>
  ) : null;
}

interface SettingNumberProps {
  label: string;
  d: SettingDefault | undefined;
  value: number | undefined;
  min: number;
  max: number;
  step?: number;
  integer?: boolean;
  onCommit: (value: number | undefined) => void;
}

function SettingNumber({ label, d, value, min, max, step, integer, onCommit }: SettingNumberProps) {
  const hint = hintOf(d);
  return (
    <div className="setting">
      <NumberField
        label={label}
        value={value}
        min={min}
        max={max}
        {...(step !== undefined ? { step } : {})}
        {...(integer !== undefined ? { integer } : {})}
        {...(d ? { placeholder: String(d.value) } : {})}
        {...(hint !== undefined ? { hint } : {})}
        onCommit={onCommit}
      />
      <Source d={d} />
    </div>
  );
}

interface SettingSelectProps {
  label: string;
  d?: SettingDefault | undefined;
  value: string;
  /** Each option's value, shown as it is or with its own label. */
  options: readonly (string | { value: string; label: string })[];
  emptyLabel?: string;
  hint?: string;
  /** Takes the grid's whole width: a choice whose labels and hint need it. */
  wide?: boolean;
  onChange: (value: string) => void;
}

function SettingSelect({ label, d, value, options, emptyLabel, hint, wide = false, onChange }: SettingSelectProps) {
  const id = useId();
  const line = hint ?? hintOf(d);
  return (
    <div className={wide ? "field wide" : "field"}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={line ? `${id}-hint` : undefined}
      >
        <option value="">{emptyLabel ?? `default${d ? ` (${String(d.value)})` : ""}`}</option>
        {options.map((o) => {
          const { value: v, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={v} value={v}>
              {text}
            </option>
          );
        })}
      </select>
      <Hint id={`${id}-hint`} line={line} />
      {hint === undefined ? <Source d={d} /> : null}
    </div>
  );
}

function SettingCheckbox({
  label,
  d,
  checked,
  onChange,
}: {
  label: string;
  d: SettingDefault | undefined;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  const line = hintOf(d);
  return (
    <div className="field checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={line ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      <Hint id={`${id}-hint`} line={line} />
      <Source d={d} />
    </div>
  );
}

/** The line under a setting: its flag and default. */
function Hint({ id, line }: { id: string; line: string | undefined }) {
  return line ? (
    <span className="hint" id={id}>
      {line}
    </span>
  ) : null;
}
