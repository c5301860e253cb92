/**
 * Which cards are free, by name (issue 16): the names an importer keeps on a
 * device group (freeIndices) survive validation, so a deployment can pin them.
 */
import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";
import { validateCluster } from "../../src/cluster/validate.ts";
import { sample } from "./inventory.ts";

function groups(name: string) {
  const r = importCluster(sample(name), name);
  if (!r.cluster) throw new Error(r.summary);
  return r.cluster.nodes.flatMap((n) => n.devices);
}

describe("free cards by name", () => {
  test("nvidia-smi --query-gpu: GPU 6 is busy (13,928 MiB used, the sample's own note), the other seven indices are free", () => {
    const [v100] = groups("nvidia-smi-query-csv-v100-1.txt");
    expect(v100).toMatchObject({
      class: "v100-32g",
      count: 8,
      free: 7,
      freeIndices: ["0", "1", "2", "3", "4", "5", "7"],
    });
  });

  test("the nvidia-smi table: all eight idle H100s named 0-7", () => {
    const [h100] = groups("nvidia-smi-h100-sxm-80g-1.txt");
    expect(h100?.freeIndices).toEqual(["0", "1", "2", "3", "4", "5", "6", "7"]);
  });

  test("a card that shows ERR! is not free and not named", () => {
    const [v100] = groups("nvidia-smi-v100-err-old-layout-1.txt");
    expect(v100?.free).toBe(0);
    expect(v100?.freeIndices).toBeUndefined();
  });

  test("nvidia-smi -L: MIG instances are named by their UUIDs, new and old drivers' forms", () => {
    const [slices] = groups("nvidia-smi-L-a100-sxm-80g-mig-1.txt");
    expect(slices?.freeIndices).toHaveLength(7);
    expect(slices?.freeIndices?.[0]).toBe("MIG-feb88891-0321-5fef-9c87-d4af3b54259e");
    expect(slices?.freeIndices?.[6]).toBe("MIG-1aae4990-b962-574e-8375-119d6d9b9687");
    const [legacy] = groups("nvidia-smi-L-a100-sxm-40g-mig-legacy-uuid-1.txt");
    expect(legacy?.freeIndices).toEqual([
      "MIG-GPU-2fa5cf01-9520-1bc1-995b-cc0c6d9bca7c/1/0",
      "MIG-GPU-2fa5cf01-9520-1bc1-995b-cc0c6d9bca7c/2/0",
    ]);
  });

  test("the table's MIG devices print no UUID: the slices are not named, rather than named by a guess", () => {
    for (const g of groups("nvidia-smi-a30-mig-devices-tabbed-1.txt")) expect(g.freeIndices).toBeUndefined();
  });

  test("Slurm without GresUsed: the type is kept, no card is named", () => {
    const [a100] = groups("scontrol-show-node-a100-8gpu-idle-1.txt");
    expect(a100).toMatchObject({ gresType: "a100", free: 8 });
    expect(a100?.freeIndices).toBeUndefined();
    const [mig] = groups("slurm-gres-conf-gh200-mig-1.txt");
    expect(mig?.gresType).toBe("1g.23gb");
  });

  test("kubectl: GFD's product label is kept as written, for a nodeSelector", () => {
    const [h100] = groups("k8s-describe-node-labels-h100-pcie-1.txt");
    expect(h100).toMatchObject({ class: "h100-pcie-80g", gpuProduct: "NVIDIA-H100-PCIe" });
    for (const g of groups("k8s-node-labels-json-h100-mig-mixed-1.txt")) expect(g.gpuProduct).toMatch(/^NVIDIA-H100/);
  });

  test("a cluster with no names read (ray status) has none", () => {
    for (const g of groups("ray-status-p100-1.txt")) {
      expect(g.freeIndices).toBeUndefined();
      expect(g.gpuProduct).toBeUndefined();
      expect(g.gresType).toBeUndefined();
    }
  });
});

describe("the names in a cluster file", () => {
  const file = (device: Record<string, unknown>) =>
    JSON.stringify({
      nodes: [
        {
          id: "gpu-1",
          fabric: "",
          host_mem_gib: 512,
          host_free_gib: 512,
          devices: [{ class: "h100-80g", count: 4, free: 2, ...device }],
        },
      ],
    });

  test("free_indices, gpu_product and gres_type are read, and written back by clusterToJson unchanged", () => {
    const r = importCluster(
      file({ free_indices: ["1", "3"], gpu_product: "NVIDIA-H100-80GB-HBM3", gres_type: "h100" }),
      "c.json",
    );
    expect(r.warnings.map((w) => w.message).join("\n")).not.toMatch(/not a field Modelplan reads/);
    const group = r.cluster?.nodes[0]?.devices[0];
    expect(group).toEqual({
      class: "h100-80g",
      count: 4,
      free: 2,
      freeIndices: ["1", "3"],
      gpuProduct: "NVIDIA-H100-80GB-HBM3",
      gresType: "h100",
    });
    if (!r.cluster) throw new Error(r.summary);
    expect(importCluster(clusterToJson(r.cluster), "c.json").cluster).toEqual(r.cluster);
  });

  test.each([
    [["1"], /1 card name\(s\) \(1 distinct\) for 2 free, so they were dropped/],
    [["1", "1"], /2 card name\(s\) \(1 distinct\) for 2 free, so they were dropped/],
  ])(
    "free_indices %j that do not name each free card once are dropped and said; the counts stand",
    (names, message) => {
      const r = importCluster(file({ free_indices: names }), "c.json");
      expect(r.cluster?.nodes[0]?.devices[0]).toEqual({ class: "h100-80g", count: 4, free: 2 });
      expect(r.warnings.map((w) => w.message).join("\n")).toMatch(message);
    },
  );

  test("the panel's camelCase cluster with its free count lowered after the import is not refused", () => {
    const v100 = importCluster(sample("nvidia-smi-query-csv-v100-1.txt")).cluster;
    const node = v100?.nodes[0];
    if (!node?.devices[0]) throw new Error("no V100 node");
    const edited = { nodes: [{ ...node, devices: [{ ...node.devices[0], free: 6 }] }] };
    const checked = validateCluster(edited);
    expect(checked.errors).toEqual([]);
    expect(checked.cluster?.nodes[0]?.devices[0]?.freeIndices).toBeUndefined();
  });
});
