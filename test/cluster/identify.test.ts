import { describe, expect, test } from "vitest";
import {
  identifyCard,
  identifyMig,
  matchMigProfile,
  MIG_NAME_TO_GIB,
  normalizeProduct,
  parseMigProfile,
} from "../../src/cluster/identify.ts";
import { cardOf } from "../../src/plan/index.ts";

describe("product strings to catalog classes", () => {
  test.each([
    ["NVIDIA H100 80GB HBM3", 81559, "h100-80g"],
    ["NVIDIA-H100-PCIe", 81559, "h100-pcie-80g"],
    ["NVIDIA H100 NVL", 95830, "h100-nvl-94g"],
    ["NVIDIA GH200 480GB", 97871, "gh200-96g"],
    ["A100-SXM4-40GB", undefined, "a100-40g"],
    ["NVIDIA A100 80G...", 81920, "a100-80g"],
    ["A100-SXM...", 40537, "a100-40g"],
    ["Tesla V100-SXM2-32GB", 32768, "v100-32g"],
    ["Tesla V100-PCIE...", 16160, "v100-16g"],
    ["NVIDIA RTX PRO 6000 Blac...", 97887, "rtxpro6000-96g"],
    ["NVIDIA RTX 6000 Ada Gene...", 49140, "rtx6000ada-48g"],
    ["NVIDIA GeForce RTX 4090", 24564, "rtx4090-24g"],
    ["nvidia-rtx-3090", undefined, "rtx3090-24g"],
    ["Tesla-T4", undefined, "t4-16g"],
    ["NVIDIA A10G", 23028, "a10g-24g"],
    ["NVIDIA A10", 23028, "a10-24g"],
    ["NVIDIA L4", 23034, "l4-24g"],
    ["NVIDIA L40S", 46068, "l40s-48g"],
    ["AMD Instinct MI300X", undefined, "mi300x-192g"],
    ["P100", undefined, "p100-16g"],
  ])("%s (%s MiB) is %s", (name, mib, cls) => {
    expect(identifyCard(name, mib)?.class).toBe(cls);
  });

  // Real nvidia-smi product strings and totals (the tables cards.ts cites); before these cards were catalogued each
  // came back as "not a card the catalog knows" with no speed.
  test.each([
    ["NVIDIA GeForce RTX 4060", 8188, "rtx4060-8g"],
    // One name for both RTX 4060 Ti cards: the total picks the variant.
    ["NVIDIA GeForce RTX 4060 Ti", 8188, "rtx4060ti-8g"],
    ["NVIDIA GeForce RTX 4060 Ti", 16380, "rtx4060ti-16g"],
    ["nvidia-rtx-4060-ti-16gb", undefined, "rtx4060ti-16g"],
    ["NVIDIA GeForce RTX 4070", 12282, "rtx4070-12g"],
    ["NVIDIA GeForce RTX 4070 SUPER", 12282, "rtx4070super-12g"],
    ["NVIDIA GeForce RTX 4070 Ti SUPER", 16376, "rtx4070tisuper-16g"],
    // nvidia-smi cuts the Ti SUPER's name; only it has 16 GB among the 4070s.
    ["NVIDIA GeForce RTX 4070 ...", 16376, "rtx4070tisuper-16g"],
    ["NVIDIA GeForce RTX 3060 Ti", 8192, "rtx3060ti-8g"],
    ["NVIDIA GeForce RTX 3080 Ti", 12288, "rtx3080ti-12g"],
    // It was taken for a 3090, whose rule matched "3090" anywhere.
    ["NVIDIA GeForce RTX 3090 Ti", 24564, "rtx3090ti-24g"],
    ["NVIDIA GeForce RTX 2080 Ti", 11264, "rtx2080ti-11g"],
    ["NVIDIA GeForce RTX 5060 Ti", 16311, "rtx5060ti-16g"],
    ["NVIDIA GeForce RTX 5070", 12227, "rtx5070-12g"],
  ])("GeForce %s (%s MiB) is %s", (name, mib, cls) => {
    const id = identifyCard(name, mib);
    expect(id?.class).toBe(cls);
    expect(id?.memGib).toBeUndefined();
  });

  // A name another card shares, or nvidia-smi cuts to another's: the memory tells them apart, and a card the catalog
  // lacks becomes a class of its own rather than a catalogued card's speed.
  test.each([
    [
      "a cut 4070 name is the Ti SUPER at 16,376 MiB, a laptop 4070 at 8,188",
      [
        ["NVIDIA GeForce RTX 4070 ...", 16376, "rtx4070tisuper-16g"],
        ["NVIDIA GeForce RTX 4070 ...", 8188, "rtx-4070-8g"],
      ],
    ],
    [
      "the 4070 Ti is not taken for the 4070",
      [
        ["NVIDIA GeForce RTX 4070", 12282, "rtx4070-12g"],
        ["NVIDIA GeForce RTX 4070 Ti", 12282, "rtx4070ti-12g"],
      ],
    ],
    [
      "the 5070 is neither the 5070 Ti nor a laptop 5070's cut name",
      [
        ["NVIDIA GeForce RTX 5070", 12227, "rtx5070-12g"],
        ["NVIDIA GeForce RTX 5070 Ti", 16303, "rtx5070ti-16g"],
        ["NVIDIA GeForce RTX 5070 ...", 8151, "rtx-5070-8g"],
      ],
    ],
    [
      "a cut 4080 name is the 4080 (the SUPER's too, taken as the slower card); a 12 GB one is a laptop's",
      [
        ["NVIDIA GeForce RTX 4080", 16376, "rtx4080-16g"],
        ["NVIDIA GeForce RTX 4080 SUPER", 16376, "rtx4080super-16g"],
        ["NVIDIA GeForce RTX 4080 ...", 16376, "rtx4080-16g"],
        ["NVIDIA GeForce RTX 4080 ...", 12282, "rtx-4080-12g"],
      ],
    ],
    [
      "the 10 GB RTX 3080 and the 12 GB RTX 3060 by their memory, not their shared names",
      [
        ["NVIDIA GeForce RTX 3080", 10240, "rtx3080-10g"],
        ["NVIDIA GeForce RTX 3080", 12288, "rtx-3080-12g"],
        ["NVIDIA GeForce RTX 3060", 12288, "rtx3060-12g"],
        ["NVIDIA GeForce RTX 3060", 8192, "rtx-3060-8g"],
        ["NVIDIA GeForce RTX 3070", 8192, "rtx3070-8g"],
        ["NVIDIA GeForce RTX 5080", 16303, "rtx5080-16g"],
      ],
    ],
    [
      "the 8 GB RTX 5060 Ti has the 16 GB card's name",
      [
        ["NVIDIA GeForce RTX 5060 Ti", 16311, "rtx5060ti-16g"],
        ["NVIDIA GeForce RTX 5060 Ti", 8151, "rtx-5060-ti-8g"],
      ],
    ],
    [
      "laptop cards named in full are not the desktop cards",
      [
        ["NVIDIA GeForce RTX 4060", 8188, "rtx4060-8g"],
        ["NVIDIA GeForce RTX 4060 Laptop GPU", 8188, "rtx-4060-laptop-gpu-8g"],
        ["NVIDIA GeForce RTX 3080 Ti", 12288, "rtx3080ti-12g"],
        ["NVIDIA GeForce RTX 3080 Ti Laptop GPU", 16384, "rtx-3080-ti-laptop-gpu-16g"],
      ],
    ],
  ] as const)("%s", (_, cases) => {
    for (const [name, mib, cls] of cases) {
      const id = identifyCard(name, mib);
      expect(id?.class, `${name} ${mib}`).toBe(cls);
      // A catalogued class carries its card; one of its own carries none.
      expect(id?.card, `${name} ${mib}`).toBe(cardOf(cls));
    }
  });

  test.each([
    // rocminfo's and rocm-smi's names.
    ["AMD Instinct MI250X", 65520, "mi250x-64g"],
    ["AMD Instinct MI210", 65520, "mi210-64g"],
    ["AMD Instinct MI100", 32752, "mi100-32g"],
    ["AMD Instinct MI50", 32752, "mi50-32g"],
    ["AMD Radeon RX 7800 XT", 16368, "rx7800xt-16g"],
    ["AMD Radeon RX 6900 XT", 16368, "rx6900xt-16g"],
    ["AMD Radeon RX 6800 XT", 16368, "rx6800xt-16g"],
  ])("%s (%s MiB) is the catalog's %s", (name, mib, cls) => {
    // The catalog's card, not a class of its own that happens to spell the same ("mi100-32g" from the name's words).
    expect(identifyCard(name, mib)?.card?.class).toBe(cls);
  });

  test("a name that covers several AMD cards is taken for none: the MI250X's and the Navi 21 Radeons'", () => {
    expect(identifyCard("AMD Instinct MI250X", 65520)?.card?.class).toBe("mi250x-64g");
    // rocminfo on an MI250X or MI250 (github.com/ROCm/rocm_smi_lib/issues/165); the MI250 has fewer CUs.
    expect(identifyCard("AMD Instinct MI250X/MI250", 65520)?.card).toBeUndefined();
    expect(identifyCard("AMD Radeon RX 6900 XT", 16368)?.class).toBe("rx6900xt-16g");
    expect(identifyCard("Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]", 16368)?.card).toBeUndefined();
  });

  test("a 2080 Ti modded to 22 GB keeps the 22,528 MiB it reports", () => {
    expect(identifyCard("NVIDIA GeForce RTX 2080 Ti", 22528)).toMatchObject({ class: "rtx2080ti-11g", memGib: 22 });
  });

  test("an RTX 4060 Ti named with its size is that card; with neither size nor memory it is not guessed", () => {
    expect(identifyCard("nvidia-rtx-4060ti-8gb")?.class).toBe("rtx4060ti-8g");
    expect(identifyCard("NVIDIA GeForce RTX 4060 Ti")).toBeNull();
    expect(identifyCard("NVIDIA GeForce RTX 5060 Ti")).toBeNull();
  });

  test("an A100 with neither size nor memory is not guessed", () => {
    expect(identifyCard("NVIDIA A100")).toBeNull();
  });

  test("the reported memory is kept when it is not the catalog's", () => {
    expect(identifyCard("NVIDIA A100-SXM4-40GB", 40960)).toMatchObject({ class: "a100-40g", memGib: 40 });
    expect(identifyCard("NVIDIA H100 80GB HBM3", 81559)).toEqual({ card: cardOf("h100-80g"), class: "h100-80g" });
  });

  test("normalisation drops vendor words and separators", () => {
    expect(normalizeProduct("NVIDIA GeForce RTX 4090")).toBe("rtx-4090");
    expect(normalizeProduct("AMD Instinct MI300X OAM")).toBe("mi300x");
  });
});

describe("MIG slices: parent, slices and memory, never the name alone", () => {
  test.each([
    ["MIG 1c.3g.20gb", { profile: "3g.20gb", slices: 3, nameGb: 20 }],
    ["mig-3g.21gb", { profile: "3g.21gb", slices: 3, nameGb: 21 }],
    ["1g.10gb+me", { profile: "1g.10gb", slices: 1, nameGb: 10 }],
    ["hello", null],
  ])("%s", (raw, parsed) => {
    expect(parseMigProfile(raw)).toEqual(parsed);
  });

  test("GFD's A100 mig-3g.21gb at 20,096 MiB is the 3g.20gb profile", () => {
    expect(identifyMig("a100-40g", "mig-3g.21gb", 20096 * 2 ** 20)).toEqual({ class: "a100-40g-mig-3g.20gb" });
  });

  test("an H100 NVL slice named by mig-parted's old 1g.11gb is the 1g.12gb of 10.75 GiB", () => {
    expect(identifyMig("h100-nvl-94g", "1g.11gb")).toEqual({ class: "h100-nvl-94g-mig-1g.12gb" });
  });

  test("1g.10gb and 1g.20gb share a slice count: the memory tells them apart", () => {
    const h100 = cardOf("h100-80g")!;
    expect(matchMigProfile(h100, 1, 9984 * 2 ** 20)?.profile).toBe("1g.10gb");
    expect(matchMigProfile(h100, 1, 20096 * 2 ** 20)?.profile).toBe("1g.20gb");
    expect(matchMigProfile(h100, 1)).toBeNull();
  });

  test("a profile the catalog lacks keeps its reported memory, or a cautious share of its name", () => {
    expect(identifyMig("gh200-96g", "1g.12gb", 11 * 2 ** 30)).toMatchObject({
      class: "gh200-96g-mig-1g.12gb",
      memGib: 11,
    });
    const guessed = identifyMig("gh200-96g", "3g.48gb");
    expect(guessed?.memGib).toBeLessThanOrEqual(48 * MIG_NAME_TO_GIB);
    expect(guessed?.warning).toMatch(/not in the catalog and no memory was given/);
  });

  test("the name-to-GiB share is the least the catalog's slices hold (GB200 1g.24gb: 20.00 GiB)", () => {
    expect(MIG_NAME_TO_GIB).toBeCloseTo(20 / 24, 6);
  });
});
