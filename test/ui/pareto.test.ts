/**
 * The trade-off chart's points on a real plan (the bundled catalog's Qwen2.5-Coder-32B on the two DGX
 * H100 nodes, 32 sequences): one point per fitting GPU layout, and the front is exactly the layouts no
 * other one beats on both cards and throughput.
 */
import { describe, expect, test } from "vitest";
import { defaultChoices } from "../../src/app/defaults.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import { plan, readModel } from "../../src/plan/index.ts";
import { paretoPoints } from "../../src/ui/pareto.ts";

describe("Pareto front of throughput against cards", () => {
  const snap = catalogSnapshot("Qwen/Qwen2.5-Coder-32B-Instruct");
  const preset = PRESETS.find((p) => p.id === "dgx-h100-x2");
  if (!snap || !preset) throw new Error("catalog or preset missing");
  const p = plan({ repo: snap.repo, revision: snap.sha, ...readModel(snap) }, preset.cluster, {
    ...defaultChoices().workload,
    sequences: 32,
  });
  const points = paretoPoints(p.options, "original");

  test("one point per layout that fits on cards, with the engine's throughput", () => {
    expect(points).toHaveLength(
      p.options.filter((o) => o.fits && !o.placement.cpu && o.speed?.throughputTps != null).length,
    );
    expect(points.length).toBeGreaterThan(2);
    const byId = new Map(p.options.map((o) => [o.id, o]));
    for (const pt of points) expect(pt.throughputTps).toBe(byId.get(pt.id)?.speed?.throughputTps);
  });

  test("the front holds the highest throughput and the fewest cards' best, and every other point is beaten by one on it", () => {
    const front = points.filter((pt) => pt.front);
    const top = Math.max(...points.map((pt) => pt.throughputTps));
    expect(front.some((pt) => pt.throughputTps === top)).toBe(true);
    const fewest = Math.min(...points.map((pt) => pt.cards));
    const bestOfFewest = Math.max(...points.filter((pt) => pt.cards === fewest).map((pt) => pt.throughputTps));
    expect(front.some((pt) => pt.cards === fewest && pt.throughputTps === bestOfFewest)).toBe(true);
    for (const pt of points.filter((x) => !x.front)) {
      expect(front.some((f) => f.cards <= pt.cards && f.throughputTps >= pt.throughputTps)).toBe(true);
    }
    // Along the front, more cards buy more throughput; two layouts of as many cards and the same figure (vLLM's and
    // SGLang's on a dense model, which SGLang prices at vLLM's dense terms) are both on it.
    const sorted = [...front].sort((a, b) => a.cards - b.cards);
    sorted.slice(1).forEach((f, i) => {
      const before = sorted[i];
      if (before?.cards === f.cards) expect(f.throughputTps).toBe(before.throughputTps);
      else expect(f.throughputTps).toBeGreaterThan(before?.throughputTps ?? Infinity);
    });
  });
});
