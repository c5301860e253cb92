/**
 * Manual mode: a config.json pasted or uploaded, with the weights'
 * size, for when the Hub cannot be reached. The form only collects text and
 * numbers; the Hub's manual reader decides whether they make a model.
 */
import { useId, useState } from "react";
import { TextFileInput } from "./TextFileInput.tsx";

/** GB as the Hub's file list shows sizes (10^9 bytes), or GiB (2^30) as nvidia-smi and most tools print them. */
export type SizeUnit = "GB" | "GiB";
export const BYTES_PER_UNIT: Record<SizeUnit, number> = { GB: 1e9, GiB: 2 ** 30 };

export interface ManualInput {
  configJsonText: string;
  weightsBytes: number;
  name: string;
  /** The catalog's hf_quant_config.json for a preset that has one (its quantization may be declared only there). */
  quantConfig?: unknown;
}

/** A catalog model whose files' sizes are not known: its config.json filled in, the size left to the user. */
export interface ManualPreset {
  configJsonText: string;
  name: string;
  /** Its hf_quant_config.json, as the catalog holds it; absent when it has none. */
  quantConfig?: unknown;
}

interface ManualModelProps {
  open: boolean;
  /** Filled in from the catalog (the form is keyed by it, so a new preset starts a new form). */
  preset?: ManualPreset | null;
  onToggle: (open: boolean) => void;
  /** Plans the model; says why it cannot, in words, or null (once manual mode's reader is loaded). */
  onUse: (input: ManualInput) => Promise<string | null>;
}

/** config.json files are a few kB: a file far larger was picked by mistake, and is not read into memory. */
const MAX_UPLOAD_BYTES = 1_000_000;

export function ManualModel({ open, preset = null, onToggle, onUse }: ManualModelProps) {
  const id = useId();
  const [configText, setConfigText] = useState(preset?.configJsonText ?? "");
  const [size, setSize] = useState("");
  const [unit, setUnit] = useState<SizeUnit>("GB");
  const [name, setName] = useState(preset?.name ?? "");
  const [problem, setProblem] = useState<string | null>(null);

  function submit(): void {
    const amount = Number(size.trim());
    if (size.trim() === "" || !Number.isFinite(amount) || amount <= 0) {
      setProblem(
        `give the weights' size as a number of ${unit}: the sum of the *.safetensors files (the Hub lists it in GB)`,
      );
      return;
    }
    const input: ManualInput = { configJsonText: configText, weightsBytes: amount * BYTES_PER_UNIT[unit], name };
    // The catalog's quant file goes with its config only while that config is what the form holds.
    if (preset?.quantConfig !== undefined && configText === preset.configJsonText)
      input.quantConfig = preset.quantConfig;
    void onUse(input).then(setProblem);
  }

  return (
    <details className="manual-model" open={open} onToggle={(e) => onToggle(e.currentTarget.open)}>
      <summary>Enter a model by hand (config.json and weights' size)</summary>
      <form
        className="manual-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {preset ? (
          <p className="note">
            The catalog holds {preset.name}&apos;s config.json but not its files&apos; sizes: give the weights&apos;
            size (the sum of its *.safetensors files, on the Hub&apos;s Files tab).
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-config`}>config.json</label>
          <textarea
            id={`${id}-config`}
            rows={6}
            spellCheck={false}
            value={configText}
            placeholder='{ "architectures": [...], "num_hidden_layers": ..., ... }'
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-problem`}
            onChange={(e) => {
              setConfigText(e.target.value);
              setProblem(null);
            }}
          />
        </div>
        <TextFileInput
          label="or upload config.json"
          accept=".json,application/json"
          maxBytes={MAX_UPLOAD_BYTES}
          whatItShouldBe="the model's config.json"
          onText={(text) => {
            setConfigText(text);
            setProblem(null);
          }}
        />
        <div className="manual-size">
          <div className="field">
            <label htmlFor={`${id}-size`}>Weights' size</label>
            <input
              id={`${id}-size`}
              type="text"
              inputMode="decimal"
              value={size}
              onChange={(e) => setSize(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-unit`}>Unit</label>
            <select id={`${id}-unit`} value={unit} onChange={(e) => setUnit(e.target.value as SizeUnit)}>
              <option value="GB">GB (10⁹ bytes, as the Hub lists files)</option>
              <option value="GiB">GiB (2³⁰ bytes)</option>
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name for the commands (optional)</label>
          <input
            id={`${id}-name`}
            type="text"
            value={name}
            placeholder="owner/name"
            spellCheck={false}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button type="submit">Plan this model</button>
        <div id={`${id}-problem`} aria-live="polite">
          {problem ? (
            <p className="error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      </form>
    </details>
  );
}
