import { useEffect, useId, useState } from "react";
import type { HandSplit, KvDtype, Plan, PlanOption, Workload } from "../plan/index.ts";
import { formatTokens } from "./format.ts";
import { NumberField } from "./NumberField.tsx";
import { useCopy } from "./useCopy.ts";

interface CommandFormProps {
  plan: Plan;
  /** The option whose commands are shown (the selected one). */
  option: PlanOption;
  workload: Workload;
  /** Reports a change the user made here; the page's store keeps it (and the link). */
  onWorkloadChange(w: Workload): void;
  /** Which command is "the" command (index into the option's commands): the one a shared link points its reader at. */
  chosenIndex: number;
  onChoose(index: number): void;
  /**
   * Checks a typed --tensor-split against the plan (the page asks the plan worker: src/app/usePlanView.ts's
   * checkSplit), so this form's chunk fetches no second copy of the engine.
   */
  checkSplit(plan: Plan, ask: { option: PlanOption; text: string }, answer: (result: HandSplit) => void): void;
}

const KV_LABELS: Record<KvDtype, string> = {
  auto: "auto (the model's dtype)",
  fp8: "fp8",
  f16: "f16",
  q8_0: "q8_0",
  q4_0: "q4_0",
};

/** The most concurrent sequences the form accepts; engines' own caps are lower. */
const MAX_SEQUENCES = 4096;

/**
 * The commands that start an option, with the four things users change on
 * the way to pasting them: context, sequences, the card share and the KV
 * dtype. Every change goes to the page's store, the plan is made again for it
 * (in the plan worker), and the form says whether the option still fits in
 * that plan, and when not, by how much.
 */
export function CommandForm({
  plan,
  option,
  workload,
  onWorkloadChange,
  chosenIndex,
  onChoose,
  checkSplit,
}: CommandFormProps) {
  const groupName = useId();
  const current = plan.options.find((o) => o.id === option.id) ?? null;
  const commands = current?.commands ?? option.commands;
  const set = (patch: Partial<Workload>) => onWorkloadChange({ ...workload, ...patch });
  const setShare = (key: ShareKey, value: number | undefined) => {
    // An emptied field means the engine's default: the key goes, rather than holding undefined.
    const { [key]: _old, ...rest } = workload.settings;
    onWorkloadChange({ ...workload, settings: value === undefined ? rest : { ...rest, [key]: value } });
  };
  return (
    <section className="command-form" aria-label="Commands">
      <h3>Start it</h3>
      <div className="field-grid">
        <NumberField
          label="Context (tokens)"
          value={workload.contextTokens}
          min={1}
          max={Math.max(1, plan.shape.maxContextTokens)}
          integer
          onCommit={(v) => {
            if (v !== undefined) set({ contextTokens: v });
          }}
        />
        <NumberField
          label="Sequences at once"
          value={workload.sequences}
          min={1}
          max={MAX_SEQUENCES}
          integer
          onCommit={(v) => {
            if (v !== undefined) set({ sequences: v });
          }}
        />
        <ShareField option={current ?? option} workload={workload} onSet={setShare} />
        <KvDtypeField
          allowed={plan.settingDefaults.engines[option.engine].kvDtypes}
          value={workload.kvDtype}
          onChange={(kvDtype) => set({ kvDtype })}
        />
      </div>
      <FitStatus option={current} />
      {current?.placement.tensorSplit !== undefined ? (
        <TensorSplitField plan={plan} option={current} checkSplit={checkSplit} />
      ) : null}
      {/* A link whose index this option no longer has (the plan changed) points at the first command. */}
      {plan.commandsFor !== undefined && !plan.commandsFor.includes(option.id) ? (
        // Mid-slide the worker makes only the selected option's commands: one just selected waits a reply for its own.
        <p className="muted">Making this option's commands…</p>
      ) : null}
      <CommandList
        commands={commands}
        chosen={chosenIndex < commands.length ? chosenIndex : 0}
        groupName={groupName}
        onChoose={onChoose}
      />
    </section>
  );
}

/**
 * The commands, one per line (or per node). With more than one, the user
 * picks which is "the" command, e.g. the node they are sending the link to;
 * it is highlighted and kept in the plan link.
 */
function CommandList({
  commands,
  chosen,
  groupName,
  onChoose,
}: {
  commands: string[];
  chosen: number;
  groupName: string;
  onChoose: (index: number) => void;
}) {
  const many = commands.length > 1;
  return (
    <ol className="commands">
      {commands.map((command, i) => (
        <li key={`${i}:${command}`} className={many && i === chosen ? "chosen" : undefined}>
          {many ? (
            <label className="choose-command">
              <input type="radio" name={groupName} checked={i === chosen} onChange={() => onChoose(i)} />
              {`The command: ${i + 1} of ${commands.length}`}
            </label>
          ) : null}
          <CommandBlock command={command} index={i} count={commands.length} />
        </li>
      ))}
    </ol>
  );
}

type ShareKey = "gpuMemoryUtilization" | "memFractionStatic";

/**
 * vLLM's utilization or SGLang's static fraction (FreeToken's ratio); llama.cpp takes no share of the card. Its
 * greyed value is the engine's default on the option's card, made with the option's commands (PlanOption.shareDefault).
 */
function ShareField({
  option,
  workload,
  onSet,
}: {
  option: PlanOption;
  workload: Workload;
  onSet: (key: ShareKey, value: number | undefined) => void;
}) {
  if (option.engine === "llamacpp") return null;
  const given = option.shareDefault?.value;
  if (option.engine === "sglang") {
    return (
      <NumberField
        label="Static memory fraction"
        value={workload.settings.memFractionStatic}
        min={0.05}
        max={1}
        step={0.01}
        {...(given !== undefined ? { placeholder: typeof given === "number" ? given.toFixed(3) : given } : {})}
        hint="--mem-fraction-static: weights and KV as a share of the card's total"
        onCommit={(v) => onSet("memFractionStatic", v)}
      />
    );
  }
  return (
    <NumberField
      label="GPU memory utilization"
      value={workload.settings.gpuMemoryUtilization}
      min={0.05}
      max={1}
      step={0.01}
      {...(given !== undefined ? { placeholder: String(given) } : {})}
      hint={
        option.engine === "vllm"
          ? "--gpu-memory-utilization: a share of the card's total memory"
          : "--memory-ratio: a share of the card's free memory"
      }
      onCommit={(v) => onSet("gpuMemoryUtilization", v)}
    />
  );
}

/** The KV cache dtypes the option's engine takes, as the plan lists them (SettingDefaults.engines). */
function KvDtypeField({
  allowed,
  value,
  onChange,
}: {
  allowed: readonly KvDtype[];
  value: KvDtype;
  onChange: (kv: KvDtype) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>KV cache dtype</label>
      <select
        id={id}
        value={allowed.includes(value) ? value : "auto"}
        onChange={(e) => onChange(e.target.value as KvDtype)}
      >
        {allowed.map((kv) => (
          <option key={kv} value={kv}>
            {KV_LABELS[kv]}
          </option>
        ))}
      </select>
    </div>
  );
}

function FitStatus({ option }: { option: PlanOption | null }) {
  if (!option) {
    return (
      <p className="fit-status fit-no" role="status">
        This option is not in the plan for these settings: choose another option.
      </p>
    );
  }
  // Made with the option's commands (PlanOption.shortfall): mid-slide, one just selected waits for its own.
  const s = option.shortfall;
  if (!s) return null;
  return (
    <p className={`fit-status ${s.fits ? "fit-yes" : "fit-no"}`} role="status">
      {s.fits
        ? `Fits. The longest context that fits is ${formatTokens(option.maxContextTokens)} tokens.`
        : `Does not fit: ${s.words}.`}
    </p>
  );
}

/**
 * llama.cpp's --tensor-split as the user would type it, checked against the plan like the context:
 * each device's layers by llama.cpp's own rule, and whether each card then holds its share.
 */
function TensorSplitField({
  plan,
  option,
  checkSplit,
}: {
  plan: Plan;
  option: PlanOption;
  checkSplit: CommandFormProps["checkSplit"];
}) {
  const id = useId();
  const planned = option.placement.tensorSplit?.join(",") ?? "";
  const [text, setText] = useState(planned);
  // The answer to the newest text asked (by the text and plan it answers: an older answer is not shown).
  const [checked, setChecked] = useState<{ text: string; plan: Plan; result: HandSplit } | null>(null);
  useEffect(() => {
    if (text === planned) return undefined;
    let live = true;
    checkSplit(plan, { option, text }, (result) => {
      if (live) setChecked({ text, plan, result });
    });
    return () => {
      live = false;
    };
  }, [plan, option, text, planned, checkSplit]);
  const result =
    text === planned ? null : checked?.text === text && checked.plan === plan ? checked.result : "checking";
  return (
    <div className="field">
      <label htmlFor={id}>Tensor split (-ts)</label>
      <input
        id={id}
        type="text"
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={`${id}-status`}
      />
      <p
        id={`${id}-status`}
        className={`fit-status ${result === null || result === "checking" || result.ok ? "fit-yes" : "fit-no"}`}
        role="status"
      >
        {result === null
          ? `The plan's split: one share a device, ${option.cards.length} devices.`
          : result === "checking"
            ? "Checking this split…"
            : result.ok
              ? `This split fits. The longest context that fits is ${formatTokens(result.option.maxContextTokens)} tokens.`
              : `This split does not fit: ${result.words}.`}
      </p>
    </div>
  );
}

/** One command (or one node's), with its copy button; a refused clipboard leaves the text selected to copy by hand. */
function CommandBlock({ command, index, count }: { command: string; index: number; count: number }) {
  const { id, state, copy } = useCopy(command);
  const label = count > 1 ? `Copy command ${index + 1} of ${count}` : "Copy command";
  return (
    <div className="command">
      <pre id={id} tabIndex={0} aria-label={count > 1 ? `Command ${index + 1} of ${count}` : "Command"}>
        <code>{command}</code>
      </pre>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span className="copy-state" role="status">
        {state === "copied" ? "Copied" : state === "manual" ? "Press Ctrl+C (⌘C) to copy the selected command" : ""}
      </span>
    </div>
  );
}
