/**
 * The Accuracy view rendered over the bundled calibration set: one row per
 * case, each linked to the public log or thread it came from, and the means.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { accuracyRows } from "../../src/calibration/accuracy.ts";
import { Accuracy } from "../../src/ui/Accuracy.tsx";

test("every calibration case is a row linked to its source, under the means", () => {
  const rows = accuracyRows();
  const html = renderToStaticMarkup(<Accuracy rows={rows} />);
  const caseTable = html.slice(html.indexOf('class="accuracy-cases"'));
  expect(caseTable.match(/<th scope="row">/g)?.length).toBe(rows.length);
  for (const r of rows) expect(html).toContain(`href="${r.sourceUrl.replaceAll("&", "&amp;")}"`);
  expect(html).toContain("Mean |error|");
  expect(html).toMatch(/No case that failed to start is predicted to fit\.|failed to start yet/);
});
