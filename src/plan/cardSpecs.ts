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
 * memory. `checked` is true only where the figure was read on the vendor's
 * own document (the quote says where); `checkQuote` otherwise says what
 * third-party page agreed, or that nothing was found. A figure marked
 * "derived" is arithmetic on vendor numbers (units × clock), not printed by
 * the vendor.
 */
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
  /** The vendor page the figures come from. */
  source: string;
  /**
   * Read on a page the vendor itself hosts (its site, its docs, its own
   * repository's rendered docs) during this work; a reprint or mirror of a
   * vendor document does not count, however faithful.
   */
  checked: boolean;
  /** The day it was read there (ISO date), when checked. */
  checkedOn: string | null;
  /** The line that was read, or what agreed / that nothing could be read. */
  checkQuote: string;
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

const UNCHECKED =
  "not re-read on the vendor's page here (the search corpus held no copy of it); value as in docs/speed/gpus.json";

export function spec(
  label: string,
  name: string,
  kind: CardKind,
  formFactor: CardSpec["formFactor"],
  memBandwidthGBps: number | null,
  tflops: Record<ComputeFormat, number | null>,
  cardLink: CardLink,
  source: string,
  checkQuote: string = UNCHECKED,
  checkedOn: string | null = null,
): CardSpec {
  const checked = checkedOn !== null;
  return {
    label,
    name,
    kind,
    formFactor,
    memBandwidthGBps,
    tflops,
    link: cardLink,
    source,
    checked,
    checkedOn,
    checkQuote,
  };
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
/** The day the figures marked checked were read on the vendor's page. */
const CHECKED_ON = "2026-12-01";
const APPLE_SPECS = "https://support.apple.com/en-us/docs/mac";

export const CARD_SPECS: readonly CardSpec[] = [
  // Hopper
  spec(
    "h100-80g",
    "NVIDIA H100 SXM5 80GB",
    "hbm",
    "sxm",
    3350,
    tf(989.4, 1978.9, null, 1978.9),
    link.nvlink4,
    NV_H100,
    'not on NVIDIA\'s own page here; NVIDIA\'s table as a distributor reprints it (https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html): "BFLOAT16 Tensor コア | 1,979 TFLOPS* | 1,513 TFLOPS*" … "GPU メモリ帯域幅 | 3,350 GB/sec | 2000 GB/sec" … "* Shown with sparsity. Specifications 1/2 lower without sparsity"; "相互接続 | NVLink: 900GB/秒"',
  ),
  spec(
    "h100-pcie-80g",
    "NVIDIA H100 PCIe 80GB",
    "hbm",
    "pcie",
    2000,
    tf(756, 1513, null, 1513),
    withNote(link.pcie5, "an NVLink bridge joins pairs at 600 GB/s"),
    NV_H100,
    "not on NVIDIA's own site here: read on a third-party mirror of NVIDIA's H100 PCIe Product Brief PB-11133-001_v02, https://manuals.plus/m/56b0c3ef7d0a1c470c0af8f05a0bd1f29a778007472ba941201fbbb185c9bccd): \"The NVIDIA H100 PCIe debuts the world's highest PCIe card memory bandwidth greater than 2,000 gigabytes per second (GBps)\"; TFLOPS from the distributor's reprint of NVIDIA's table (https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html): \"BFLOAT16 Tensor コア | 1,979 TFLOPS* | 1,513 TFLOPS*\" (sparse, halved here)",
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
    "not on the vendor's page here; corroborated by https://grokipedia.com/page/210100120: \"delivering up to 3.93 TB/s memory bandwidth\" (3,900 kept, NVIDIA's table figure)",
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
    'not on the vendor\'s page here; corroborated by https://www.aiminingco.com/gpu/h200/specs: "141GB of HBM3e memory with 4.8 TB/s of memory bandwidth"',
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
  spec(
    "b200-180g",
    "NVIDIA B200 (HGX)",
    "hbm",
    "sxm",
    8000,
    tf(2250, 4500, 9000, 4500),
    link.nvlink5,
    NV_HGX,
    'not on the vendor\'s page here; corroborated by https://docs.vultr.com/inference-cookbook/cuda/getting-started/hardware-overview: "| Memory Bandwidth | 8.0 TB/s | FP8 Compute | ~4.5 PFLOPS | FP4 Compute | ~9.0 PFLOPS (NVFP4)"; https://glennklockwood.com/garden/processors/B200 (HGX at 1,000 W, from NVIDIA): "BF16 | 2250"',
  ),
  spec(
    "b300-288g",
    "NVIDIA B300 (HGX Blackwell Ultra)",
    "hbm",
    "sxm",
    8000,
    tf(2250, 4500, 13500, 150),
    link.nvlink5,
    NV_HGX,
    'not on NVIDIA\'s own page here; third-party tables disagree on dense FP4 (https://glennklockwood.com/garden/processors/B300, HGX from NVIDIA: "BF16 | 2250 | 4500", "FP8 | 4500 | 9000", "FP4 | 13125"; https://verda.com/blog/gb300-nvl72-architecture: B300 "FP4 | … | 14 PFLOPS", "INT8 … 0.15 POPS"): 13,500 kept from gpus.json, INT8 cut on Blackwell Ultra so 150',
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
    'not on the vendor\'s page here; corroborated by https://glennklockwood.com/garden/processors/B200 (GB200 at 1,200 W, from NVIDIA): "BF16 | 2500 | FP8 | 5000 | FP4 | 10000"',
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
    'not on NVIDIA\'s own page here; corroborated by https://verda.com/blog/gb300-nvl72-architecture (without sparsity): "FP4 | 15 PFLOPS", "FP8 | 5 PFLOPS", "FP16/BF16 | 2.5 PFLOPS", "GPU Memory Bandwidth | 8 TB/s"',
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
    "not on the vendor's page here; corroborated by https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory: \"Memory Bandwidth: 1,792 GB/s\"; TFLOPS = NVIDIA's 4,000 AI TOPS (sparse FP4) halved per format, derived",
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
    "as the Server Edition (same GB202, same GDDR7 at 28 Gbps): corroborated by the same gpu.name page; not re-read on NVIDIA's",
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
    "bandwidth as the other RTX PRO 6000s (same memory); TFLOPS derived from NVIDIA's 3,511 AI TOPS (sparse FP4); not re-read",
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
    geforce(209.5, 419, 838, 838),
    link.pcie5,
    "https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
    'not on NVIDIA\'s page here; corroborated by https://pocketmags.com/linux-format-magazine/may-2025/articles/nvidia-geforce-rtx-5090: "AI cores: 680 … TFLOPS: 104 FP32, 838 FP16 … Bandwidth: 1,792GB/s" (838 = FP16-accumulate with sparsity, so 419 dense, 209.5 at FP32 accumulate)',
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
    'bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090\'s 209.5 × 336/680 tensor cores × 2.62/2.41 GHz, the counts and clocks per https://www.sipoch.com/en/articles/300330022705642: "tensor cores 680 (5th generation) … 336 (5th generation)", "maximum clock frequency 2.41 GHz … 2.62 GHz"',
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
    "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090's 209.5 × 280/680 tensor cores × 2.45/2.41 GHz boost",
  ),
  // Ampere
  spec(
    "a100-80g",
    "NVIDIA A100 SXM4 80GB",
    "hbm",
    "sxm",
    2039,
    tf(312, null, null, 624),
    link.nvlink3,
    NV_A100,
    'not on the vendor\'s page here; corroborated by https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide: "| Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s | 2,039GB/s |" and https://glennklockwood.com/garden/processors/A100 (citing this datasheet): "BF16 | 312 | 624"',
  ),
  spec(
    "a100-pcie-80g",
    "NVIDIA A100 PCIe 80GB",
    "hbm",
    "pcie",
    1935,
    tf(312, null, null, 624),
    withNote(link.pcie4, "an NVLink bridge joins pairs at 600 GB/s"),
    NV_A100,
    'not on the vendor\'s page here; corroborated by https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide: "A100 PCIe 80GB … 1,935GB/s"',
  ),
  spec(
    "a100-40g",
    "NVIDIA A100 SXM4 40GB",
    "hbm",
    "sxm",
    1555,
    tf(312, null, null, 624),
    link.nvlink3,
    NV_A100,
    'not on the vendor\'s page here; corroborated by https://glennklockwood.com/garden/processors/A100: "40 GB HBM2 (5 stacks) … 1.555 TB/s"',
  ),
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
    "AWS prints no TFLOPS for its A10G and NVIDIA no page for it: compute left unknown, so prefill is null",
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
    'not on NVIDIA\'s own page here; NVIDIA\'s A40 datasheet table as a reseller reprints it (https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html): "Memory bandwidth 696 GB/s" … "NVIDIA NVLink 112.5 GB/s (bidirectional) PCIe Gen4: 64GB/s" … "Peak BF16 Tensor TFLOPS with FP32 Accumulate 149.7 | 299.4*" … INT8 "299.3 | 598.6*"',
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
    'not on NVIDIA\'s own page here; NVIDIA\'s spec table as https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation reprints it: "Memory Bandwidth | 768 GB/s" … "NVLink Interconnect | 112.5 GB/s (bidirectional)"; TFLOPS per https://llmperf.net/categories/gpu/Nvidia-A6000-GPUs (citing Microway): "Mixed-Precision (FP16/BF16) 154.8 TFLOPS" … "INT8 Performance 309.7 TOPS"',
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
    "not in gpus.json and not re-read: NVIDIA's 222.2 sparse tensor TFLOPS halved",
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
    'not on NVIDIA\'s own page here; NVIDIA\'s L40/L40S table as a reseller reprints it (https://www.mullet.se/product.html?product_id=355414): "Memory Bandwidth | 864GB/s" … "BFLOAT16 Tensor Core TFLOPS | 181.05 | 362.1* | 362.05 | 733*" … "FP8 Tensor Core | 362 | 724* | 733 | 1,466*" (* with sparsity); "PCIe Gen4 x16: 64GB/s bidirectional"',
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
    'not on NVIDIA\'s own page here; the same reprinted L40/L40S table (https://www.mullet.se/product.html?product_id=355414): "BFLOAT16 Tensor Core TFLOPS | 181.05 | 362.1*" … "Peak INT8 Tensor TOPS | 362 | 724*"',
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
    'not on the vendor\'s page here; corroborated by https://gist.github.com/mikasenghaas/d63ded03f1f0417b1677627119bacc0d: "flops_4090 = 165e12 # dense bf16 tensor cores … bandwidth_4090 = 1.008e12"',
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
    "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4080's 97.5 × 320/304 tensor cores × 2.55/2.505 GHz",
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
    "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4090's 165.2 × 240/512 tensor cores × 2.61/2.52 GHz",
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
    "t4-16g",
    "NVIDIA T4",
    "gddr",
    "pcie",
    320,
    tf(65, null, null, 130),
    link.pcie3,
    "https://www.nvidia.com/en-us/data-center/tesla-t4/",
    'not in gpus.json and not re-read; corroborated by https://huggingface.co/RajBhope/gpu-runtime-predictor/blob/main/gpu_catalog.json: "memory_bandwidth_gbps": 320 … "fp16_tflops": 65',
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
    'not re-read; corroborated by the same gpu_catalog.json: "memory_bandwidth_gbps": 900 … "fp16_tflops": 125 (FP16 tensor; V100 has no BF16)',
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
    "value as in gpus.json (FP16 tensor; V100 has no BF16), not re-read",
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
    "not in gpus.json and not re-read (FP16 vector rate; no tensor cores)",
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
    "bandwidth as in gpus.json, not re-read; FP16 runs at 1/64 rate on GP102, so only INT8 (47 TOPS) is given and BF16 is null",
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
    'AMD\'s ROCm documentation, "AMD Instinct MI300 series microarchitecture" (https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html; its source ROCm/ROCm docs/conceptual/gpu-arch/mi300.md @ e396b4898f459db094bfd60b876f419f77eb9f09), table "Peak-performance capabilities of the MI300X": "Matrix BF16 | 2048 | 1307.4", "Matrix FP8 | 4096 | 2614.9", "Matrix INT8 | 4096 | 2614.9" (dense: the table has no sparsity column); "The theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per second." The xGMI figure is not on that page (it says only "seven high-bandwidth, low-latency AMD Infinity Fabric links")',
    CHECKED_ON,
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
    'AMD\'s ROCm documentation, "AMD Instinct MI350 Series microarchitecture" (https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi350.html; its source ROCm/rocm-docs docs/reference/gpu-arch/mi350.rst @ 002654d682cc540a946f88e04616b754e9f47a65), table "Peak theoretical performance", MI355X column: "Matrix BF16 | BF16 Sparsity: 2.5 PF | 5.0 PF", "Matrix OCP-FP8 | OCP-FP8 Sparsity: 5.0 PF | 10 PF", "Matrix MXFP6 / MXFP4: 10 PF", "Matrix INT8 | INT8 Sparsity: 5.0 POPs | 10 POPs"; "up to 8 TB/s of peak theoretical memory bandwidth"; "7 AMD Infinity Fabric links operating at 38.4 Gbps, providing over 1 TB/s of aggregate communication bandwidth per GPU". The page rounds to two figures; the table keeps 2516.6 (256 CUs × 4,096 BF16 FLOPS a clock × 2.4 GHz, AMD\'s peak engine clock, which that page does not print)',
    CHECKED_ON,
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
    "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found",
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
    "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found",
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
    "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found",
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
    "bandwidth derived (LPDDR5X-8000 × 256-bit = 256 GB/s) as in gpus.json, not re-read; no TFLOPS figure found",
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
    "bandwidth as in gpus.json, not re-read; its XMX figure is not used (unchecked)",
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
    'not on NVIDIA\'s own page here: NVIDIA\'s DGX Spark porting guide (https://docs.nvidia.com/dgx/dgx-spark-porting-guide/overview.html) says only "sharing 128GB of LPDDR5x memory with the integrated GPU"; the bandwidth agrees with https://ai-infrastructure.net/dgx-spark/ ("128 GB LPDDR5x unified, 273 GB/s") and FP4 with its "up to 1 PFLOP of FP4 (with sparsity)", halved here',
  ),
  // Apple: bandwidth as Apple prints it; GPU FP32 TFLOPS where Apple printed it (M1 family), else derived as cores × 128 ALUs × 2 × clock.
  spec(
    "apple-m1",
    "Apple M1 (8-core GPU)",
    "unified",
    "soc",
    68.25,
    tf(2.6),
    link.none,
    APPLE_SPECS,
    "M1 bandwidth (LPDDR4X-4266 × 128-bit) and Apple's \"2.6 teraflops\" as in gpus.json / Apple's M1 event, not re-read",
  ),
  spec("apple-m1-pro", "Apple M1 Pro (16-core GPU)", "unified", "soc", 200, tf(5.2), link.none, APPLE_SPECS),
  spec("apple-m1-max", "Apple M1 Max (32-core GPU)", "unified", "soc", 400, tf(10.4), link.none, APPLE_SPECS),
  spec(
    "apple-m1-ultra",
    "Apple M1 Ultra (64-core GPU)",
    "unified",
    "soc",
    800,
    tf(21),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; corroborated by https://thetechportal.com/2022/03/09/apple-mac-studio-display-m1-ultra-chip/: "Its memory bandwidth is 800 GB/sec"',
  ),
  spec(
    "apple-m2",
    "Apple M2 (10-core GPU)",
    "unified",
    "soc",
    100,
    tf(3.6),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.398 GHz)",
  ),
  spec(
    "apple-m2-pro",
    "Apple M2 Pro (19-core GPU)",
    "unified",
    "soc",
    200,
    tf(6.8),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (19 × 128 × 2 × 1.398 GHz)",
  ),
  spec(
    "apple-m2-max",
    "Apple M2 Max (38-core GPU)",
    "unified",
    "soc",
    400,
    tf(13.6),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; corroborated by https://blog.patti.tech/2023/06/05/as-rumored-the-mac-studio-gets-an-m2-refresh-including-fused-together-m2-ultra: "M2 Max … with 400 GB/s memory bandwidth"; TFLOPS derived (38 × 128 × 2 × 1.398 GHz)',
  ),
  spec(
    "apple-m2-ultra",
    "Apple M2 Ultra (76-core GPU)",
    "unified",
    "soc",
    800,
    tf(27.2),
    link.none,
    APPLE_SPECS,
    "not on Apple's page here; corroborated by https://mactrast.com/2023/06/apple-unveils-m2-ultra-faster-cpu-and-gpu-support-for-more-unified-memory/amp (Apple's announcement): \"M2 Ultra features 800GB/s of system memory bandwidth\"; TFLOPS derived (76 × 128 × 2 × 1.398 GHz)",
  ),
  spec(
    "apple-m3",
    "Apple M3 (10-core GPU)",
    "unified",
    "soc",
    100,
    tf(3.5),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.38 GHz)",
  ),
  spec(
    "apple-m3-pro",
    "Apple M3 Pro (18-core GPU)",
    "unified",
    "soc",
    150,
    tf(6.4),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (18 × 128 × 2 × 1.38 GHz)",
  ),
  spec(
    "apple-m3-max-30c",
    "Apple M3 Max (30-core GPU)",
    "unified",
    "soc",
    300,
    tf(10.6),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (30 × 128 × 2 × 1.38 GHz)",
  ),
  spec(
    "apple-m3-max-40c",
    "Apple M3 Max (40-core GPU)",
    "unified",
    "soc",
    400,
    tf(14.1),
    link.none,
    APPLE_SPECS,
    "bandwidth as in gpus.json, not re-read; TFLOPS derived (40 × 128 × 2 × 1.38 GHz)",
  ),
  spec(
    "apple-m3-ultra",
    "Apple M3 Ultra (80-core GPU)",
    "unified",
    "soc",
    819,
    tf(28.3),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "96GB of unified memory (819GBps memory bandwidth)"; TFLOPS derived (80 × 128 × 2 × 1.38 GHz)',
  ),
  spec(
    "apple-m4",
    "Apple M4 (10-core GPU)",
    "unified",
    "soc",
    120,
    tf(4),
    link.none,
    APPLE_SPECS,
    "not on Apple's page here; Apple's launch table as reprinted at https://americanfork.business/?p=76748: \"Peak memory bandwidth (GBps) 120 273 410\" (M4, M4 Pro, M4 Max 32-core); TFLOPS derived (10 × 128 × 2 × 1.578 GHz)",
  ),
  spec(
    "apple-m4-pro",
    "Apple M4 Pro (20-core GPU)",
    "unified",
    "soc",
    273,
    tf(8.1),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; the same reprinted table (https://americanfork.business/?p=76748): M4 Pro "273" GB/s; TFLOPS derived (20 × 128 × 2 × 1.578 GHz)',
  ),
  spec(
    "apple-m4-max-32c",
    "Apple M4 Max (32-core GPU)",
    "unified",
    "soc",
    410,
    tf(12.9),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "M4 Max chip … 36GB of unified memory (410GBps memory bandwidth)"; TFLOPS derived (32 × 128 × 2 × 1.578 GHz)',
  ),
  spec(
    "apple-m4-max-40c",
    "Apple M4 Max (40-core GPU)",
    "unified",
    "soc",
    546,
    tf(16.2),
    link.none,
    APPLE_SPECS,
    'not on Apple\'s page here; corroborated by https://macmegasite.com/2024/10/30/m4-max-chip-has-16-core-cpu-40-core-gpu-and-35-increase-in-memory-bandwidth: "the M4 Max chip features a 16-core CPU, 40-core GPU, and 546 GB/s of memory bandwidth"; TFLOPS derived (40 × 128 × 2 × 1.578 GHz)',
  ),
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
  "nvidia-a100-pcie-80": "a100-pcie-80g",
  "nvidia-a40": "a40-48g",
  "nvidia-rtx-a6000": "rtxa6000-48g",
  "nvidia-rtx-pro-6000-bw": "rtxpro6000ws-96g",
  "nvidia-rtx-pro-6000-bw-maxq": "rtxpro6000maxq-96g",
  "nvidia-rtx-pro-4500-bw": "rtxpro4500-32g",
  "nvidia-rtx-5090": "rtx5090-32g",
  "nvidia-rtx-5080": "rtx5080-16g",
  "nvidia-rtx-5070ti": "rtx5070ti-16g",
  "nvidia-rtx-4090": "rtx4090-24g",
  "nvidia-rtx-4080": "rtx4080-16g",
  "nvidia-rtx-4080-super": "rtx4080super-16g",
  "nvidia-rtx-4070ti": "rtx4070ti-12g",
  "nvidia-rtx-3090": "rtx3090-24g",
  "nvidia-rtx-3080-10": "rtx3080-10g",
  "nvidia-rtx-3070": "rtx3070-8g",
  "nvidia-rtx-3060-12": "rtx3060-12g",
  "nvidia-rtx-6000-ada": "rtx6000ada-48g",
  "nvidia-rtx-5000-ada": "rtx5000ada-32g",
  "nvidia-rtx-4000-ada": "rtx4000ada-20g",
  "nvidia-v100-pcie-16": "v100-16g",
  "nvidia-p40": "p40-24g",
  "amd-mi300x": "mi300x-192g",
  "amd-mi355x": "mi355x-288g",
  "amd-rx-7900xtx": "rx7900xtx-24g",
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

/** The vendor, from the name the spec gives the card. */
export function vendorOf(spec: Pick<CardSpec, "name">): CardVendor {
  if (spec.name.startsWith("NVIDIA")) return "nvidia";
  if (spec.name.startsWith("AMD")) return "amd";
  if (spec.name.startsWith("Apple")) return "apple";
  if (spec.name.startsWith("Intel")) return "intel";
  return "other";
}

/** The speed model's view of a card; a label not in the table gives a card with no bandwidth, whose speed is null with a reason. */
export function speedCardOf(gpuClass: string): SpeedCard {
  const s = cardSpecOf(gpuClass);
  if (s === undefined)
    return { label: gpuClass, kind: "gddr", vendor: "other", memBandwidthGBps: null, tflops: tf(null) };
  return { label: s.label, kind: s.kind, vendor: vendorOf(s), memBandwidthGBps: s.memBandwidthGBps, tflops: s.tflops };
}
