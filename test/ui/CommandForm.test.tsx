/**
 * The command form on a real plan (Llama-3.1-8B-Instruct on one RTX 4090),
 * rendered to markup: it shows the option as the plan made for the form's
 * workload has it (or says the plan turned it down), and offers one copy
 * button per command.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { plan, withWorkload, type Plan, type PlanOption } from "../../src/plan/index.ts";
import { readModel } from "../../src/plan/index.ts";
import type { Workload } from "../../src/plan/index.ts";
import { checkSplit } from "../../src/app/usePlanView.ts";
import { CommandForm } from "../../src/ui/CommandForm.tsx";
import { snapshotOf } from "../plan/fixture.ts";
import { LLAMA70_Q4KM, RTX4090_AND_3090 } from "../plan/splitFixture.ts";

/** The form as the page draws it for `option` of `p`, at the plan's own workload. */
function formHtml(p: Plan, option: PlanOption, chosenIndex = 0): string {
  return renderToStaticMarkup(
    <CommandForm
      plan={p}
      option={option}
      workload={p.workload}
      onWorkloadChange={() => undefined}
      checkSplit={checkSplit}
      chosenIndex={chosenIndex}
      onChoose={() => undefined}
    />,
  );
}

function llama8bOn4090(): Plan {
  const snapshot = snapshotOf("meta-llama__Llama-3.1-8B-Instruct");
  const { shape, artifacts } = readModel(snapshot);
  const cluster = {
    nodes: [
      { id: "ws", fabric: "", hostMemGib: 64, hostFreeGib: 60, devices: [{ class: "rtx4090-24g", count: 1, free: 1 }] },
    ],
  };
  return plan({ repo: snapshot.repo, revision: snapshot.sha, shape, artifacts }, cluster, {
    contextTokens: 8192,
    sequences: 1,
    kvDtype: "auto",
    settings: {},
  });
}

describe("CommandForm", () => {
  const p = llama8bOn4090();
  const found = p.options.find((o) => o.engine === "vllm" && o.artifact === "original");
  if (!found) throw new Error("no vLLM option for Llama-3.1-8B on an RTX 4090");
  const option = found;

  test("at the planned workload it fits and shows the option's command", () => {
    const html = formHtml(p, option);
    expect(html).toContain("Fits.");
    expect(html).toContain("vllm serve meta-llama/Llama-3.1-8B-Instruct");
    expect(html).toContain("Copy command");
    expect(html).toMatch(/<label[^>]*>GPU memory utilization<\/label>/);
  });

  test("mid-slide, an option whose commands the worker did not make says it is making them; the opened one shows its own", () => {
    const other = p.options.find((o) => o.id !== option.id);
    if (!other) throw new Error("the plan has one option");
    const moved = withWorkload(p, { ...p.workload, contextTokens: 16_384 }, { commandsFor: [other.id] });
    const form = (o: typeof option) => formHtml(moved, o);
    const making = /Making this option(&#x27;|')s commands…/;
    expect(form(option)).toMatch(making);
    const opened = moved.options.find((o) => o.id === other.id) ?? other;
    expect(form(opened)).not.toMatch(making);
    expect(form(opened)).toContain("Copy command");
  });

  test("a context the card cannot hold: the plan made again for it (as the page does) turns the option down, and the form says so", () => {
    // 131,072 tokens of Llama-3.1-8B's KV on one 24 GB card: the engine refuses every layout (they go to "Why not?").
    const longer = plan({ repo: p.repo, revision: p.revision, shape: p.shape, artifacts: p.artifacts }, p.cluster, {
      ...p.workload,
      contextTokens: 131072,
    });
    expect(longer.options.some((o) => o.id === option.id)).toBe(false);
    const html = formHtml(longer, option);
    expect(html).toContain("This option is not in the plan for these settings: choose another option.");
    expect(html).toContain('value="131072"');
  });

  test("the utilization's placeholder is the default of the release planned for: the newest's when none is named", () => {
    // As the page does: the plan made again for the settings, whose option brings its engine's default (shareDefault).
    const render = (settings: Workload["settings"]) => {
      const again = plan({ repo: p.repo, revision: p.revision, shape: p.shape, artifacts: p.artifacts }, p.cluster, {
        ...p.workload,
        settings,
      });
      return formHtml(again, again.options.find((o) => o.id === option.id) ?? option);
    };
    // vLLM's CacheConfig default: 0.9 through 0.20, 0.92 from 0.21 (PR #38284).
    expect(render({})).toContain('placeholder="0.92"');
    expect(render({ vllmVersion: "0.19" })).toContain('placeholder="0.9"');
    expect(render({ vllmVersion: "0.22" })).toContain('placeholder="0.92"');
  });

  test("the KV dtypes offered are the engine's own", () => {
    const html = formHtml(p, option);
    expect(html).toContain('<option value="fp8">');
    expect(html).not.toContain('<option value="q8_0">');
  });
});

describe("CommandForm: the chosen command of a multi-node option", () => {
  // DeepSeek-R1's 163 fp8 shards (641 GiB) need both of two 8 × H100 nodes: one vLLM line per node.
  const snapshot = snapshotOf("deepseek-ai__DeepSeek-R1");
  const { shape, artifacts } = readModel(snapshot);
  const node = (id: string) => ({
    id,
    fabric: "ib0",
    hostMemGib: 2048,
    hostFreeGib: 1900,
    devices: [{ class: "h100-80g", count: 8, free: 8 }],
  });
  const p = plan(
    { repo: snapshot.repo, revision: snapshot.sha, shape, artifacts },
    { nodes: [node("dgx-1"), node("dgx-2")] },
    { contextTokens: 8192, sequences: 1, kvDtype: "auto", settings: {} },
  );
  const found = p.options.find((o) => o.engine === "vllm" && o.commands.length > 1);
  if (!found) throw new Error("no multi-node vLLM option for DeepSeek-R1 on two DGX H100 nodes");
  const option = found;
  const render = (chosenIndex: number) => formHtml(p, option, chosenIndex);

  test("one radio per line, the chosen line checked and marked", () => {
    const html = render(1);
    expect(html.match(/type="radio"/g)).toHaveLength(option.commands.length);
    expect(html).toMatch(
      /<li class="chosen"><label class="choose-command"><input type="radio"[^>]*checked=""[^>]*\/>The command: 2 of \d/,
    );
    expect(html.match(/class="chosen"/g)).toHaveLength(1);
  });

  test("an index the option no longer has (the plan changed under a link) marks the first line", () => {
    const html = render(option.commands.length + 3);
    expect(html).toMatch(
      /<li class="chosen"><label class="choose-command"><input type="radio"[^>]*checked=""[^>]*\/>The command: 1 of \d/,
    );
  });
});

describe("CommandForm: a llama.cpp --tensor-split option", () => {
  // Llama-3.3-70B Q4_K_M (42.5 GB as the Hub prints it) on a box with an RTX 4090 and an RTX 3090.
  test("shows the plan's -ts in a field that checks a typed one", () => {
    const p = plan(LLAMA70_Q4KM, RTX4090_AND_3090, {
      contextTokens: 8192,
      sequences: 1,
      kvDtype: "auto",
      settings: {},
    });
    const option = p.options.find((o) => o.placement.tensorSplit !== undefined);
    if (!option) throw new Error("no -ts option");
    const html = formHtml(p, option);
    expect(html).toMatch(/<label[^>]*>Tensor split \(-ts\)<\/label>/);
    expect(html).toContain(`value="${option.placement.tensorSplit?.join(",") ?? ""}"`);
    expect(html).toContain("The plan&#x27;s split: one share a device, 2 devices.");
  });
});
