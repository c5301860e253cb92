/**
 * A llama.cpp RPC option's CPU host (issue 14: a host without cards whose rpc-server serves its CPU)
 * drawn as the page draws it (a RAM row named by its role, not "1 ×  · c1/CPU"), and the deployments that
 * cannot give such a host its own pod or node shape refused in words.
 */
import { expect, test } from "vitest";
import { artifactsOf, DEFAULT_WORKLOAD, plan } from "../../src/plan/index.ts";
import type { Artifact } from "../../src/plan/index.ts";
import { deployTargets } from "../../src/deploy/index.ts";
import { cardBarRows } from "../../src/ui/rows.ts";
import { placementLabel } from "../../src/ui/format.ts";
import { snapshotOf } from "../plan/fixture.ts";
import { cards, node, shapeOf } from "../plan/planning-fixtures.ts";

test("DeepSeek-R1 UD-IQ1_S on a 2 × RTX 4090 head and a 256 GB CPU box: the box's bar is its RAM, named c1/CPU", () => {
  const shape = shapeOf("deepseek-ai/DeepSeek-R1");
  const iq1s = artifactsOf(snapshotOf("unsloth__DeepSeek-R1-GGUF"), shape).find(
    (a) => a.name === "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S",
  ) as Artifact;
  const nodes = [node("head", "eth0", [cards("rtx4090-24g", 2)], 64), node("c1", "eth0", [], 256)];
  const p = plan(
    { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape, artifacts: [iq1s] },
    { nodes },
    DEFAULT_WORKLOAD,
  );
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.nodes > 1);
  // The card's title and the verdict line: two cards and a CPU host, not "2 nodes × 2 rtx4090-24g" (4 cards).
  expect(o ? placementLabel(o.placement) : "").toBe("2 × rtx4090-24g + 1 CPU host on eth0");
  const rows = o ? cardBarRows(o) : [];
  expect(rows.map((r) => r.label.replace(/\d+–\d+/, "a–b"))).toEqual([
    "c1/CPU: layers a–b",
    "1 × rtx4090-24g · head/0: layers a–b",
    "1 × rtx4090-24g · head/1: layers a–b + output",
  ]);
  // The host's 256 GiB of RAM, its layers in it; the cards' 24 GiB each.
  expect(rows[0]?.physicalGib).toBeCloseTo(256, 6);
  expect(rows[0]?.weightsGib).toBeGreaterThan(48);
  expect(rows[1]?.physicalGib).toBeLessThan(24);
  // Kubernetes' worker pods would each ask the head's 2 cards, which the box has not: refused in words.
  const k8s = o ? deployTargets(o, { nodes }).find((t) => t.kind === "kubernetes") : undefined;
  expect(k8s).toEqual({
    kind: "kubernetes",
    ok: false,
    reason:
      "this RPC option has 1 host without cards, whose rpc-server serves the CPU, and a LeaderWorkerSet's worker pods all ask the head's 2 cards: run its commands on the hosts themselves",
  });
});

test("DeepSeek-R1 Q4_K_M on two 256 GiB CPU boxes over RPC: each box one RAM bar, named by its host and layers", () => {
  const shape = shapeOf("deepseek-ai/DeepSeek-R1");
  const q4 = artifactsOf(snapshotOf("unsloth__DeepSeek-R1-GGUF"), shape).find((a) => a.quant === "Q4_K_M") as Artifact;
  const nodes = [node("c1", "eth0", [], 256), node("c2", "eth0", [], 256)];
  const p = plan(
    { repo: "unsloth/DeepSeek-R1-GGUF", revision: "", shape, artifacts: [q4] },
    { nodes },
    DEFAULT_WORKLOAD,
  );
  const o = p.options.find((x) => x.engine === "llamacpp" && x.placement.nodes > 1);
  expect(o ? placementLabel(o.placement) : "").toBe("2 CPU hosts on eth0");
  const rows = o ? cardBarRows(o) : [];
  expect(rows.map((r) => r.label.replace(/\d+–\d+/, "a–b"))).toEqual([
    "c2/CPU: layers a–b + output",
    "c1 CPU: layers a–b",
  ]);
  for (const r of rows) {
    expect(r.physicalGib).toBeCloseTo(256, 6);
    // 377 GiB of weights over the two: each bar holds most of its host's share.
    expect(r.weightsGib).toBeGreaterThan(150);
  }
});
