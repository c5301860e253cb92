import { describe, expect, test } from "vitest";
import { cardsLabel, editGroup, groupLabel, groupNodes, removeGroup, resizeGroup } from "../../src/cluster/groups.ts";
import { importCluster, MAX_IMPORT_CHARS, MAX_JSON_IMPORT_CHARS } from "../../src/cluster/import.ts";
import type { Cluster, ClusterNode } from "../../src/plan/index.ts";

const dgx = (id: string, free = 8): ClusterNode => ({
  id,
  fabric: "ib0",
  hostMemGib: 2048,
  hostFreeGib: 1800,
  devices: [{ class: "h100-80g", count: 8, free }],
});
/** 40 identical DGX H100, one with two cards in use, then a CPU node. */
const cluster: Cluster = {
  nodes: [
    ...Array.from({ length: 40 }, (_, i) => dgx(`dgx-${i + 1}`, i === 7 ? 6 : 8)),
    { id: "cpu-1", fabric: "", hostMemGib: 512, hostFreeGib: 512, devices: [] },
  ],
};

describe("identical nodes as one group", () => {
  test("groups by all but the id, in the order each first appears", () => {
    const groups = groupNodes(cluster);
    expect(groups.map((g) => g.indices.length)).toEqual([39, 1, 1]);
    expect(groups.map(groupLabel)).toEqual(["39 nodes of 8 × h100-80g, ib0", "8 × h100-80g (6 free), ib0", "CPU only"]);
    expect(groups[1]?.indices).toEqual([7]);
  });

  test("an edit of the group changes each of its nodes and keeps their ids; the others stay", () => {
    const [big] = groupNodes(cluster);
    if (!big) throw new Error("no group");
    const next = editGroup(cluster, big, (n) => ({ ...n, fabric: "roce" }));
    expect(next.nodes.filter((n) => n.fabric === "roce")).toHaveLength(39);
    expect(next.nodes[7]?.fabric).toBe("ib0");
    expect(next.nodes.map((n) => n.id)).toEqual(cluster.nodes.map((n) => n.id));
  });

  test("resizing adds copies with fresh ids after the group's last node, or drops its last ones", () => {
    const [big] = groupNodes(cluster);
    if (!big) throw new Error("no group");
    const grown = resizeGroup(cluster, big, 1000);
    expect(grown.nodes).toHaveLength(41 - 39 + 1000);
    expect(new Set(grown.nodes.map((n) => n.id)).size).toBe(grown.nodes.length);
    expect(grown.nodes.at(-1)?.id).toBe("cpu-1");
    expect(groupNodes(grown)[0]?.indices).toHaveLength(1000);
    const shrunk = resizeGroup(cluster, big, 2);
    expect(shrunk.nodes.map((n) => n.id)).toEqual(["dgx-1", "dgx-2", "dgx-8", "cpu-1"]);
    expect(removeGroup(cluster, big).nodes.map((n) => n.id)).toEqual(["dgx-8", "cpu-1"]);
  });

  test("a group's title counts its nodes in words, so it does not read as a product of cards (issue 19)", () => {
    const cpu = { id: "c", fabric: "", hostMemGib: 64, hostFreeGib: 64, devices: [] };
    const titles = [
      groupLabel({ indices: Array.from({ length: 1000 }, (_, i) => i), node: dgx("x") }),
      groupLabel({ indices: [0, 1, 2], node: cpu }),
      groupLabel({ indices: [0], node: cpu }),
    ];
    expect(titles).toEqual(["1,000 nodes of 8 × h100-80g, ib0", "3 nodes, CPU only", "CPU only"]);
  });

  test("a node's cards in a line", () => {
    expect(
      cardsLabel({
        ...dgx("x"),
        devices: [
          { class: "a100-80g", count: 4, free: 4 },
          { class: "a100-80g-mig-3g.40gb", count: 2, free: 1 },
        ],
      }),
    ).toBe("4 × a100-80g + 2 × a100-80g-mig-3g.40gb (1 free)");
  });
});

describe("the import size limit", () => {
  test("JSON may be 64 MiB; other text 5 MiB; the message says the node count kubectl JSON allows", () => {
    expect(MAX_JSON_IMPORT_CHARS).toBe(64 * 2 ** 20);
    const text = importCluster("x".repeat(MAX_IMPORT_CHARS + 1));
    expect(text.errors[0]?.message).toMatch(
      /at most 5 MiB of text, or 64 MiB of JSON: about 5,000 nodes of kubectl get nodes -o json/,
    );
    // Over 5 MiB and not strict JSON: refused before the YAML parser runs (it would take minutes).
    const broken = importCluster(`{"kind": "List", "items": [${'"x",'.repeat(MAX_IMPORT_CHARS / 4)}]`);
    expect(broken.errors[0]?.message).toMatch(/not valid JSON .*must be strict JSON/);
  });
});

describe("the wires keep nodes apart (issue 12)", () => {
  test("nodes alike but for their fabric's speed or their RAM's bandwidth are separate groups, so one edit does not overwrite the other", () => {
    const wired: Cluster = {
      nodes: [
        dgx("a"),
        { ...dgx("b"), fabricGbps: 400 },
        { ...dgx("c"), fabricGbps: 100 },
        { ...dgx("d"), hostMemGBps: 460.8 },
      ],
    };
    expect(groupNodes(wired).map((g) => g.indices)).toEqual([[0], [1], [2], [3]]);
  });
});
