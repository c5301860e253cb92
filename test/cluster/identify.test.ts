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
