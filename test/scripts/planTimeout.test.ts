/**
 * Issue 20: `npm run plan` waited forever (≥ 45 s, killed) on a Hub that
 * accepts and never answers, or sends headers and then nothing, or stalls
 * on config.json. Now each case is one line naming the request, exit 1.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { fakeHub, loadRecording } from "../hub/fakeHub.ts";
import { stallingHub, type Stall, type StallingHub } from "../hub/stallingHub.ts";
import { writeDgxCluster } from "./dgxCluster.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const work = mkdtempSync(join(tmpdir(), "modelplan-timeout-"));
const clusterFile = writeDgxCluster(work);

let hub: StallingHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

function run(env: Record<string, string>): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((ok, fail) => {
    const child = spawn(
      "npx",
      ["tsx", "scripts/plan.ts", "Qwen/Qwen2.5-Coder-32B-Instruct", "--cluster", clusterFile],
      { cwd: ROOT, env: { ...process.env, HF_TOKEN: "", ...env } },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => ok({ code, stderr, ms: performance.now() - started }));
  });
}

describe("npm run plan against a Hub that stalls", () => {
  test.each([
    [
      "never answers the info call",
      (p: string): Stall | null => (p.startsWith("/api/models") ? "silent" : null),
      /revision\/main did not answer within 0\.5 s/,
    ],
    [
      "sends headers, then nothing",
      (p: string): Stall | null => (p.startsWith("/api/models") ? "headers-then-nothing" : null),
      /revision\/main stopped sending/,
    ],
    [
      "stalls on config.json",
      (p: string): Stall | null => (p.endsWith("/config.json") ? "silent" : null),
      /config\.json did not answer/,
    ],
  ])(
    "%s: one line naming the request, exit 1",
    async (_name, stallOn, named) => {
      hub = await stallingHub(stallOn, fakeHub({ recordings: [loadRecording("Qwen/Qwen2.5-Coder-32B-Instruct")] }));
      const { code, stderr, ms } = await run({ HF_ENDPOINT: hub.url, HF_HUB_TIMEOUT: "0.5" });
      expect(code).toBe(1);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(named);
      expect(ms).toBeLessThan(30_000);
    },
    40_000,
  );

  test("an HF_HUB_TIMEOUT that is no number of seconds is refused before any request, exit 2", async () => {
    hub = await stallingHub(() => "silent");
    const { code, stderr } = await run({ HF_ENDPOINT: hub.url, HF_HUB_TIMEOUT: "soon" });
    expect(code).toBe(2);
    expect(stderr).toMatch(/HF_HUB_TIMEOUT is "soon"/);
    expect(hub.paths).toHaveLength(0);
  }, 40_000);
});
