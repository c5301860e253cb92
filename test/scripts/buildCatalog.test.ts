/**
 * The generated catalog is what scripts/build-catalog.ts writes now from the fixtures: every chunk,
 * the index, the Hub recordings and the day the page names a bundled copy by (catalog/copied.json).
 * A fixture changed without a rebuild fails here; so does a hand-edited catalog file, and a copied.json
 * whose hash is not the entries' (the build would write another day: --today below stands for the clock).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CATALOG_COPIED } from "../../src/hub/catalogIndex.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const out = mkdtempSync(join(tmpdir(), "modelplan-catalog-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A day no build has run on: written only if the entries differ from those copied.json hashes. */
const NOT_A_BUILD_DAY = "1999-01-01";

const build = spawnSync("npx", ["tsx", "scripts/build-catalog.ts", "--out", out, "--today", NOT_A_BUILD_DAY], {
  cwd: ROOT,
  encoding: "utf8",
});

// The catalog is the build's alone; test/fixtures/hub also holds recordings made by hand (their own sources).
describe.each([
  [join("src", "hub", "catalog"), true],
  [join("test", "fixtures", "hub"), false],
])("%s", (dir, onlyBuilt) => {
  test("is what `npx tsx scripts/build-catalog.ts` writes now, file for file", () => {
    expect(build.stderr).toBe("");
    expect(build.status).toBe(0);
    const written = readdirSync(join(out, dir)).sort();
    expect(written.length).toBeGreaterThan(0);
    // A file the build no longer writes (a model taken out of the fixtures) is stale, too.
    if (onlyBuilt) expect(readdirSync(join(ROOT, dir)).sort()).toEqual(written);
    const stale = written.filter(
      (name) => readFileSync(join(out, dir, name), "utf8") !== readFileSync(join(ROOT, dir, name), "utf8"),
    );
    expect(stale, "run npx tsx scripts/build-catalog.ts and commit what it writes").toEqual([]);
  });
});

test("the page's date for a bundled copy is the build's, not a day typed in", () => {
  const copied = JSON.parse(readFileSync(join(out, "src", "hub", "catalog", "copied.json"), "utf8")) as {
    copied: string;
  };
  expect(copied.copied).not.toBe(NOT_A_BUILD_DAY);
  expect(CATALOG_COPIED).toBe(copied.copied);
  expect(CATALOG_COPIED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});
