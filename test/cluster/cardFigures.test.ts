/**
 * A custom card's speed figures (mem_gbps, bf16_tflops, mem_kind) in every way a cluster travels: the cluster file
 * (JSON, YAML, CSV), its export, and the plan link, each refusing a bad figure in words and keeping the last good
 * cluster. Without them a card the table lacks plans its memory and has no speed; with them its speed is estimated
 * (test/plan/customCardSpeed.test.ts).
 */
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";
import { validateCluster } from "../../src/cluster/validate.ts";
import type { Cluster } from "../../src/plan/index.ts";
import { decodeLink, encodeLink } from "../../src/state/link.ts";
import { LINK_DEFAULTS as DEFAULT_CHOICES } from "../state/linkDefaults.ts";

const card = (fields: Record<string, unknown>) =>
  JSON.stringify({
    nodes: [
      {
        id: "lab",
        host_mem_gib: 64,
        host_free_gib: 60,
        devices: [{ class: "lab-card", count: 2, free: 2, mem_gib: 32, ...fields }],
      },
    ],
  });

const described: Cluster = {
  nodes: [
    {
      id: "lab",
      fabric: "",
      hostMemGib: 64,
      hostFreeGib: 60,
      devices: [{ class: "lab-card", count: 2, free: 2, memGib: 32, memGBps: 960, bf16Tflops: 120.5, memKind: "gddr" }],
    },
  ],
};

describe("the cluster file", () => {
  test("mem_gbps, bf16_tflops and mem_kind are read, with no unknown-field warning, and exported back", () => {
    const r = importCluster(card({ mem_gbps: 960, bf16_tflops: 120.5, mem_kind: "gddr" }), "cluster.json");
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => w.message).join(" ")).not.toContain("not a field Modelplan reads");
    expect(r.cluster).toEqual(described);
    const again = importCluster(clusterToJson(r.cluster!), "cluster.json");
    expect(again.cluster).toEqual(described);
  });

  test("in YAML, and in the page's camelCase", () => {
    const yaml =
      "nodes:\n  - id: lab\n    host_mem_gib: 64\n    host_free_gib: 60\n    devices:\n" +
      "      - { class: lab-card, count: 2, free: 2, mem_gib: 32, mem_gbps: 960, bf16_tflops: 120.5, mem_kind: gddr }\n";
    expect(importCluster(yaml, "cluster.yaml").cluster).toEqual(described);
    expect(validateCluster(described).cluster).toEqual(described);
  });

  test.each([
    [{ mem_gbps: 0 }, /memory bandwidth \(mem_gbps, GB\/s\) must be above 0: leave it out when unknown/],
    [{ mem_gbps: -960 }, /memory bandwidth \(mem_gbps, GB\/s\) must be above 0/],
    [{ mem_gbps: "fast" }, /memory bandwidth \(mem_gbps, GB\/s\) must be a number above 0, not "fast"/],
    [{ mem_gbps: 7_680_000 }, /memory bandwidth \(mem_gbps, GB\/s\) is absurd \(over 100000\): check the unit/],
    [{ bf16_tflops: 0 }, /dense BF16 TFLOPS \(bf16_tflops\) must be above 0/],
    [{ mem_kind: "ddr5" }, /memory kind \(mem_kind\) must be one of "hbm", "gddr", "unified", not "ddr5"/],
  ])("%o is refused at its line, in words", (fields, message) => {
    const r = importCluster(card(fields), "cluster.json");
    expect(r.cluster).toBeNull();
    expect(r.errors.map((e) => e.message).join(" ")).toMatch(message);
  });

  test("a table card given other figures than the table's: used, and said once each", () => {
    const r = importCluster(
      JSON.stringify({
        nodes: [{ id: "n", host_mem_gib: 64, devices: [{ class: "rtx4090-24g", count: 1, free: 1, mem_gbps: 800 }] }],
      }),
      "cluster.json",
    );
    expect(r.cluster?.nodes[0]?.devices[0]?.memGBps).toBe(800);
    expect(r.warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining("rtx4090-24g: memory bandwidth (GB/s) 800 given, in place of the card table's 1008"),
    );
  });

  test("a CSV's mem_gbps, bf16_tflops and mem_kind columns", () => {
    const csv =
      "id,fabric,host_mem_gib,host_free_gib,class,count,free,mem_gib,mem_gbps,bf16_tflops,mem_kind\n" +
      "lab,,64,60,lab-card,2,2,32,960,120.5,GDDR\n";
    expect(importCluster(csv, "cluster.csv").cluster).toEqual(described);
    const bad = importCluster(csv.replace("960", "-1"), "cluster.csv");
    expect(bad.cluster).toBeNull();
    expect(bad.errors.map((e) => e.message).join(" ")).toMatch(/mem_gbps/);
  });
});

describe("the plan link", () => {
  test("a custom card's figures survive the round trip", () => {
    const choices = { ...DEFAULT_CHOICES, cluster: described };
    const decoded = decodeLink(`#${encodeLink(choices)}`, DEFAULT_CHOICES);
    expect(decoded.ignored).toEqual([]);
    expect(decoded.choices.cluster).toEqual(described);
  });

  test("a bad figure in a link is named, and the example cluster kept", () => {
    const bad: Cluster = {
      nodes: [{ ...described.nodes[0]!, devices: [{ ...described.nodes[0]!.devices[0]!, memGBps: -1 }] }],
    };
    const decoded = decodeLink(`#${encodeLink({ ...DEFAULT_CHOICES, cluster: bad })}`, DEFAULT_CHOICES);
    expect(decoded.choices.cluster).toBe(DEFAULT_CHOICES.cluster);
    expect(decoded.ignored.join(" ")).toMatch(/mem_gbps, GB\/s\) must be above 0/);
  });
});

describe("the import review's gaps", () => {
  test("a card the speed table lacks asks for its GB/s until a group gives it; a table card and a MIG slice do not", () => {
    const lacks = importCluster(card({}), "cluster.json");
    expect(lacks.summary).toContain("speed of lab-card unknown: give its GB/s");
    expect(importCluster(card({ mem_gbps: 960 }), "cluster.json").summary).not.toContain("speed of");
    const table = JSON.stringify({
      nodes: [
        {
          id: "a",
          host_mem_gib: 512,
          devices: [
            { class: "h100-80g", count: 8 },
            { class: "a100-80g-mig-3g.40gb", count: 2 },
          ],
        },
      ],
    });
    expect(importCluster(table, "cluster.json").summary).not.toContain("speed of");
  });
});
