import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import type { DeviceGroup } from "../../src/plan/index.ts";
import { sample } from "./inventory.ts";

/** nvidia-smi indices 0 … n-1: the free cards by name. */
const indices = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i));
/** The seven 1g.10gb instances' UUIDs as the -L sample prints them, in order. */
const A100_80G_MIG_UUIDS = [
  "MIG-feb88891-0321-5fef-9c87-d4af3b54259e",
  "MIG-a25704ba-3a06-5299-a795-fd7cf4d13973",
  "MIG-50f1c4c9-1508-5e8d-bb06-d08145b22e01",
  "MIG-36c795f2-5cf7-55d6-af30-e535e79b7bb6",
  "MIG-3f45d38c-8cee-503e-b806-a1f1bdceedeb",
  "MIG-96655de9-9525-58f9-a62b-0e4c1cc1c265",
  "MIG-1aae4990-b962-574e-8375-119d6d9b9687",
];

/**
 * What each sample holds, read off the sample by eye: the world, not the
 * parser. freeMemGib is the least (total − used) MiB among the free cards,
 * ÷ 1024, to three decimals rounded down.
 */
const CASES: [string, string, DeviceGroup[]][] = [
  [
    "nvidia-smi-h100-sxm-80g-1.txt",
    "nvidia-smi",
    [{ class: "h100-80g", count: 8, free: 8, freeMemGib: 79.646, freeIndices: indices(8) }],
  ],
  [
    "nvidia-smi-h100-nvl-94g-1.txt",
    "nvidia-smi",
    [{ class: "h100-nvl-94g", count: 2, free: 2, freeMemGib: 93.583, freeIndices: indices(2) }],
  ],
  // "GH200 480GB" is the Grace memory; the GPU's is 97871 MiB.
  [
    "nvidia-smi-gh200-96g-1.txt",
    "nvidia-smi",
    [{ class: "gh200-96g", count: 1, free: 1, freeMemGib: 95.576, freeIndices: ["0"] }],
  ],
  [
    "nvidia-smi-l40s-1.txt",
    "nvidia-smi",
    [{ class: "l40s-48g", count: 1, free: 1, freeMemGib: 44.987, freeIndices: ["0"] }],
  ],
  // Two dcgmproftester processes run on the one A10G: busy.
  ["nvidia-smi-a10g-1.txt", "nvidia-smi", [{ class: "a10g-24g", count: 1, free: 0 }]],
  [
    "nvidia-smi-rtx4090-1.txt",
    "nvidia-smi",
    [{ class: "rtx4090-24g", count: 8, free: 8, freeMemGib: 23.986, freeIndices: indices(8) }],
  ],
  // The 580+ layout ("+----" under the banner); 492 MiB held by the display it drives is not a model.
  [
    "nvidia-smi-rtx5090-580-layout-1.txt",
    "nvidia-smi",
    [{ class: "rtx5090-32g", count: 1, free: 1, freeMemGib: 31.362, freeIndices: ["0"] }],
  ],
  // Driver 610's banner says "KMD Version"; both cards hold ~29 GiB: busy.
  ["nvidia-smi-rtx5090-kmd-2x-partial-1.txt", "nvidia-smi", [{ class: "rtx5090-32g", count: 2, free: 0 }]],
  // GPUs 0-1 whole; GPU 2 is in MIG mode and its instances are not in the paste.
  [
    "nvidia-smi-rtxpro6000-mixed-mig-1.txt",
    "nvidia-smi",
    [{ class: "rtxpro6000-96g", count: 2, free: 2, freeMemGib: 95.592, freeIndices: ["0", "1"] }],
  ],
  // GPU 6 holds 13928 MiB at 100%: busy. GPU 5's 32764 MiB is the catalog's figure.
  [
    "nvidia-smi-query-csv-v100-1.txt",
    "nvidia-smi --query-gpu csv",
    [{ class: "v100-32g", count: 8, free: 7, freeMemGib: 31.992, freeIndices: ["0", "1", "2", "3", "4", "5", "7"] }],
  ],
  // Old 79-column layout, truncated name, ERR! in the power cell.
  ["nvidia-smi-v100-err-old-layout-1.txt", "nvidia-smi", [{ class: "v100-16g", count: 1, free: 0 }]],
  [
    "nvidia-smi-L-a100-sxm-80g-mig-1.txt",
    "nvidia-smi -L",
    [{ class: "a100-80g-mig-1g.10gb", count: 7, free: 7, freeIndices: A100_80G_MIG_UUIDS }],
  ],
  // Old driver: "MIG 1c.3g.20gb" compute-instance names on an A100-SXM4-40GB.
  [
    "nvidia-smi-L-a100-sxm-40g-mig-legacy-uuid-1.txt",
    "nvidia-smi -L",
    [
      {
        class: "a100-40g-mig-3g.20gb",
        count: 2,
        free: 2,
        freeIndices: [
          "MIG-GPU-2fa5cf01-9520-1bc1-995b-cc0c6d9bca7c/1/0",
          "MIG-GPU-2fa5cf01-9520-1bc1-995b-cc0c6d9bca7c/2/0",
        ],
      },
    ],
  ],
  // lgi names the profiles, not the card; 3g.20gb is only an A100 40GB's.
  ["nvidia-smi-mig-lgi-a100-40g-1.txt", "nvidia-smi", [{ class: "a100-40g-mig-3g.20gb", count: 2, free: 2 }]],
  [
    "nvidia-smi-mig-lgi-a100-80g-multi-gpu-1.txt",
    "nvidia-smi mig -lgi",
    [
      { class: "a100-80g-mig-1g.10gb", count: 4, free: 4 },
      { class: "a100-80g-mig-2g.20gb", count: 2, free: 2 },
      { class: "a100-80g-mig-3g.40gb", count: 2, free: 2 },
    ],
  ],
  // A table with its MIG devices, every line TAB-indented: no profile names, slices matched by memory
  // (11968 MiB is the 2g.12gb, a little under lgip's 11.69 GiB, so the reported figure is kept).
  [
    "nvidia-smi-a30-mig-devices-tabbed-1.txt",
    "nvidia-smi",
    [
      { class: "a30-24g-mig-2g.12gb", count: 1, free: 1, memGib: 11.688, freeMemGib: 11.662 },
      { class: "a30-24g-mig-1g.6gb", count: 2, free: 2, freeMemGib: 5.799 },
    ],
  ],
  // lgip (all 0/N free) then lgi: four 1g.6gb instances on an A30.
  [
    "nvidia-smi-mig-lgip-a30-all-used-1.txt",
    "nvidia-smi mig -lgi",
    [{ class: "a30-24g-mig-1g.6gb", count: 4, free: 4 }],
  ],
];

describe("nvidia-smi samples", () => {
  test.each(CASES)("%s", (file, format, devices) => {
    const result = importCluster(sample(file), file);
    expect(result.errors).toEqual([]);
    expect(result.format).toBe(format);
    expect(result.cluster?.nodes).toHaveLength(1);
    expect(result.cluster?.nodes[0]?.devices).toEqual(devices);
    expect(result.summary).toMatch(/host RAM unknown: set it/);
  });

  test("a table says which GPU it left out, and why", () => {
    const result = importCluster(sample("nvidia-smi-rtxpro6000-mixed-mig-1.txt"));
    expect(result.warnings.find((w) => /GPU 2/.test(w.message))).toMatchObject({ line: 11 });
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/MIG mode but its instances are not in the paste/);
  });

  test("lgi alone: the card is guessed from the profiles, and the alternatives named", () => {
    const result = importCluster(sample("nvidia-smi-mig-lgi-a100-80g-multi-gpu-1.txt"));
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(
      /a100-80g by its profiles \(also possible: h100-80g/,
    );
  });

  test.each([
    "nvidia-smi-mig-lgip-h100-sxm-80g-1.txt",
    "nvidia-smi-mig-lgip-h100-nvl-94g-1.txt",
    "nvidia-smi-mig-lgip-h200-partial-1.txt",
    "nvidia-smi-mig-lgipp-h100-nvl-94g-1.txt",
  ])("%s lists what could be made, not what there is: refused with the command to paste", (file) => {
    const result = importCluster(sample(file));
    expect(result.cluster).toBeNull();
    expect(result.errors[0]?.message).toMatch(/nvidia-smi -L/);
  });

  test("the shell prompt names the node", () => {
    const text = `aiuser1@gpu-07:~$ nvidia-smi\n${sample("nvidia-smi-l40s-1.txt")}`;
    expect(importCluster(text).cluster?.nodes[0]?.id).toBe("gpu-07");
  });

  test("two hosts' tables pasted one after the other are two nodes", () => {
    const text = `me@a:~$ nvidia-smi\n${sample("nvidia-smi-l40s-1.txt")}\nme@b:~$ nvidia-smi\n${sample("nvidia-smi-h100-nvl-94g-1.txt")}`;
    const nodes = importCluster(text).cluster?.nodes;
    expect(nodes?.map((n) => [n.id, n.devices[0]?.class, n.devices[0]?.count])).toEqual([
      ["a", "l40s-48g", 1],
      ["b", "h100-nvl-94g", 2],
    ]);
  });

  test("a table and -L pasted together: the -L MIG lines name the slices", () => {
    const table = sample("nvidia-smi-rtxpro6000-mixed-mig-1.txt");
    const list =
      "GPU 2: NVIDIA RTX PRO 6000 Blackwell Server Edition (UUID: GPU-x)\n  MIG 1g.24gb     Device  0: (UUID: MIG-a)\n  MIG 1g.24gb     Device  1: (UUID: MIG-b)\n";
    const devices = importCluster(`${table}\n${list}`).cluster?.nodes[0]?.devices;
    expect(devices).toEqual([
      { class: "rtxpro6000-96g", count: 2, free: 2, freeMemGib: 95.592, freeIndices: ["0", "1"] },
      { class: "rtxpro6000-96g-mig-1g.24gb", count: 2, free: 2, freeIndices: ["MIG-a", "MIG-b"] },
    ]);
  });

  test("an L40 with ECC off keeps the 49,140 MiB it reports", () => {
    const text = sample("nvidia-smi-l40s-1.txt")
      .replace("NVIDIA L40S ", "NVIDIA L40  ")
      .replace("46068MiB", "49140MiB");
    expect(importCluster(text).cluster?.nodes[0]?.devices).toEqual([
      { class: "l40-48g", count: 1, free: 1, memGib: 47.988, freeMemGib: 47.987, freeIndices: ["0"] },
    ]);
  });

  test("a card the catalog does not know is added with what it reports, and said", () => {
    // An RTX 2060 12GB (the RTX 3060 this used to be is catalogued now).
    const text = sample("nvidia-smi-l40s-1.txt")
      .replace("NVIDIA L40S    ", "NVIDIA RTX 2060")
      .replace("46068MiB", "12288MiB");
    const result = importCluster(text);
    expect(result.cluster?.nodes[0]?.devices).toEqual([
      { class: "rtx-2060-12g", count: 1, free: 1, memGib: 12, freeMemGib: 11.999, freeIndices: ["0"] },
    ]);
    expect(result.warnings.map((w) => w.message).join("\n")).toMatch(/not in the card catalog/);
  });

  test("--format=csv,nounits keeps its header: read; noheader: refused, saying to keep the header", () => {
    const nounits =
      "index, name, memory.total [MiB], memory.used [MiB]\n0, NVIDIA L4, 23034, 0\n1, NVIDIA L4, 23034, 20000\n";
    expect(importCluster(nounits).cluster?.nodes[0]?.devices).toEqual([
      { class: "l4-24g", count: 2, free: 1, freeMemGib: 22.494, freeIndices: ["0"] },
    ]);
    const noheader = "0, NVIDIA L4, 23034, 0\n1, NVIDIA L4, 23034, 20000\n";
    expect(importCluster(noheader).errors[0]?.message).toMatch(/noheader.*run it again without `noheader`/);
  });

  test('a MIG-mode card with "No MIG devices found" has nothing to run on: left out, and said', () => {
    // The real A30 table, its MIG devices block emptied as nvidia-smi prints it before instances are made.
    const text = sample("nvidia-smi-a30-mig-devices-tabbed-1.txt");
    const header = text.indexOf("|==================+");
    const empty = `${text.slice(0, text.indexOf("\n", header) + 1)}\t|  No MIG devices found                                                                   |\n`;
    const result = importCluster(empty);
    expect(result.cluster).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.message).toMatch(/GPU 0 \(NVIDIA A30\) is in MIG mode with no instances/);
  });
});
