import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { quantityGib } from "../../src/cluster/k8s.ts";
import { sample } from "./inventory.ts";

describe("Kubernetes samples", () => {
  test("GFD labels of a mixed-MIG H100 (jq map): one group per profile, the node named by its hostname label", () => {
    const result = importCluster(sample("k8s-node-labels-json-h100-mig-mixed-1.txt"));
    expect(result.format).toBe("kubernetes labels");
    expect(result.cluster?.nodes).toEqual([
      {
        id: "s4124-0073",
        fabric: "",
        hostMemGib: 0,
        hostFreeGib: 0,
        devices: [
          { class: "h100-80g-mig-1g.10gb", count: 2, free: 2, gpuProduct: "NVIDIA-H100-80GB-HBM3" },
          { class: "h100-80g-mig-2g.20gb", count: 1, free: 1, gpuProduct: "NVIDIA-H100-80GB-HBM3" },
          { class: "h100-80g-mig-3g.40gb", count: 1, free: 1, gpuProduct: "NVIDIA-H100-80GB-HBM3" },
        ],
      },
    ]);
  });

  test("quoted YAML labels of a mixed-MIG A100 PCIe 40GB", () => {
    expect(
      importCluster(sample("k8s-node-yaml-labels-a100-40g-mig-mixed-partial-1.txt")).cluster?.nodes[0]?.devices,
    ).toEqual([
      { class: "a100-40g-mig-1g.5gb", count: 4, free: 4, gpuProduct: "A100-PCIE-40GB" },
      { class: "a100-40g-mig-2g.10gb", count: 2, free: 2, gpuProduct: "A100-PCIE-40GB" },
    ]);
  });

  test("grepped describe of a mixed-MIG A100: label mig-3g.21gb and resource mig-3g.20gb are one profile, matched by slices and memory", () => {
    const result = importCluster(sample("k8s-describe-node-mig-mixed-a100-1.txt"));
    expect(result.cluster?.nodes).toEqual([
      {
        id: "a100-node6",
        fabric: "",
        hostMemGib: 0,
        hostFreeGib: 0,
        devices: [{ class: "a100-40g-mig-3g.20gb", count: 16, free: 16 }],
      },
    ]);
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/differ in name/);
  });

  test("key=value labels of an H100 PCIe", () => {
    expect(importCluster(sample("k8s-describe-node-labels-h100-pcie-1.txt")).cluster?.nodes[0]?.devices).toEqual([
      { class: "h100-pcie-80g", count: 1, free: 1, gpuProduct: "NVIDIA-H100-PCIe" },
    ]);
  });

  test("2020 GFD labels with a describe fragment: A100 40GB at the 40537 MiB its driver reported", () => {
    const result = importCluster(sample("k8s-node-labels-json-a100-40g-1.txt"));
    expect(result.cluster?.nodes[0]?.devices).toEqual([
      { class: "a100-40g", count: 1, free: 1, memGib: 39.587, gpuProduct: "A100-SXM4-40GB" },
    ]);
  });

  test("an EKS p4d with no GPU labels: the instance type gives the card, the EFA label the fabric", () => {
    const result = importCluster(sample("k8s-describe-node-labels-p4d-efa-topology-1.txt"));
    expect(result.cluster?.nodes[0]).toMatchObject({
      fabric: "efa",
      devices: [{ class: "a100-40g", count: 8, free: 8 }],
    });
  });

  test("--show-labels with a provider's own labels (Akash)", () => {
    const result = importCluster(sample("k8s-get-nodes-show-labels-akash-h100-a6000-1.txt"));
    expect(result.cluster?.nodes.map((n) => [n.id, n.devices])).toEqual([
      ["node1", [{ class: "h100-pcie-80g", count: 8, free: 8 }]],
      ["node10", [{ class: "rtxa6000-48g", count: 8, free: 8 }]],
    ]);
    expect(result.summary).toBe("2 nodes, 16 GPUs of 2 classes; fabric unknown: set it; host RAM unknown: set it");
  });

  test("shared slots with no labels cannot be told apart: refused, with what to paste", () => {
    const result = importCluster(sample("k8s-describe-node-capacity-p5-h100-mig-timeslice-1.txt"));
    expect(result.cluster).toBeNull();
    expect(result.errors[0]?.message).toMatch(/128 shared GPU slots.*paste the node's labels/);
  });
});

const NODE_JSON = {
  apiVersion: "v1",
  kind: "List",
  items: [
    {
      kind: "Node",
      metadata: {
        name: "g5-a",
        labels: {
          "nvidia.com/gpu.product": "NVIDIA-A10G-SHARED",
          "nvidia.com/gpu.memory": "23028",
          "nvidia.com/gpu.count": "1",
          "nvidia.com/gpu.replicas": "2",
          "feature.node.kubernetes.io/pci-1d0f.present": "true",
        },
      },
      status: {
        capacity: { memory: "32408460Ki", "nvidia.com/gpu": "2" },
        allocatable: { memory: "31391628Ki", "nvidia.com/gpu": "2" },
      },
    },
  ],
};

describe("kubectl get nodes -o json|yaml", () => {
  test("time-slicing: two advertised A10G slots are one card of memory", () => {
    const result = importCluster(JSON.stringify(NODE_JSON, null, 2));
    expect(result.format).toBe("kubectl get nodes");
    expect(result.cluster?.nodes[0]).toEqual({
      id: "g5-a",
      fabric: "efa",
      hostMemGib: 30.91,
      hostFreeGib: 29.94,
      // The label as GFD wrote it, -SHARED kept: a nodeSelector must match it exactly.
      devices: [{ class: "a10g-24g", count: 1, free: 1, gpuProduct: "NVIDIA-A10G-SHARED" }],
    });
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/time-slicing/);
  });

  test("the same node as YAML", () => {
    const yaml = `apiVersion: v1\nkind: Node\nmetadata:\n  name: g5-a\n  labels:\n    nvidia.com/gpu.product: NVIDIA-A10G\n    nvidia.com/gpu.memory: "23028"\nstatus:\n  capacity:\n    memory: 32Gi\n    nvidia.com/gpu: "1"\n`;
    expect(importCluster(yaml).cluster?.nodes[0]).toEqual({
      id: "g5-a",
      fabric: "",
      hostMemGib: 32,
      hostFreeGib: 32,
      devices: [{ class: "a10g-24g", count: 1, free: 1, gpuProduct: "NVIDIA-A10G" }],
    });
  });

  test("allocated requests make cards busy", () => {
    const text = `Name:               gpu-1\nLabels:             nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n                    nvidia.com/gpu.count=8\nCapacity:\n  memory:          2113661240Ki\n  nvidia.com/gpu:  8\nAllocatable:\n  memory:          2113558840Ki\n  nvidia.com/gpu:  8\nAllocated resources:\n  Resource           Requests      Limits\n  --------           --------      ------\n  cpu                10 (5%)       0 (0%)\n  memory             100Gi (4%)    0 (0%)\n  nvidia.com/gpu     3             3\n`;
    const node = importCluster(text).cluster?.nodes[0];
    expect(node?.devices).toEqual([{ class: "h100-80g", count: 8, free: 5, gpuProduct: "NVIDIA-H100-80GB-HBM3" }]);
    expect(node?.hostMemGib).toBe(2015.74);
    expect(node?.hostFreeGib).toBe(1915.65);
  });
});

test.each([
  ["2097096404Ki", 2097096404 / 2 ** 20],
  ["240G", 240e9 / 2 ** 30],
  ["192Gi", 192],
  ["384269682460", 384269682460 / 2 ** 30],
  ["lots", undefined],
])("quantity %s", (q, gib) => {
  expect(quantityGib(q)).toBe(gib);
});
