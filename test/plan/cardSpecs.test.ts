/**
 * The speed figures per card (src/plan/cardSpecs.ts) cover what the planner
 * and the benchmarks name, and say where each came from.
 */
import { describe, expect, test } from "vitest";
import { CARDS } from "../../src/plan/index.ts";
import {
  BENCHMARK_GPU_KEYS,
  CARD_SPECS,
  HOST_MEMORY,
  VENDOR_CHECKED_LABELS,
  VENDOR_READS,
  cardSpecOf,
  cardSpecsWithChecks,
  fieldValue,
  isVendorHosted,
  printedAgrees,
  speedCardOf,
  type CheckedField,
  type PrintedFigure,
} from "../../src/plan/index.ts";
import { measuredRows } from "./speedCases.ts";

// Each card's figures with what was read for them (src/plan/cardSpecChecks.ts).
const SPECS = cardSpecsWithChecks();
// What the speed model multiplies by; a card is checked when each it has is vendor-read.
const SPEED_FIELDS = ["memBandwidthGBps", "bf16", "fp8", "fp4", "int8"] as const;

describe("card speed specs", () => {
  test.each(CARDS.map((c) => c.class))("catalog card %s has a speed spec under its own label", (label) => {
    const spec = cardSpecOf(label);
    expect(spec?.memBandwidthGBps ?? 0).toBeGreaterThan(0);
  });

  test.each([...new Set(measuredRows().map((r) => r.gpu_key))])("benchmark card %s maps to a spec", (key) => {
    const label = BENCHMARK_GPU_KEYS[key];
    expect(label, `${key} has no label in BENCHMARK_GPU_KEYS`).toBeDefined();
    expect(cardSpecOf(label ?? "")).toBeDefined();
  });

  test("labels are unique and every spec names a vendor URL and says what was read for it", () => {
    const labels = CARD_SPECS.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const c of SPECS) {
      expect(c.source, c.label).toMatch(/^https:\/\//);
      expect(c.checkQuote.length, c.label).toBeGreaterThan(20);
    }
  });

  // Issue 12: "checked" means read on the vendor's own page; a distributor's reprint, a mirror or a fork does not count.
  test.each([
    ["https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi350.html", true],
    ["https://docs.nvidia.com/cuda/hopper-tuning-guide/index.html", true],
    [`https://github.com/ai-dynamo/aiconfigurator/blob/${"0".repeat(40)}/x.yaml`, true],
    // A branch moves: the quote must stay checkable at a commit.
    ["https://github.com/NVIDIA/TensorRT-LLM/blob/main/docs/source/blogs/H200launch.md", false],
    // A fork of NVIDIA's repository is not NVIDIA.
    [`https://github.com/FriskFreeman/aiconfigurator/blob/${"0".repeat(40)}/x.yaml`, false],
    ["https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html", false],
    ["https://www.nvidia.com.example.org/h100/", false],
  ])("%s is vendor-hosted: %s", (url, expected) => {
    expect(isVendorHosted(url)).toBe(expected);
  });

  const checked = SPECS.filter((c) => c.checked);

  test("every vendor read is vendor-hosted, and each number it gives is in its quote and is the table's to the digits printed", () => {
    for (const [label, reads] of Object.entries(VENDOR_READS)) {
      const spec = cardSpecOf(label);
      expect(spec, `${label} is not a card in cardSpecs.ts`).toBeDefined();
      for (const r of reads) {
        expect(isVendorHosted(r.url), `${label}: ${r.url}`).toBe(true);
        for (const [field, figure] of Object.entries(r.fields) as [CheckedField, PrintedFigure][]) {
          expect(r.quote, `${label} ${field}`).toContain(figure.printed);
          const value = spec === undefined ? null : fieldValue(spec, field);
          expect(
            printedAgrees(value, figure),
            `${label} ${field}: table ${value}, printed "${figure.printed}" × ${figure.times}`,
          ).toBe(true);
        }
      }
    }
  });

  test("a card is checked when its bandwidth and every dense TFLOPS it has are vendor-read, and only then has a day", () => {
    for (const c of SPECS) {
      const needed = SPEED_FIELDS.filter((f) => fieldValue(c, f) !== null);
      expect(c.checked, c.label).toBe(needed.length > 0 && needed.every((f) => c.checkedFields.includes(f)));
      if (c.checked) {
        expect(c.checkedOn, c.label).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        for (const r of c.reads) expect(c.checkQuote, c.label).toContain(r.url);
      } else expect(c.checkedOn, c.label).toBeNull();
    }
    expect(checked.map((c) => c.label)).toEqual(
      expect.arrayContaining([
        "h100-80g",
        "h200-141g",
        "gb200-186g",
        "a100-80g",
        "l40s-48g",
        "mi300x-192g",
        "mi355x-288g",
        "gb10-128g",
      ]),
    );
  });

  test("the engine's copy of the checked cards is the quotes' verdict, and an option's speed basis says which were not read", () => {
    expect([...VENDOR_CHECKED_LABELS].sort()).toEqual(checked.map((c) => c.label).sort());
    expect(speedCardOf("h100-80g").vendorChecked).toBe(true);
    expect(speedCardOf("rtx4090-24g").vendorChecked).toBe(false);
  });

  test('DGX Spark is checked whole on NVIDIA\'s developer blog: 273 GB/s, and its FP4 "1 千万亿次" (10^15) halved to 500 dense', () => {
    const gb10 = SPECS.find((c) => c.label === "gb10-128g");
    expect(gb10?.checked).toBe(true);
    expect(gb10?.checkedFields).toEqual(expect.arrayContaining(["memBandwidthGBps", "fp4"]));
    expect(gb10?.tflops.fp4).toBe(500);
    expect(gb10?.reads.some((r) => r.url.startsWith("https://developer.nvidia.com/"))).toBe(true);
  });

  test("MI325X: AMD's own blog gives its 6 TB/s, but no AMD page here prints its TFLOPS, so it is not checked whole", () => {
    const mi325x = SPECS.find((c) => c.label === "mi325x-256g");
    expect(mi325x?.memBandwidthGBps).toBe(6000);
    expect(mi325x?.checkedFields).toEqual(["memBandwidthGBps"]);
    expect(mi325x?.checked).toBe(false);
    expect(mi325x?.checkQuote).toContain("TFLOPS not checked");
  });

  // Issue 12's second pass (read 2026-12-02): Apple's newsroom and Support tech specs print these chips' bandwidth,
  // NVIDIA's developer site V100's 125 tensor TFLOPS; none prints the rest, so each card stays unchecked as a whole.
  test.each([
    ["apple-m1-pro", "memBandwidthGBps", 200, "https://www.apple.com/"],
    ["apple-m1-max", "memBandwidthGBps", 400, "https://www.apple.com/"],
    ["apple-m2-ultra", "memBandwidthGBps", 800, "https://www.apple.com/"],
    ["apple-m3-pro", "memBandwidthGBps", 150, "https://support.apple.com/"],
    ["apple-m3-max-30c", "memBandwidthGBps", 300, "https://support.apple.com/"],
    ["apple-m3-max-40c", "memBandwidthGBps", 400, "https://support.apple.com/"],
    ["apple-m4", "memBandwidthGBps", 120, "https://support.apple.com/"],
    ["apple-m4-pro", "memBandwidthGBps", 273, "https://support.apple.com/"],
    ["v100-32g", "bf16", 125, "https://developer.nvidia.com/"],
  ] as const)(
    "%s: the vendor's own page gives %s = %d, and the card is not checked whole",
    (label, field, value, host) => {
      const c = SPECS.find((x) => x.label === label);
      expect(c === undefined ? null : fieldValue(c, field)).toBe(value);
      expect(c?.checkedFields).toEqual([field]);
      expect(c?.reads.every((r) => r.url.startsWith(host) && r.readOn === "2026-12-02")).toBe(true);
      expect(c?.checked).toBe(false);
      expect(c?.checkQuote).toContain("read 2026-12-02");
    },
  );

  // Issue 12's third pass (read 2026-12-03): NVIDIA's own datasheets, as PDFs in NVIDIA's own repository
  // (NVIDIA/GenerativeAIExamples ships them as sample documents), and a bandwidth in an nvFuser test's comment.
  test("A100 SXM4 40GB is checked whole on NVIDIA's A100 datasheet: 1,555 GB/s, 312 BF16 and 624 INT8 dense, NVLink 600 GB/s both ways", () => {
    const c = SPECS.find((x) => x.label === "a100-40g");
    expect(c?.memBandwidthGBps).toBe(1555);
    expect(c?.checkedFields).toEqual(["memBandwidthGBps", "bf16", "int8", "link"]);
    expect(c?.checked).toBe(true);
    expect(c?.checkedOn).toBe("2026-12-03");
    expect(c?.reads.every((r) => r.url.startsWith("https://github.com/NVIDIA/GenerativeAIExamples/blob/"))).toBe(true);
    // The table's columns differ: its 40 GB SXM figure is not the 80 GB SXM card's 2,039.
    expect(printedAgrees(2039, { printed: "GPU Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s", times: 1 })).toBe(
      false,
    );
  });

  test.each([
    ["rtx6000ada-48g", ["memBandwidthGBps", "fp8"], "https://github.com/NVIDIA/GenerativeAIExamples/blob/"],
    ["rtx3090-24g", ["memBandwidthGBps"], "https://github.com/NVIDIA/Fuser/blob/"],
  ] as const)("%s: NVIDIA's own file gives %j, and the card is not checked whole", (label, fields, host) => {
    const c = SPECS.find((x) => x.label === label);
    expect(c?.checkedFields).toEqual(fields);
    expect(c?.reads.every((r) => r.url.startsWith(host) && r.readOn === "2026-12-03")).toBe(true);
    expect(c?.checked).toBe(false);
    expect(c?.checkQuote).toContain("not checked");
  });

  test("RTX 5090 FP4 is NVIDIA's 3,352 sparse AI TOPS halved (1,676), not the starting list's 838, and stays unchecked (a reprint)", () => {
    const rtx5090 = SPECS.find((c) => c.label === "rtx5090-32g");
    expect(rtx5090?.tflops.fp4).toBe(1676);
    expect(rtx5090?.checked).toBe(false);
    expect(rtx5090?.checkQuote).toContain("3,352");
  });

  // GeForce cards llama.cpp users run (its CUDA scoreboard, discussion #15013), none read on NVIDIA's own page: each
  // figure against what a third-party page printed for it (cardSpecChecks.ts names the page), within its rounding.
  test.each([
    // label, printed GB/s, a printed compute figure: [format, printed, × to dense FP32-accumulate]
    ["rtx4060-8g", 272, ["bf16", 30.23, 1]], // hmc-tech: "30.23 TFLOPS Tensor (FP32 Accumulate)"
    ["rtx4060-8g", 272, ["fp8", 60.46, 1]], // hmc-tech: FP8 "60.46 TFLOPS Tensor (FP32 Accumulate)"
    ["rtx4060ti-8g", 288, null],
    ["rtx4060ti-16g", 288, null],
    ["rtx4070-12g", 504, null],
    ["rtx4070super-12g", 504, null],
    ["rtx4070tisuper-16g", 672, null],
    ["rtx3060ti-8g", 448, null],
    ["rtx3080ti-12g", 912, null],
    ["rtx3090ti-24g", 1008, null],
    // NVIDIA's Turing deck: "114 TFLOPS of FP16" (FP16 accumulate) at the Founders Edition's 1,635 MHz; the table is at 1,545.
    ["rtx2080ti-11g", 616, ["fp16", 114, 1545 / 1635]],
    // hmc-tech: "759.4 TFLOPS FP4 Tensor Sparse"; NVIDIA's "988 AI TOPS" (sparse FP4) as TweakTown reprints it.
    ["rtx5060ti-16g", 448, ["fp4", 759.4, 0.5]],
    ["rtx5070-12g", 672, ["fp4", 988, 0.5]],
  ] as const)(
    "%s: %d GB/s and its dense TFLOPS as third parties print them; not vendor-checked",
    (label, gbps, compute) => {
      const c = SPECS.find((x) => x.label === label);
      expect(c?.memBandwidthGBps).toBe(gbps);
      if (compute !== null) {
        const [format, printed, times] = compute;
        // Within 0.5%: the pages round, and hmc-tech takes the 5060 Ti at 2,575 MHz where the table has 2,572.
        expect(Math.abs((c?.tflops[format] ?? 0) / (printed * times) - 1)).toBeLessThan(0.005);
      }
      expect(c?.checked).toBe(false);
      expect(c?.checkQuote).toContain("not on NVIDIA's page here");
      expect(speedCardOf(label).vendorChecked).toBe(false);
    },
  );

  test("MI100 is checked whole on AMD's own MI100 page in ROCm/ROCm: 1.228 TB/s and 92.3 matrix BF16 (half its 184.6 FP16)", () => {
    const c = SPECS.find((x) => x.label === "mi100-32g");
    expect(c?.memBandwidthGBps).toBe(1228);
    expect(c?.tflops).toMatchObject({ bf16: 92.3, fp16: 184.6, int8: null });
    expect(c?.checkedFields).toEqual(["memBandwidthGBps", "bf16"]);
    expect(c?.checked).toBe(true);
    expect(c?.reads.every((r) => r.url.startsWith("https://github.com/ROCm/ROCm/blob/"))).toBe(true);
    expect(speedCardOf("mi100-32g").vendorChecked).toBe(true);
  });

  // AMD's MI250 page gives a CDNA2 CU's 1,024 matrix FLOPs a clock at 1.7 GHz and 1.6 TB/s a GCD; the MI250X and MI210
  // are other CU counts of that GCD, so theirs are derived, and agree with what AMD's tables print as reprinted.
  test.each([
    // label, GB/s, BF16, the printed figure it is checked against
    ["mi250x-64g", 1600, 191.5, 383.0 / 2], // "FP16 | bf16 … Up to 383.0 TF" for the two GCDs
    ["mi210-64g", 1600, 181, 104 * 1024 * 1.7e-3], // its rocminfo's 104 CUs at 1,700 MHz
    ["mi50-32g", 1024, 26.5, 26.5], // huggingface.co/hardware/mi50: "TFLOPS 26.5" (FP16 vector)
    ["rx7800xt-16g", 624, 74.6, (122.8 / (96 * 2.5)) * 60 * 2.43], // the RX 7900 XTX's rate, 60 CUs at 2.43 GHz
    ["rx6900xt-16g", 512, 46.1, 2 * 23.04], // FP16 packed at twice gpupoet's "23.04 TFLOPS of FP32"
    ["rx6800xt-16g", 512, 41.5, (2 * 23.04 * 72) / 80],
  ] as const)("%s: %d GB/s and BF16 %d, derived and not vendor-checked", (label, gbps, bf16, printed) => {
    const c = SPECS.find((x) => x.label === label);
    expect(c?.memBandwidthGBps).toBe(gbps);
    expect(c?.tflops.bf16).toBe(bf16);
    expect(Math.abs(bf16 / printed - 1)).toBeLessThan(0.002);
    expect(c?.checked).toBe(false);
  });

  test("RTX 4060, 4060 Ti and 5060 Ti wire eight lanes: half a PCIe 4.0 / 5.0 x16's one-way 31.5 / 63 GB/s", () => {
    for (const label of ["rtx4060-8g", "rtx4060ti-8g", "rtx4060ti-16g"]) {
      expect(cardSpecOf(label)?.link).toMatchObject({ generation: "PCIe 4.0 x8", gbpsPerDirection: 15.75 });
    }
    expect(cardSpecOf("rtx5060ti-16g")?.link).toMatchObject({ generation: "PCIe 5.0 x8", gbpsPerDirection: 31.5 });
    expect(cardSpecOf("rtx4070-12g")?.link.generation).toBe("PCIe 4.0 x16");
    expect(cardSpecOf("rtx2080ti-11g")?.link.generation).toBe("PCIe 3.0 x16");
  });

  test("where the vendor prints another figure, the vendor's stands: B200 7,700 GB/s and B300 7,750, not gpus.json's 8,000", () => {
    for (const [label, gbps] of [
      ["b200-180g", 7700],
      ["b300-288g", 7750],
    ] as const) {
      const c = SPECS.find((x) => x.label === label);
      expect(c?.memBandwidthGBps, label).toBe(gbps);
      expect(c?.checked, label).toBe(true);
    }
  });

  test("rounding the vendor's own pages differ by is accepted, a different figure is not", () => {
    // H100 SXM: 1,979 sparse on the datasheet is 989.4 dense; aiconfigurator prints 989.
    expect(printedAgrees(989.4, { printed: "bfloat16_tc_flops: 989000000000000", times: 1e-12 })).toBe(true);
    // MI355X: "2.5 PF" holds 2,450 to 2,550.
    expect(printedAgrees(2516.6, { printed: "BF16 Sparsity: 2.5 PF", times: 1000 })).toBe(true);
    expect(printedAgrees(2600, { printed: "BF16 Sparsity: 2.5 PF", times: 1000 })).toBe(false);
    expect(printedAgrees(8000, { printed: "mem_bw: 7700000000000", times: 1e-9 })).toBe(false);
    expect(printedAgrees(null, { printed: "4.8TB/s", times: 1000 })).toBe(false);
  });

  test("vendors print 2:4-sparse TFLOPS; the table keeps dense ones: H100 SXM BF16 989.4, not 1,979", () => {
    expect(cardSpecOf("h100-80g")?.tflops.bf16).toBe(989.4);
  });

  test("NVLink figures are one direction: NVLink 4's 900 GB/s both ways is 450", () => {
    expect(cardSpecOf("h100-80g")?.link.gbpsPerDirection).toBe(450);
    expect(cardSpecOf("b200-180g")?.link.gbpsPerDirection).toBe(900);
  });

  test("a class the table lacks gives a card with no bandwidth (its speed is null, never guessed)", () => {
    expect(speedCardOf("my-own-card").memBandwidthGBps).toBeNull();
  });

  test("host memory: a DDR5-4800 channel moves 38.4 GB/s; the default is 2 × DDR4-3200 = 51.2 GB/s", () => {
    expect(HOST_MEMORY.channelGBps["ddr5-4800"]).toBeCloseTo(38.4, 6);
    expect(HOST_MEMORY.defaultGBps).toBeCloseTo(51.2, 6);
  });
});
