/**
 * The terminal and --json under an option that lacks a fabric or RAM: what would make it run, in
 * the text under the option and in `what_to_buy` (DeepSeek-R1 and its unsloth GGUF, recorded file
 * lists and sizes in test/fixtures/models; the changes themselves are checked in test/plan/buyLacks.test.ts).
 */
import { describe, expect, test } from "vitest";
import { textReport } from "../../scripts/lib/report.ts";
import { DEFAULT_WORKLOAD, plan, readModel, type Cluster } from "../../src/plan/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { snapshotOf } from "../plan/fixture.ts";

const h100s = (id: string, fabric: string, count: number, ramGib: number) => ({
  id,
  fabric,
  hostMemGib: ramGib,
  hostFreeGib: ramGib,
  devices: [{ class: "h100-80g", count, free: count }],
});

function report(name: string, cluster: Cluster) {
  const s = snapshotOf(name);
  const { shape, artifacts } = readModel(s);
  const result = plan({ repo: s.repo, revision: s.sha, shape, artifacts }, cluster, DEFAULT_WORKLOAD);
  return { result, text: textReport(s, result, DEFAULT_WORKLOAD.contextTokens) };
}

describe("what would make it run, under the option", () => {
  test("two nodes on two fabrics: the text says no fabric joins them and names one; --json lists it", () => {
    const { result, text } = report("deepseek-ai__DeepSeek-R1", {
      nodes: [h100s("a", "ib-a", 8, 2048), h100s("b", "ib-b", 8, 2048)],
    });
    expect(text).toContain("2 nodes × 8 h100-80g, no fabric joins them");
    expect(text).toContain("does not fit (no one fabric joins its nodes)");
    expect(text).toContain("to make it fit: name a fabric for a and b, and PP 2 × TP 8 across them");
    const unjoined = result.options.find((o) => o.lacks?.kind === "fabric");
    expect(unjoined && optionJson(unjoined).what_to_buy).toContainEqual({
      change: "name a fabric for a and b, and PP 2 × TP 8 across them (8 h100-80g each) runs it",
      cards_added: 0,
      class: "",
    });
    expect(unjoined && optionJson(unjoined).lacks).toEqual({ kind: "fabric", node_ids: ["a", "b"] });
    expect(optionJson(result.options.find((o) => !o.lacks) ?? unjoined!).lacks).toBeNull();
  });

  test("a node short of RAM for the experts: the text says so and how much RAM; --json's lacks agrees", () => {
    const { result, text } = report("unsloth__DeepSeek-R1-GGUF", { nodes: [h100s("a", "", 2, 256)] });
    const short = result.options.find((o) => o.artifact.endsWith("Q4_K_M"));
    const lacks = short && (optionJson(short).lacks as { kind: string; node_id: string; more_gib: number });
    expect(lacks).toMatchObject({ kind: "host_ram", node_id: "a" });
    expect(text).toContain(`+${lacks?.more_gib} GiB of RAM on node a`);
    expect(text).toMatch(/DeepSeek-R1-Q4_K_M .* does not fit \(node a lacks RAM\)/);
    expect(text).toMatch(/to make it fit: \+\d+ GiB of RAM on node a lets `--n-cpu-moe 36` run it/);
  });
});

describe("what the text line says beyond the cards", () => {
  const { result, text } = report("unsloth__DeepSeek-R1-GGUF", {
    nodes: [h100s("a", "ib0", 8, 2048), h100s("b", "ib0", 8, 2048)],
  });
  const lines = text.split("\n");

  test("an option that keeps experts in RAM says so on its line: two lines read '8 × h100-80g' alike before", () => {
    const offloaded = result.options.find((o) => o.placement.cpuMoeLayers > 0 && o.placement.nodes === 1);
    expect(offloaded).toBeDefined();
    const line = lines.find((l) => l.includes(`(${offloaded?.placement.cpuMoeLayers} layers' experts in RAM)`));
    expect(line).toContain("8 × h100-80g");
  });

  test("the first option's notes are printed under it; the others' are counted", () => {
    const noted = result.options.slice(1, 20).filter((o) => (o.notes ?? []).length > 0).length;
    expect(noted).toBeGreaterThan(0);
    expect(lines.filter((l) => /^ {6}\d+ notes? \(--json lists them\)$/.test(l))).toHaveLength(noted);
    for (const n of result.options[0]?.notes ?? []) expect(text).toContain(`note: ${n}`);
  });
});
