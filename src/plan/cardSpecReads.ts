/**
 * What each card's vendor itself prints for the figures in cardSpecs.ts:
 * the line as read, where (a page the vendor hosts, or a file in the
 * vendor's own GitHub organisation pinned at a commit) and which field each
 * printed number gives. cardSpecChecks.ts turns these into `checked`.
 *
 * Issue 12: "check each one against the vendor's own page". A reprint on a
 * distributor's or aggregator's site does not count however faithful; those
 * are kept as notes in cardSpecChecks.ts. Read on 2026-12-01, unless a read
 * gives its own day (`readOn`).
 */

/** A figure of cardSpecs.ts a vendor page can give: bandwidth, dense TFLOPS per format, the card-to-card link. */
export type CheckedField = "memBandwidthGBps" | "bf16" | "fp8" | "fp4" | "int8" | "link";

/** One number as printed: `printed` occurs verbatim in the quote; its last number × `times` is the table's value (GB/s, dense TFLOPS, link GB/s one way). */
export interface PrintedFigure {
  printed: string;
  times: number;
}

export interface VendorRead {
  /** The page or the pinned file it was read in. */
  url: string;
  /** Whose it is, and why it counts as the vendor's own. */
  host: string;
  /** The lines as read (joined with " … "). */
  quote: string;
  fields: Partial<Record<CheckedField, PrintedFigure>>;
  /** The day it was read, where not READ_ON (ISO date). */
  readOn?: string;
}

/** The day the reads without their own `readOn` were read. */
export const READ_ON = "2026-12-01";

/** The second pass (issue 12: "try harder, by vendor"), which found these on Apple's and NVIDIA's own pages. */
const SECOND_PASS = "2026-12-02";

/**
 * The third pass (issue 12, "a third, targeted pass"), which found NVIDIA's own datasheets as files in NVIDIA's own
 * repository: NVIDIA/GenerativeAIExamples' routing-multisource-rag example ships them as its sample documents.
 */
const THIRD_PASS = "2026-12-03";
const GAIE_DATA =
  "https://github.com/NVIDIA/GenerativeAIExamples/blob/401cb446f550c6dee8048a246e6c5dbc57f38dae/community/routing-multisource-rag/data";

/** NVIDIA's A100 datasheet (r4, 2021): one table for the 40 GB and 80 GB cards, PCIe and SXM, read as text (pdftotext -layout). */
const NV_A100_DATASHEET = {
  url: `${GAIE_DATA}/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf`,
  host: "NVIDIA's A100 datasheet (\"© 2021 NVIDIA Corporation\"; the file named in the A100 rows' source URL in cardSpecs.ts), a file in NVIDIA's own repository NVIDIA/GenerativeAIExamples",
  quote:
    'table "NVIDIA A100 TENSOR CORE GPU SPECIFICATIONS (SXM4 AND PCIE FORM FACTORS)", columns "A100 40GB PCIe | A100 80GB PCIe | A100 40GB SXM | A100 80GB SXM": "BFLOAT16 Tensor Core | 312 TFLOPS | 624 TFLOPS*" … "INT8 Tensor Core | 624 TOPS | 1248 TOPS*" … "GPU Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s | 2,039GB/s" … "Interconnect | NVIDIA® NVLink® Bridge for 2 GPUs: 600GB/s ** PCIe Gen4: 64GB/s | NVLink: 600GB/s PCIe Gen4: 64GB/s" … "* With sparsity"',
  readOn: THIRD_PASS,
} as const;

/** Apple's press release for M1 Pro and M1 Max (its Guinea-Bissau newsroom edition, English, as the search corpus stores it). */
const APPLE_M1_PRO_MAX = {
  url: "https://www.apple.com/gw/newsroom/2021/10/introducing-m1-pro-and-m1-max-the-most-powerful-chips-apple-has-ever-built",
  host: 'Apple\'s newsroom (apple.com), press release "Introducing M1 Pro and M1 Max: the most powerful chips Apple has ever built", 18 October 2021',
  quote:
    "M1 Pro offers up to 200GB/s of memory bandwidth with support for up to 32GB of unified memory. M1 Max delivers up to 400GB/s of memory bandwidth — 2x that of M1 Pro and nearly 6x that of M1 — and support for up to 64GB of unified memory.",
  readOn: SECOND_PASS,
} as const;

/** Apple's tech specs of the Mac mini (2024): the M4 and the M4 Pro (both bins of each print the same bandwidth). */
const APPLE_MAC_MINI_2024 = {
  url: "https://support.apple.com/en-sg/121555",
  host: 'Apple Support (support.apple.com), "Mac mini (2024) - Tech Specs"',
  quote:
    "Apple M4 chip … 10-core GPU … 16-core Neural Engine … 120GB/s memory bandwidth … Apple M4 Pro chip … 16-core GPU … 16-core Neural Engine … 273GB/s memory bandwidth … Configurable to: M4 Pro with 14‑core CPU and 20‑core GPU",
  readOn: SECOND_PASS,
} as const;

/** Apple's tech specs of the 16-inch MacBook Pro (Nov 2023): the M3 Pro and both M3 Max bins. */
const APPLE_MBP16_2023 = {
  // The corpus stores it under the host's fully qualified form, "support.apple.com." (the same host).
  url: "https://support.apple.com/en-au/117737",
  host: 'Apple Support (support.apple.com), "MacBook Pro (16-inch, Nov 2023) - Tech Specs"',
  quote:
    "Apple M3 Pro chip … 18-core GPU … 150GB/s memory bandwidth … Configurable to: M3 Max with 14-core CPU and 30-core GPU (300GB/s memory bandwidth), or M3 Max with 16-core CPU and 40-core GPU (400GB/s memory bandwidth)",
  readOn: SECOND_PASS,
} as const;

/** NVIDIA Dynamo's configurator, main at this commit; its system files are NVIDIA's copyright. */
const AIC_COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce";
const AIC_HOST =
  "NVIDIA's own repository ai-dynamo/aiconfigurator (NVIDIA Dynamo's configurator; the file says \"SPDX-FileCopyrightText: Copyright (c) … NVIDIA CORPORATION & AFFILIATES\"), main branch";

/** A system file of aiconfigurator: its lines, and the fields they give (a yaml value, in bytes/s or FLOPS, or a figure as printed). */
function aic(file: string, lines: string[], fields: Partial<Record<CheckedField, string | PrintedFigure>>): VendorRead {
  const scale: Record<CheckedField, number> = {
    memBandwidthGBps: 1e-9,
    bf16: 1e-12,
    fp8: 1e-12,
    fp4: 1e-12,
    int8: 1e-12,
    link: 1e-9,
  };
  const out: Partial<Record<CheckedField, PrintedFigure>> = {};
  for (const [k, f] of Object.entries(fields) as [CheckedField, string | PrintedFigure][])
    out[k] = typeof f === "string" ? { printed: f, times: scale[k] } : f;
  return {
    url: `https://github.com/ai-dynamo/aiconfigurator/blob/${AIC_COMMIT}/aic-core/src/aiconfigurator_core/systems/${file}.yaml`,
    host: AIC_HOST,
    quote: lines.join(" … "),
    fields: out,
  };
}

const ROCM_HOST = "AMD's ROCm documentation (rocm.docs.amd.com)";

/**
 * By card label (cardSpecs.ts). A card not here has no vendor read. Each `aic(…)` is marked pure so
 * the bundler can leave this table out of the first screen's chunk, which never reads it.
 */
export const VENDOR_READS: Readonly<Record<string, readonly VendorRead[]>> = {
  "h100-80g": [
    /* @__PURE__ */ aic(
      "h100_sxm",
      [
        "mem_bw: 3350000000000 # 3350GB/s",
        "bfloat16_tc_flops: 989000000000000 # 989TFLOPS",
        "int8_tc_flops: 1978000000000000 # 1978TFLOPS",
        "fp8_tc_flops: 1978000000000000 # 1978TFLOPS",
        "intra_node_bw: 450000000000  # Byte/s per gpu, single direction",
      ],
      {
        memBandwidthGBps: "mem_bw: 3350000000000",
        bf16: "bfloat16_tc_flops: 989000000000000",
        int8: "int8_tc_flops: 1978000000000000",
        fp8: "fp8_tc_flops: 1978000000000000",
        link: "intra_node_bw: 450000000000",
      },
    ),
  ],
  "h100-pcie-80g": [
    /* @__PURE__ */ aic(
      "h100_pcie",
      [
        "mem_bw: 2000000000000 # 2TB/s",
        "bfloat16_tc_flops: 756500000000000 # 756.5TFLOPS (dense; NVIDIA specs list 1513TFLOPS with sparsity)",
        "int8_tc_flops: 1513000000000000 # 1513TOPS (dense; NVIDIA specs list 3026TOPS with sparsity)",
        "fp8_tc_flops: 1513000000000000 # 1513TFLOPS (dense; NVIDIA specs list 3026TFLOPS with sparsity)",
      ],
      {
        memBandwidthGBps: "mem_bw: 2000000000000",
        bf16: "bfloat16_tc_flops: 756500000000000",
        int8: "int8_tc_flops: 1513000000000000",
        fp8: "fp8_tc_flops: 1513000000000000",
      },
    ),
  ],
  "h200-141g": [
    /* @__PURE__ */ aic(
      "h200_sxm",
      [
        "mem_bw: 4800000000000 # 4800GB/s",
        "bfloat16_tc_flops: 989000000000000 # 989TFLOPS",
        "int8_tc_flops: 1978000000000000 # 1978TFLOPS",
        "fp8_tc_flops: 1978000000000000 # 1978TFLOPS",
        "intra_node_bw: 450000000000  # Byte/s per gpu, single direction",
      ],
      {
        memBandwidthGBps: "mem_bw: 4800000000000",
        bf16: "bfloat16_tc_flops: 989000000000000",
        int8: "int8_tc_flops: 1978000000000000",
        fp8: "fp8_tc_flops: 1978000000000000",
        link: "intra_node_bw: 450000000000",
      },
    ),
    {
      url: "https://github.com/NVIDIA/TensorRT-LLM/blob/1555478c1b417a0b34de05209862ea5a2ab9add1/docs/source/blogs/H200launch.md",
      host: "NVIDIA's TensorRT-LLM documentation (its blog post, rendered at nvidia.github.io/TensorRT-LLM)",
      quote:
        "H200 is the first GPU with HBM3e memory with 4.8TB/s of memory bandwidth, a 1.4X increase over H100. H200 also expands GPU memory capacity nearly 2X to 141 gigabytes (GB).",
      fields: { memBandwidthGBps: { printed: "4.8TB/s", times: 1000 } },
    },
  ],
  "b200-180g": [
    /* @__PURE__ */ aic(
      "b200_sxm",
      [
        "# https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703",
        "mem_bw: 7700000000000 # 7.7TB/s",
        "bfloat16_tc_flops: 2250000000000000 # 2250TFLOPS",
        "int8_tc_flops: 4500000000000000 # 4500TFLOPS",
        "fp8_tc_flops: 4500000000000000 # 4500TFLOPS",
        "fp4_tc_flops: 9000000000000000 # 9000TFLOPS",
        "intra_node_bw: 900000000000  # Byte/s per gpu, single direction",
      ],
      {
        memBandwidthGBps: "mem_bw: 7700000000000",
        bf16: "bfloat16_tc_flops: 2250000000000000",
        int8: "int8_tc_flops: 4500000000000000",
        fp8: "fp8_tc_flops: 4500000000000000",
        fp4: "fp4_tc_flops: 9000000000000000",
        link: "intra_node_bw: 900000000000",
      },
    ),
  ],
  "b300-288g": [
    /* @__PURE__ */ aic(
      "b300_sxm",
      [
        "# https://resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet",
        "mem_bw: 7750000000000 # 7.75 TB/s (Total mem_bw: 62TB/s / 8 GPUs)",
        "bfloat16_tc_flops: 2250000000000000 # 2250 TFLOPS (4.5 PFLOPS sparse / 2)",
        "int8_tc_flops: 153500000000000 # 153.5 TFLOPS (307 TOPS sparse / 2)",
        "fp8_tc_flops: 4500000000000000 # 4.5 PFLOPS (9 PFLOPS sparse / 2)",
        "fp4_tc_flops: 14000000000000000 # 14 PFLOPS (18 PFLOPS sparse | 14 PFLOPS dense)",
        "intra_node_bw: 900000000000  # Byte/s per gpu, single direction (1.8 TB/s NVLink bidir / 2)",
      ],
      {
        memBandwidthGBps: "mem_bw: 7750000000000",
        bf16: "bfloat16_tc_flops: 2250000000000000",
        int8: "int8_tc_flops: 153500000000000",
        fp8: "fp8_tc_flops: 4500000000000000",
        fp4: "fp4_tc_flops: 14000000000000000",
        link: "intra_node_bw: 900000000000",
      },
    ),
  ],
  "gb200-186g": [
    /* @__PURE__ */ aic(
      "gb200",
      [
        "# https://nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703",
        "mem_bw: 8000000000000 # 8TB/s",
        "bfloat16_tc_flops: 2500000000000000 # 2500TFLOPS",
        "int8_tc_flops: 5000000000000000 # 5000TFLOPS",
        "fp8_tc_flops: 5000000000000000 # 5000TFLOPS",
        "fp4_tc_flops: 10000000000000000 # 10PFLOPS",
        "intra_node_bw: 900000000000  # Byte/s per GPU, single direction - NVLink 5th gen within node",
      ],
      {
        memBandwidthGBps: "mem_bw: 8000000000000",
        bf16: "bfloat16_tc_flops: 2500000000000000",
        int8: "int8_tc_flops: 5000000000000000",
        fp8: "fp8_tc_flops: 5000000000000000",
        fp4: "fp4_tc_flops: 10000000000000000",
        link: "intra_node_bw: 900000000000",
      },
    ),
  ],
  "gb300-288g": [
    /* @__PURE__ */ aic(
      "gb300",
      [
        "# https://resources.nvidia.com/en-us-blackwell-architecture/blackwell-ultra-datasheet",
        "mem_bw: 8000000000000 # 8TB/s",
        "bfloat16_tc_flops: 2500000000000000 # 2500TFLOPS",
        "int8_tc_flops: 165000000000000 # 165TFLOPS",
        "fp8_tc_flops: 5000000000000000 # 5PFLOPS",
        "fp4_tc_flops: 15000000000000000 # 15PFLOPS",
        "intra_node_bw: 900000000000  # Byte/s per GPU, single direction - NVLink 5th gen within node",
      ],
      {
        memBandwidthGBps: "mem_bw: 8000000000000",
        bf16: "bfloat16_tc_flops: 2500000000000000",
        int8: "int8_tc_flops: 165000000000000",
        fp8: "fp8_tc_flops: 5000000000000000",
        fp4: "fp4_tc_flops: 15000000000000000",
        link: "intra_node_bw: 900000000000",
      },
    ),
  ],
  "rtxpro6000-96g": [
    // Only the bandwidth: the file's TFLOPS are scaled to one node's observed clock ("scaled conservatively"), not NVIDIA's spec.
    /* @__PURE__ */ aic(
      "rtx_pro_6000_server",
      [
        "# Memory bandwidth and Tensor Core ratios are based on NVIDIA RTX PRO 6000",
        "# Blackwell architecture specs, scaled conservatively to the observed max SM clock.",
        "mem_bw: 1792000000000 # 1.792 TB/s GDDR7",
      ],
      { memBandwidthGBps: "mem_bw: 1792000000000" },
    ),
  ],
  "a100-80g": [
    /* @__PURE__ */ aic(
      "a100_sxm",
      [
        "mem_bw: 2039000000000 # 2.039TB/s",
        "bfloat16_tc_flops: 312000000000000 # 312TFLOPS",
        "int8_tc_flops: 624000000000000 # 624TFLOPS",
        "intra_node_bw: 300000000000  # Byte/s per gpu, single direction",
      ],
      {
        memBandwidthGBps: "mem_bw: 2039000000000",
        bf16: "bfloat16_tc_flops: 312000000000000",
        int8: "int8_tc_flops: 624000000000000",
        link: "intra_node_bw: 300000000000",
      },
    ),
    {
      ...NV_A100_DATASHEET,
      fields: {
        memBandwidthGBps: { printed: "GPU Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s | 2,039GB/s", times: 1 },
        bf16: { printed: "BFLOAT16 Tensor Core | 312 TFLOPS", times: 1 },
        int8: { printed: "INT8 Tensor Core | 624 TOPS", times: 1 },
        link: { printed: "NVLink: 600GB/s", times: 0.5 },
      },
    },
  ],
  "a100-pcie-80g": [
    /* @__PURE__ */ aic(
      "a100_pcie",
      [
        "mem_bw: 1935000000000 # 1.935TB/s",
        "bfloat16_tc_flops: 312000000000000 # 312TFLOPS",
        "int8_tc_flops: 624000000000000 # 624TOPS",
      ],
      {
        memBandwidthGBps: "mem_bw: 1935000000000",
        bf16: "bfloat16_tc_flops: 312000000000000",
        int8: "int8_tc_flops: 624000000000000",
      },
    ),
    {
      ...NV_A100_DATASHEET,
      fields: {
        memBandwidthGBps: { printed: "GPU Memory Bandwidth | 1,555GB/s | 1,935GB/s", times: 1 },
        bf16: { printed: "BFLOAT16 Tensor Core | 312 TFLOPS", times: 1 },
        int8: { printed: "INT8 Tensor Core | 624 TOPS", times: 1 },
      },
    },
  ],
  // The SXM4 40 GB card: the table's third column.
  "a100-40g": [
    {
      ...NV_A100_DATASHEET,
      fields: {
        memBandwidthGBps: { printed: "GPU Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s", times: 1 },
        bf16: { printed: "BFLOAT16 Tensor Core | 312 TFLOPS", times: 1 },
        int8: { printed: "INT8 Tensor Core | 624 TOPS", times: 1 },
        link: { printed: "NVLink: 600GB/s", times: 0.5 },
      },
    },
  ],
  "a30-24g": [
    /* @__PURE__ */ aic(
      "a30",
      [
        "mem_bw: 933000000000 # 933GB/s",
        "bfloat16_tc_flops: 165000000000000 # 165TFLOPS",
        "int8_tc_flops: 330000000000000 # 330TOPS",
      ],
      {
        memBandwidthGBps: "mem_bw: 933000000000",
        bf16: "bfloat16_tc_flops: 165000000000000",
        int8: "int8_tc_flops: 330000000000000",
      },
    ),
  ],
  "l4-24g": [
    /* @__PURE__ */ aic(
      "l4",
      [
        "mem_bw: 300000000000 # 300GB/s",
        "bfloat16_tc_flops: 121000000000000 # 121TFLOPS (dense; NVIDIA specs list 242TFLOPS with sparsity)",
        "int8_tc_flops: 242000000000000 # 242TOPS (dense; NVIDIA specs list 485TOPS with sparsity)",
        "fp8_tc_flops: 242000000000000 # 242TFLOPS (dense; NVIDIA specs list 485TFLOPS with sparsity)",
      ],
      {
        memBandwidthGBps: "mem_bw: 300000000000",
        bf16: "bfloat16_tc_flops: 121000000000000",
        // The yaml rounds 485 / 2 down to 242; the table keeps NVIDIA's sparse figure halved.
        int8: { printed: "242TOPS (dense; NVIDIA specs list 485TOPS", times: 0.5 },
        fp8: { printed: "242TFLOPS (dense; NVIDIA specs list 485TFLOPS", times: 0.5 },
      },
    ),
  ],
  "l40s-48g": [
    /* @__PURE__ */ aic(
      "l40s",
      [
        "mem_bw: 864000000000 # 864GB/s",
        "bfloat16_tc_flops: 362050000000000 # 362.05 TFLOPS",
        "int8_tc_flops: 733000000000000 # 733 TFLOPS",
        "fp8_tc_flops: 733000000000000 # 733 TFLOPS",
      ],
      {
        memBandwidthGBps: "mem_bw: 864000000000",
        bf16: "bfloat16_tc_flops: 362050000000000",
        int8: "int8_tc_flops: 733000000000000",
        fp8: "fp8_tc_flops: 733000000000000",
      },
    ),
  ],
  "rtx6000ada-48g": [
    {
      url: `${GAIE_DATA}/proviz-print-rtx6000-datasheet-web-2504660.pdf`,
      host: "NVIDIA's RTX 6000 Ada Generation datasheet (\"© 2023 NVIDIA Corporation … 2647623. Feb23\"), a file in NVIDIA's own repository NVIDIA/GenerativeAIExamples",
      quote:
        '"Technical Specifications": "Memory bandwidth | 960 GB/s" … "Single-precision performance | 91.1 TFLOPS³" … "Tensor performance | 1457.0 TFLOPS⁴" … "⁴ Effective FP8 teraFLOPS (TFLOPS) using the new sparsity feature."',
      fields: {
        memBandwidthGBps: { printed: "Memory bandwidth | 960 GB/s", times: 1 },
        // FP8 with 2:4 sparsity: halved to the table's dense 728.5.
        fp8: { printed: "Tensor performance | 1457.0 TFLOPS", times: 0.5 },
      },
      readOn: THIRD_PASS,
    },
  ],
  "rtx3090-24g": [
    {
      url: "https://github.com/NVIDIA/Fuser/blob/81c4b22fd750d377d69e24928c32233162f6b2bd/tests/cpp/test_transpose.cpp",
      host: "NVIDIA's own repository NVIDIA/Fuser (nvFuser), main branch: a comment its developers put on a test, not a datasheet",
      quote:
        "TEST_F(TransposeTest, FusionManualScheduleTransposeComplexDAG1) { … // achieved: 833.526 GB/s on RTX 3090 (theoretical bandwidth: 936 GB/s)",
      fields: { memBandwidthGBps: { printed: "theoretical bandwidth: 936 GB/s", times: 1 } },
      readOn: THIRD_PASS,
    },
  ],
  "gb10-128g": [
    {
      url: "https://github.com/NVIDIA/dgx-spark-playbooks/blob/0db7c141da60870ca6ed5c99436320f4e35cd531/nvidia/cutile-kernels/README.md",
      host: "NVIDIA's own repository NVIDIA/dgx-spark-playbooks (the build.nvidia.com/spark playbooks), main branch",
      quote:
        "## Platform Specifications … | Specification | DGX Spark (GB10) | B300 | … | Memory | 128 GB LPDDR5x | 192 GB HBM3e | … | Memory Bandwidth | 273 GB/s | 8 TB/s |",
      fields: { memBandwidthGBps: { printed: "| Memory Bandwidth | 273 GB/s", times: 1 } },
    },
    {
      url: "https://developer.nvidia.com/zh-cn/blog/how-nvidia-dgx-sparks-performance-enables-intensive-ai-tasks",
      host: "NVIDIA's developer blog (developer.nvidia.com, Chinese edition of \"How NVIDIA DGX Spark's Performance Enables Intensive AI Tasks\"), as the search corpus stores it",
      quote:
        "这款基于 Blackwell 架构的紧凑型超级计算机,具备每秒 1 千万亿次的 FP4 AI 计算性能、128 GB 的一致性统一系统内存,以及每秒 273 GB 的内存带宽,并预装了 NVIDIA AI 软件堆栈。",
      fields: {
        memBandwidthGBps: { printed: "以及每秒 273 GB", times: 1 },
        // "1 千万亿次" is 10^15 FLOPS of FP4: NVIDIA's 2:4-sparse headline, halved like every card's (cardSpecs.ts).
        fp4: { printed: "具备每秒 1 千万亿次", times: 500 },
      },
    },
  ],
  "mi325x-256g": [
    {
      url: "https://github.com/ROCm/rocm-blogs/blob/2961d765a04c4d6d6ff19269baf9a268dcd59db0/blogs/artificial-intelligence/mlperf-training-v5.0/README.md",
      host: "AMD's own repository ROCm/rocm-blogs (the source of rocm.blogs.amd.com; the post's MLPerf Training v5.0 submission is AMD's)",
      quote:
        "MI300X has a large HBM3 memory capacity of 192GB and 5.3 TB/s memory bandwidth, and the newer MI325X has 256 GB of HBM3e memory offering 6 TB/s memory bandwidth. … AMD's MI300X accelerator features 192GB of HBM3 memory with 5.3TB/s of bandwidth across eight memory stacks while the newer MI325X upgrades to 256GB of HBM3E memory delivering 6TB/s of bandwidth.",
      fields: { memBandwidthGBps: { printed: "256 GB of HBM3e memory offering 6 TB/s", times: 1000 } },
    },
  ],
  "mi100-32g": [
    {
      url: "https://github.com/ROCm/ROCm/blob/e396b4898f459db094bfd60b876f419f77eb9f09/docs/conceptual/gpu-arch/mi100.md",
      host: "AMD's own repository ROCm/ROCm, the source of rocm.docs.amd.com's \"AMD Instinct MI100 microarchitecture\" page (the same commit the MI300X's page is read at)",
      quote:
        'The MI100 generation of the AMD Instinct accelerator offers four stacks of HBM generation 2 (HBM2) for a total of 32GB with a 4,096bit-wide memory interface. The peak memory bandwidth of the attached HBM2 is 1.228 TB/sec at a memory clock frequency of 1.2 GHz. … table "Peak-performance capabilities of MI100 for different data types": "Matrix FP16 | 1024 | 184.6", "Matrix BF16 | 512 | 92.3" (FLOPS/CLOCK/CU, peak TFLOPS; the table has no sparsity column and no INT8 row)',
      fields: {
        memBandwidthGBps: { printed: "peak memory bandwidth of the attached HBM2 is 1.228 TB/sec", times: 1000 },
        bf16: { printed: "Matrix BF16 | 512 | 92.3", times: 1 },
      },
      readOn: "2026-12-03",
    },
  ],
  "mi300x-192g": [
    {
      url: "https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html",
      host: `${ROCM_HOST}; its source ROCm/ROCm docs/conceptual/gpu-arch/mi300.md @ e396b4898f459db094bfd60b876f419f77eb9f09`,
      quote:
        'table "Peak-performance capabilities of the MI300X": "Matrix BF16 | 2048 | 1307.4", "Matrix FP8 | 4096 | 2614.9", "Matrix INT8 | 4096 | 2614.9" (dense: the table has no sparsity column); "The theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per second." The xGMI figure is not on that page (it says only "seven high-bandwidth, low-latency AMD Infinity Fabric links")',
      fields: {
        memBandwidthGBps: { printed: "5.3 TB per second", times: 1000 },
        bf16: { printed: "Matrix BF16 | 2048 | 1307.4", times: 1 },
        fp8: { printed: "Matrix FP8 | 4096 | 2614.9", times: 1 },
        int8: { printed: "Matrix INT8 | 4096 | 2614.9", times: 1 },
      },
    },
  ],
  "mi355x-288g": [
    {
      url: "https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi350.html",
      host: `${ROCM_HOST}; its source ROCm/rocm-docs docs/reference/gpu-arch/mi350.rst @ 002654d682cc540a946f88e04616b754e9f47a65`,
      quote:
        'table "Peak theoretical performance", MI355X column: "Matrix BF16 | BF16 Sparsity: 2.5 PF | 5.0 PF", "Matrix OCP-FP8 | OCP-FP8 Sparsity: 5.0 PF | 10 PF", "Matrix MXFP6 / MXFP4: 10 PF", "Matrix INT8 | INT8 Sparsity: 5.0 POPs | 10 POPs"; "up to 8 TB/s of peak theoretical memory bandwidth"; "7 AMD Infinity Fabric links operating at 38.4 Gbps, providing over 1 TB/s of aggregate communication bandwidth per GPU". The page rounds to two figures; the table keeps 2516.6 (256 CUs × 4,096 BF16 FLOPS a clock × 2.4 GHz, AMD\'s peak engine clock, which that page does not print)',
      fields: {
        memBandwidthGBps: { printed: "up to 8 TB/s", times: 1000 },
        bf16: { printed: "BF16 Sparsity: 2.5 PF", times: 1000 },
        fp8: { printed: "OCP-FP8 Sparsity: 5.0 PF", times: 1000 },
        fp4: { printed: "MXFP6 / MXFP4: 10 PF", times: 1000 },
        int8: { printed: "INT8 Sparsity: 5.0 POPs", times: 1000 },
      },
    },
  ],
  "v100-32g": [
    {
      url: "https://developer.nvidia.com/programming-tensor-cores-cuda-9-0",
      host: 'NVIDIA\'s developer site (developer.nvidia.com), "Programming Tensor Cores in CUDA 9"',
      quote:
        "Tesla V100’s Tensor Cores are programmable matrix-multiply-and-accumulate units that can deliver up to 125 Tensor TFLOPS for training and inference applications.",
      // FP16 multiply with FP32 accumulate, dense (Volta has no sparsity); V100 has no BF16, so the table's bf16 slot holds it.
      fields: { bf16: { printed: "up to 125 Tensor TFLOPS", times: 1 } },
      readOn: SECOND_PASS,
    },
  ],
  "apple-m1-pro": [
    { ...APPLE_M1_PRO_MAX, fields: { memBandwidthGBps: { printed: "M1 Pro offers up to 200GB/s", times: 1 } } },
  ],
  "apple-m1-max": [
    { ...APPLE_M1_PRO_MAX, fields: { memBandwidthGBps: { printed: "M1 Max delivers up to 400GB/s", times: 1 } } },
  ],
  "apple-m2-ultra": [
    {
      url: "https://www.apple.com/pt/newsroom/2023/06/apple-introduces-m2-ultra",
      host: 'Apple\'s newsroom (apple.com), press release "Apple introduces M2 Ultra", 5 June 2023 (its Portugal edition, in English, as the search corpus stores it)',
      quote:
        "Its unified memory architecture supports up to a breakthrough 192GB of memory capacity, which is 50 percent more than M1 Ultra, and features 800GB/s of memory bandwidth — twice that of M2 Max.",
      fields: { memBandwidthGBps: { printed: "features 800GB/s", times: 1 } },
      readOn: SECOND_PASS,
    },
  ],
  "apple-m3-pro": [{ ...APPLE_MBP16_2023, fields: { memBandwidthGBps: { printed: "150GB/s", times: 1 } } }],
  "apple-m3-max-30c": [
    { ...APPLE_MBP16_2023, fields: { memBandwidthGBps: { printed: "30-core GPU (300GB/s", times: 1 } } },
  ],
  "apple-m3-max-40c": [
    { ...APPLE_MBP16_2023, fields: { memBandwidthGBps: { printed: "40-core GPU (400GB/s", times: 1 } } },
  ],
  "apple-m4": [{ ...APPLE_MAC_MINI_2024, fields: { memBandwidthGBps: { printed: "120GB/s", times: 1 } } }],
  "apple-m4-pro": [{ ...APPLE_MAC_MINI_2024, fields: { memBandwidthGBps: { printed: "273GB/s", times: 1 } } }],
};
