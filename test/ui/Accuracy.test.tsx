/**
 * The Accuracy view rendered over the bundled calibration set: one row per
 * case, each linked to the public log or thread it came from, and the means.
 * The tables are the calibration worker's (accuracyTables); the view draws them.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { accuracyRows, accuracyRows2026 } from "../../src/calibration/accuracy.ts";
import { accuracyTables } from "../../src/calibration/accuracyView.ts";
import { speedAccuracyTables } from "../../src/calibration/speedAccuracy.ts";
import { Accuracy, CaseCells } from "../../src/ui/Accuracy.tsx";

const speed = () => Promise.resolve({ ok: true as const, value: speedAccuracyTables() });

test("every calibration case is a row linked to its source, under the means", () => {
  const rows = accuracyRows();
  for (const r of rows) {
    const html = renderToStaticMarkup(
      <table>
        <tbody>
          <tr>
            <CaseCells row={r} />
          </tr>
        </tbody>
      </table>,
    );
    expect(html).toContain(`href="${r.sourceUrl.replaceAll("&", "&amp;")}"`);
    for (const m of r.metrics) expect(html).toContain(`${m.name}: `);
  }
  const html = renderToStaticMarkup(<Accuracy tables={accuracyTables(rows, [])} speed={speed} />);
  // The case table counts every case (and its header row) while drawing a window of them (issue 19).
  const caseTable = html.slice(html.indexOf('class="accuracy-cases"'));
  expect(caseTable).toMatch(new RegExp(`^class="accuracy-cases" aria-rowcount="${rows.length + 1}"`));
  const drawn = caseTable.match(/<th scope="row">/g)?.length ?? 0;
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(rows.length);
  expect(html).toContain("Mean |error|");
  expect(html).toMatch(/No case that failed to start is predicted to fit\.|failed to start yet/);
});

test("the 2026 startups are shown by release, newest vLLM first, each case linked to its source", () => {
  const newer = accuracyRows2026();
  const html = renderToStaticMarkup(<Accuracy tables={accuracyTables([], newer)} speed={speed} />);
  const groups = [...html.matchAll(/<h4>([^<]+)<\/h4>/g)].map((m) => m[1]);
  expect(groups).toEqual([
    "vLLM 0.29",
    "vLLM 0.28",
    "vLLM 0.27",
    "vLLM 0.26",
    "vLLM 0.24",
    "vLLM 0.23",
    "vLLM 0.22",
    "vLLM 0.21",
    "SGLang 2026",
    "llama.cpp 2026",
  ]);
  for (const r of newer) expect(html).toContain(`href="${r.sourceUrl.replaceAll("&", "&amp;")}"`);
  expect(html).toContain("KV pool per card");
});
