/**
 * `npx tsx scripts/fuzz-inventories.ts [--runs 10000] [--seed N]`
 *
 * Issue 20's full fuzz run of the importer: damaged samples and hostile
 * shapes (scripts/lib/mutate.ts) through importCluster, counting internal
 * messages and timing each case. Prints the figures and the slowest cases;
 * exits 1 when a message is internal or a case takes over 1 s.
 * test/cluster/fuzz.test.ts runs a bounded share of it in `npm test`.
 */
import fc from "fast-check";
import { importCluster } from "../src/cluster/import.ts";
import { allSamples, hostile, isInternal } from "./lib/mutate.ts";

const MAX_CASE_MS = 1000;

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} takes a whole number, not ${process.argv[at + 1]}`);
  return value;
}

const runs = flag("--runs", 10_000);
const seed = flag("--seed", Date.now() % 2 ** 31);
/** Cases are made 100 at a time (batch b from seed + b), so memory holds one batch, not 10,000 texts of up to 5 MiB. */
const BATCH = 100;
function* cases(): Generator<string> {
  const arbitrary = hostile(allSamples());
  for (let b = 0; b * BATCH < runs; b++)
    yield* fc.sample(arbitrary, { numRuns: Math.min(BATCH, runs - b * BATCH), seed: seed + b });
}
const times: number[] = [];
const internal: { message: string; text: string }[] = [];
const slow: { ms: number; chars: number; format: string; head: string }[] = [];
const started = performance.now();
for (const text of cases()) {
  const t0 = performance.now();
  const result = importCluster(text);
  const ms = performance.now() - t0;
  times.push(ms);
  for (const m of [...result.errors, ...result.warnings])
    if (isInternal(m.message)) internal.push({ message: m.message, text });
  slow.push({ ms, chars: text.length, format: result.format, head: JSON.stringify(text.slice(0, 60)) });
  slow.sort((a, b) => b.ms - a.ms).splice(5);
}
const seconds = (performance.now() - started) / 1000;
times.sort((a, b) => a - b);
const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
const over = times.filter((t) => t > MAX_CASE_MS).length;
console.log(
  `${runs.toLocaleString("en-US")} cases (seed ${seed}) in ${seconds.toFixed(1)} s: ${internal.length} internal messages, ${over} over ${MAX_CASE_MS} ms`,
);
console.log(
  `per case: median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
console.log("slowest:");
for (const s of slow)
  console.log(`  ${s.ms.toFixed(0)} ms  ${s.chars.toLocaleString("en-US")} chars  ${s.format}  ${s.head}`);
for (const i of internal.slice(0, 5))
  console.log(`internal: ${i.message.slice(0, 200)}  in ${JSON.stringify(i.text.slice(0, 80))}`);
process.exitCode = internal.length > 0 || over > 0 ? 1 : 0;
