/** A fabric's bandwidth from what the cluster says: an explicit figure on its nodes, else its label. */
import { describe, expect, test } from "vitest";
import { clusterLinks, ddrChannelGBps, fabricGbpsOfLabel, type Cluster } from "../../src/plan/index.ts";
import { DEFAULT_WORKLOAD, plan, type ClusterNode } from "../../src/plan/index.ts";
import { llama2Q4, llama2Shape } from "./llama2q4.ts";
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

  test("cpu_cores is read, written back, and refused in words when not a whole number above 0", () => {
    const r = importCluster(file({ cpu_cores: 32 }), "c.json");
    expect(r.cluster?.nodes[0]).toMatchObject({ cpuCores: 32 });
    expect(JSON.parse(clusterToJson(r.cluster as Cluster)).nodes[0]).toMatchObject({ cpu_cores: 32 });
    for (const [bad, words] of [
      [0, /CPU cores \(cpu_cores\) must be above 0: leave it out when unknown/],
      [12.5, /CPU cores \(cpu_cores\) must be a whole number/],
      ["many", /CPU cores \(cpu_cores\) must be a whole number above 0/],
    ] as const) {
      const refused = importCluster(file({ cpu_cores: bad }), "c.json");
      expect(refused.cluster).toBeNull();
      expect(refused.errors.map((e) => e.message).join(" ")).toMatch(words);
    }
  });

  test.each([[0], [-25], ["fast"]])("fabric_gbps %j is refused in words at the field", (value) => {
    const r = importCluster(file({ fabric_gbps: value }), "c.json");
    expect(r.cluster).toBeNull();
    expect(r.errors.map((e) => e.message).join(" ")).toMatch(/fabric's speed \(fabric_gbps\)/);
  });
});

describe("a CPU node's memory bandwidth and the CPU option (issue 12)", () => {
  // Llama-2-7B Q4_0 (3.82 GB), as test/plan/speedInput.test.ts runs it on the RTX 4090: here on the host alone.
  const shape = llama2Shape;
  const q4 = llama2Q4;
  const cpuSpeed = (nodes: ClusterNode[]) => {
    const p = plan(
      { repo: "meta-llama/Llama-2-7b-hf", revision: "", shape, artifacts: [q4] },
      { nodes },
      DEFAULT_WORKLOAD,
    );
    const o = p.options.find((x) => x.placement.cpu);
    if (o?.speed === undefined) throw new Error("no CPU option");
    return o.speed;
  };
  const cpu = (id: string, hostMemGib: number, hostMemGBps?: number): ClusterNode => ({
    id,
    fabric: "",
    hostMemGib,
    hostFreeGib: hostMemGib,
    devices: [],
    ...(hostMemGBps !== undefined ? { hostMemGBps } : {}),
  });

  test("unknown: the CPU option says the 2 × DDR4-3200 it assumes", () => {
    expect(cpuSpeed([cpu("desk", 64)]).basis).toContain("host bandwidth unknown: 51.2 GB/s (2 × DDR4-3200) assumed");
  });

  test("said: 12 × DDR5-4800 (460.8 GB/s) runs faster, below the 9× of the bandwidth alone (the step's fixed cost), and assumes nothing", () => {
    const slow = cpuSpeed([cpu("desk", 64, 51.2)]);
    const fast = cpuSpeed([cpu("epyc", 64, 12 * ddrChannelGBps(4800))]);
    const gain = (fast.decodeTps as number) / (slow.decodeTps as number);
    expect(gain).toBeGreaterThan(5);
    expect(gain).toBeLessThan(9);
    expect(fast.basis).not.toContain("host bandwidth unknown");
  });

  test("the CPU option runs on the node with the most RAM, so it takes that node's bandwidth, not another's", () => {
    const big = cpuSpeed([cpu("small", 32, 460.8), cpu("big", 512)]);
    expect(big.basis).toContain("host bandwidth unknown");
    const links = clusterLinks({ nodes: [cpu("small", 32, 460.8), cpu("big", 512, 204.8), cpu("big2", 512, 307.2)] });
    expect(links.cpuHostGBps()).toBe(307.2);
  });
});
