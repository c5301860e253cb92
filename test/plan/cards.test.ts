import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { CARDS, cardMemoryBytes, cardOf, isMigClass, largestCardBytes } from "../../src/plan/index.ts";

const MIB = 2 ** 20;
const GIB = 2 ** 30;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/inventory/${name}`, import.meta.url), "utf8");

/** Every "used / totalMiB" figure of a pasted nvidia-smi table's GPU rows (not its MIG devices or BAR1 rows). */
function tableTotalsMib(text: string): number[] {
  return [...text.matchAll(/W \|\s*\d+MiB\s*\/\s*(\d+)MiB/g)].map((m) => Number(m[1]));
}

describe("the catalog holds what cards really report", () => {
  test.each([
    ["nvidia-smi-h100-sxm-80g-1.txt", "h100-80g"],
    ["nvidia-smi-h100-nvl-94g-1.txt", "h100-nvl-94g"],
    ["nvidia-smi-gh200-96g-1.txt", "gh200-96g"],
    ["nvidia-smi-l40s-1.txt", "l40s-48g"],
    ["nvidia-smi-a10g-1.txt", "a10g-24g"],
    ["nvidia-smi-rtx4090-1.txt", "rtx4090-24g"],
    ["nvidia-smi-rtxpro6000-mixed-mig-1.txt", "rtxpro6000-96g"],
    ["nvidia-smi-rtx5090-580-layout-1.txt", "rtx5090-32g"],
    ["nvidia-smi-rtx5090-kmd-2x-partial-1.txt", "rtx5090-32g"],
    ["nvidia-smi-v100-err-old-layout-1.txt", "v100-16g"],
  ])("%s reports the memory %s has in the catalog", (file, cls) => {
    const totals = tableTotalsMib(fixture(file));
    expect(totals.length).toBeGreaterThan(0);
    for (const mib of totals) expect(cardMemoryBytes(cls)).toBe(mib * MIB);
  });

  test("A30: the table's 24576 MiB is GFD's figure too", () => {
    const totals = tableTotalsMib(fixture("nvidia-smi-a30-mig-devices-tabbed-1.txt"));
    expect(totals).toEqual([24576]);
    expect(cardMemoryBytes("a30-24g")).toBe(24576 * MIB);
  });

  test("an 80GB H100 is 81,559 MiB, not 80 GiB", () => {
    expect(cardMemoryBytes("h100-80g")).toBe(81559 * MIB);
    expect(cardMemoryBytes("h100-80g")! / GIB).toBeCloseTo(79.65, 2);
  });

  test("H100 PCIe reports the SXM's 81,559 MiB (GFD gpu.memory)", () => {
    const label = /nvidia\.com\/gpu\.memory=(\d+)/.exec(fixture("k8s-describe-node-labels-h100-pcie-1.txt"));
    expect(cardMemoryBytes("h100-pcie-80g")).toBe(Number(label?.[1]) * MIB);
  });

  test("V100 32GB: the catalog keeps the smaller of 32768 and the retired-pages card's 32764", () => {
    const totals = [...fixture("nvidia-smi-query-csv-v100-1.txt").matchAll(/, (\d+) MiB, \d+ MiB/g)].map((m) =>
      Number(m[1]),
    );
    expect(Math.min(...totals)).toBe(32764);
    expect(cardMemoryBytes("v100-32g")).toBe(32764 * MIB);
  });

  test("MI300X: rocm-smi's byte total", () => {
    expect(cardMemoryBytes("mi300x-192g")).toBe(206141652992);
  });

  test("A100 40GB MIG 1g.5gb is GFD's 4864 MiB", () => {
    const label = /mig-1g\.5gb\.memory: "(\d+)"/.exec(fixture("k8s-node-yaml-labels-a100-40g-mig-mixed-partial-1.txt"));
    expect(cardMemoryBytes("a100-40g-mig-1g.5gb")).toBe(Number(label?.[1]) * MIB);
  });
});

/** Profile rows of an `nvidia-smi mig -lgip` listing: name (suffix dropped) and GiB. */
function lgipRows(text: string): [string, number][] {
  return [...text.matchAll(/\|\s+\d+\s+MIG (\d+g\.\d+gb)(\S*)\s+\d+\s+\d+\/\d+\s+([\d.]+)/g)]
    .filter((m) => m[2] === "")
    .map((m) => [m[1]!, Number(m[3])]);
}

describe("MIG profiles carry the memory nvidia-smi mig -lgip prints", () => {
  test.each([
    ["nvidia-smi-mig-lgip-h100-sxm-80g-1.txt", "h100-80g"],
    ["nvidia-smi-mig-lgip-h100-nvl-94g-1.txt", "h100-nvl-94g"],
    ["nvidia-smi-mig-lgip-h200-partial-1.txt", "h200-141g"],
    ["nvidia-smi-mig-lgip-a30-all-used-1.txt", "a30-24g"],
    ["nvidia-smi-mig-lgip-rtxpro6000-partial-1.txt", "rtxpro6000-96g"],
  ])("%s matches %s's profiles", (file, cls) => {
    const rows = lgipRows(fixture(file));
    expect(rows.length).toBeGreaterThan(0);
    for (const [profile, gib] of rows) {
      const bytes = cardMemoryBytes(`${cls}-mig-${profile}`);
      expect(bytes, profile).not.toBeNull();
      // lgip prints GiB rounded to two decimals.
      expect(Math.abs(bytes! / GIB - gib)).toBeLessThan(0.006);
    }
  });

  test("H100 3g.40gb is 39.5 GiB, less than its name says", () => {
    expect(cardMemoryBytes("h100-80g-mig-3g.40gb")).toBe(39.5 * GIB);
  });

  test("a profile's slices come from its name", () => {
    for (const card of CARDS)
      for (const p of card.migProfiles) expect(p.profile.startsWith(`${p.slices}g.`)).toBe(true);
  });
});

describe("lookups", () => {
  test("cardOf ignores the MIG suffix", () => {
    expect(cardOf("a100-80g-mig-3g.40gb")?.class).toBe("a100-80g");
    expect(cardOf("no-such-card")).toBeUndefined();
  });

  test("isMigClass reads the label", () => {
    expect(isMigClass("a100-80g-mig-3g.40gb")).toBe(true);
    expect(isMigClass("a100-80g")).toBe(false);
  });

  test("an override replaces the catalog's memory; an unknown class or profile has none", () => {
    expect(cardMemoryBytes("h100-80g", 40)).toBe(40 * GIB);
    expect(cardMemoryBytes("my-card-24g")).toBeNull();
    expect(cardMemoryBytes("h100-80g-mig-9g.99gb")).toBeNull();
  });

  test("classes are unique, every entry names a source and a real memory", () => {
    expect(new Set(CARDS.map((c) => c.class)).size).toBe(CARDS.length);
    for (const c of CARDS) {
      expect(c.source.length).toBeGreaterThan(20);
      // An "8 GB" GeForce reports 8,188 MiB (RTX 4060, 4060 Ti 8GB), 4 MiB under 8 GiB: the floor sits below it.
      expect(c.memoryBytes).toBeGreaterThan(7.5 * GIB);
      for (const p of c.migProfiles) expect(p.memoryBytes).toBeLessThan(c.memoryBytes);
    }
  });

  test("the issue's cards are all in the catalog", () => {
    for (const cls of [
      "h100-80g",
      "h100-pcie-80g",
      "h100-nvl-94g",
      "h200-141g",
      "b200-180g",
      "gb200-186g",
      "gh200-96g",
      "a100-40g",
      "a100-80g",
      "a30-24g",
      "l40s-48g",
      "l40-48g",
      "l4-24g",
      "a10g-24g",
      "a10-24g",
      "t4-16g",
      "v100-16g",
      "v100-32g",
      "rtx3090-24g",
      "rtx4090-24g",
      "rtx5090-32g",
      "rtx6000ada-48g",
      "rtxpro6000-96g",
      "mi300x-192g",
      "mi325x-256g",
    ]) {
      expect(cardOf(cls), cls).toBeDefined();
    }
  });
});

// The cards llama.cpp's own scoreboards (CUDA discussion #15013, Vulkan #10879) are full of: each with the total its
// nvidia-smi prints, from the public tables cards.ts cites, so a user with one gets its memory and a speed.
describe("GeForce cards common among llama.cpp users", () => {
  test.each([
    ["rtx4060-8g", 8188],
    ["rtx4060ti-8g", 8188],
    ["rtx4060ti-16g", 16380],
    ["rtx4070-12g", 12282],
    ["rtx4070super-12g", 12282],
    ["rtx4070tisuper-16g", 16376],
    ["rtx3060ti-8g", 8192],
    ["rtx3080ti-12g", 12288],
    ["rtx3090ti-24g", 24564],
    ["rtx2080ti-11g", 11264],
    ["rtx5060ti-16g", 16311],
    ["rtx5070-12g", 12227],
    // Cards the speed table had, which a user's inventory could not name before.
    ["rtx4070ti-12g", 12282],
    ["rtx4080-16g", 16376],
    ["rtx4080super-16g", 16376],
    ["rtx5070ti-16g", 16303],
    ["rtx5080-16g", 16303],
    ["rtx3060-12g", 12288],
    ["rtx3070-8g", 8192],
    ["rtx3080-10g", 10240],
  ])("%s holds the %d MiB nvidia-smi prints for it", (cls, mib) => {
    expect(cardMemoryBytes(cls)).toBe(mib * MIB);
  });

  test.each([
    ["rtx4060ti-16g", 8.9],
    ["rtx3060ti-8g", 8.6],
    ["rtx2080ti-11g", 7.5],
    ["rtx5070-12g", 12.0],
  ])("%s is compute capability %s (Ada 8.9, GA10x 8.6, Turing 7.5, Blackwell GeForce 12.0)", (cls, cc) => {
    expect(cardOf(cls)?.computeCapability).toBe(cc);
  });
});

// rocm-smi's "VRAM Total Memory (B)" (rocminfo's GPU pool × 1024): 16 MiB under each card's GiB, as the MI300X's.
describe("AMD cards common among llama.cpp ROCm and Vulkan users", () => {
  test.each([
    ["mi250x-64g", 68702699520], // one GCD; rocminfo's 67,092,480 KB pool
    ["mi210-64g", 68702699520],
    ["mi100-32g", 34342961152], // rocminfo's 33,538,048 KB pool
    ["mi50-32g", 34342961152],
    ["rx7800xt-16g", 16368 * MIB], // llama.cpp's Vulkan device: 16368 MB
    ["rx6900xt-16g", 17163091968],
    ["rx6800xt-16g", 17163091968],
  ])("%s holds the %d bytes its tools report", (cls, bytes) => {
    expect(cardMemoryBytes(cls)).toBe(bytes);
    expect(cardOf(cls)?.vendor).toBe("amd");
  });
});

describe("the card the engine settings' defaults are shown for", () => {
  const MIB = 2 ** 20;
  test("a 4090 workstation beside an H100 node: the H100's 81,559 MiB, as nvidia-smi prints it", () => {
    const cluster = {
      nodes: [
        {
          id: "ws",
          fabric: "",
          hostMemGib: 128,
          hostFreeGib: 128,
          devices: [{ class: "rtx4090-24g", count: 2, free: 2 }],
        },
        {
          id: "h",
          fabric: "ib0",
          hostMemGib: 2048,
          hostFreeGib: 2048,
          devices: [{ class: "h100-80g", count: 8, free: 8 }],
        },
      ],
    };
    expect(largestCardBytes(cluster)).toBe(81559 * MIB);
  });

  test("a custom class counts by the memory the user gave it", () => {
    const cluster = {
      nodes: [
        {
          id: "x",
          fabric: "",
          hostMemGib: 64,
          hostFreeGib: 64,
          devices: [{ class: "mystery-96g", count: 1, free: 1, memGib: 96 }],
        },
      ],
    };
    expect(largestCardBytes(cluster)).toBe(96 * 2 ** 30);
  });

  test("a CPU-only cluster shows an H100's defaults rather than a zero-byte card", () => {
    expect(
      largestCardBytes({ nodes: [{ id: "cpu", fabric: "", hostMemGib: 512, hostFreeGib: 512, devices: [] }] }),
    ).toBe(81559 * MIB);
  });
});
