/**
 * Issue 20's target for the importer, in `npm test` and bounded in time:
 * damaged samples and hostile shapes (deep nesting, reused anchors,
 * recursive aliases, 200,000-item lists) give no internal message and none
 * takes over 1 s. scripts/fuzz-inventories.ts runs the full 10,000 cases.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { allSamples, hostile, INTERNAL_WORDS } from "../../scripts/lib/mutate.ts";
import { sample } from "./inventory.ts";

const RUNS = 600;
/** The whole property stops after this, whatever it reached: the suite stays bounded on a busy machine. */
const BUDGET_MS = 40_000;
const MAX_CASE_MS = 1000;

describe("the importer under fuzzing", () => {
  test(`${RUNS} hostile inventories: no internal message, none over ${MAX_CASE_MS} ms`, { timeout: BUDGET_MS + 20_000 }, () => {
    let slowest = { ms: 0, chars: 0 };
    let cases = 0;
    fc.assert(
      fc.property(hostile(allSamples()), (text) => {
        const started = performance.now();
        const result = importCluster(text);
        const ms = performance.now() - started;
        cases++;
        if (ms > slowest.ms) slowest = { ms, chars: text.length };
        for (const m of [...result.errors, ...result.warnings]) expect(m.message).not.toMatch(INTERNAL_WORDS);
        expect(result.cluster === null).toBe(result.errors.length > 0);
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: BUDGET_MS },
    );
    expect(cases).toBeGreaterThan(RUNS / 4);
    expect(slowest.ms, `slowest: ${slowest.chars} characters`).toBeLessThan(MAX_CASE_MS);
  });
});

test("an nvidia-smi table padded with 14,000 lines of spaces reads at once (it took 75 s)", () => {
  // Found by the fuzz run: multiline patterns starting ^\s* rescanned every run of blank lines from each of its lines.
  const text = `${sample("nvidia-smi-h100-nvl-94g-1.txt")}${`${" ".repeat(89)}\n`.repeat(14_000)}`;
  const started = performance.now();
  const result = importCluster(text);
  expect(performance.now() - started).toBeLessThan(250);
  expect(result.cluster?.nodes[0]?.devices).toEqual(importCluster(sample("nvidia-smi-h100-nvl-94g-1.txt")).cluster?.nodes[0]?.devices);
});
