/**
 * Issue 12: "A CPU node can say its memory bandwidth (channels × speed, or GB/s)". A cluster file may give
 * host_mem_channels and host_mem_mts in place of host_mem_gbps: channels × MT/s × 8 bytes ÷ 1000, the figure
 * the speed model reads (DDR5-4800 moves 4,800 MT/s over a 64-bit channel, 38.4 GB/s; 12 channels, an EPYC 9004
 * socket's, 460.8 GB/s). Before, both keys were ignored with a warning and 51.2 GB/s assumed.
 */
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";

const file = (fields: Record<string, unknown>) =>
  JSON.stringify({ nodes: [{ id: "epyc-1", host_mem_gib: 768, host_free_gib: 700, devices: [], ...fields }] });

describe("a host's memory bandwidth as channels × MT/s", () => {
  test("12 × DDR5-4800 is 460.8 GB/s, kept as host_mem_gbps (what the link and the panel carry)", () => {
    const r = importCluster(file({ host_mem_channels: 12, host_mem_mts: 4800 }), "cluster.json");
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => w.message).join(" ")).not.toContain("not a field Modelplan reads");
    expect(r.cluster?.nodes[0]?.hostMemGBps).toBe(460.8);
    expect(clusterToJson(r.cluster!)).toContain('"host_mem_gbps": 460.8');
  });

  test("8 × DDR4-3200 is 204.8 GB/s, in YAML too", () => {
    const yaml = "nodes:\n  - { id: xeon, host_mem_gib: 512, host_mem_channels: 8, host_mem_mts: 3200, devices: [] }\n";
    expect(importCluster(yaml, "cluster.yaml").cluster?.nodes[0]?.hostMemGBps).toBe(204.8);
  });

  test.each([
    [{ host_mem_channels: 12 }, "host_mem_channels (12) needs host_mem_mts"],
    [{ host_mem_mts: 4800 }, "host_mem_mts (4800) needs host_mem_channels"],
    [{ host_mem_channels: 12, host_mem_mts: 4800, host_mem_gbps: 400 }, "give the memory bandwidth once"],
    [{ host_mem_channels: 0, host_mem_mts: 4800 }, "must be above 0"],
    [{ host_mem_channels: 12.5, host_mem_mts: 4800 }, "must be a whole number"],
    [{ host_mem_channels: 12, host_mem_mts: "fast" }, 'must be a number above 0, not "fast"'],
    [{ host_mem_channels: 12, host_mem_mts: -4800 }, "must be above 0"],
    [{ host_mem_channels: 128, host_mem_mts: 20_000 }, "128 channels × 20000 MT/s is 20480 GB/s, over 10000"],
  ])("%j is refused in words, and no cluster is made", (fields, words) => {
    const r = importCluster(file(fields), "cluster.json");
    expect(r.cluster).toBeNull();
    expect(r.errors.map((e) => e.message).join(" ")).toContain(words);
  });
});
