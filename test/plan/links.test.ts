/** A fabric's bandwidth from what the cluster says: an explicit figure on its nodes, else its label. */
import { describe, expect, test } from "vitest";
import { clusterLinks, fabricGbpsOfLabel, type Cluster } from "../../src/plan/index.ts";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";

describe("fabric labels", () => {
  test.each([
    ["ib-400g", 400],
    ["roce-200g", 200],
    ["eth-25g", 25],
    ["IB_100G", 100],
    ["roce 200gbps", 200],
    ["ib0", null],
    ["", null],
    ["eth-0g", null],
  ])("%s → %s Gbit/s", (label, gbps) => {
    expect(fabricGbpsOfLabel(label)).toBe(gbps);
  });

  test("an explicit figure wins over the label, the slowest node decides, and unknown stays null", () => {
    const links = clusterLinks({
      nodes: [
        { id: "a", fabric: "ib-400g", hostMemGib: 1, hostFreeGib: 1, devices: [], fabricGbps: 200 },
        { id: "b", fabric: "ib-400g", hostMemGib: 1, hostFreeGib: 1, devices: [], hostMemGBps: 460.8 },
        { id: "c", fabric: "ib0", hostMemGib: 1, hostFreeGib: 1, devices: [] },
      ],
    });
    expect(links.fabricGBps("ib-400g")).toBe(25);
    expect(links.fabricGBps("ib0")).toBeNull();
    expect(links.hostGBps("b")).toBe(460.8);
    expect(links.hostGBps("a")).toBeNull();
  });
});

describe("a fabric's speed in a cluster file", () => {
  const file = (extra: Record<string, unknown>) =>
    JSON.stringify({
      nodes: [{ id: "a", fabric: "ib0", host_mem_gib: 512, devices: [{ class: "h100-80g", count: 8 }], ...extra }],
    });

  test("fabric_gbps and host_mem_gbps are read, and written back", () => {
    const r = importCluster(file({ fabric_gbps: 400, host_mem_gbps: 460.8 }), "c.json");
    expect(r.cluster?.nodes[0]).toMatchObject({ fabricGbps: 400, hostMemGBps: 460.8 });
    expect(JSON.parse(clusterToJson(r.cluster as Cluster)).nodes[0]).toMatchObject({
      fabric_gbps: 400,
      host_mem_gbps: 460.8,
    });
  });

  test.each([[0], [-25], ["fast"]])("fabric_gbps %j is refused in words at the field", (value) => {
    const r = importCluster(file({ fabric_gbps: value }), "c.json");
    expect(r.cluster).toBeNull();
    expect(r.errors.map((e) => e.message).join(" ")).toMatch(/fabric's speed \(fabric_gbps\)/);
  });
});
