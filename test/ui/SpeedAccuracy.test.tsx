/** The Accuracy view's speed tab: every benchmark figure a row linked to its source, with the halves' medians. */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { speedAccuracyRows, speedAccuracyTables } from "../../src/calibration/speedAccuracy.ts";
import { SpeedAccuracy } from "../../src/ui/SpeedAccuracy.tsx";

test("every speed figure is a row linked to its source, predicted beside measured", () => {
  const rows = speedAccuracyRows();
  const html = renderToStaticMarkup(<SpeedAccuracy tables={speedAccuracyTables(rows)} />);
  expect(html.match(/<a href=/g)?.length).toBe(rows.length);
  for (const r of rows.slice(0, 50)) expect(html).toContain(`href="${r.source.replaceAll("&", "&amp;")}"`);
  expect(html).toContain("fitted: n, median |error|");
  expect(html).toMatch(/llamacpp [^<]*decode/);
});
