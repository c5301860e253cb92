/**
 * Prints Modelplan's predictions beside what engines printed at startup,
 * for every case in test/fixtures/calibration/measured.jsonl (bundled in
 * src/calibration/calibration.json), and the means on the vLLM 0.19 cases:
 * and then the 2026 startups (issue 15: newer.jsonl and newer-found.jsonl, bundled in
 * src/calibration/newer.json) by release:
 *   npx tsx scripts/accuracy.ts
 */
import { accuracyRows, accuracyRows2026, errorSummary, headlineAccuracyRows } from "../src/calibration/accuracy.ts";
import { accuracyByRelease } from "../src/calibration/accuracyView.ts";

function pad(s: string, n: number): string {
  return s.length >= n ? s.slice(0, n) : s + " ".repeat(n - s.length);
}

function fmt(x: number): string {
  return Math.abs(x) >= 1000 ? x.toFixed(0) : x.toFixed(2);
}

const rows = accuracyRows();
for (const r of rows) {
  const verdict =
    r.predictedFits === null
      ? "-"
      : r.predictedFits === r.ran
        ? r.ran
          ? "fits=ran"
          : "refused=failed"
        : r.ran
          ? "FALSE REFUSAL"
          : "FALSE FIT";
  console.log(`${pad(r.id, 62)} ${verdict}`);
  for (const m of r.metrics) {
    const flag = Math.abs(m.errorPct) <= m.tolerancePct ? "" : "  <-- over tolerance";
    console.log(
      `    ${pad(m.name, 36)} predicted ${pad(fmt(m.predicted), 10)} measured ${pad(fmt(m.measured), 10)} ${m.unit.padEnd(9)} ${m.errorPct >= 0 ? "+" : ""}${m.errorPct.toFixed(2)}% (±${m.tolerancePct.toFixed(2)})${flag}`,
    );
  }
}

const at095 = headlineAccuracyRows();
console.log(`\nvLLM 0.19 cases at util 0.95 that started: ${at095.length}`);
for (const name of ["KV pool per card", "max concurrency", "weights per card", "KV tokens (GPU KV cache size)"]) {
  const s = errorSummary(at095, name);
  console.log(
    `  ${pad(name, 32)} n=${s.cases}  mean |error| ${s.meanAbsPct.toFixed(2)}%  max ${s.maxAbsPct.toFixed(2)}%`,
  );
}
for (const basis of ["fitted", "checking"] as const) {
  const set = rows.filter((r) => r.basis === basis);
  const figures = set.flatMap((r) => r.metrics);
  const within = figures.filter((m) => Math.abs(m.errorPct) <= m.tolerancePct).length;
  const worst = figures.reduce((w, m) => Math.max(w, Math.abs(m.errorPct) / m.tolerancePct), 0);
  console.log(
    `${basis === "fitted" ? "Fitted-on cases (a constant was fitted on their source)" : "Checking cases (nothing fitted on them)"}: ${set.length}; figures ${figures.length}, within tolerance ${within}; worst at ${(worst * 100).toFixed(0)}% of its tolerance`,
  );
}
const all = rows.flatMap((r) => r.metrics);
console.log(
  `\nAll cases: ${rows.length}; figures compared: ${all.length}; within tolerance: ${all.filter((m) => Math.abs(m.errorPct) <= m.tolerancePct).length}`,
);
console.log(
  `False fits: ${
    rows
      .filter((r) => !r.ran && r.predictedFits === true)
      .map((r) => r.id)
      .join(", ") || "none"
  }`,
);
console.log(
  `False refusals: ${
    rows
      .filter((r) => r.ran && r.predictedFits === false)
      .map((r) => r.id)
      .join(", ") || "none"
  }`,
);

const newer = accuracyRows2026();
console.log(`\n== The 2026 startups (issue 15), by release: ${newer.length} cases`);
for (const g of accuracyByRelease(newer)) {
  const parts = ["KV pool per card", "weights per card"].map((name) => {
    const s = errorSummary(g.rows, name);
    return s.cases === 0
      ? `${name}: -`
      : `${name}: n=${s.cases} mean ${s.meanAbsPct.toFixed(2)}% max ${s.maxAbsPct.toFixed(2)}%`;
  });
  const wrong = g.rows.filter((r) => r.predictedFits !== null && r.predictedFits !== r.ran).map((r) => r.id);
  const verdicts = g.rows.filter((r) => r.predictedFits !== null).length;
  console.log(
    `  ${pad(g.release, 16)} cases ${g.rows.length}; ${parts.join("; ")}; verdicts ${verdicts}, wrong ${wrong.length}${wrong.length > 0 ? ` (${wrong.join(", ")})` : ""}`,
  );
}
for (const name of ["KV pool per card", "weights per card"]) {
  const s = errorSummary(newer, name);
  console.log(
    `  all 2026 ${pad(name, 20)} n=${s.cases}  mean |error| ${s.meanAbsPct.toFixed(2)}%  max ${s.maxAbsPct.toFixed(2)}%`,
  );
}
console.log(
  `  2026 false fits: ${
    newer
      .filter((r) => !r.ran && r.predictedFits === true)
      .map((r) => r.id)
      .join(", ") || "none"
  }; false refusals: ${
    newer
      .filter((r) => r.ran && r.predictedFits === false)
      .map((r) => r.id)
      .join(", ") || "none"
  }`,
);
