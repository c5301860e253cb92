/**
 * Bundles the public speed benchmarks as the speed model's inputs for the
 * page's Accuracy view: src/calibration/speedCases.json, one entry per row and
 * figure, built from test/fixtures/speed/measured.jsonl (and serving-other-cards.jsonl) and the real configs
 * by test/plan/speedCases.ts (test/calibration/speedAccuracy.test.ts holds the
 * bundle equal to a fresh build). Run: npx tsx scripts/build-speed-cases.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { accuracyViewCases, leftOutOf } from "../test/plan/speedCases.ts";

const { cases, skipped } = accuracyViewCases();
const leftOut = leftOutOf(skipped);
const out = join(import.meta.dirname, "..", "src", "calibration", "speedCases.json");
writeFileSync(
  out,
  `${JSON.stringify({ "//": "Built by scripts/build-speed-cases.ts from test/fixtures/speed/measured.jsonl and serving-other-cards.jsonl (each case's source URL kept); do not edit", cases, leftOut })}\n`,
);
console.log(`${cases.length} cases → ${out}`);
