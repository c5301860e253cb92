/**
 * The Accuracy view's speed tab: every public benchmark figure the speed model
 * was fitted on or checked against (src/plan/speed/README.md), predicted beside
 * measured, with its source and the half it belongs to.
 */
import { type Engine, estimateSpeed, type SpeedInput } from "../plan/index.ts";
import bundle from "./speedCases.json" with { type: "json" };

/** One bundled case: scripts/build-speed-cases.ts writes them from the fixtures. */
export interface SpeedCaseRecord {
  id: string;
  group: string;
  engine: Engine;
  cardLabel: string;
  tier: "primary" | "secondary";
  half: "fitted" | "checking";
  source: string;
  measured: number;
  unit: string;
  input: SpeedInput;
  pick: "decodeTps" | "prefillTps" | "tpotMs" | "throughputPerGpu" | "ttftMs";
  gpusPerReplica: number;
}

export interface SpeedAccuracyRow {
  id: string;
  group: string;
  engine: Engine;
  card: string;
  half: "fitted" | "checking";
  tier: "primary" | "secondary";
  source: string;
  unit: string;
  measured: number;
  /** null where the model gives no figure (its basis says why). */
  predicted: number | null;
  errorPct: number | null;
}

export function speedCaseRecords(): SpeedCaseRecord[] {
  return (bundle as unknown as { cases: SpeedCaseRecord[] }).cases;
}

/** Predicted beside measured for every bundled speed case. */
export function speedAccuracyRows(cases: readonly SpeedCaseRecord[] = speedCaseRecords()): SpeedAccuracyRow[] {
  return cases.map((c) => {
    const e = estimateSpeed(c.input);
    const predicted =
      c.pick === "throughputPerGpu"
        ? e.throughputTps === null
          ? null
          : e.throughputTps / c.gpusPerReplica
        : e[c.pick];
    return {
      id: c.id,
      group: c.group,
      engine: c.engine,
      card: c.cardLabel,
      half: c.half,
      tier: c.tier,
      source: c.source,
      unit: c.unit,
      measured: c.measured,
      predicted,
      errorPct: predicted === null ? null : ((predicted - c.measured) / c.measured) * 100,
    };
  });
}

/** Median absolute error (percent) of rows, and how many. */
export function medianAbsErrorPct(rows: readonly SpeedAccuracyRow[]): { n: number; medianPct: number | null } {
  const errors = rows
    .map((r) => r.errorPct)
    .filter((e): e is number => e !== null)
    .map(Math.abs)
    .sort((a, b) => a - b);
  if (errors.length === 0) return { n: 0, medianPct: null };
  const mid = (errors.length - 1) / 2;
  return { n: errors.length, medianPct: ((errors[Math.floor(mid)] ?? 0) + (errors[Math.ceil(mid)] ?? 0)) / 2 };
}

/** One speed figure's median error over the fitted half and over the checking half. */
export interface SpeedGroupSummary {
  engine: Engine;
  /** The figure in words a reader knows: "decode", "long-context prefill", "TPOT". */
  figure: string;
  fitted: { n: number; medianPct: number | null };
  checking: { n: number; medianPct: number | null };
}

/** The speed tab as plain rows: made in the calibration worker (estimateSpeed is the engine's), drawn by the page. */
export interface SpeedTables {
  rows: SpeedAccuracyRow[];
  groups: SpeedGroupSummary[];
  /** The public set's rows no figure is predicted for, counted by reason (TRT-LLM is reference only, as issue 12 asks). */
  leftOut: { reason: string; rows: number }[];
  /** Those rows in all. */
  leftOutRows: number;
}

/** The bundle's left-out rows by reason (scripts/build-speed-cases.ts). */
export function speedLeftOut(): { reason: string; rows: number }[] {
  return (bundle as unknown as { leftOut?: { reason: string; rows: number }[] }).leftOut ?? [];
}

/** Every bundled speed case predicted beside measured, and the halves' medians of each primary figure. */
export function speedAccuracyTables(rows: SpeedAccuracyRow[] = speedAccuracyRows()): SpeedTables {
  const primary = rows.filter((r) => r.tier === "primary");
  const byGroup = new Map<string, SpeedAccuracyRow[]>();
  for (const r of primary) {
    const key = `${r.engine} ${r.group}`;
    const list = byGroup.get(key);
    if (list) list.push(r);
    else byGroup.set(key, [r]);
  }
  const groups = [...byGroup.values()].flatMap((of): SpeedGroupSummary[] => {
    const first = of[0];
    if (!first) return [];
    const figure = figureWords(first.group);
    return [
      {
        engine: first.engine,
        figure,
        fitted: medianAbsErrorPct(of.filter((r) => r.half === "fitted")),
        checking: medianAbsErrorPct(of.filter((r) => r.half === "checking")),
      },
    ];
  });
  const leftOut = speedLeftOut();
  return { rows, groups, leftOut, leftOutRows: leftOut.reduce((sum, l) => sum + l.rows, 0) };
}

/** A case group as a reader says it: its engine named beside it, not in it ("llamacpp-long-decode" → "long-context decode"). */
function figureWords(group: string): string {
  const bare = group.replace(/^(llamacpp|serving)-/, "");
  const words: Record<string, string> = {
    "long-decode": "long-context decode",
    "long-prefill": "long-context prefill",
    "split-decode": "decode over several cards",
    "split-prefill": "prefill over several cards",
    tpot: "TPOT",
    "cross-node-tpot": "TPOT with TP across nodes",
    ttft: "TTFT",
    throughput: "throughput per GPU",
  };
  return words[bare] ?? bare;
}
