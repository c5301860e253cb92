/**
 * A card the table lacks gets a speed from the figures its user gives (issue 12: "a card with no bandwidth known …
 * its speed is null with a reason"; the reason now says where to give it). The world check: a custom class given
 * an RTX 4090's datasheet figures (1,008 GB/s, NVIDIA's RTX 4090 page; GDDR6X) decodes Llama-2-7B Q4_0 within 15%
 * of llama.cpp's own CUDA scoreboard, tg128 188.96 t/s (discussion #15013, row lcpp-15013-rtx-4090-faon of
 * test/fixtures/speed/measured.jsonl), the tolerance test/plan/speedInput.test.ts holds the catalog's card to.
 */
import { describe, expect, test } from "vitest";
import {
  DEFAULT_WORKLOAD,
  plan,
  type Cluster,
  type DeviceGroup,
  type PlanOption,
  type Workload,
} from "../../src/plan/index.ts";
import { llama2Q4, llama2Shape } from "./llama2q4.ts";

/** tg128 as llama-bench runs it: one sequence, no prompt to speak of, 128 tokens out. */
const TG128 = { ...DEFAULT_WORKLOAD, inputTokens: 1, outputTokens: 128 };
const SCOREBOARD_TG128_TPS = 188.96;

/** RTX 4090 reports 24,564 MiB (nvidia-smi), the catalog's rtx4090-24g. */
const MIB_4090_GIB = 24564 / 1024;

/** Desks of one card each: a custom "lab-card" of the 4090's memory, unless a group names a class of the table's. */
function deskWith(...groups: Partial<DeviceGroup>[]): Cluster {
  return {
    nodes: groups.map((g, i) => ({
      id: `desk-${i}`,
      fabric: "",
      hostMemGib: 64,
      hostFreeGib: 48,
      devices: [{ class: "lab-card", count: 1, free: 1, ...(g.class ? {} : { memGib: MIB_4090_GIB }), ...g }],
    })),
  };
}

function gpuOption(cluster: Cluster, workload: Workload = TG128): PlanOption {
  const p = plan(
    { repo: "meta-llama/Llama-2-7b-hf", revision: "", shape: llama2Shape, artifacts: [llama2Q4] },
    cluster,
    workload,
  );
  const o = p.options.find((x) => x.engine === "llamacpp" && !x.placement.cpu);
  if (o?.speed === undefined) throw new Error(`no llama.cpp option on the card: ${JSON.stringify(p.refused)}`);
  return o;
}

describe("a custom card's own figures", () => {
  test("an RTX 4090's datasheet figures on a custom class decode within 15% of the scoreboard's 188.96 t/s", () => {
    const o = gpuOption(deskWith({ memGBps: 1008, bf16Tflops: 165.2, memKind: "gddr" }));
    const decode = o.speed?.decodeTps ?? null;
    expect(decode).not.toBeNull();
    expect(Math.abs((decode as number) / SCOREBOARD_TG128_TPS - 1)).toBeLessThanOrEqual(0.15);
    expect(o.speed?.basis).toContain("lab-card (gddr, 1008 GB/s, figures as the cluster gives them)");
  });

  test("the same figures as the table's card give the table's card's speeds", () => {
    const custom = gpuOption(deskWith({ memGBps: 1008, memKind: "gddr" }), DEFAULT_WORKLOAD).speed;
    const table = gpuOption(deskWith({ class: "rtx4090-24g" }), DEFAULT_WORKLOAD).speed;
    expect(custom?.decodeTps).toBe(table?.decodeTps);
    expect(custom?.tpotMs).toBe(table?.tpotMs);
  });

  test("no figures: every speed null, and the reason says where to give the card's GB/s", () => {
    const s = gpuOption(deskWith({})).speed;
    expect([s?.decodeTps, s?.prefillTps, s?.ttftMs, s?.tpotMs, s?.throughputTps]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(s?.basis).toMatch(
      /lab-card has no memory bandwidth known .*give the card's GB\/s \(mem_gbps in the cluster file/,
    );
  });

  test("bandwidth alone: decode estimated, prefill and the first token null with where to give the TFLOPS", () => {
    const s = gpuOption(deskWith({ memGBps: 1008 })).speed;
    expect(s?.decodeTps).not.toBeNull();
    expect([s?.prefillTps, s?.ttftMs]).toEqual([null, null]);
    expect(s?.basis).toContain("give its BF16 TFLOPS (bf16_tflops in the cluster file");
  });

  test("no memory kind given: GDDR is assumed and said; HBM given reads at the HBM terms, without the note", () => {
    const assumed = gpuOption(deskWith({ memGBps: 1008 })).speed;
    const hbm = gpuOption(deskWith({ memGBps: 1008, memKind: "hbm" })).speed;
    expect(assumed?.basis).toContain("its memory taken as GDDR (no mem_kind given)");
    expect(hbm?.basis).toContain("lab-card (hbm, 1008 GB/s, figures as the cluster gives them)");
    expect(hbm?.basis).not.toContain("taken as GDDR");
    // llama.cpp's fitted HBM terms read a smaller share of the bandwidth than its GDDR ones (speed/fitted.json).
    expect(hbm?.decodeTps as number).toBeLessThan(assumed?.decodeTps as number);
  });

  test("given BF16 alone prices a quantized prompt at it, and says so (its INT8 units are not guessed)", () => {
    const s = gpuOption(deskWith({ memGBps: 1008, bf16Tflops: 165.2 }), DEFAULT_WORKLOAD).speed;
    expect(s?.prefillTps).not.toBeNull();
    expect(s?.basis).toContain("prompt's int8 matmuls priced at the given BF16 TFLOPS");
  });

  test("two groups of one class that differ: the slower figure holds (an option may land on either)", () => {
    const mixed = gpuOption(deskWith({ memGBps: 1008 }, { memGBps: 504 })).speed;
    const slow = gpuOption(deskWith({ memGBps: 504 }, { memGBps: 504 })).speed;
    expect(mixed?.decodeTps).toBe(slow?.decodeTps);
  });

  test("a table card given its own bandwidth runs at it: a down-clocked card is its user's to know", () => {
    const capped = gpuOption(deskWith({ class: "rtx4090-24g", memGBps: 504 })).speed;
    const table = gpuOption(deskWith({ class: "rtx4090-24g" })).speed;
    expect(capped?.basis).toContain("rtx4090-24g (gddr, 504 GB/s, figures as the cluster gives them)");
    expect(capped?.decodeTps as number).toBeLessThan((table?.decodeTps as number) * 0.6);
  });
});
