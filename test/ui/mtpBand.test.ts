/**
 * The MTP band (issue 15): Qwen3.5-122B-A10B-NVFP4 on one RTX PRO 6000 for vLLM (test/plan/mtpFixture.ts).
 * The bar draws the MTP block (4.70 GiB of bf16) as its own band only when speculative decoding loads it.
 */
import { describe, expect, test } from "vitest";
import { GIB, mtpWeightBytes } from "../../src/plan/index.ts";
import { barDomainGib, cardBarRow } from "../../src/ui/rows.ts";
import { qwen35Shape, qwen35VllmOption } from "../plan/mtpFixture.ts";

describe("the MTP band of the bar", () => {
  test("with MTP on, the block is its own band, taken out of the weights band, and the bar's end holds it", () => {
    const card = qwen35VllmOption({ speculativeMtpTokens: 3 }).cards[0];
    if (!card) throw new Error("no card");
    const row = cardBarRow(card);
    expect(row.mtpGib).toBeCloseTo(mtpWeightBytes(qwen35Shape) / GIB, 2);
    expect(row.weightsGib + row.mtpGib).toBeCloseTo(card.weightsBytes / GIB, 6);
    expect(Math.abs(row.weightsGib - 73.22)).toBeLessThan(0.5);
    expect(barDomainGib([row])).toBeGreaterThanOrEqual(row.weightsGib + row.mtpGib + row.kvGib + row.engineGib);
  });

  test("with MTP off, no band: the checkpoint's block is not loaded", () => {
    const card = qwen35VllmOption({}).cards[0];
    if (!card) throw new Error("no card");
    expect(cardBarRow(card).mtpGib).toBe(0);
  });
});
