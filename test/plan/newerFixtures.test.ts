/**
 * The 2026 startup logs of issue 15 (test/fixtures/calibration/newer.jsonl,
 * copied from the shared set, and newer-found.jsonl): each record's printed
 * figures must be the ones its quoted lines show, so a transcription slip
 * cannot pass for a measurement. A figure is found when its number appears in
 * a quote as printed: 5,046,272 or 5046272, 15.0 or 15, with any thousands commas.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

interface Rec {
  id: string;
  source_url: string;
  engine: string;
  measured: Record<string, unknown>;
  quote: string[];
}

const dir = new URL("../fixtures/calibration/", import.meta.url);
const load = (name: string): Rec[] =>
  readFileSync(new URL(name, dir), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Rec);
const records = [...load("newer.jsonl"), ...load("newer-found.jsonl")];

/** The figures a log line prints: KV, weights, budgets, estimates and token counts. */
const PRINTED = /(_gib|_gib_per_card|GB_label_is_GiB(_TP\d)?|^kv_tokens|^max_concurrency_x)$/;

function appears(value: number, quotes: string): boolean {
  const plain = quotes.replace(/(\d),(?=\d{3}\b)/g, "$1");
  const forms = new Set([
    String(value),
    value.toFixed(2),
    value.toFixed(1),
    Number.isInteger(value) ? value.toFixed(0) : String(value),
  ]);
  return [...forms].some((f) => new RegExp(`(^|[^\\d.])${f.replace(".", "\\.")}(?![\\d])`).test(plain));
}

describe("the 2026 calibration fixtures", () => {
  test("hold the 13 shared records and the ones found since, each with a pinned source", () => {
    expect(records.length).toBeGreaterThanOrEqual(21);
    for (const r of records)
      expect(r.source_url, r.id).toMatch(
        /^https:\/\/github\.com\/[^/]+\/[^/]+\/(blob\/[0-9a-f]{40}\/|pull\/\d+|issues\/\d+)/,
      );
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
  });

  test.each(records.map((r) => [r.id, r] as const))("%s: every printed figure is in its quoted lines", (_id, r) => {
    const quotes = r.quote.join("\n");
    const missing = Object.entries(r.measured)
      .filter(([k, v]) => PRINTED.test(k) && typeof v === "number")
      .filter(([, v]) => !appears(v as number, quotes))
      .map(([k, v]) => `${k}=${String(v)}`);
    expect(missing, `figures not found in the quotes of ${r.id}`).toEqual([]);
  });
});
