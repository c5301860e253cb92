/**
 * The "Accuracy" view's figures: every calibration case's
 * predicted-against-measured rows (accuracy.ts) gathered into what a user
 * reads first — each figure's mean and worst error against its tolerance, and
 * the verdicts that matter most: no false fits, no false refusals.
 */
import { accuracyRows, accuracyRows2026, errorSummary, type AccuracyMetric, type AccuracyRow } from "./accuracy.ts";
import { releaseGroup } from "./accuracy2026.ts";
import { withinTolerance } from "./tolerance.ts";

export interface FigureSummary {
  /** The compared figure, as accuracy.ts names it ("weights per card"). */
  name: string;
  unit: AccuracyMetric["unit"];
  cases: number;
  meanAbsPct: number;
  maxAbsPct: number;
  /** The tolerance the figure is held to (the loosest any case states). */
  tolerancePct: number;
  /** Cases off by more than their own tolerance. */
  outside: number;
}

export interface AccuracyOverview {
  cases: number;
  figures: FigureSummary[];
  /** Cases that failed to start yet are predicted to fit: the error that costs an OOM. */
  falseFits: string[];
  /** Cases that ran yet are predicted not to fit. */
  falseRefusals: string[];
}

/** The overview of a set of cases, figures in the order they first appear. */
export function accuracyOverview(rows: readonly AccuracyRow[]): AccuracyOverview {
  const first = new Map<string, AccuracyMetric["unit"]>();
  for (const r of rows) for (const m of r.metrics) if (!first.has(m.name)) first.set(m.name, m.unit);
  const figures = [...first].map(([name, unit]): FigureSummary => {
    const metrics = rows.flatMap((r) => r.metrics.filter((m) => m.name === name));
    return {
      name,
      unit,
      ...errorSummary(rows, name),
      tolerancePct: Math.max(...metrics.map((m) => m.tolerancePct)),
      outside: metrics.filter((m) => !withinTolerance(m)).length,
    };
  });
  return {
    cases: rows.length,
    figures,
    falseFits: rows.filter((r) => !r.ran && r.predictedFits === true).map((r) => r.id),
    falseRefusals: rows.filter((r) => r.ran && r.predictedFits === false).map((r) => r.id),
  };
}

/** The cases of one release ("vLLM 0.27", "SGLang 2026") and their overview. */
export interface ReleaseGroup {
  release: string;
  rows: AccuracyRow[];
  overview: AccuracyOverview;
}

/** The 2026 cases by the release they ran ("vLLM 0.27", "SGLang 2026"), newest vLLM first, each with its overview. */
export function accuracyByRelease(rows: readonly AccuracyRow[]): ReleaseGroup[] {
  const groups = new Map<string, AccuracyRow[]>();
  for (const r of rows) groups.set(releaseGroup(r), [...(groups.get(releaseGroup(r)) ?? []), r]);
  return [...groups]
    .sort(([a], [b]) => b.localeCompare(a, "en", { numeric: true }))
    .map(([release, group]) => ({ release, rows: group, overview: accuracyOverview(group) }));
}

/**
 * Everything the Accuracy view draws, as plain rows: made in the calibration worker (each case is planned
 * through the engine, which the page's thread does not fetch, issue 19) and drawn by src/ui/Accuracy.tsx.
 */
export interface AccuracyTables {
  /** The startups of 0.19 and older releases, and their overview. */
  cases: AccuracyRow[];
  overview: AccuracyOverview;
  /** The 2026 startups (issue 15), by release. */
  releases: ReleaseGroup[];
}

/** The view's tables over the bundled cases, or over the ones given (the tests'). */
export function accuracyTables(
  cases: AccuracyRow[] = accuracyRows(),
  newer: readonly AccuracyRow[] = accuracyRows2026(),
): AccuracyTables {
  return { cases, overview: accuracyOverview(cases), releases: accuracyByRelease(newer) };
}
