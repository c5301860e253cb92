/**
 * The committed fitted terms (src/plan/speed/fitted.json) are what the fit
 * writes from the rows and the card figures as they are now, starting from the
 * fixed priors (issue 12: "Write down the fitted terms with their data").
 * A change to a card's bandwidth or a benchmark row that moves a fitted term
 * fails here until `npx tsx scripts/speed-accuracy.ts --fit --write` is rerun.
 * The two SGLang entries are refitted here (≈3 s); the whole file, ≈15 s, by
 * `npx tsx scripts/speed-accuracy.ts --fit --check`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { FittedKey } from "../../src/plan/index.ts";
import { speedCases } from "./speedCases.ts";
import { fitTerms, fittedFileText, MAX_FIT_PASSES } from "./speedFit.ts";

const FILE = join(import.meta.dirname, "..", "..", "src", "plan", "speed", "fitted.json");
const committed = JSON.parse(readFileSync(FILE, "utf8")) as { terms: Record<FittedKey, Record<string, unknown>> };
const { cases } = speedCases();

describe("the fit reproduces src/plan/speed/fitted.json", () => {
  const refit: FittedKey[] = ["sglang/hbm", "sglang/hbm/amd"];
  test.each(refit)(
    "%s: refitted from SPEED_PRIORS, the same terms and rows as committed",
    (key) => {
      const [f] = fitTerms(cases, [key]);
      if (f === undefined) throw new Error(`no fitted-half rows for ${key}`);
      expect(f.passes).toBeLessThan(MAX_FIT_PASSES);
      const written = JSON.parse(fittedFileText([f])) as { terms: Record<string, unknown> };
      expect(written.terms[key], "rerun npx tsx scripts/speed-accuracy.ts --fit --write").toEqual(committed.terms[key]);
    },
    60_000,
  );
});
