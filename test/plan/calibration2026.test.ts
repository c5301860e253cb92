/**
 * The 2026 startups of issue 15 (test/fixtures/calibration/newer.jsonl, the shared set, and
 * newer-found.jsonl, found in public threads; each record names its source URL) as calibration cases:
 * each planned for its own release, cards, utilization and scheduler limits through predictCase.
 * Tolerances: the KV pool per card within 5% (mean ≤ 2%), weights within 2% (mean ≤ 1%); a run that failed
 * must not be called fit, one that ran must not be refused. A case Modelplan cannot plan (no config in
 * test/fixtures/configs, a card outside the catalog, no weights figure) is listed by name with its reason.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  accuracyRows2026,
  errorSummary,
  predictCase,
  type CalibrationModel,
  type CalibrationRecord,
} from "../../src/calibration/accuracy.ts";
import { releaseGroup } from "../../src/calibration/accuracy2026.ts";

const dir = new URL("../fixtures/", import.meta.url);
const jsonl = (name: string): CalibrationRecord[] =>
  readFileSync(new URL(`calibration/${name}`, dir), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CalibrationRecord);
const records = [...jsonl("newer.jsonl"), ...jsonl("newer-found.jsonl")];
const bundled = JSON.parse(readFileSync(new URL("../../src/calibration/newer.json", import.meta.url), "utf8")) as {
  cases: CalibrationRecord[];
  models: Record<string, CalibrationModel & { config: Record<string, unknown> }>;
};

describe("the bundled 2026 cases", () => {
  test("are the fixtures' records and configs, so the Accuracy view shows what these tests hold", () => {
    expect(bundled.cases.map((c) => c.id)).toEqual(records.map((r) => r.id));
    expect(bundled.cases.map((c) => c.measured)).toEqual(records.map((r) => r.measured));
    expect(bundled.cases.map((c) => c.engine_version)).toEqual(records.map((r) => r.engine_version));
    for (const [repo, m] of Object.entries(bundled.models)) {
      if (repo === "meta-llama/Llama-3.1-8B-Instruct") continue; // models.json's entry, held by calibration.test.ts
      const file = JSON.parse(
        readFileSync(new URL(`configs/${repo.replace("/", "__")}.config.json`, dir), "utf8"),
      ) as Record<string, unknown>;
      const { _source: source, ...config } = file;
      expect(m.config, repo).toEqual(config);
      expect(m.source, repo).toBe(source);
    }
    expect(accuracyRows2026()).toHaveLength(records.length);
  });
});

const rows = records.map((r) => predictCase(r, bundled.models));

const verdicts = rows.filter((r) => r.predictedFits !== null).map((r) => [r.id, r.ran, r.predictedFits] as const);
test.each(verdicts)("%s (ran: %s): the plan's verdict is the run's", (_id, ran, fits) => {
  expect(fits).toBe(ran);
});

const figures = rows.flatMap((r) => r.metrics.map((m) => [r.id, m.name, m] as const));
test.each(figures)("%s: %s within its tolerance", (_id, _name, m) => {
  expect(Math.abs(m.errorPct), `predicted ${m.predicted} against ${m.measured} ${m.unit}`).toBeLessThanOrEqual(
    m.tolerancePct,
  );
});

describe("issue 15 targets on the 2026 logs", () => {
  test("KV pool per card: mean absolute error ≤ 2%, none past 5%, over every pool compared", () => {
    const s = errorSummary(rows, "KV pool per card");
    expect(s.cases).toBeGreaterThanOrEqual(7);
    expect(s.meanAbsPct).toBeLessThanOrEqual(2);
    expect(s.maxAbsPct).toBeLessThanOrEqual(5);
  });
  test("weights per card: mean absolute error ≤ 1%", () => {
    const s = errorSummary(rows, "weights per card");
    expect(s.cases).toBeGreaterThanOrEqual(4);
    expect(s.meanAbsPct).toBeLessThanOrEqual(1);
  });
  test("the cases not planned are these, each for a stated reason", () => {
    expect(
      rows.filter((r) => r.metrics.length === 0 && r.predictedFits === null).map((r) => `${r.id}: ${r.note}`),
    ).toMatchSnapshot();
  });
  test("the Accuracy view files each case under its release", () => {
    expect([...new Set(rows.map(releaseGroup))].sort()).toEqual([
      "SGLang 2026",
      "llama.cpp 2026",
      "vLLM 0.21",
      "vLLM 0.22",
      "vLLM 0.23",
      "vLLM 0.24",
      "vLLM 0.26",
      "vLLM 0.27",
      "vLLM 0.28",
      "vLLM 0.29",
    ]);
  });
});
