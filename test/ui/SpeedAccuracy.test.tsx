/** The Accuracy view's speed tab: every benchmark figure a row linked to its source, with the halves' medians. */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { speedAccuracyRows, speedAccuracyTables } from "../../src/calibration/speedAccuracy.ts";
import { SpeedAccuracy, SpeedCells } from "../../src/ui/SpeedAccuracy.tsx";

const rows = speedAccuracyRows();

test("every speed figure's row links its source, predicted beside measured", () => {
  for (const r of rows) {
    const html = renderToStaticMarkup(
      <table>
        <tbody>
          <tr>
            <SpeedCells row={r} />
          </tr>
        </tbody>
      </table>,
    );
    expect(html).toContain(`href="${r.source.replaceAll("&", "&amp;")}"`);
    expect(html).toContain(`${r.measured.toFixed(1)} ${r.unit}`);
  }
  expect(rows.some((r) => r.group.startsWith("llamacpp") && r.group.includes("decode"))).toBe(true);
});

test("each summary row names its engine and figure once, as a reader says them", () => {
  const html = renderToStaticMarkup(<SpeedAccuracy tables={speedAccuracyTables(rows)} />);
  for (const words of ["llama.cpp decode", "llama.cpp long-context prefill", "vLLM TPOT", "SGLang throughput per GPU"])
    expect(html).toContain(`<th scope="row">${words}</th>`);
  // The engine's id was printed beside a group that already held it ("llamacpp llamacpp-decode").
  expect(html).not.toContain("llamacpp llamacpp");
});

test("the table counts every figure for assistive technology but draws only a window of rows (issue 19)", () => {
  const html = renderToStaticMarkup(<SpeedAccuracy tables={speedAccuracyTables(rows)} />);
  expect(html).toContain("fitted: n, median |error|");
  // 592 figures in the bundled benchmarks (the e2e test scrolls to the last one): the header row is row 1.
  expect(rows.length).toBeGreaterThan(500);
  expect(html).toContain(`aria-rowcount="${rows.length + 1}"`);
  const drawn = [...html.matchAll(/aria-rowindex="(\d+)"/g)].map((m) => Number(m[1]));
  expect(drawn[0]).toBe(1);
  expect(drawn.slice(1, 3)).toEqual([2, 3]);
  expect(drawn.length).toBeLessThan(40);
  // The rows not drawn are stood for by one empty row as tall as they would be, so the box scrolls to them all.
  expect(html).toMatch(
    /<tr aria-hidden="true" class="virtual-spacer"><td colSpan="5" style="height:\d{4,}px"><\/td><\/tr>/,
  );
});

test("the tab says which rows of the set it predicts nothing for, and why (TRT-LLM is reference only)", () => {
  const html = renderToStaticMarkup(<SpeedAccuracy tables={speedAccuracyTables(rows)} />);
  expect(html).toContain("206 rows of the set are not predicted: 165 × trtllm: reference only");
  expect(html).toContain("24 × disaggregated multi-node serving: not modelled");
});
