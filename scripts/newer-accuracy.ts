/**
 * Every 2026 startup of issue 15 (test/fixtures/calibration/newer.jsonl, the shared set, and
 * newer-found.jsonl, found since; bundled in src/calibration/newer.json) as the calibration cases
 * predict it: per case the verdict, each figure predicted against printed with its tolerance, and
 * what could not be compared; then which version strings vLLM printed that Modelplan reads.
 *   npx tsx scripts/newer-accuracy.ts
 * The per-release means are in scripts/accuracy.ts. (Before this work the same logs gave a KV pool
 * 18.8% off on the mean: docs/vllm-releases.md §10.)
 */
import { accuracyRows2026 } from "../src/calibration/accuracy.ts";
import { newerCases } from "../src/calibration/accuracy2026.ts";
import { vllmReleaseFor } from "../src/plan/index.ts";

for (const r of accuracyRows2026()) {
  const verdict =
    r.predictedFits === null
      ? "no verdict"
      : r.predictedFits === r.ran
        ? `${r.ran ? "ran" : "failed"}, planned so`
        : r.ran
          ? "FALSE REFUSAL"
          : "FALSE FIT";
  console.log(`${r.id.slice(0, 80).padEnd(80)} ${r.basis.padEnd(8)} ${verdict}`);
  for (const m of r.metrics) {
    const flag = Math.abs(m.errorPct) <= m.tolerancePct ? "" : "  <-- over tolerance";
    console.log(
      `    ${m.name.padEnd(48)} ${m.predicted.toFixed(2).padStart(10)} / ${String(m.measured).padStart(10)} ${m.unit.padEnd(6)} ${(m.errorPct >= 0 ? "+" : "") + m.errorPct.toFixed(2)}% (±${m.tolerancePct.toFixed(2)})${flag}`,
    );
  }
  if (r.metrics.length === 0 || r.note.startsWith("no ")) console.log(`    ${r.note}`);
}

const printed = newerCases()
  .cases.filter((c) => c.engine === "vllm")
  .map((c) => /^~?(\S+)/.exec(c.engine_version ?? "")?.[1] ?? "");
const read = printed.map((v) => {
  const r = vllmReleaseFor(v);
  return `${v} → ${"error" in r ? "REFUSED" : r.profile.releases}`;
});
console.log(`\nvLLM version strings as the logs print them:\n  ${[...new Set(read)].join("\n  ")}`);
