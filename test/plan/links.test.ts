/** A fabric's bandwidth from what the cluster says: an explicit figure on its nodes, else its label. */
import { describe, expect, test } from "vitest";
import { clusterLinks, fabricGbpsOfLabel } from "../../src/plan/index.ts";

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
