/**
 * Issue 20: a GGUF whose block_count is 2^32 − 1 made `npm run plan` abort
 * (exit 134, out of memory at 1.6 GB). A local model past the shape
 * ceilings (src/hub/limits.ts) is now one line naming the field, exit 2.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { main } from "../../scripts/plan.ts";
import { ggufHeaderBytes, loadRecording } from "../hub/fakeHub.ts";
import { writeDgxCluster } from "./dgxCluster.ts";

const work = mkdtempSync(join(tmpdir(), "modelplan-shapes-"));
const clusterFile = writeDgxCluster(work);

describe("npm run plan on a local model past the ceilings", () => {
  test("a GGUF with block_count 2^32 − 1: one line naming the key, exit 2, at once", async () => {
    const rec = structuredClone(loadRecording("bartowski/Qwen2.5-14B-Instruct-GGUF"));
    const path = "Qwen2.5-14B-Instruct-Q8_0.gguf";
    rec.ggufFacts[path] = { ...rec.ggufFacts[path], "qwen2.block_count": 2 ** 32 - 1 };
    const dir = join(work, "huge-gguf");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "huge-Q8_0.gguf"), ggufHeaderBytes(rec, path));
    const started = performance.now();
    const { code, stderr } = await main([join(dir, "huge-Q8_0.gguf"), "--cluster", clusterFile], {});
    expect(code).toBe(2);
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/huge-Q8_0\.gguf: qwen2\.block_count is 4,294,967,295: no real model has more than 1,024/);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
