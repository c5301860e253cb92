// @vitest-environment happy-dom
/**
 * The Accuracy view drawn in a DOM (happy-dom) over the bundled calibration set: a part a frame (useStaged.ts),
 * so no one task draws it all (issue 19), and every part is in within a few frames.
 */
import { act } from "react";
import { expect, test } from "vitest";
import { accuracyRows, accuracyRows2026 } from "../../src/calibration/accuracy.ts";
import { accuracyTables } from "../../src/calibration/accuracyView.ts";
import { speedAccuracyTables } from "../../src/calibration/speedAccuracy.ts";
import { Accuracy } from "../../src/ui/Accuracy.tsx";
import { liveRoot } from "./liveRoot.ts";

const dom = liveRoot();

const speed = () => Promise.resolve({ ok: true as const, value: speedAccuracyTables() });

test("the means are drawn first, then the cases, then each release's cases a frame apart, until all are in", async () => {
  const tables = accuracyTables(accuracyRows(), accuracyRows2026());
  act(() => dom.root.render(<Accuracy tables={tables} speed={speed} />));
  const cases = () => dom.host.querySelector('[aria-label="Every calibration case"]');
  const releases = () => dom.host.querySelectorAll("h4").length;
  // The first commit: the means, not yet the case table nor any release.
  expect(dom.host.textContent).toContain("Mean |error|");
  expect(cases()).toBeNull();
  expect(releases()).toBe(0);
  const seen: number[] = [];
  for (let frame = 0; frame < 40 && releases() < tables.releases.length; frame++) {
    await act(() => new Promise((done) => setTimeout(done, 20)));
    seen.push(releases());
  }
  expect(cases()?.querySelector("table")?.getAttribute("aria-rowcount")).toBe(String(tables.cases.length + 1));
  expect(releases()).toBe(tables.releases.length);
  // One release at a time: the count went up by one, never by all of them at once.
  expect(new Set(seen).size).toBeGreaterThan(tables.releases.length / 2);
});
