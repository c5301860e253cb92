import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { expandHostList, parseGres } from "../../src/cluster/slurm.ts";
import { sample } from "./inventory.ts";

describe("Slurm samples", () => {
  test("Lambda Hyperplane: Gres=gpu:a100:8, RealMemory in MB; an A100 of unstated size is the 40GB, and said", () => {
    const result = importCluster(sample("scontrol-show-node-a100-8gpu-idle-1.txt"));
    expect(result.format).toBe("slurm scontrol show node");
    expect(result.cluster?.nodes).toEqual([
      {
        id: "lambda-hyperplane01",
        fabric: "",
        hostMemGib: 1007.55,
        hostFreeGib: 1007.55,
        devices: [{ class: "a100-40g", count: 8, free: 8, gresType: "a100" }],
      },
    ]);
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/does not say its memory: taken as a100-40g/);
  });

  test("Slinky A40 node: Gres with socket affinity, the other sinfo nodes named as missing", () => {
    const result = importCluster(sample("scontrol-show-node-a40-features-1.txt"));
    expect(result.cluster?.nodes).toEqual([
      {
        id: "esc8000a-1",
        fabric: "",
        hostMemGib: 240,
        hostFreeGib: 240,
        devices: [{ class: "a40-48g", count: 1, free: 1, gresType: "a40" }],
      },
    ]);
    expect(result.warnings.filter((w) => /sinfo lists/.test(w.message)).map((w) => w.message)).toEqual([
      "sinfo lists esc8000a-0, but no scontrol output describes it: add `scontrol show node esc8000a-0` to import its cards",
      "sinfo lists esc8000b-0, but no scontrol output describes it: add `scontrol show node esc8000b-0` to import its cards",
    ]);
  });

  test("a drained RTX 3090 node has no free card, and RealMemory=1 is not believed", () => {
    const result = importCluster(sample("scontrol-show-node-rtx3090-drain-1.txt"));
    expect(result.cluster?.nodes[0]).toEqual({
      id: "yigou-dev-102-68",
      fabric: "",
      hostMemGib: 0,
      hostFreeGib: 0,
      devices: [{ class: "rtx3090-24g", count: 1, free: 0, gresType: "nvidia-rtx-3090" }],
    });
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(
      /RealMemory=1 MB is not a real machine's RAM[\s\S]*IDLE\+DRAIN/,
    );
  });

  test("a MIG gres type with no card: added at the least its name could hold, and said", () => {
    const result = importCluster(sample("slurm-gres-conf-gh200-mig-1.txt"));
    expect(result.cluster?.nodes[0]?.devices).toEqual([
      { class: "gpu-mig-1g.23gb", count: 3, free: 3, memGib: 19.16, gresType: "1g.23gb" },
    ]);
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/RealMemory=480 MB/);
  });

  test("GresUsed and a host list", () => {
    const text =
      "NodeName=c[002-003] Arch=x86_64 CoresPerSocket=32\n   Gres=gpu:h100:8\n   GresUsed=gpu:h100:3(IDX:0-2)\n   RealMemory=1031000 AllocMem=200000 FreeMem=800000\n   State=MIXED ThreadsPerCore=2\n   ActiveFeatures=ib,h100\n";
    expect(importCluster(text).cluster?.nodes).toEqual(
      ["c002", "c003"].map((id) => ({
        id,
        fabric: "ib",
        hostMemGib: 1006.84,
        hostFreeGib: 811.52,
        devices: [{ class: "h100-80g", count: 8, free: 5, gresType: "h100", freeIndices: ["3", "4", "5", "6", "7"] }],
      })),
    );
  });

  test("AllocTRES counts the GPUs in use when GresUsed is absent; ALLOCATED and DOWN leave none free", () => {
    const text = [
      "NodeName=g1 Gres=gpu:l40s:4 RealMemory=515000 AllocMem=0 State=MIXED AllocTRES=cpu=16,mem=64G,gres/gpu=3",
      "NodeName=g2 Gres=gpu:l40s:4 RealMemory=515000 AllocMem=0 State=ALLOCATED AllocTRES=cpu=64",
      "NodeName=g3 Gres=gpu:l40s:4 RealMemory=515000 AllocMem=0 State=DOWN*",
    ].join("\n");
    expect(importCluster(text).cluster?.nodes.map((n) => [n.id, n.devices[0]?.free])).toEqual([
      ["g1", 1],
      ["g2", 0],
      ["g3", 0],
    ]);
  });

  test('sinfo -o "%N %G %T": host lists with their Gres', () => {
    const text = "NODELIST GRES STATE\nc[002-003] gpu:a40:2(S:0) idle\nc004 gpu:a40:2 drain\n";
    expect(importCluster(text).cluster?.nodes.map((n) => [n.id, n.devices])).toEqual([
      ["c002", [{ class: "a40-48g", count: 2, free: 2, gresType: "a40" }]],
      ["c003", [{ class: "a40-48g", count: 2, free: 2, gresType: "a40" }]],
      ["c004", [{ class: "a40-48g", count: 2, free: 0, gresType: "a40" }]],
    ]);
  });

  test("sinfo alone names nodes but not cards: refused with what to paste", () => {
    const result = importCluster(
      "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\nbatch*       up   infinite      2   idle gpu[1-2]\n",
    );
    expect(result.cluster).toBeNull();
    expect(result.errors[0]?.message).toMatch(/scontrol show node/);
  });
});

test.each([
  ["c[002-004]", ["c002", "c003", "c004"]],
  ["esc8000a-[0-1],esc8000b-0", ["esc8000a-0", "esc8000a-1", "esc8000b-0"]],
  ["c[002,004,008-010]", ["c002", "c004", "c008", "c009", "c010"]],
  ["fb10dl[04-05]", ["fb10dl04", "fb10dl05"]],
  ["single", ["single"]],
])("host list %s", (list, hosts) => {
  expect(expandHostList(list)).toEqual(hosts);
});

test.each([
  ["gpu:a100:8", [{ type: "a100", count: 8 }]],
  ["gpu:a40:1(S:0,2,4,6,8,10)", [{ type: "a40", count: 1 }]],
  ["gpu:8", [{ type: "", count: 8 }]],
  [
    "gpu:1080ti:1(IDX:0),gpu:980gtx:1(IDX:1)",
    [
      { type: "1080ti", count: 1 },
      { type: "980gtx", count: 1 },
    ],
  ],
  ["(null)", []],
])("gres %s", (gres, entries) => {
  expect(parseGres(gres)).toEqual(entries);
});
