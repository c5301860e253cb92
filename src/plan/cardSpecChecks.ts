/**
 * What was read for each card's figures in cardSpecs.ts, where, and when.
 * `checked` is true only where the figures were read on the vendor's own
 * page (its site, its docs, its own repository's rendered docs: a reprint or
 * mirror does not count, however faithful), on `checkedOn`; `checkQuote` is
 * the line read, or what third-party page agreed, or that nothing was found.
 * Apart from the figures because only the tests and the docs read it: the
 * page's first chunk carries the numbers, not these quotes (issue 19).
 */
import { CARD_SPECS, type CardSpec } from "./cardSpecs.ts";

export interface CardSpecCheck {
  checked: boolean;
  /** The day it was read on the vendor's page (ISO date), when checked. */
  checkedOn: string | null;
  /** The line that was read, or what agreed / that nothing could be read. */
  checkQuote: string;
}

/** The day the figures marked checked were read on the vendor's page. */
const CHECKED_ON = "2026-12-01";

const UNCHECKED =
  "not re-read on the vendor's page here (the search corpus held no copy of it); value as in docs/speed/gpus.json";

/** By card label; a card not listed was not re-read (UNCHECKED). */
const READ: Readonly<Record<string, { checkQuote: string; checkedOn?: string }>> = {
  "h100-80g": {
    checkQuote:
      'not on NVIDIA\'s own page here; NVIDIA\'s table as a distributor reprints it (https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html): "BFLOAT16 Tensor コア | 1,979 TFLOPS* | 1,513 TFLOPS*" … "GPU メモリ帯域幅 | 3,350 GB/sec | 2000 GB/sec" … "* Shown with sparsity. Specifications 1/2 lower without sparsity"; "相互接続 | NVLink: 900GB/秒"',
  },
  "h100-pcie-80g": {
    checkQuote:
      "not on NVIDIA's own site here: read on a third-party mirror of NVIDIA's H100 PCIe Product Brief PB-11133-001_v02, https://manuals.plus/m/56b0c3ef7d0a1c470c0af8f05a0bd1f29a778007472ba941201fbbb185c9bccd): \"The NVIDIA H100 PCIe debuts the world's highest PCIe card memory bandwidth greater than 2,000 gigabytes per second (GBps)\"; TFLOPS from the distributor's reprint of NVIDIA's table (https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html): \"BFLOAT16 Tensor コア | 1,979 TFLOPS* | 1,513 TFLOPS*\" (sparse, halved here)",
  },
  "h100-nvl-94g": {
    checkQuote:
      "not on the vendor's page here; corroborated by https://grokipedia.com/page/210100120: \"delivering up to 3.93 TB/s memory bandwidth\" (3,900 kept, NVIDIA's table figure)",
  },
  "h200-141g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://www.aiminingco.com/gpu/h200/specs: "141GB of HBM3e memory with 4.8 TB/s of memory bandwidth"',
  },
  "b200-180g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://docs.vultr.com/inference-cookbook/cuda/getting-started/hardware-overview: "| Memory Bandwidth | 8.0 TB/s | FP8 Compute | ~4.5 PFLOPS | FP4 Compute | ~9.0 PFLOPS (NVFP4)"; https://glennklockwood.com/garden/processors/B200 (HGX at 1,000 W, from NVIDIA): "BF16 | 2250"',
  },
  "b300-288g": {
    checkQuote:
      'not on NVIDIA\'s own page here; third-party tables disagree on dense FP4 (https://glennklockwood.com/garden/processors/B300, HGX from NVIDIA: "BF16 | 2250 | 4500", "FP8 | 4500 | 9000", "FP4 | 13125"; https://verda.com/blog/gb300-nvl72-architecture: B300 "FP4 | … | 14 PFLOPS", "INT8 … 0.15 POPS"): 13,500 kept from gpus.json, INT8 cut on Blackwell Ultra so 150',
  },
  "gb200-186g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://glennklockwood.com/garden/processors/B200 (GB200 at 1,200 W, from NVIDIA): "BF16 | 2500 | FP8 | 5000 | FP4 | 10000"',
  },
  "gb300-288g": {
    checkQuote:
      'not on NVIDIA\'s own page here; corroborated by https://verda.com/blog/gb300-nvl72-architecture (without sparsity): "FP4 | 15 PFLOPS", "FP8 | 5 PFLOPS", "FP16/BF16 | 2.5 PFLOPS", "GPU Memory Bandwidth | 8 TB/s"',
  },
  "rtxpro6000-96g": {
    checkQuote:
      "not on the vendor's page here; corroborated by https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory: \"Memory Bandwidth: 1,792 GB/s\"; TFLOPS = NVIDIA's 4,000 AI TOPS (sparse FP4) halved per format, derived",
  },
  "rtxpro6000ws-96g": {
    checkQuote:
      "as the Server Edition (same GB202, same GDDR7 at 28 Gbps): corroborated by the same gpu.name page; not re-read on NVIDIA's",
  },
  "rtxpro6000maxq-96g": {
    checkQuote:
      "bandwidth as the other RTX PRO 6000s (same memory); TFLOPS derived from NVIDIA's 3,511 AI TOPS (sparse FP4); not re-read",
  },
  "rtx5090-32g": {
    checkQuote:
      'not on NVIDIA\'s page here; corroborated by https://pocketmags.com/linux-format-magazine/may-2025/articles/nvidia-geforce-rtx-5090: "AI cores: 680 … TFLOPS: 104 FP32, 838 FP16 … Bandwidth: 1,792GB/s" (838 = FP16-accumulate with sparsity, so 419 dense, 209.5 at FP32 accumulate)',
  },
  "rtx5080-16g": {
    checkQuote:
      'bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090\'s 209.5 × 336/680 tensor cores × 2.62/2.41 GHz, the counts and clocks per https://www.sipoch.com/en/articles/300330022705642: "tensor cores 680 (5th generation) … 336 (5th generation)", "maximum clock frequency 2.41 GHz … 2.62 GHz"',
  },
  "rtx5070ti-16g": {
    checkQuote:
      "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090's 209.5 × 280/680 tensor cores × 2.45/2.41 GHz boost",
  },
  "a100-80g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide: "| Memory Bandwidth | 1,555GB/s | 1,935GB/s | 1,555GB/s | 2,039GB/s |" and https://glennklockwood.com/garden/processors/A100 (citing this datasheet): "BF16 | 312 | 624"',
  },
  "a100-pcie-80g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide: "A100 PCIe 80GB … 1,935GB/s"',
  },
  "a100-40g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://glennklockwood.com/garden/processors/A100: "40 GB HBM2 (5 stacks) … 1.555 TB/s"',
  },
  "a10g-24g": {
    checkQuote: "AWS prints no TFLOPS for its A10G and NVIDIA no page for it: compute left unknown, so prefill is null",
  },
  "a40-48g": {
    checkQuote:
      'not on NVIDIA\'s own page here; NVIDIA\'s A40 datasheet table as a reseller reprints it (https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html): "Memory bandwidth 696 GB/s" … "NVIDIA NVLink 112.5 GB/s (bidirectional) PCIe Gen4: 64GB/s" … "Peak BF16 Tensor TFLOPS with FP32 Accumulate 149.7 | 299.4*" … INT8 "299.3 | 598.6*"',
  },
  "rtxa6000-48g": {
    checkQuote:
      'not on NVIDIA\'s own page here; NVIDIA\'s spec table as https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation reprints it: "Memory Bandwidth | 768 GB/s" … "NVLink Interconnect | 112.5 GB/s (bidirectional)"; TFLOPS per https://llmperf.net/categories/gpu/Nvidia-A6000-GPUs (citing Microway): "Mixed-Precision (FP16/BF16) 154.8 TFLOPS" … "INT8 Performance 309.7 TOPS"',
  },
  "rtxa5000-24g": { checkQuote: "not in gpus.json and not re-read: NVIDIA's 222.2 sparse tensor TFLOPS halved" },
  "l40s-48g": {
    checkQuote:
      'not on NVIDIA\'s own page here; NVIDIA\'s L40/L40S table as a reseller reprints it (https://www.mullet.se/product.html?product_id=355414): "Memory Bandwidth | 864GB/s" … "BFLOAT16 Tensor Core TFLOPS | 181.05 | 362.1* | 362.05 | 733*" … "FP8 Tensor Core | 362 | 724* | 733 | 1,466*" (* with sparsity); "PCIe Gen4 x16: 64GB/s bidirectional"',
  },
  "l40-48g": {
    checkQuote:
      'not on NVIDIA\'s own page here; the same reprinted L40/L40S table (https://www.mullet.se/product.html?product_id=355414): "BFLOAT16 Tensor Core TFLOPS | 181.05 | 362.1*" … "Peak INT8 Tensor TOPS | 362 | 724*"',
  },
  "rtx4090-24g": {
    checkQuote:
      'not on the vendor\'s page here; corroborated by https://gist.github.com/mikasenghaas/d63ded03f1f0417b1677627119bacc0d: "flops_4090 = 165e12 # dense bf16 tensor cores … bandwidth_4090 = 1.008e12"',
  },
  "rtx4080super-16g": {
    checkQuote:
      "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4080's 97.5 × 320/304 tensor cores × 2.55/2.505 GHz",
  },
  "rtx4070ti-12g": {
    checkQuote:
      "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4090's 165.2 × 240/512 tensor cores × 2.61/2.52 GHz",
  },
  "t4-16g": {
    checkQuote:
      'not in gpus.json and not re-read; corroborated by https://huggingface.co/RajBhope/gpu-runtime-predictor/blob/main/gpu_catalog.json: "memory_bandwidth_gbps": 320 … "fp16_tflops": 65',
  },
  "v100-32g": {
    checkQuote:
      'not re-read; corroborated by the same gpu_catalog.json: "memory_bandwidth_gbps": 900 … "fp16_tflops": 125 (FP16 tensor; V100 has no BF16)',
  },
  "v100-16g": { checkQuote: "value as in gpus.json (FP16 tensor; V100 has no BF16), not re-read" },
  "p100-16g": { checkQuote: "not in gpus.json and not re-read (FP16 vector rate; no tensor cores)" },
  "p40-24g": {
    checkQuote:
      "bandwidth as in gpus.json, not re-read; FP16 runs at 1/64 rate on GP102, so only INT8 (47 TOPS) is given and BF16 is null",
  },
  "mi300x-192g": {
    checkQuote:
      'AMD\'s ROCm documentation, "AMD Instinct MI300 series microarchitecture" (https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html; its source ROCm/ROCm docs/conceptual/gpu-arch/mi300.md @ e396b4898f459db094bfd60b876f419f77eb9f09), table "Peak-performance capabilities of the MI300X": "Matrix BF16 | 2048 | 1307.4", "Matrix FP8 | 4096 | 2614.9", "Matrix INT8 | 4096 | 2614.9" (dense: the table has no sparsity column); "The theoretical aggregated peak memory bandwidth of the GPU is 5.3 TB per second." The xGMI figure is not on that page (it says only "seven high-bandwidth, low-latency AMD Infinity Fabric links")',
    checkedOn: CHECKED_ON,
  },
  "mi355x-288g": {
    checkQuote:
      'AMD\'s ROCm documentation, "AMD Instinct MI350 Series microarchitecture" (https://rocm.docs.amd.com/en/latest/reference/gpu-arch/mi350.html; its source ROCm/rocm-docs docs/reference/gpu-arch/mi350.rst @ 002654d682cc540a946f88e04616b754e9f47a65), table "Peak theoretical performance", MI355X column: "Matrix BF16 | BF16 Sparsity: 2.5 PF | 5.0 PF", "Matrix OCP-FP8 | OCP-FP8 Sparsity: 5.0 PF | 10 PF", "Matrix MXFP6 / MXFP4: 10 PF", "Matrix INT8 | INT8 Sparsity: 5.0 POPs | 10 POPs"; "up to 8 TB/s of peak theoretical memory bandwidth"; "7 AMD Infinity Fabric links operating at 38.4 Gbps, providing over 1 TB/s of aggregate communication bandwidth per GPU". The page rounds to two figures; the table keeps 2516.6 (256 CUs × 4,096 BF16 FLOPS a clock × 2.4 GHz, AMD\'s peak engine clock, which that page does not print)',
    checkedOn: CHECKED_ON,
  },
  "rx9070xt-16g": { checkQuote: "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found" },
  "rx9070-16g": { checkQuote: "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found" },
  "r9700-32g": { checkQuote: "bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found" },
  "strixhalo-128g": {
    checkQuote:
      "bandwidth derived (LPDDR5X-8000 × 256-bit = 256 GB/s) as in gpus.json, not re-read; no TFLOPS figure found",
  },
  "arcb580-12g": { checkQuote: "bandwidth as in gpus.json, not re-read; its XMX figure is not used (unchecked)" },
  "gb10-128g": {
    checkQuote:
      'not on NVIDIA\'s own page here: NVIDIA\'s DGX Spark porting guide (https://docs.nvidia.com/dgx/dgx-spark-porting-guide/overview.html) says only "sharing 128GB of LPDDR5x memory with the integrated GPU"; the bandwidth agrees with https://ai-infrastructure.net/dgx-spark/ ("128 GB LPDDR5x unified, 273 GB/s") and FP4 with its "up to 1 PFLOP of FP4 (with sparsity)", halved here',
  },
  "apple-m1": {
    checkQuote:
      "M1 bandwidth (LPDDR4X-4266 × 128-bit) and Apple's \"2.6 teraflops\" as in gpus.json / Apple's M1 event, not re-read",
  },
  "apple-m1-ultra": {
    checkQuote:
      'not on Apple\'s page here; corroborated by https://thetechportal.com/2022/03/09/apple-mac-studio-display-m1-ultra-chip/: "Its memory bandwidth is 800 GB/sec"',
  },
  "apple-m2": { checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.398 GHz)" },
  "apple-m2-pro": { checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (19 × 128 × 2 × 1.398 GHz)" },
  "apple-m2-max": {
    checkQuote:
      'not on Apple\'s page here; corroborated by https://blog.patti.tech/2023/06/05/as-rumored-the-mac-studio-gets-an-m2-refresh-including-fused-together-m2-ultra: "M2 Max … with 400 GB/s memory bandwidth"; TFLOPS derived (38 × 128 × 2 × 1.398 GHz)',
  },
  "apple-m2-ultra": {
    checkQuote:
      "not on Apple's page here; corroborated by https://mactrast.com/2023/06/apple-unveils-m2-ultra-faster-cpu-and-gpu-support-for-more-unified-memory/amp (Apple's announcement): \"M2 Ultra features 800GB/s of system memory bandwidth\"; TFLOPS derived (76 × 128 × 2 × 1.398 GHz)",
  },
  "apple-m3": { checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-pro": { checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (18 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-max-30c": {
    checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (30 × 128 × 2 × 1.38 GHz)",
  },
  "apple-m3-max-40c": {
    checkQuote: "bandwidth as in gpus.json, not re-read; TFLOPS derived (40 × 128 × 2 × 1.38 GHz)",
  },
  "apple-m3-ultra": {
    checkQuote:
      'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "96GB of unified memory (819GBps memory bandwidth)"; TFLOPS derived (80 × 128 × 2 × 1.38 GHz)',
  },
  "apple-m4": {
    checkQuote:
      "not on Apple's page here; Apple's launch table as reprinted at https://americanfork.business/?p=76748: \"Peak memory bandwidth (GBps) 120 273 410\" (M4, M4 Pro, M4 Max 32-core); TFLOPS derived (10 × 128 × 2 × 1.578 GHz)",
  },
  "apple-m4-pro": {
    checkQuote:
      'not on Apple\'s page here; the same reprinted table (https://americanfork.business/?p=76748): M4 Pro "273" GB/s; TFLOPS derived (20 × 128 × 2 × 1.578 GHz)',
  },
  "apple-m4-max-32c": {
    checkQuote:
      'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "M4 Max chip … 36GB of unified memory (410GBps memory bandwidth)"; TFLOPS derived (32 × 128 × 2 × 1.578 GHz)',
  },
  "apple-m4-max-40c": {
    checkQuote:
      'not on Apple\'s page here; corroborated by https://macmegasite.com/2024/10/30/m4-max-chip-has-16-core-cpu-40-core-gpu-and-35-increase-in-memory-bandwidth: "the M4 Max chip features a 16-core CPU, 40-core GPU, and 546 GB/s of memory bandwidth"; TFLOPS derived (40 × 128 × 2 × 1.578 GHz)',
  },
};

/** What was read for one card's figures. */
export function cardSpecCheck(label: string): CardSpecCheck {
  const read = READ[label];
  const checkedOn = read?.checkedOn ?? null;
  return { checked: checkedOn !== null, checkedOn, checkQuote: read?.checkQuote ?? UNCHECKED };
}

/** Every card's figures with what was read for them. */
export function cardSpecsWithChecks(): (CardSpec & CardSpecCheck)[] {
  return CARD_SPECS.map((c) => ({ ...c, ...cardSpecCheck(c.label) }));
}
