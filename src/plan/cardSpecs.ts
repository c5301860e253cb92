/**
 * What each card can move and multiply: the figures the speed model runs on
 * (src/plan/speed/). Keys are the class labels of cards.ts's catalog, plus
 * labels for the cards the public benchmarks use that the catalog lacks
 * (A100 PCIe, B300, GB300, the RTX PRO 6000 variants, consumer cards, AMD
 * Radeon, Intel Arc, Apple M-series, DGX Spark, Strix Halo).
 *
 * Bandwidth is decimal GB/s as vendors print it (3.35 TB/s = 3350). TFLOPS
 * are dense: vendors headline 2:4-sparse figures, twice these (H100 SXM
 * "1,979 teraFLOPS BF16" is 989.4 dense). For GeForce cards the BF16/FP16
 * figure is the FP32-accumulate rate (half of the FP16-accumulate one),
 * which is what cuBLAS and llama.cpp's kernels run at.
 *
 * Provenance: docs/speed/gpus.json was the starting list, written from
 * memory. What the vendor itself prints for each card, where, and which
 * field it gives, is in cardSpecReads.ts; cardSpecChecks.ts says which
 * figures that confirms and what else was read (the page never reads those
 * quotes, so they stay out of its first chunk, issue 19). Where a vendor
 * page printed another figure, the vendor's replaced gpus.json's. A figure
 * marked "derived" is arithmetic on vendor numbers (units × clock), not
 * printed by the vendor.
 */
import type { GivenCardFigures } from "./links.ts";
import { ddrChannelGBps, DEFAULT_HOST_GBPS } from "./speed/host.ts";
import type { CardKind, CardVendor, ComputeFormat, SpeedCard } from "./speed/types.ts";

export interface CardLink {
  /** "nvlink"/"xgmi" between the cards of one board or NVSwitch domain; "pcie" through the host; "none" for a single-chip system. */
  kind: "nvlink" | "xgmi" | "pcie" | "none";
  /** "NVLink 4", "PCIe 5.0 x16", "Infinity Fabric (xGMI)". */
  generation: string;
  /** One direction per card, GB/s: what an all-reduce's ring moves at (vendors print both directions: NVLink 4's "900 GB/s" is 450 each way). */
  gbpsPerDirection: number | null;
  note: string;
}

export interface CardSpec {
  label: string;
  name: string;
  kind: CardKind;
  /** How it is built: SXM/OAM boards, PCIe cards, NVL (bridged PCIe pairs), a superchip, or one SoC. */
  formFactor: "sxm" | "oam" | "pcie" | "nvl" | "superchip" | "soc";
  memBandwidthGBps: number | null;
  /** Dense TFLOPS per format (INT8 in TOPS); null where the card has no such unit or none is published. */
  tflops: Record<ComputeFormat, number | null>;
  link: CardLink;
  /** The vendor page the figures come from; what was read there, and when, is in cardSpecChecks.ts. */
  source: string;
}

const PCIE3 = 15.75; // 8 GT/s × 16 lanes × 128b/130b ÷ 8 (PCI-SIG PCIe 3.0)
const PCIE4 = 31.5; // 16 GT/s × 16 lanes × 128b/130b ÷ 8 (PCI-SIG PCIe 4.0)
const PCIE5 = 63; // 32 GT/s × 16 lanes × 128b/130b ÷ 8 (PCI-SIG PCIe 5.0)

export const link = {
  nvlink5: {
    kind: "nvlink",
    generation: "NVLink 5",
    gbpsPerDirection: 900,
    note: "1.8 TB/s per GPU both ways through NVSwitch",
  },
  nvlink4: {
    kind: "nvlink",
    generation: "NVLink 4",
    gbpsPerDirection: 450,
    note: "900 GB/s per GPU both ways through NVSwitch (HGX)",
  },
  nvlink3: {
    kind: "nvlink",
    generation: "NVLink 3",
    gbpsPerDirection: 300,
    note: "600 GB/s per GPU both ways through NVSwitch (HGX A100)",
  },
  nvlink2: {
    kind: "nvlink",
    generation: "NVLink 2",
    gbpsPerDirection: 150,
    note: "300 GB/s per GPU both ways (SXM2 hybrid cube mesh)",
  },
  nvlink1: { kind: "nvlink", generation: "NVLink 1", gbpsPerDirection: 80, note: "160 GB/s per GPU both ways (SXM2)" },
  pcie5: {
    kind: "pcie",
    generation: "PCIe 5.0 x16",
    gbpsPerDirection: PCIE5,
    note: "through the host or a PCIe switch",
  },
  pcie4: {
    kind: "pcie",
    generation: "PCIe 4.0 x16",
    gbpsPerDirection: PCIE4,
    note: "through the host or a PCIe switch",
  },
  pcie3: {
    kind: "pcie",
    generation: "PCIe 3.0 x16",
    gbpsPerDirection: PCIE3,
    note: "through the host or a PCIe switch",
  },
  // The RTX 4060 / 4060 Ti (AD107, AD106) and RTX 5060 Ti (GB206) wire eight lanes, half the slot's x16 (guru3d's RTX 4060
  // table, TechPowerUp's RTX 5060 Ti PCI-Express x8 scaling review; cardSpecChecks.ts has the pages).
  pcie5x8: {
    kind: "pcie",
    generation: "PCIe 5.0 x8",
    gbpsPerDirection: PCIE5 / 2,
    note: "through the host or a PCIe switch; eight lanes",
  },
  pcie4x8: {
    kind: "pcie",
    generation: "PCIe 4.0 x8",
    gbpsPerDirection: PCIE4 / 2,
    note: "through the host or a PCIe switch; eight lanes",
  },
  none: { kind: "none", generation: "single device", gbpsPerDirection: null, note: "one chip: no card-to-card link" },
} satisfies Record<string, CardLink>;

function withNote(base: CardLink, note: string): CardLink {
  return { ...base, note: `${base.note}; ${note}` };
}

/** Datacenter and workstation cards: FP16 runs at the BF16 rate whatever it accumulates in. */
function tf(
  bf16: number | null,
  fp8: number | null = null,
  fp4: number | null = null,
  int8: number | null = null,
): Record<ComputeFormat, number | null> {
  return { bf16, fp16: bf16, fp8, fp4, int8 };
}

/**
 * GeForce cards: FP16 with FP16 accumulate runs at twice the FP32-accumulate
 * rate given as bf16, and INT8 at twice that again (NVIDIA's Ampere and Ada
 * GeForce whitepapers' tensor tables); when `int8` is not given it is derived so.
 */
function geforce(
  bf16: number,
  fp8: number | null = null,
  fp4: number | null = null,
  int8: number | null = null,
): Record<ComputeFormat, number | null> {
  return { bf16, fp16: 2 * bf16, fp8, fp4, int8: int8 ?? 4 * bf16 };
}

export function spec(
  label: string,
  name: string,
  kind: CardKind,
  formFactor: CardSpec["formFactor"],
  memBandwidthGBps: number | null,
  tflops: Record<ComputeFormat, number | null>,
  cardLink: CardLink,
  source: string,
): CardSpec {
  return { label, name, kind, formFactor, memBandwidthGBps, tflops, link: cardLink, source };
}

const NV_H100 = "https://www.nvidia.com/en-us/data-center/h100/";
const NV_H200 = "https://www.nvidia.com/en-us/data-center/h200/";
const NV_HGX = "https://www.nvidia.com/en-us/data-center/hgx/";
const NV_GB200 = "https://www.nvidia.com/en-us/data-center/gb200-nvl72/";
const NV_GB300 = "https://www.nvidia.com/en-us/data-center/gb300-nvl72/";
const NV_A100 =
  "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
const AMD_INSTINCT = "https://www.amd.com/en/products/accelerators/instinct";
const ROCM_MI300 = "https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html";
const ROCM_MI350 = "https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi350.html";
const APPLE_SPECS = "https://support.apple.com/en-us/docs/mac";

export const CARD_SPECS: readonly CardSpec[] = [
  // Hopper
  spec("h100-80g", "NVIDIA H100 SXM5 80GB", "hbm", "sxm", 3350, tf(989.4, 1978.9, null, 1978.9), link.nvlink4, NV_H100),
  spec(
    "h100-pcie-80g",
    "NVIDIA H100 PCIe 80GB",
    "hbm",
    "pcie",
    2000,
    tf(756.5, 1513, null, 1513),
    withNote(link.pcie5, "an NVLink bridge joins pairs at 600 GB/s"),
    NV_H100,
  ),
  spec(
    "h100-nvl-94g",
    "NVIDIA H100 NVL 94GB",
    "hbm",
    "nvl",
    3900,
    tf(835.5, 1670.5, null, 1670.5),
    withNote(link.pcie5, "sold as NVLink-bridged pairs, 600 GB/s between the two"),
    NV_H100,
  ),
  spec(
    "h200-141g",
    "NVIDIA H200 SXM 141GB",
    "hbm",
    "sxm",
    4800,
    tf(989.4, 1978.9, null, 1978.9),
    link.nvlink4,
    NV_H200,
  ),
  spec(
    "gh200-96g",
    "NVIDIA GH200 Grace Hopper (96GB HBM3)",
    "hbm",
    "superchip",
    4000,
    tf(989.4, 1978.9, null, 1978.9),
    withNote(link.nvlink4, "NVLink-C2C 900 GB/s to its Grace CPU"),
    "https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/",
  ),
  // Blackwell
  spec("b200-180g", "NVIDIA B200 (HGX)", "hbm", "sxm", 7700, tf(2250, 4500, 9000, 4500), link.nvlink5, NV_HGX),
  spec(
    "b300-288g",
    "NVIDIA B300 (HGX Blackwell Ultra)",
    "hbm",
    "sxm",
    7750,
    tf(2250, 4500, 14000, 153.5),
    link.nvlink5,
    NV_HGX,
  ),
  spec(
    "gb200-186g",
    "NVIDIA GB200 (per Blackwell GPU)",
    "hbm",
    "superchip",
    8000,
    tf(2500, 5000, 10000, 5000),
    link.nvlink5,
    NV_GB200,
  ),
  spec(
    "gb300-288g",
    "NVIDIA GB300 (per Blackwell Ultra GPU)",
    "hbm",
    "superchip",
    8000,
    tf(2500, 5000, 15000, 165),
    link.nvlink5,
    NV_GB300,
  ),
  spec(
    "rtxpro6000-96g",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition",
    "gddr",
    "pcie",
    1792,
    tf(500, 1000, 2000, 1000),
    link.pcie5,
    "https://www.nvidia.com/en-us/data-center/rtx-pro-6000-blackwell-server-edition/",
  ),
  spec(
    "rtxpro6000ws-96g",
    "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
    "gddr",
    "pcie",
    1792,
    tf(500, 1000, 2000, 1000),
    link.pcie5,
    "https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/",
  ),
  spec(
    "rtxpro6000maxq-96g",
    "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
    "gddr",
    "pcie",
    1792,
    tf(438.9, 877.8, 1755.5, 877.8),
    link.pcie5,
    "https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000-max-q/",
  ),
  spec(
    "rtxpro4500-32g",
    "NVIDIA RTX PRO 4500 Blackwell",
    "gddr",
    "pcie",
    896,
    tf(null),
    link.pcie5,
    "https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-4500/",
  ),
  spec(
    "rtx5090-32g",
    "NVIDIA GeForce RTX 5090",
    "gddr",
    "pcie",
    1792,
    geforce(209.5, 419, 1676, 838),
    link.pcie5,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
  ),
  spec(
    "rtx5080-16g",
    "NVIDIA GeForce RTX 5080",
    "gddr",
    "pcie",
    960,
    geforce(112.6),
    link.pcie5,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5080/",
  ),
  spec(
    "rtx5070ti-16g",
    "NVIDIA GeForce RTX 5070 Ti",
    "gddr",
    "pcie",
    896,
    geforce(87.7),
    link.pcie5,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070-family/",
  ),
  spec(
    "rtx5070-12g",
    "NVIDIA GeForce RTX 5070",
    "gddr",
    "pcie",
    672,
    geforce(61.7, 123.5, 493.9),
    link.pcie5,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070-family/",
  ),
  spec(
    "rtx5060ti-16g",
    "NVIDIA GeForce RTX 5060 Ti 16GB",
    "gddr",
    "pcie",
    448,
    geforce(47.4, 94.8, 379.2),
    link.pcie5x8,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5060-family/",
  ),
  // Ampere
  spec("a100-80g", "NVIDIA A100 SXM4 80GB", "hbm", "sxm", 2039, tf(312, null, null, 624), link.nvlink3, NV_A100),
  spec(
    "a100-pcie-80g",
    "NVIDIA A100 PCIe 80GB",
    "hbm",
    "pcie",
    1935,
    tf(312, null, null, 624),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 600 GB/s"),
    NV_A100,
  ),
  spec("a100-40g", "NVIDIA A100 SXM4 40GB", "hbm", "sxm", 1555, tf(312, null, null, 624), link.nvlink3, NV_A100),
  spec(
    "a30-24g",
    "NVIDIA A30",
    "hbm",
    "pcie",
    933,
    tf(165, null, null, 330),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 200 GB/s"),
    "https://www.nvidia.com/en-us/data-center/products/a30-gpu/",
  ),
  spec(
    "a10g-24g",
    "NVIDIA A10G (AWS)",
    "gddr",
    "pcie",
    600,
    tf(null),
    link.pcie4,
    "https://aws.amazon.com/ec2/instance-types/g5/",
  ),
  spec(
    "a10-24g",
    "NVIDIA A10",
    "gddr",
    "pcie",
    600,
    tf(125, null, null, 250),
    link.pcie4,
    "https://www.nvidia.com/en-us/data-center/products/a10-gpu/",
  ),
  spec(
    "a40-48g",
    "NVIDIA A40",
    "gddr",
    "pcie",
    696,
    tf(149.7, null, null, 299.3),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 112.5 GB/s"),
    "https://www.nvidia.com/en-us/data-center/a40/",
  ),
  spec(
    "rtxa6000-48g",
    "NVIDIA RTX A6000",
    "gddr",
    "pcie",
    768,
    tf(154.8, null, null, 309.7),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 112.5 GB/s"),
    "https://www.nvidia.com/en-us/design-visualization/rtx-a6000/",
  ),
  spec(
    "rtxa5000-24g",
    "NVIDIA RTX A5000",
    "gddr",
    "pcie",
    768,
    tf(111.1, null, null, 222.2),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 112.5 GB/s"),
    "https://www.nvidia.com/en-us/design-visualization/rtx-a5000/",
  ),
  spec(
    "rtx3090-24g",
    "NVIDIA GeForce RTX 3090",
    "gddr",
    "pcie",
    936,
    geforce(71),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 112.5 GB/s"),
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/",
  ),
  spec(
    "rtx3090ti-24g",
    "NVIDIA GeForce RTX 3090 Ti",
    "gddr",
    "pcie",
    1008,
    geforce(80),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/",
  ),
  spec(
    "rtx3080ti-12g",
    "NVIDIA GeForce RTX 3080 Ti",
    "gddr",
    "pcie",
    912,
    geforce(68.2),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3080-3080ti/",
  ),
  spec(
    "rtx3080-10g",
    "NVIDIA GeForce RTX 3080 10GB",
    "gddr",
    "pcie",
    760,
    geforce(59.5),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3080-3080ti/",
  ),
  spec(
    "rtx3070-8g",
    "NVIDIA GeForce RTX 3070",
    "gddr",
    "pcie",
    448,
    geforce(40.6),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3070-3070ti/",
  ),
  spec(
    "rtx3060ti-8g",
    "NVIDIA GeForce RTX 3060 Ti",
    "gddr",
    "pcie",
    448,
    geforce(32.4),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/",
  ),
  spec(
    "rtx3060-12g",
    "NVIDIA GeForce RTX 3060 12GB",
    "gddr",
    "pcie",
    360,
    geforce(25.6),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/",
  ),
  // Ada
  spec(
    "l40s-48g",
    "NVIDIA L40S",
    "gddr",
    "pcie",
    864,
    tf(362.05, 733, null, 733),
    link.pcie4,
    "https://www.nvidia.com/en-us/data-center/l40s/",
  ),
  spec(
    "l40-48g",
    "NVIDIA L40",
    "gddr",
    "pcie",
    864,
    tf(181, 362, null, 362),
    link.pcie4,
    "https://www.nvidia.com/en-us/data-center/l40/",
  ),
  spec(
    "l4-24g",
    "NVIDIA L4",
    "gddr",
    "pcie",
    300,
    tf(121, 242.5, null, 242.5),
    link.pcie4,
    "https://www.nvidia.com/en-us/data-center/l4/",
  ),
  spec(
    "rtx4090-24g",
    "NVIDIA GeForce RTX 4090",
    "gddr",
    "pcie",
    1008,
    geforce(165.2, 330.3, null, 660.6),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
  ),
  spec(
    "rtx4080-16g",
    "NVIDIA GeForce RTX 4080",
    "gddr",
    "pcie",
    716.8,
    geforce(97.5, 194.9),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/",
  ),
  spec(
    "rtx4080super-16g",
    "NVIDIA GeForce RTX 4080 SUPER",
    "gddr",
    "pcie",
    736,
    geforce(104.4),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/",
  ),
  spec(
    "rtx4070ti-12g",
    "NVIDIA GeForce RTX 4070 Ti",
    "gddr",
    "pcie",
    504,
    geforce(80.1),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/",
  ),
  spec(
    "rtx4070tisuper-16g",
    "NVIDIA GeForce RTX 4070 Ti SUPER",
    "gddr",
    "pcie",
    672,
    geforce(88.2, 176.4),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/",
  ),
  spec(
    "rtx4070super-12g",
    "NVIDIA GeForce RTX 4070 SUPER",
    "gddr",
    "pcie",
    504,
    geforce(71, 141.9),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/",
  ),
  spec(
    "rtx4070-12g",
    "NVIDIA GeForce RTX 4070",
    "gddr",
    "pcie",
    504,
    geforce(58.3, 116.6),
    link.pcie4,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/",
  ),
  spec(
    "rtx4060ti-16g",
    "NVIDIA GeForce RTX 4060 Ti 16GB",
    "gddr",
    "pcie",
    288,
    geforce(44.1, 88.3),
    link.pcie4x8,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/",
  ),
  spec(
    "rtx4060ti-8g",
    "NVIDIA GeForce RTX 4060 Ti 8GB",
    "gddr",
    "pcie",
    288,
    geforce(44.1, 88.3),
    link.pcie4x8,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/",
  ),
  spec(
    "rtx4060-8g",
    "NVIDIA GeForce RTX 4060",
    "gddr",
    "pcie",
    272,
    geforce(30.2, 60.5),
    link.pcie4x8,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/",
  ),
  spec(
    "rtx6000ada-48g",
    "NVIDIA RTX 6000 Ada Generation",
    "gddr",
    "pcie",
    960,
    tf(364.2, 728.5, null, 728.5),
    link.pcie4,
    "https://www.nvidia.com/en-us/design-visualization/rtx-6000/",
  ),
  spec(
    "rtx5000ada-32g",
    "NVIDIA RTX 5000 Ada Generation",
    "gddr",
    "pcie",
    576,
    tf(261.1, 522.2, null, 522.2),
    link.pcie4,
    "https://www.nvidia.com/en-us/design-visualization/rtx-5000/",
  ),
  spec(
    "rtx4000ada-20g",
    "NVIDIA RTX 4000 Ada Generation",
    "gddr",
    "pcie",
    360,
    tf(81.9, 163.8, null, 163.8),
    link.pcie4,
    "https://www.nvidia.com/en-us/design-visualization/rtx-4000/",
  ),
  // Turing, Volta, Pascal
  spec(
    "rtx2080ti-11g",
    "NVIDIA GeForce RTX 2080 Ti",
    "gddr",
    "pcie",
    616,
    geforce(53.8),
    link.pcie3,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/rtx-2080-ti/",
  ),
  spec(
    "t4-16g",
    "NVIDIA T4",
    "gddr",
    "pcie",
    320,
    tf(65, null, null, 130),
    link.pcie3,
    "https://www.nvidia.com/en-us/data-center/tesla-t4/",
  ),
  spec(
    "v100-32g",
    "NVIDIA V100 SXM2 32GB",
    "hbm",
    "sxm",
    900,
    tf(125),
    link.nvlink2,
    "https://www.nvidia.com/en-us/data-center/v100/",
  ),
  spec(
    "v100-16g",
    "NVIDIA V100 PCIe 16GB",
    "hbm",
    "pcie",
    900,
    tf(112),
    link.pcie3,
    "https://www.nvidia.com/en-us/data-center/v100/",
  ),
  spec(
    "p100-16g",
    "NVIDIA P100 SXM2 16GB",
    "hbm",
    "sxm",
    732,
    tf(21.2),
    link.nvlink1,
    "https://www.nvidia.com/en-us/data-center/tesla-p100/",
  ),
  spec(
    "p40-24g",
    "NVIDIA Tesla P40",
    "gddr",
    "pcie",
    346,
    tf(null, null, null, 47),
    link.pcie3,
    "https://www.nvidia.com/en-us/data-center/tesla-p40/",
  ),
  // AMD
  spec(
    "mi300x-192g",
    "AMD Instinct MI300X",
    "hbm",
    "oam",
    5300,
    tf(1307.4, 2614.9, null, 2614.9),
    {
      kind: "xgmi",
      generation: "Infinity Fabric (xGMI)",
      gbpsPerDirection: 448,
      note: "896 GB/s peak aggregate per GPU, 7 links in an 8-GPU mesh",
    },
    ROCM_MI300,
  ),
  spec(
    "mi325x-256g",
    "AMD Instinct MI325X",
    "hbm",
    "oam",
    6000,
    tf(1307.4, 2614.9, null, 2614.9),
    {
      kind: "xgmi",
      generation: "Infinity Fabric (xGMI)",
      gbpsPerDirection: 448,
      note: "896 GB/s peak aggregate per GPU",
    },
    `${AMD_INSTINCT}/mi300/mi325x.html`,
  ),
  spec(
    "mi355x-288g",
    "AMD Instinct MI355X",
    "hbm",
    "oam",
    8000,
    tf(2516.6, 5033.2, 10066, 5033.2),
    {
      kind: "xgmi",
      generation: "Infinity Fabric (xGMI) 4",
      gbpsPerDirection: 537.6,
      note: "1,075 GB/s peak aggregate per GPU, 7 links",
    },
    ROCM_MI350,
  ),
  spec(
    "mi250x-64g",
    "AMD Instinct MI250X (one GCD)",
    "hbm",
    "oam",
    1600,
    tf(191.5, null, null, 191.5),
    {
      kind: "xgmi",
      generation: "Infinity Fabric (xGMI)",
      gbpsPerDirection: 50,
      note: "each GCD is a device: 200 GB/s one way to the other GCD of its OAM (four links), 50 GB/s per 16-wide link to other OAMs' GCDs (AMD's MI250 page); a ring across OAMs runs at the single link",
    },
    `${AMD_INSTINCT}/mi200/mi250x.html`,
  ),
  spec(
    "mi210-64g",
    "AMD Instinct MI210",
    "hbm",
    "pcie",
    1600,
    tf(181, null, null, 181),
    link.pcie4,
    `${AMD_INSTINCT}/mi200/mi210.html`,
  ),
  // CDNA's matrix BF16 runs at half its FP16 rate (AMD's MI100 table: 512 and 1024 FLOPs a CU a clock).
  spec(
    "mi100-32g",
    "AMD Instinct MI100",
    "hbm",
    "pcie",
    1228,
    { bf16: 92.3, fp16: 184.6, fp8: null, fp4: null, int8: null },
    withNote(link.pcie4, "Infinity Fabric links join hives of four (AMD's MI100 page)"),
    "https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi100.html",
  ),
  spec("mi50-32g", "AMD Instinct MI50 32GB", "hbm", "pcie", 1024, tf(26.5), link.pcie4, AMD_INSTINCT),
  spec(
    "rx7800xt-16g",
    "AMD Radeon RX 7800 XT",
    "gddr",
    "pcie",
    624,
    tf(74.6),
    link.pcie4,
    "https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7800-xt.html",
  ),
  spec(
    "rx6900xt-16g",
    "AMD Radeon RX 6900 XT",
    "gddr",
    "pcie",
    512,
    tf(46.1),
    link.pcie4,
    "https://www.amd.com/en/products/graphics/desktops/radeon/6000-series/amd-radeon-rx-6900-xt.html",
  ),
  spec(
    "rx6800xt-16g",
    "AMD Radeon RX 6800 XT",
    "gddr",
    "pcie",
    512,
    tf(41.5),
    link.pcie4,
    "https://www.amd.com/en/products/graphics/desktops/radeon/6000-series/amd-radeon-rx-6800-xt.html",
  ),
  spec(
    "rx7900xtx-24g",
    "AMD Radeon RX 7900 XTX",
    "gddr",
    "pcie",
    960,
    tf(122.8),
    link.pcie4,
    "https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xtx.html",
  ),
  spec(
    "rx7900xt-20g",
    "AMD Radeon RX 7900 XT",
    "gddr",
    "pcie",
    800,
    tf(103),
    link.pcie4,
    "https://www.amd.com/en/products/graphics/desktops/radeon/7000-series/amd-radeon-rx-7900xt.html",
  ),
  spec(
    "rx9070xt-16g",
    "AMD Radeon RX 9070 XT",
    "gddr",
    "pcie",
    644.6,
    tf(null),
    link.pcie5,
    "https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070xt.html",
  ),
  spec(
    "rx9070-16g",
    "AMD Radeon RX 9070",
    "gddr",
    "pcie",
    644.6,
    tf(null),
    link.pcie5,
    "https://www.amd.com/en/products/graphics/desktops/radeon/9000-series/amd-radeon-rx-9070.html",
  ),
  spec(
    "r9700-32g",
    "AMD Radeon AI PRO R9700",
    "gddr",
    "pcie",
    644.6,
    tf(null),
    link.pcie5,
    "https://www.amd.com/en/products/graphics/workstations/radeon-ai-pro/ai-9000-series/amd-radeon-ai-pro-r9700.html",
  ),
  spec(
    "strixhalo-128g",
    "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
    "unified",
    "soc",
    256,
    tf(null),
    link.none,
    "https://www.amd.com/en/products/processors/laptop/ryzen/ai-300-series/amd-ryzen-ai-max-plus-395.html",
  ),
  // Intel
  spec(
    "arcb580-12g",
    "Intel Arc B580",
    "gddr",
    "pcie",
    456,
    tf(null),
    link.pcie4,
    "https://www.intel.com/content/www/us/en/products/sku/241598/intel-arc-b580-graphics/specifications.html",
  ),
  // NVIDIA desktop SoC
  spec(
    "gb10-128g",
    "NVIDIA DGX Spark (GB10)",
    "unified",
    "soc",
    273,
    tf(null, null, 500),
    withNote(link.none, "a ConnectX-7 200 GbE pairs two units (a fabric, not a card link)"),
    "https://www.nvidia.com/en-us/products/workstations/dgx-spark/",
  ),
  // Apple: bandwidth as Apple prints it; GPU FP32 TFLOPS where Apple printed it (M1 family), else derived as cores × 128 ALUs × 2 × clock.
  spec("apple-m1", "Apple M1 (8-core GPU)", "unified", "soc", 68.25, tf(2.6), link.none, APPLE_SPECS),
  spec("apple-m1-pro", "Apple M1 Pro (16-core GPU)", "unified", "soc", 200, tf(5.2), link.none, APPLE_SPECS),
  spec("apple-m1-max", "Apple M1 Max (32-core GPU)", "unified", "soc", 400, tf(10.4), link.none, APPLE_SPECS),
  spec("apple-m1-ultra", "Apple M1 Ultra (64-core GPU)", "unified", "soc", 800, tf(21), link.none, APPLE_SPECS),
  spec("apple-m2", "Apple M2 (10-core GPU)", "unified", "soc", 100, tf(3.6), link.none, APPLE_SPECS),
  spec("apple-m2-pro", "Apple M2 Pro (19-core GPU)", "unified", "soc", 200, tf(6.8), link.none, APPLE_SPECS),
  spec("apple-m2-max", "Apple M2 Max (38-core GPU)", "unified", "soc", 400, tf(13.6), link.none, APPLE_SPECS),
  spec("apple-m2-ultra", "Apple M2 Ultra (76-core GPU)", "unified", "soc", 800, tf(27.2), link.none, APPLE_SPECS),
  spec("apple-m3", "Apple M3 (10-core GPU)", "unified", "soc", 100, tf(3.5), link.none, APPLE_SPECS),
  spec("apple-m3-pro", "Apple M3 Pro (18-core GPU)", "unified", "soc", 150, tf(6.4), link.none, APPLE_SPECS),
  spec("apple-m3-max-30c", "Apple M3 Max (30-core GPU)", "unified", "soc", 300, tf(10.6), link.none, APPLE_SPECS),
  spec("apple-m3-max-40c", "Apple M3 Max (40-core GPU)", "unified", "soc", 400, tf(14.1), link.none, APPLE_SPECS),
  spec("apple-m3-ultra", "Apple M3 Ultra (80-core GPU)", "unified", "soc", 819, tf(28.3), link.none, APPLE_SPECS),
  spec("apple-m4", "Apple M4 (10-core GPU)", "unified", "soc", 120, tf(4), link.none, APPLE_SPECS),
  spec("apple-m4-pro", "Apple M4 Pro (20-core GPU)", "unified", "soc", 273, tf(8.1), link.none, APPLE_SPECS),
  spec("apple-m4-max-32c", "Apple M4 Max (32-core GPU)", "unified", "soc", 410, tf(12.9), link.none, APPLE_SPECS),
  spec("apple-m4-max-40c", "Apple M4 Max (40-core GPU)", "unified", "soc", 546, tf(16.2), link.none, APPLE_SPECS),
];

/** test/fixtures/speed/measured.jsonl's gpu_key → the class label above. */
export const BENCHMARK_GPU_KEYS: Readonly<Record<string, string>> = {
  "nvidia-h100-sxm": "h100-80g",
  "nvidia-h100-pcie": "h100-pcie-80g",
  "nvidia-h200-sxm": "h200-141g",
  "nvidia-b200": "b200-180g",
  "nvidia-b300": "b300-288g",
  "nvidia-gb200": "gb200-186g",
  "nvidia-gb300": "gb300-288g",
  "nvidia-a100-sxm-80": "a100-80g",
  "nvidia-a100-sxm-40": "a100-40g",
  "nvidia-a100-pcie-80": "a100-pcie-80g",
  "nvidia-a40": "a40-48g",
  "nvidia-rtx-a6000": "rtxa6000-48g",
  "nvidia-rtx-pro-6000-bw": "rtxpro6000ws-96g",
  "nvidia-rtx-pro-6000-bw-maxq": "rtxpro6000maxq-96g",
  "nvidia-rtx-pro-4500-bw": "rtxpro4500-32g",
  "nvidia-rtx-5090": "rtx5090-32g",
  "nvidia-rtx-5080": "rtx5080-16g",
  "nvidia-rtx-5070ti": "rtx5070ti-16g",
  "nvidia-rtx-5070": "rtx5070-12g",
  "nvidia-rtx-5060ti-16": "rtx5060ti-16g",
  "nvidia-rtx-4090": "rtx4090-24g",
  "nvidia-rtx-4080": "rtx4080-16g",
  "nvidia-rtx-4080-super": "rtx4080super-16g",
  "nvidia-rtx-4070ti": "rtx4070ti-12g",
  "nvidia-rtx-4070ti-super": "rtx4070tisuper-16g",
  "nvidia-rtx-4070-super": "rtx4070super-12g",
  "nvidia-rtx-4070": "rtx4070-12g",
  "nvidia-rtx-4060ti-16": "rtx4060ti-16g",
  "nvidia-rtx-4060ti-8": "rtx4060ti-8g",
  "nvidia-rtx-4060": "rtx4060-8g",
  "nvidia-rtx-3090": "rtx3090-24g",
  "nvidia-rtx-3090ti": "rtx3090ti-24g",
  "nvidia-rtx-3080ti": "rtx3080ti-12g",
  "nvidia-rtx-3080-10": "rtx3080-10g",
  "nvidia-rtx-3070": "rtx3070-8g",
  "nvidia-rtx-3060-12": "rtx3060-12g",
  "nvidia-rtx-3060ti": "rtx3060ti-8g",
  "nvidia-rtx-2080ti": "rtx2080ti-11g",
  "nvidia-rtx-6000-ada": "rtx6000ada-48g",
  "nvidia-rtx-5000-ada": "rtx5000ada-32g",
  "nvidia-rtx-4000-ada": "rtx4000ada-20g",
  "nvidia-v100-pcie-16": "v100-16g",
  "nvidia-p40": "p40-24g",
  "amd-mi300x": "mi300x-192g",
  "amd-mi355x": "mi355x-288g",
  "amd-mi250x": "mi250x-64g",
  "amd-mi210": "mi210-64g",
  "amd-mi100": "mi100-32g",
  "amd-mi50-32": "mi50-32g",
  "amd-rx-7900xtx": "rx7900xtx-24g",
  "amd-rx-7800xt": "rx7800xt-16g",
  "amd-rx-6900xt": "rx6900xt-16g",
  "amd-rx-6800xt": "rx6800xt-16g",
  "amd-rx-7900xt": "rx7900xt-20g",
  "amd-rx-9070xt": "rx9070xt-16g",
  "amd-rx-9070": "rx9070-16g",
  "amd-r9700": "r9700-32g",
  "intel-arc-b580": "arcb580-12g",
  "apple-m1": "apple-m1",
  "apple-m1-pro": "apple-m1-pro",
  "apple-m1-max": "apple-m1-max",
  "apple-m1-ultra": "apple-m1-ultra",
  "apple-m2": "apple-m2",
  "apple-m2-pro": "apple-m2-pro",
  "apple-m2-max": "apple-m2-max",
  "apple-m2-ultra": "apple-m2-ultra",
  "apple-m3": "apple-m3",
  "apple-m3-pro": "apple-m3-pro",
  "apple-m3-max-30c": "apple-m3-max-30c",
  "apple-m3-max-40c": "apple-m3-max-40c",
  "apple-m3-ultra": "apple-m3-ultra",
  "apple-m4": "apple-m4",
  "apple-m4-pro": "apple-m4-pro",
  "apple-m4-max-32c": "apple-m4-max-32c",
  "apple-m4-max-40c": "apple-m4-max-40c",
};

/** Host memory per DDR generation: one 64-bit channel's GB/s (JEDEC speed bins × 8 bytes), for a CPU node's "channels × speed". */
export const HOST_MEMORY = {
  source:
    "JEDEC JESD79-4 (DDR4) and JESD79-5 (DDR5) speed bins, https://www.jedec.org/standards-documents/docs/jesd79-5c; GB/s = MT/s × 8 bytes per 64-bit channel (arithmetic, not a vendor figure)",
  checked: false,
  channelGBps: {
    "ddr4-2666": ddrChannelGBps(2666),
    "ddr4-3200": ddrChannelGBps(3200),
    "ddr5-4800": ddrChannelGBps(4800),
    "ddr5-5600": ddrChannelGBps(5600),
    "ddr5-6400": ddrChannelGBps(6400),
  },
  /** When a node says nothing: 2 × DDR4-3200. */
  defaultGBps: DEFAULT_HOST_GBPS,
} as const;

/** A card's speed figures by class label (MIG suffix ignored: a slice keeps the card's bandwidth share unknown, so it is not matched). */
export function cardSpecOf(gpuClass: string): CardSpec | undefined {
  // An Apple machine's class names its memory too ("apple-m3-ultra-512g"): the chip's spec holds for every configuration.
  return (
    SPEC_BY_LABEL.get(gpuClass) ??
    (gpuClass.startsWith("apple-") ? SPEC_BY_LABEL.get(gpuClass.replace(/-\d+g$/, "")) : undefined)
  );
}

/** Looked up once per option in a plan of thousands: a map, not a scan. */
const SPEC_BY_LABEL: ReadonlyMap<string, CardSpec> = new Map(CARD_SPECS.map((c) => [c.label, c]));

/**
 * Whether a node's cards of this kind reach each other's memory. NVIDIA's GeForce driver offers no peer-to-peer over
 * PCIe ("peer access is not supported between these two devices" on 8 × RTX 4090, sgl-project/sglang#4814), so
 * their all-reduces go through the host (speed/links.ts NO_PEER_ALL_REDUCE_US); every other card is taken to.
 */
export function hasPeerAccess(spec: Pick<CardSpec, "name" | "link">): boolean {
  return !(spec.link.kind === "pcie" && spec.name.includes("GeForce"));
}

/** The vendor, from the name the spec gives the card. */
export function vendorOf(spec: Pick<CardSpec, "name">): CardVendor {
  if (spec.name.startsWith("NVIDIA")) return "nvidia";
  if (spec.name.startsWith("AMD")) return "amd";
  if (spec.name.startsWith("Apple")) return "apple";
  if (spec.name.startsWith("Intel")) return "intel";
  return "other";
}

/**
 * The cards whose every speed figure was read on the vendor's own page or repository (cardSpecChecks.ts
 * decides it from the quotes; test/plan/cardSpecs.test.ts holds this copy equal), so an option's speed
 * basis can say so without the quotes in the engine's chunk.
 */
export const VENDOR_CHECKED_LABELS: ReadonlySet<string> = new Set([
  "h100-80g",
  "h100-pcie-80g",
  "h200-141g",
  "b200-180g",
  "b300-288g",
  "gb200-186g",
  "gb300-288g",
  "a100-80g",
  "a100-pcie-80g",
  "a100-40g",
  "a30-24g",
  "l40s-48g",
  "l4-24g",
  "mi300x-192g",
  "mi355x-288g",
  "mi100-32g",
  "gb10-128g",
]);

/** The speed model's view of a card; a label not in the table gives a card with no bandwidth, whose speed is null with a reason. */
export function speedCardOf(gpuClass: string): SpeedCard {
  // Asked for every option of every plan (and every recomputed speed of the slider): made once a class, frozen, since
  // the catalog never changes; bounded, as the classes an inventory names are.
  let card = speedCards.get(gpuClass);
  if (card === undefined) {
    card = Object.freeze(speedCardAfresh(gpuClass));
    if (speedCards.size >= 1024) speedCards.clear();
    speedCards.set(gpuClass, card);
  }
  return card;
}

const speedCards = new Map<string, SpeedCard>();

/**
 * A class's speed card with the figures the cluster gives it in place of the table's (links.ts cardFigures): a
 * custom card's only way to a speed. A given BF16 figure replaces the BF16 row alone: a format the card then has no
 * figure for runs at it (speed/decode.ts cardCompute), which prefill says. vendorChecked null: the figures are the user's.
 */
export function speedCardWith(gpuClass: string, given: GivenCardFigures | null): SpeedCard {
  if (given === null) return speedCardOf(gpuClass);
  const key = `${gpuClass}\u0000${given.memBandwidthGBps}\u0000${given.bf16Tflops}\u0000${given.memKind}`;
  let card = givenCards.get(key);
  if (card === undefined) {
    const base = speedCardOf(gpuClass);
    const tf = given.bf16Tflops;
    card = Object.freeze({
      ...base,
      kind: given.memKind ?? base.kind,
      memBandwidthGBps: given.memBandwidthGBps ?? base.memBandwidthGBps,
      tflops: tf === null ? base.tflops : { ...base.tflops, bf16: tf },
      vendorChecked: null,
      givenInCluster: { kindAssumed: given.memKind === null && cardSpecOf(gpuClass) === undefined },
    });
    if (givenCards.size >= 1024) givenCards.clear();
    givenCards.set(key, card);
  }
  return card;
}

const givenCards = new Map<string, SpeedCard>();

function speedCardAfresh(gpuClass: string): SpeedCard {
  const s = cardSpecOf(gpuClass);
  if (s === undefined)
    return {
      label: gpuClass,
      kind: "gddr",
      vendor: "other",
      memBandwidthGBps: null,
      tflops: tf(null),
      vendorChecked: false,
    };
  return {
    label: s.label,
    kind: s.kind,
    vendor: vendorOf(s),
    memBandwidthGBps: s.memBandwidthGBps,
    tflops: s.tflops,
    vendorChecked: VENDOR_CHECKED_LABELS.has(s.label),
  };
}
