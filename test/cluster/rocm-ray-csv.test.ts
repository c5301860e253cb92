import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { sample } from "./inventory.ts";

describe("rocm-smi", () => {
  test("4 × MI300X in SPX: whole cards, named on the second line of each row", () => {
    expect(importCluster(sample("rocm-smi-mi300x-1.txt")).cluster?.nodes[0]?.devices).toEqual([
      { class: "mi300x-192g", count: 4, free: 4 },
    ]);
  });

  test("CPX partitions each report the whole card's memory: eight partitions hold one card's, not eight", () => {
    const result = importCluster(sample("rocm-smi-mi300x-cpx-partial-1.txt"));
    const devices = result.cluster?.nodes[0]?.devices ?? [];
    expect(devices).toEqual([{ class: "mi300x-192g-cpx", count: 8, free: 8, memGib: 23.998 }]);
    const totalGib = devices.reduce((sum, d) => sum + d.count * (d.memGib ?? 0), 0);
    expect(totalGib).toBeCloseTo(206141652992 / 2 ** 30, 1);
  });
});

describe("ray status", () => {
  test("2 nodes, 4 P100 all in use: shared out 2 a node, none free", () => {
    const nodes = importCluster(sample("ray-status-p100-1.txt")).cluster?.nodes;
    expect(nodes?.map((n) => [n.devices, n.hostMemGib])).toEqual([
      [[{ class: "p100-16g", count: 2, free: 0 }], 170.52],
      [[{ class: "p100-16g", count: 2, free: 0 }], 170.52],
    ]);
  });

  test("the Usage block alone: accelerator_type counts the nodes", () => {
    const result = importCluster(sample("ray-status-t4-usage-1.txt"));
    expect(result.summary).toBe("5 nodes, 5 GPUs of 1 class; fabric unknown: set it");
    expect(result.cluster?.nodes.every((n) => n.devices[0]?.free === 0)).toBe(true);
  });
});

describe("CSV", () => {
  const CSV =
    "id,fabric,host_mem_gib,host_free_gib,class,count,free,mem_gib\ndgx-1,ib0,2048,2000,h100-80g,8,8,\ndgx-1,ib0,2048,2000,a100-80g-mig-3g.40gb,2,1,\ncpu,,512,500,,,,\n";

  test("one row per node and class; an empty class is a CPU-only node", () => {
    const result = importCluster(CSV, "cluster.csv");
    expect(result.format).toBe("csv");
    expect(result.cluster?.nodes).toEqual([
      {
        id: "dgx-1",
        fabric: "ib0",
        hostMemGib: 2048,
        hostFreeGib: 2000,
        devices: [
          { class: "h100-80g", count: 8, free: 8 },
          { class: "a100-80g-mig-3g.40gb", count: 2, free: 1 },
        ],
      },
      { id: "cpu", fabric: "", hostMemGib: 512, hostFreeGib: 500, devices: [] },
    ]);
  });

  test("a bad row is named by its line", () => {
    const bad = `${CSV}box,,64,64,rtx-3060,1,2,12\n`;
    expect(importCluster(bad).errors).toEqual([
      expect.objectContaining({ line: 5, node: "box", field: "devices[0].free" }),
    ]);
    expect(importCluster(CSV.replace("8,8,", "eight,8,")).errors[0]).toMatchObject({
      line: 2,
      message: 'node "dgx-1", count: "eight" is not a number',
    });
  });

  test("semicolons and other column names", () => {
    const text = "node;gpu_class;gpus;free_gpus;ram_gib\nws;rtx4090-24g;2;2;128\n";
    expect(importCluster(text).cluster?.nodes[0]).toEqual({
      id: "ws",
      fabric: "",
      hostMemGib: 128,
      hostFreeGib: 128,
      devices: [{ class: "rtx4090-24g", count: 2, free: 2 }],
    });
  });

  test("quoted cells keep their commas and quotes (RFC 4180), and a row after blank and comment lines keeps its line", () => {
    const text = 'id,class,count,free,ram_gib\n"rack 1, slot ""a""",h100-80g,8,8,512\n\n# spare\nbox,l4-24g,1,2,64\n';
    const ok = importCluster(text.split("\n").slice(0, 2).join("\n"));
    expect(ok.cluster?.nodes[0]?.id).toBe('rack 1, slot "a"');
    expect(importCluster(text).errors).toEqual([
      expect.objectContaining({ line: 5, node: "box", field: "devices[0].free" }),
    ]);
  });

  test("a quote never closed is named at the line it opens, not read as the rest of the file", () => {
    const result = importCluster('id,class,count,free\na,h100-80g,8,8\n"b,h100-80g,8,8\nc,h100-80g,8,8\n');
    expect(result.cluster).toBeNull();
    expect(result.errors[0]).toMatchObject({ line: 3, message: expect.stringMatching(/never closed/) });
  });
});
