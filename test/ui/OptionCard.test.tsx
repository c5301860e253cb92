/**
 * An option card's KV figures in its engine's own words (issue 17, defect 4), rendered to markup from
 * real plans: the bundled catalog's recorded Hub answers (src/hub/catalog.ts) for Qwen2.5-Coder-32B and
 * unsloth/DeepSeek-R1-GGUF, on the page's presets (src/cluster/presets.ts).
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { defaultChoices } from "../../src/app/defaults.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import { mtpWeightBytes, plan, readModel, type PlanOption } from "../../src/plan/index.ts";
import { placementLabel } from "../../src/ui/format.ts";
import { OptionCard } from "../../src/ui/OptionCard.tsx";
import { workloadVerdict, type WorkloadVerdict } from "../../src/ui/verdict.ts";
import { qwen35Shape, qwen35VllmOption } from "../plan/mtpFixture.ts";

function planOn(repo: string, presetId: string, sequences: number) {
  const snap = catalogSnapshot(repo);
  const preset = PRESETS.find((p) => p.id === presetId);
  if (!snap || !preset) throw new Error(`no ${repo} in the catalog or no preset ${presetId}`);
  return plan({ repo: snap.repo, revision: snap.sha, ...readModel(snap) }, preset.cluster, {
    ...defaultChoices().workload,
    sequences,
  });
}

function card(option: PlanOption, verdict: WorkloadVerdict | null = null): string {
  const html = renderToStaticMarkup(
    <OptionCard
      option={option}
      settled={option}
      near={false}
      cardRef={() => undefined}
      quant=""
      modelMaxContextTokens={163_840}
      selected={false}
      onSelect={() => undefined}
      verdict={verdict}
    />,
  );
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe("KV figures per engine", () => {
  const gguf = planOn("unsloth/DeepSeek-R1-GGUF", "dgx-h100-x2", 4);
  const cpu = planOn("unsloth/DeepSeek-R1-GGUF", "cpu-512g", 4);
  const qwen = planOn("Qwen/Qwen2.5-Coder-32B-Instruct", "dgx-h100-x2", 1);

  test("llama.cpp on GPUs: the cache it holds for context × slots, and what is left, not a 'pool' of free memory", () => {
    const option = gguf.options.find((o) => o.engine === "llamacpp" && !o.placement.cpu);
    if (!option) throw new Error("no llama.cpp GPU option");
    const text = card(option);
    expect(text).not.toContain("KV pool per card");
    // 4 slots × 8,192 tokens: llama-server's -c is the context times --parallel.
    expect(text).toMatch(/KV cache per card \d+\.\d GiB for 32,768 tokens \(context × 4\.0 slots\)/);
    expect(text).toMatch(/Left on the fullest card \d+\.\d GiB/);
  });

  test("llama.cpp on the CPU: the cache in RAM and the RAM left, never '0.0 GiB · 0 tokens' or 'Sequences 0.0' beside fits", () => {
    const option = cpu.options.find((o) => o.engine === "llamacpp" && o.fits);
    if (!option) throw new Error("no llama.cpp CPU option that fits");
    const text = card(option);
    expect(text).toContain("fits");
    expect(text).not.toMatch(/0\.0 GiB · 0 tokens|Sequences at once 0\.0/);
    expect(text).toMatch(/KV cache in RAM [1-9]\d*\.\d GiB/);
    expect(text).toMatch(/RAM left [1-9]\d*\.\d GiB/);
    expect(text).not.toContain("1 ×  · CPU");
  });

  test("vLLM keeps its pool: the GiB and tokens its KV cache line reports, and the sequences it holds", () => {
    const option = qwen.options.find((o) => o.engine === "vllm");
    if (!option) throw new Error("no vLLM option");
    expect(card(option)).toMatch(/KV pool per card \d+\.\d GiB · [\d,]+ tokens Sequences at once \d/);
  });
});

describe("what the figures do not say, on the card", () => {
  test("DeepSeek-R1-GGUF on two DGX H100 nodes: the 1.67-bit quant's card says why it ranks after the 4-bit-or-better ones", () => {
    const p = planOn("unsloth/DeepSeek-R1-GGUF", "dgx-h100-x2", 1);
    const low = p.options.find((o) => o.artifact.includes("IQ1_S") && !o.placement.cpu);
    if (!low) throw new Error("no IQ1_S option on cards");
    expect(card(low)).toContain(
      "below 3 bits a weight (1.67): ranked after the 4-bit-or-better artifacts that fit this cluster",
    );
    // A card with nothing to add says nothing more.
    const q8 = p.options.find((o) => o.artifact.includes("Q8_0") && (o.notes ?? []).length === 0);
    if (!q8) throw new Error("no Q8_0 option without notes");
    expect(card(q8)).not.toContain("below 3 bits");
  });
});

describe("the workload as a requirement", () => {
  // Issue 13's case: 32 sequences of 8,192 tokens on the two DGX H100 nodes.
  const p = planOn("Qwen/Qwen2.5-Coder-32B-Instruct", "dgx-h100-x2", 32);
  const verdictOf = (option: PlanOption) => workloadVerdict(option, 32, p.options);

  test("one H100 starts but holds a few of the 32, and the card names the first layout of the plan that holds them, with its own figure", () => {
    const tp1 = p.options.find(
      (o) =>
        o.engine === "vllm" &&
        o.placement.tensorParallel === 1 &&
        o.placement.nodes === 1 &&
        o.placement.pipelineParallel === 1 &&
        (o.placement.dataParallel ?? 1) === 1,
    );
    if (!tp1) throw new Error("no vLLM TP1 option");
    expect(tp1.fits).toBe(true);
    expect(tp1.fitsWorkload).toBe(false);
    const holder = p.options.find((o) => o.engine === "vllm" && o.artifact === tp1.artifact && o.fitsWorkload === true);
    if (!holder) throw new Error("no vLLM layout holds 32 sequences");
    const text = card(tp1, verdictOf(tp1));
    expect(tp1.maxConcurrency).toBeLessThan(8);
    expect(text).toContain(
      `starts, but holds ${tp1.maxConcurrency.toFixed(1)} of your 32 sequences at once; ${placementLabel(holder.placement)} (TP ${holder.placement.tensorParallel}) holds ${Math.floor(holder.maxConcurrency)}`,
    );
    expect(holder.maxConcurrency).toBeGreaterThanOrEqual(32);
    // What to buy, under the short option: the engine's words.
    for (const c of tp1.whatToBuy ?? []) expect(text).toContain(c.change);
    expect(tp1.whatToBuy?.length ?? 0).toBeGreaterThan(0);
  });

  test("a layout that holds them says so, and every card shows its copies and the free ones", () => {
    const holder = p.options.find((o) => o.fitsWorkload === true);
    if (!holder) throw new Error("no layout holds 32 sequences");
    const text = card(holder, verdictOf(holder));
    expect(text).toContain("holds your 32 sequences at once");
    expect(text).toContain(
      `Copies the cluster holds ${holder.replicas ?? -1}, ${holder.replicasFreeNow ?? -1} on free cards now`,
    );
    expect(text).not.toContain("To make it fit");
  });
});

describe("the MTP weights (issue 15: Qwen3.5-122B-A10B-NVFP4 on one RTX PRO 6000, test/plan/mtpFixture.ts)", () => {
  test("are labelled beside the bar only when speculative decoding with MTP loads them", () => {
    const gib = (mtpWeightBytes(qwen35Shape) / 2 ** 30).toFixed(1);
    expect(card(qwen35VllmOption({ speculativeMtpTokens: 3 }))).toContain(`MTP weights ${gib}`);
    expect(card(qwen35VllmOption({}))).not.toContain("MTP weights");
  });
});
