/**
 * The speed figures per card (src/plan/cardSpecs.ts) cover what the planner
 * and the benchmarks name, and say where each came from.
 */
import { describe, expect, test } from "vitest";
import { CARDS } from "../../src/plan/index.ts";
import {
  BENCHMARK_GPU_KEYS,
  CARD_SPECS,
  HOST_MEMORY,
  cardSpecOf,
  cardSpecsWithChecks,
  speedCardOf,
} from "../../src/plan/index.ts";
import { measuredRows } from "./speedCases.ts";

// Each card's figures with what was read for them (src/plan/cardSpecChecks.ts).
const SPECS = cardSpecsWithChecks();

describe("card speed specs", () => {
  test.each(CARDS.map((c) => c.class))("catalog card %s has a speed spec under its own label", (label) => {
    const spec = cardSpecOf(label);
    expect(spec?.memBandwidthGBps ?? 0).toBeGreaterThan(0);
  });

  test.each([...new Set(measuredRows().map((r) => r.gpu_key))])("benchmark card %s maps to a spec", (key) => {
    const label = BENCHMARK_GPU_KEYS[key];
    expect(label, `${key} has no label in BENCHMARK_GPU_KEYS`).toBeDefined();
    expect(cardSpecOf(label ?? "")).toBeDefined();
  });

  test("labels are unique and every spec names a vendor URL and says whether it was checked", () => {
    const labels = CARD_SPECS.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const c of SPECS) {
      expect(c.source, c.label).toMatch(/^https:\/\//);
      expect(c.checkQuote.length, c.label).toBeGreaterThan(20);
    }
  });

  test("a checked figure quotes the document it was read on", () => {
    for (const c of SPECS.filter((x) => x.checked)) expect(c.checkQuote, c.label).toMatch(/https:\/\/.*"/);
  });

  // Issue 12: "checked" means read on the vendor's own page; a distributor's reprint or a mirror of a datasheet is not.
  const VENDOR_HOSTS = /^https:\/\/([a-z0-9-]+\.)*(nvidia\.com|amd\.com|apple\.com|intel\.com)\//;
  const checked = SPECS.filter((c) => c.checked);

  test("at least one card is checked, and every checked one names a vendor-hosted page and the day it was read", () => {
    expect(checked.map((c) => c.label)).toContain("mi300x-192g");
    for (const c of checked) {
      expect(c.source, c.label).toMatch(VENDOR_HOSTS);
      expect(c.checkQuote, c.label).toContain(c.source);
      expect(c.checkedOn, c.label).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const c of SPECS.filter((x) => !x.checked)) expect(c.checkedOn, c.label).toBeNull();
  });

  test("a checked card's figures are the ones its quote shows (bandwidth in GB/s or TB/s, dense TFLOPS)", () => {
    for (const c of checked) {
      const bw = c.memBandwidthGBps;
      if (bw !== null)
        expect(c.checkQuote.includes(String(bw)) || c.checkQuote.includes(`${bw / 1000} TB`), c.label).toBe(true);
      for (const f of ["bf16", "fp8", "fp4", "int8"] as const) {
        const v = c.tflops[f];
        // AMD's MI350 page prints two figures ("2.5 PF" for 2516.6 TFLOPS): the exact value, or that rounding.
        if (v !== null)
          expect(
            c.checkQuote.includes(String(v)) || c.checkQuote.includes(`${(v / 1000).toPrecision(2)} P`),
            `${c.label} ${f} ${v}`,
          ).toBe(true);
      }
    }
  });

  test("vendors print 2:4-sparse TFLOPS; the table keeps dense ones: H100 SXM BF16 989.4, not 1,979", () => {
    expect(cardSpecOf("h100-80g")?.tflops.bf16).toBe(989.4);
  });

  test("NVLink figures are one direction: NVLink 4's 900 GB/s both ways is 450", () => {
    expect(cardSpecOf("h100-80g")?.link.gbpsPerDirection).toBe(450);
    expect(cardSpecOf("b200-180g")?.link.gbpsPerDirection).toBe(900);
  });

  test("a class the table lacks gives a card with no bandwidth (its speed is null, never guessed)", () => {
    expect(speedCardOf("my-own-card").memBandwidthGBps).toBeNull();
  });

  test("host memory: a DDR5-4800 channel moves 38.4 GB/s; the default is 2 × DDR4-3200 = 51.2 GB/s", () => {
    expect(HOST_MEMORY.channelGBps["ddr5-4800"]).toBeCloseTo(38.4, 6);
    expect(HOST_MEMORY.defaultGBps).toBeCloseTo(51.2, 6);
  });
});
