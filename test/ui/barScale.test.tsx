/**
 * The stacked bars drawn as plain SVG (src/ui/CardBars.tsx) from their scale (src/ui/barScale.ts): each
 * part where the card's figures put it, the card's physical memory marked, the axis in whole GiB.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { cardLoad } from "../../src/plan/index.ts";
import { axisTicksGib, barSegments } from "../../src/ui/barScale.ts";
import { CardBars } from "../../src/ui/CardBars.tsx";
import { barDomainGib, cardBarRow } from "../../src/ui/rows.ts";

const GIB = 2 ** 30;
/** An H100 as nvidia-smi reports it: 81,559 MiB (test/fixtures/inventory's nvidia-smi H100 SXM reading). */
const H100_BYTES = 81559 * 2 ** 20;

/** The example plan's vLLM card (Qwen2.5-Coder-32B in bf16 on one H100): 61.0 GiB weights, 2.0 KV, 2.3 engine. */
const fits = cardBarRow(
  cardLoad({
    gpuClass: "h100-80g",
    cards: 1,
    role: "",
    weightsBytes: 61.0 * GIB,
    kvBytes: 2.0 * GIB,
    engineBytes: 2.3 * GIB,
    usableBytes: 0.9 * H100_BYTES,
    physicalBytes: H100_BYTES,
  }),
);
/** A pipeline stage past its usable share: 75 + 10 + 3 GiB on a card of 79.6. */
const over = cardBarRow(
  cardLoad({
    gpuClass: "h100-80g",
    cards: 1,
    role: "stage 2",
    weightsBytes: 75 * GIB,
    kvBytes: 10 * GIB,
    engineBytes: 3 * GIB,
    usableBytes: 0.9 * H100_BYTES,
    physicalBytes: H100_BYTES,
  }),
);

describe("a bar's parts", () => {
  test("lie end to end from 0, the free rest last, and end at the usable share of the physical card", () => {
    const domain = barDomainGib([fits]);
    const parts = barSegments(fits, domain);
    expect(parts.map((p) => p.key)).toEqual(["weightsGib", "kvGib", "engineGib", "freeGib"]);
    expect(parts[0]?.from).toBe(0);
    for (let i = 1; i < parts.length; i++) expect(parts[i]?.from).toBeCloseTo(parts[i - 1]?.to ?? NaN, 12);
    // Weights, KV, engine and the free rest fill the usable share: 90% of the card.
    expect(parts.at(-1)?.to).toBeCloseTo(0.9, 9);
  });

  test("a card over its share has no free rest; what is over is marked from the usable share to the bar's end", () => {
    const domain = barDomainGib([over]);
    const parts = barSegments(over, domain);
    expect(parts.map((p) => p.key)).toEqual(["weightsGib", "kvGib", "engineGib", "overGib"]);
    // 75 + 10 + 3 = 88 GiB: the bar is the axis's full length, and so is the over band's end.
    expect(parts[2]?.to).toBeCloseTo(1, 9);
    expect(parts[3]?.to).toBeCloseTo(1, 9);
    // It starts at the usable share: 90% of 79.6 GiB.
    expect((parts[3]?.from ?? NaN) * domain).toBeCloseTo(0.9 * (H100_BYTES / GIB), 9);
  });

  test("an empty axis draws nothing rather than dividing by zero", () => {
    expect(barSegments(fits, 0)).toEqual([]);
    expect(axisTicksGib(0)).toEqual([0]);
  });
});

describe("the axis", () => {
  test.each([
    // An 80 GB card: 0, 20, 40, 60 GiB (the step of 1, 2 or 5 times a power of ten nearest above 79.6 / 4).
    [79.647, [0, 20, 40, 60]],
    [88, [0, 50]],
    [192, [0, 50, 100, 150]],
    // A small card never gets fractional GiB ticks.
    [2.5, [0, 1, 2]],
  ])("an axis to %s GiB is ticked at %j", (domain, ticks) => {
    expect(axisTicksGib(domain)).toEqual(ticks);
  });
});

describe("the drawn bars", () => {
  test("one rectangle per part of each row, one mark per physical size, one label per tick", () => {
    const html = renderToStaticMarkup(<CardBars rows={[fits, over]} />);
    expect(html.match(/<rect /g)?.length).toBe(8);
    expect(html.match(/class="part-over"/g)?.length).toBe(1);
    // Both cards are H100s: one physical mark.
    expect(html.match(/class="physical-mark"/g)?.length).toBe(1);
    expect(html).toContain(">50 GiB<");
    // The second row's parts start one row (26 px) below the first's.
    expect(html).toContain('y="5"');
    expect(html).toContain('y="31"');
  });
});
