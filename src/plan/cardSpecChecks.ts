/**
 * What was read for each card's figures in cardSpecs.ts, where, and when.
 * A figure is checked only where the vendor itself prints it
 * (cardSpecReads.ts: its site, its docs, a file in its own GitHub
 * organisation pinned at a commit) and the printed number agrees with the
 * table to the digits printed; a card is `checked` when every figure the
 * speed model reads (bandwidth and each dense TFLOPS it has) is. A reprint or
 * mirror does not count, however faithful: what third-party pages agreed, or
 * that nothing could be read, is the card's note.
 * Apart from the figures because only the tests and the docs read it: the
 * page's first chunk carries the numbers, not these quotes (issue 19).
 */
import { CARD_SPECS, type CardSpec } from "./cardSpecs.ts";
import { READ_ON, VENDOR_READS, type CheckedField, type PrintedFigure, type VendorRead } from "./cardSpecReads.ts";

export interface CardSpecCheck {
  /** Every figure the speed model reads was read on a vendor-hosted page and agrees. */
  checked: boolean;
  /** The day its vendor reads were read (ISO date; the latest, where they were read on different days), when checked. */
  checkedOn: string | null;
  /** The figures a vendor read confirms (the rest are as docs/speed/gpus.json or the note has them). */
  checkedFields: CheckedField[];
  /** The vendor pages read for this card. */
  reads: readonly VendorRead[];
  /** The lines read, with their addresses, then what agreed elsewhere or that nothing could be read. */
  checkQuote: string;
}

/** The figures `checked` asks for: what the speed model multiplies by. The link is checked where a vendor prints it, but not asked for. */
const SPEED_FIELDS: readonly CheckedField[] = ["memBandwidthGBps", "bf16", "fp8", "fp4", "int8"];

const UNCHECKED =
  "not re-read on the vendor's page here (the search corpus held no copy of it); value as in docs/speed/gpus.json";

/**
 * The vendors' own hosts, and the GitHub organisations they publish from
 * (ai-dynamo is NVIDIA Dynamo's; ROCm is AMD's). A GitHub file counts only
 * pinned at a commit, so the quote stays checkable; a fork is not the vendor.
 */
const VENDOR_SITE = /^https:\/\/([a-z0-9-]+\.)*(nvidia\.com|amd\.com|apple\.com|intel\.com)\//;
const VENDOR_GITHUB =
  /^https:\/\/github\.com\/(NVIDIA|ai-dynamo|ROCm|apple|intel)\/[A-Za-z0-9._-]+\/blob\/[0-9a-f]{40}\//;

/** Whether a page is the vendor's own (its site or its own GitHub organisation at a commit), not a reprint. */
export function isVendorHosted(url: string): boolean {
  return VENDOR_SITE.test(url) || VENDOR_GITHUB.test(url);
}

/** The last number a printed figure holds ("7.75 TB/s" → 7.75, "mem_bw: 3350000000000" → 3350000000000), and its decimals. */
function lastNumber(printed: string): { value: number; decimals: number } | null {
  const m = printed.match(/\d[\d,]*(?:\.\d+)?/g);
  const last = m?.[m.length - 1];
  if (last === undefined) return null;
  return { value: Number(last.replace(/,/g, "")), decimals: last.split(".")[1]?.length ?? 0 };
}

/**
 * Whether the table's value is what the vendor printed, to the digits it
 * printed: within half a unit of the last printed digit, or 0.1% (the
 * vendor's own pages round the same figure differently: 1,979 sparse on the
 * H100 datasheet is 989.4 dense in its whitepaper and 989 in aiconfigurator).
 */
export function printedAgrees(value: number | null, figure: PrintedFigure): boolean {
  const n = lastNumber(figure.printed);
  if (value === null || n === null) return false;
  const halfUnit = 0.5 * 10 ** -n.decimals * Math.abs(figure.times);
  return Math.abs(n.value * figure.times - value) <= Math.max(halfUnit, 0.001 * Math.abs(value));
}

/** The table's value for one field of a card. */
export function fieldValue(spec: CardSpec, field: CheckedField): number | null {
  if (field === "memBandwidthGBps") return spec.memBandwidthGBps;
  if (field === "link") return spec.link.gbpsPerDirection;
  return spec.tflops[field];
}

/**
 * AMD's own table of its GPUs (rocm.docs.amd.com's "AMD GPU specifications", from this file), read 2026-12-02:
 * it lists each Radeon's and Ryzen APU's VRAM, compute units and caches, but no bandwidth or TFLOPS column.
 */
const ROCM_GPU_SPECS =
  "https://github.com/ROCm/rocm-docs/blob/2b48ffc7c7df6af2687bf2c54062d939ee503c60/docs/reference/gpu-specs.rst";

/** What AMD's table gives for one card (its row as printed), and that it has no figure to check. */
function rocmSpecsRow(row: string): string {
  return `AMD's own GPU table (${ROCM_GPU_SPECS}) has the card (${row}) but prints no bandwidth or TFLOPS, so nothing there to check`;
}

/** Third-party corroboration, derivations, and what could not be read, by card label. */
const NOTES: Readonly<Record<string, { note: string }>> = {
  "gh200-96g": {
    note: "not checked: NVIDIA's own Grace Hopper post (https://developer.nvidia.com/blog/nvidia-grace-hopper-superchip-architecture-in-depth/, written before launch) says \"Hopper has up to 96 GB HBM3 at up to 3000 GB/s bandwidth\", where NVIDIA's GH200 datasheet as third parties reprint it, and this table (from gpus.json), have 4 TB/s: NVIDIA's figures disagree, so 4,000 stays, unchecked; TFLOPS as the H100 SXM's (the same GH100), not re-read",
  },
  "mi325x-256g": {
    note: 'TFLOPS not checked: no AMD page here prints the MI325X\'s. AMD\'s ROCm hardware table (https://github.com/ROCm/ROCm/blob/e396b4898f459db094bfd60b876f419f77eb9f09/docs/reference/gpu-arch-specs.rst: "MI325X", "CDNA3", "gfx942", "256", "304 (38 per XCD)", as for the MI300X) gives it the MI300X\'s silicon, so the MI300X\'s checked 1,307.4 / 2,614.9 are carried over (derived); a third party says the same (https://www.slicast.com/article/1w7kkwv: "the MI325X has the same capabilities as the MI300X: 2.6 petaflops for 8-bit floating point (FP8) performance and 1.3 petaflops for 16-bit floating point (FP16)")',
  },
  "h100-nvl-94g": {
    note: "not on the vendor's page here; corroborated by https://grokipedia.com/page/210100120: \"delivering up to 3.93 TB/s memory bandwidth\" (3,900 kept, NVIDIA's table figure)",
  },
  "b200-180g": {
    note: "7,700 GB/s as the file in NVIDIA's repository has it (a contributor's fix from 8 TB/s \"per the official NVIDIA Blackwell datasheet\", merged there as d738298f), where docs/speed/gpus.json had 8,000 (NVIDIA's DGX B200 64 TB/s over 8 GPUs as third parties reprint it); the driver agrees: 7,680-bit bus × 3,996 MHz × 2 = 7.67 TB/s (https://github.com/pytorch/ao/pull/4002)",
  },
  "b300-288g": {
    note: '7,750 GB/s ("Total mem_bw: 62TB/s / 8 GPUs"), FP4 14 PFLOPS dense and INT8 153.5 ("307 TOPS sparse / 2") are NVIDIA\'s file\'s, from the Blackwell Ultra datasheet it names; docs/speed/gpus.json had 8,000, 13,500 and a guessed 150',
  },
  "rtxpro6000-96g": {
    note: "TFLOPS not checked: NVIDIA's 4,000 AI TOPS (sparse FP4) halved per format, derived, as reprinted at https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory; aiconfigurator's 467.8 BF16 is scaled to one node's clock, not NVIDIA's figure",
  },
  "rtxpro6000ws-96g": {
    note: "as the Server Edition (same GB202, same GDDR7 at 28 Gbps): corroborated by the same gpu.name page; not re-read on NVIDIA's",
  },
  "rtxpro6000maxq-96g": {
    note: "bandwidth as the other RTX PRO 6000s (same memory); TFLOPS derived from NVIDIA's 3,511 AI TOPS (sparse FP4); not re-read",
  },
  "rtx5090-32g": {
    note: 'not on NVIDIA\'s page here; corroborated by https://pocketmags.com/linux-format-magazine/may-2025/articles/nvidia-geforce-rtx-5090: "AI cores: 680 … TFLOPS: 104 FP32, 838 FP16 … Bandwidth: 1,792GB/s" (838 = FP16-accumulate with sparsity, so 419 dense, 209.5 at FP32 accumulate). FP4 is 1,676, where the starting list had 838: NVIDIA\'s "3,352 AI TOPS" (FP4, 2:4-sparse) halved, as https://techcrawlr.com/nvidia-launches-geforce-rtx-50-series-with-blackwell-architecture reprints it ("delivers 3,352 trillion AI operations per second"; third-party, not read on NVIDIA\'s page); a contributor\'s system file in an unmerged pull request to NVIDIA\'s repository (ai-dynamo/aiconfigurator#1312 at 2388232, so not NVIDIA\'s figure) has the same "1676.0 TFLOPS dense" and "mem_bw: 1792000000000"',
  },
  "rtx5080-16g": {
    note: 'bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090\'s 209.5 × 336/680 tensor cores × 2.62/2.41 GHz, the counts and clocks per https://www.sipoch.com/en/articles/300330022705642: "tensor cores 680 (5th generation) … 336 (5th generation)", "maximum clock frequency 2.41 GHz … 2.62 GHz"',
  },
  "rtx5070ti-16g": {
    note: "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 5090's 209.5 × 280/680 tensor cores × 2.45/2.41 GHz boost",
  },
  "a100-40g": {
    note: 'also as https://glennklockwood.com/garden/processors/A100 has it: "40 GB HBM2 (5 stacks) … 1.555 TB/s"',
  },
  "a10g-24g": {
    note: "AWS prints no TFLOPS for its A10G and NVIDIA no page for it: compute left unknown, so prefill is null",
  },
  "a40-48g": {
    note: 'not on NVIDIA\'s own page here; NVIDIA\'s A40 datasheet table as a reseller reprints it (https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html): "Memory bandwidth 696 GB/s" … "NVIDIA NVLink 112.5 GB/s (bidirectional) PCIe Gen4: 64GB/s" … "Peak BF16 Tensor TFLOPS with FP32 Accumulate 149.7 | 299.4*" … INT8 "299.3 | 598.6*"',
  },
  "rtxa6000-48g": {
    note: 'not on NVIDIA\'s own page here; NVIDIA\'s spec table as https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation reprints it: "Memory Bandwidth | 768 GB/s" … "NVLink Interconnect | 112.5 GB/s (bidirectional)"; TFLOPS per https://llmperf.net/categories/gpu/Nvidia-A6000-GPUs (citing Microway): "Mixed-Precision (FP16/BF16) 154.8 TFLOPS" … "INT8 Performance 309.7 TOPS"',
  },
  "rtxa5000-24g": { note: "not in gpus.json and not re-read: NVIDIA's 222.2 sparse tensor TFLOPS halved" },
  "l40-48g": {
    note: 'not on NVIDIA\'s own page here; the same reprinted L40/L40S table (https://www.mullet.se/product.html?product_id=355414): "BFLOAT16 Tensor Core TFLOPS | 181.05 | 362.1*" … "Peak INT8 Tensor TOPS | 362 | 724*"',
  },
  "rtx4090-24g": {
    note: 'not on the vendor\'s page here; corroborated by https://gist.github.com/mikasenghaas/d63ded03f1f0417b1677627119bacc0d: "flops_4090 = 165e12 # dense bf16 tensor cores … bandwidth_4090 = 1.008e12"',
  },
  "rtx6000ada-48g": {
    note: "BF16 and INT8 not checked: NVIDIA's datasheet prints one tensor figure, FP8 with sparsity (1,457); the table's BF16 364.2 is it quartered and INT8 728.5 it halved (derived, Ada's FP16 tensor rate being half its FP8 rate and INT8 equal to it)",
  },
  "rtx3090-24g": {
    note: "BF16 not checked: 71 (FP16 with FP32 accumulate, dense) as in gpus.json, NVIDIA's GA102 whitepaper figure read here only in reprints; the bandwidth read is an NVIDIA developer's comment, not a datasheet",
  },
  "rtx4080super-16g": {
    note: "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4080's 97.5 × 320/304 tensor cores × 2.55/2.505 GHz",
  },
  "rtx4070ti-12g": {
    note: "bandwidth as in gpus.json, not re-read; BF16 derived: RTX 4090's 165.2 × 240/512 tensor cores × 2.61/2.52 GHz",
  },
  "rtx5070-12g": {
    note: 'not on NVIDIA\'s page here; bandwidth 28 Gbps × 192-bit = 672 GB/s and 192 tensor cores at 2,512 MHz boost as https://fpsbench.com/compare/gpu/intel-iris-xe-max-graphics-vs-nvidia-geforce-rtx-5070 lists them ("Tensor Cores 192", "Boost Clock 2512 MHz", "28 Gbps effective", "Bandwidth 672.0 GB/s"); BF16 derived: 192 × 2.512 GHz × 128 = 61.7 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 4090\'s 165.2 (512 × 2.52 GHz) and RTX 5090\'s 209.5 (680 × 2.41 GHz) imply); FP8 twice that and FP4 eight times, as the RTX 5090\'s; FP4 493.9 is NVIDIA\'s "988 AI TOPS" (sparse FP4) halved, as https://www.tweaktown.com/news/102469/nvidia-geforce-rtx-50-series-specs-pricing-and-performance-plan-that-upgrade-today/index.html reprints it',
  },
  "rtx5060ti-16g": {
    note: 'not on NVIDIA\'s page here; bandwidth 28 Gbps × 128-bit = 448 GB/s and 2,572 MHz boost per https://uk.gamegpu.com/%D0%B7%D0%B0%D0%BB%D1%96%D0%B7%D0%BE/geforce-rtx-5060-ti-nvidia-gotovit-%D0%B4%D0%B2%D1%96-%D0%B2%D0%B5%D1%80%D1%81%D1%96%D1%97-s-16-i-8-gb-reliz-v-aprele (448 ГБ/с, 2572 МГц), 144 tensor cores per https://hmc-tech.com/gpu/nvidia-geforce-rtx-5060-ti-8gb-vs-nvidia-4x-geforce-rtx-4090 ("144 T-Cores", "759.4 TFLOPS FP4 Tensor Sparse", the 8 GB card\'s GB206 as the 16 GB\'s); BF16 derived: 144 × 2.572 GHz × 128 = 47.4; FP8 twice, FP4 eight times (379.2, the 759.4 sparse halved to 0.2%); PCIe 5.0 x8 per https://www.techpowerup.com/review/nvidia-geforce-rtx-5060-ti-pci-express-x8-scaling/31.html ("upgraded the PCIe bus to Gen 5 x8")',
  },
  "rtx3090ti-24g": {
    note: 'not on NVIDIA\'s page here; 21 Gbps × 384-bit = 1,008 GB/s, 84 SMs and 1,860 MHz boost per https://www.tweaktown.com/news/84164/nvidia-geforce-rtx-3090-ti-full-specs-price-performance-details/index.html ("84 SM units", "boost GPU clocks hit 1860MHz", "1008GB/sec"); BF16 derived: 84 × 4 = 336 tensor cores × 1.86 GHz × 128 = 80.0 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 3090\'s 71 (328 × 1.695 GHz) implies)',
  },
  "rtx3080ti-12g": {
    note: 'not on NVIDIA\'s page here, and the weakest of these: 19 Gbps × 384-bit = 912 GB/s and 80 SMs (10,240 CUDA cores) per a pre-launch report, https://wccftech.com/nvidia-geforce-rtx-3080-ti-12-gb-gddr6x-10240-cuda-cores-april-launch-rumor/ ("10240 CUDA cores within a total of 80 SM units", "total bandwidth of 912 GB/s"); the 1,665 MHz boost clock was not found in a stored page; BF16 derived: 80 × 4 = 320 tensor cores × 1.665 GHz × 128 = 68.2 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 3090\'s 71 (328 × 1.695 GHz) implies)',
  },
  "rtx3060ti-8g": {
    note: 'not on NVIDIA\'s page here; 14 Gbps × 256-bit = 448 GB/s, 152 tensor cores and 1,665 MHz boost per https://cputronic.com/gpu/compare/nvidia-geforce-rtx-3060-ti-vs-nvidia-geforce-rtx-3060-ti-gddr6x ("1665MHz Boost Clock", "152 Tensor Cores", "448.0 GB/s") and https://wccftech.com/nvidia-geforce-rtx-3060-ti-specifications-leak-4864-cores-8-gb-gddr6-memory/; BF16 derived: 152 × 1.665 GHz × 128 = 32.4',
  },
  "rtx4070tisuper-16g": {
    note: 'not on NVIDIA\'s page here, and no review page was stored: 21 Gbps GDDR6X × 256-bit = 672 GB/s, 8,448 CUDA cores (66 SMs, so 264 tensor cores) and 2.61 GHz boost as public product tables list them ("8448 CUDA", "bus: 256-bit", "bw: 672", "boost: 2.61 GHz", "PCIe 4.0 ×16"; weaker provenance: found by text search, repositories not recorded); BF16 derived: 264 × 2.61 GHz × 128 = 88.2 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 4090\'s 165.2 (512 × 2.52 GHz) and RTX 5090\'s 209.5 (680 × 2.41 GHz) imply), FP8 twice that',
  },
  "rtx4070super-12g": {
    note: "not on NVIDIA's page here; 224 tensor cores (7,168 CUDA cores) on the RTX 4070's AD104 per https://www.oreateai.com/blog/decoding-the-super-in-nvidias-4070-is-it-worth-the-upgrade/1a01d5fec343ed4b534a13c058a4137e (\"7168 CUDA cores, 224 Tensor Cores\"); memory (21 Gbps × 192-bit = 504 GB/s) and 2,475 MHz boost taken as the RTX 4070's, which no stored page confirms for the SUPER; BF16 derived: 224 × 2.475 GHz × 128 = 71.0, FP8 twice that",
  },
  "rtx4070-12g": {
    note: 'not on NVIDIA\'s page here; 21 Gbps × 192-bit = 504 GB/s, 184 tensor cores and 2,475 MHz boost per https://www.thefpsreview.com/gpu-family/nvidia-geforce-rtx-4070-gpu-family-specifications ("184 4th Generation Tensor Cores", "boost clock will be 2475MHz", "504GB/s") and https://www.club386.com/complete-geforce-rtx-4070-specifications-reveal-a-frugal-599-gpu/; BF16 derived: 184 × 2.475 GHz × 128 = 58.3 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 4090\'s 165.2 (512 × 2.52 GHz) and RTX 5090\'s 209.5 (680 × 2.41 GHz) imply), FP8 twice that',
  },
  "rtx4060ti-16g": {
    note: "as the 8 GB card (the same AD106 at the same clocks and 18 Gbps memory); not on NVIDIA's page here",
  },
  "rtx4060ti-8g": {
    note: 'not on NVIDIA\'s page here; 18 Gbps × 128-bit = 288 GB/s, 136 tensor cores and 2,535 MHz boost per https://www.thefpsreview.com/?p=133840 ("136 (4th Gen) Tensor Cores", "Boost Clock of 2535MHz", "288GB/s of actual memory bandwidth"); PCIe 4.0 x8 per https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/ ("Interface PCIe Gen4 x8 PCIe Gen4 x8"); BF16 derived: 136 × 2.535 GHz × 128 = 44.1 (FLOPs per tensor core per clock with FP32 accumulate, the rate the RTX 4090\'s 165.2 (512 × 2.52 GHz) and RTX 5090\'s 209.5 (680 × 2.41 GHz) imply), FP8 twice that',
  },
  "rtx4060-8g": {
    note: 'not on NVIDIA\'s page here; 17 Gbps × 128-bit = 272 GB/s, 96 tensor cores and 2,460 MHz boost per https://fpsbench.com/compare/gpu/nvidia-geforce-rtx-4060-vs-nvidia-t600 ("17 Gbps effective", "Bandwidth 272.0 GB/s", "Tensor Cores 96", "Boost Clock 2460 MHz"); PCIe 4.0 x8 per the same guru3d table as the 4060 Ti; BF16 derived: 96 × 2.46 GHz × 128 = 30.2, FP8 twice that, as https://hmc-tech.com/gpu/nvidia-geforce-rtx-4060-vs-nvidia-geforce-rtx-4060 prints them ("30.23 TFLOPS Tensor (FP32 Accumulate)" for FP16, "60.46 TFLOPS Tensor (FP32 Accumulate)" for FP8)',
  },
  "rtx2080ti-11g": {
    note: 'not on NVIDIA\'s page here; 14 Gbps × 352-bit = 616 GB/s and PCIe 3.0 x16 per https://gpu.spicedreamphone.com/ru/gpu/nvidia/geforce-rtx-2080-ti ("352 bit", "616.0 GB/s", "PCIe 3.0 x16", FP32 13.45 TFLOPS = 4,352 × 2 × 1.545 GHz); Turing has no BF16, so the figure is FP16 with FP32 accumulate (as V100\'s is FP16): 68 SMs × 8 = 544 tensor cores × 1.545 GHz × 64 dense FLOPs per clock = 53.8, twice that with FP16 accumulate; NVIDIA\'s Turing deck as reprinted at https://rainy.clevelandohioweatherforecast.com/php-proxy/index.php?q=https%3A%2F%2Fwww.scribd.com%2Fpresentation%2F728618207%2FRtx-on-The-Nvidia-Turing-Gpu says "114 TFLOPS of FP16, 228 TOPS 8-bit integer" for the Founders Edition\'s 1,635 MHz (544 × 1.635 × 128 = 113.8)',
  },
  "t4-16g": {
    note: 'not in gpus.json and not re-read; corroborated by https://huggingface.co/RajBhope/gpu-runtime-predictor/blob/main/gpu_catalog.json: "memory_bandwidth_gbps": 320 … "fp16_tflops": 65',
  },
  "v100-32g": {
    note: 'bandwidth not checked: NVIDIA\'s own page above gives the 125 tensor TFLOPS (FP16; V100 has no BF16), but no NVIDIA page here prints the 900 GB/s (nvidia.com\'s V100 page is in the corpus only as reprints; NVIDIA\'s UK site, nvidia.co.uk/data-center/tensorcore, repeats "up to 125 TFLOPS" but no bandwidth); corroborated by the same gpu_catalog.json: "memory_bandwidth_gbps": 900',
  },
  "v100-16g": { note: "value as in gpus.json (FP16 tensor; V100 has no BF16), not re-read" },
  "p100-16g": { note: "not in gpus.json and not re-read (FP16 vector rate; no tensor cores)" },
  "p40-24g": {
    note: "bandwidth as in gpus.json, not re-read; FP16 runs at 1/64 rate on GP102, so only INT8 (47 TOPS) is given and BF16 is null",
  },
  "mi250x-64g": {
    note: `not checked: AMD's own MI250 page (https://github.com/ROCm/ROCm/blob/e396b4898f459db094bfd60b876f419f77eb9f09/docs/conceptual/gpu-arch/mi250.md) is the MI250's: "a peak memory bandwidth of 1.6 TB/sec per GCD", "Matrix BF16 | 1024 | 362.1" (FLOPS/CLOCK/CU, peak TFLOPS for both GCDs) at "a peak clock frequency of 1.7 GHz", "200 GB/sec peak transfer bandwidth between the two GCDs of an OAM", "50 GB/sec per link"; the MI250X has 110 CUs a GCD where the MI250 has 104 (${rocmSpecsRow('"MI250X", "CDNA2", "gfx90a", "128", "220 (110 per GCD)"')}), so its GCD's BF16, FP16 and INT8 are derived: 110 × 1024 × 1.7 GHz = 191.5, half the 383.0 AMD's MI250X table gives the package as https://zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-teraflop-s-and-560-watt-tdp reprints it ("MI250x 220 … Up to 383.0 TF … Up to 383.0 TOPS … 3.2 TB/sec"); bandwidth the MI250's per-GCD 1.6 TB/s (the same HBM2e)`,
  },
  "mi210-64g": {
    note: `not checked: one CDNA2 GCD with 104 CUs (${rocmSpecsRow('"MI210", "CDNA2", "gfx90a", "64", "104"')}); BF16, FP16 and INT8 derived from AMD's MI250 page (https://github.com/ROCm/ROCm/blob/e396b4898f459db094bfd60b876f419f77eb9f09/docs/conceptual/gpu-arch/mi250.md: 1024 FLOPs a CU a clock at 1.7 GHz): 104 × 1024 × 1.7 = 181.0, and its rocminfo prints "Max Clock Freq. (MHz): 1700", "Compute Unit: 104" (https://github.com/ROCm/legacy-rocm-build/issues/2595); bandwidth the MI250's per-GCD "1.6 TB/sec"`,
  },
  "mi100-32g": {
    note: `INT8 left unknown: AMD's MI100 table prints no INT8 row, so an INT8 matmul is taken at the BF16 rate; FP16 (184.6, the table's "Matrix FP16") is twice BF16 on CDNA`,
  },
  "mi50-32g": {
    note: `not checked: no AMD page here prints its figures; 1,024 GB/s (4096-bit HBM2 at 2 Gbps) and PCIe 4.0 x16 per https://gpu.spicedreamphone.com/fr/gpu/amd/radeon-instinct-mi50 ("Bande passante 1,024 GB/s", "PCIe 4.0 x16", 60 CUs), and 26.5 TFLOPS per https://huggingface.co/hardware/mi50 ("TFLOPS 26.5"); GCN has no matrix cores, so the figure is the FP16 vector rate (60 CUs × 64 × 2 × 2 × 1.725 GHz = 26.5; the first page has 26.82 at 1,746 MHz), in the BF16 row as P100's is; ${rocmSpecsRow('"MI50 (32GB)", "GCN5.1", "gfx906", "32", "60"')}`,
  },
  "rx7800xt-16g": {
    note: `not re-read on AMD's product page; 19.5 Gbps × 256-bit = 624 GB/s and 2,430 MHz boost per https://www.gpu-monkey.com/en/gpu-amd_radeon_rx_7800_xt ("Memory Speed: 19.5 Gbps", "624 GB/s", "Boost Clock: 2.430 GHz") and https://www.sportskeeda.com/gaming-tech/news-amd-radeon-rx-7800-xt-specs-prices-performance ("60 unified RDNA 3 compute units", "boost clock of 2430 MHz"); FP16/BF16 derived at the RX 7900 XTX's rate (its 122.8 over 96 CUs × 2.5 GHz, 512 FLOPs a CU a clock): 60 × 512 × 2.43 GHz = 74.6; PCIe 4.0 x16 per https://cputronic.com/gpu/amd-radeon-rx-7800-xt; ${rocmSpecsRow('"Radeon RX 7800 XT", "RDNA3", "gfx1101", "16", "60"')}`,
  },
  "rx6900xt-16g": {
    note: `not re-read on AMD's product page; 16 GB GDDR6 on 256 bits at 512 GB/s, 2,250 MHz boost and FP32 23.04 TFLOPS per https://gpupoet.com/gpu/learn/card/amd-radeon-rx-6900-xt ("512 GB/s bandwidth", "23.04 TFLOPS of FP32 performance at a boost clock of 2,250 MHz"); RDNA2 has no matrix units, so the figure is FP16 packed at twice FP32 (80 CUs × 64 × 2 × 2 × 2.25 GHz = 46.1), in the BF16 row as P100's is; ${rocmSpecsRow('"Radeon RX 6900 XT", "RDNA2", "gfx1030", "16", "80"')}`,
  },
  "rx6800xt-16g": {
    note: `not re-read on AMD's product page; the RX 6900 XT's memory (16 Gbps × 256-bit = 512 GB/s: https://hardwaretimes.com/amd-radeon-rx-7800-xt-specs-and-release-date/ lists the RX 6800 XT at "16Gbps", "256-bit") with 72 CUs and 2,250 MHz boost per https://www.hardwaretimes.com/amd-radeon-rx-6900xt-specs-confirmed-80-cus-16gb-vram-w-256-bit-bus/ ("72 Compute Units", "boost reaching up to 2,250MHz"); FP16 packed, as the RX 6900 XT's: 72 × 64 × 2 × 2 × 2.25 GHz = 41.5; ${rocmSpecsRow('"Radeon RX 6800 XT", "RDNA2", "gfx1030", "16", "72"')}`,
  },
  "rx7900xtx-24g": {
    note: `value as in gpus.json, not re-read on AMD's product page; ${rocmSpecsRow('"Radeon RX 7900 XTX", "RDNA3", "gfx1100", "24", "96"')}`,
  },
  "rx7900xt-20g": {
    note: `value as in gpus.json, not re-read on AMD's product page; ${rocmSpecsRow('"Radeon RX 7900 XT", "RDNA3", "gfx1100", "20", "84"')}`,
  },
  "rx9070xt-16g": {
    note: `bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found; ${rocmSpecsRow('"Radeon RX 9070 XT", "RDNA4", "gfx1201", "16", "64"')}`,
  },
  "rx9070-16g": {
    note: `bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found; ${rocmSpecsRow('"Radeon RX 9070", "RDNA4", "gfx1201", "16", "56"')}`,
  },
  "r9700-32g": {
    note: `bandwidth as in gpus.json, not re-read; no dense matrix TFLOPS figure found; ${rocmSpecsRow('"Radeon AI PRO R9700", "RDNA4", "gfx1201", "32", "64"')}`,
  },
  "strixhalo-128g": {
    note: `bandwidth derived (LPDDR5X-8000 × 256-bit = 256 GB/s) as in gpus.json, not re-read; no TFLOPS figure found; ${rocmSpecsRow('"AMD Ryzen AI Max+ 395", "Radeon 8060S", "RDNA3.5", "gfx1151", "Dynamic + carveout", "40"')}`,
  },
  "arcb580-12g": { note: "bandwidth as in gpus.json, not re-read; its XMX figure is not used (unchecked)" },
  "gb10-128g": {
    note: 'FP4 is NVIDIA\'s "1 千万亿次" (10^15 FLOPS) halved, as every card\'s 2:4-sparse headline is; that page does not say "sparse", NVIDIA\'s English product page does in its footnote as reprinted at https://ai-infrastructure.net/dgx-spark/ ("up to 1 PFLOP of FP4 (with sparsity)"), and a contributor\'s system file in an unmerged pull request to NVIDIA\'s repository (ai-dynamo/aiconfigurator#677 at 11b96f9d, so not NVIDIA\'s figure) measured "~427 TFLOPS dense (mmapeak); 1 PFLOP with 2:4 structured sparsity (official)", under the 500 kept; NVIDIA\'s DGX Spark porting guide (https://docs.nvidia.com/dgx/dgx-spark-porting-guide/overview.html) says only "sharing 128GB of LPDDR5x memory with the integrated GPU"',
  },
  "apple-m1": {
    note: "M1 bandwidth (LPDDR4X-4266 × 128-bit) and Apple's \"2.6 teraflops\" as in gpus.json / Apple's M1 event, not re-read",
  },
  "apple-m1-pro": {
    note: "TFLOPS not checked: Apple's press release gives the bandwidth but no GPU TFLOPS (5.2 as in gpus.json)",
  },
  "apple-m1-max": {
    note: "TFLOPS not checked: Apple's press release gives the bandwidth but no GPU TFLOPS (10.4 as in gpus.json)",
  },
  "apple-m1-ultra": {
    note: 'not on Apple\'s page here; corroborated by https://thetechportal.com/2022/03/09/apple-mac-studio-display-m1-ultra-chip/: "Its memory bandwidth is 800 GB/sec"',
  },
  "apple-m2": { note: "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.398 GHz)" },
  "apple-m2-pro": { note: "bandwidth as in gpus.json, not re-read; TFLOPS derived (19 × 128 × 2 × 1.398 GHz)" },
  "apple-m2-max": {
    note: 'not on Apple\'s page here; corroborated by https://blog.patti.tech/2023/06/05/as-rumored-the-mac-studio-gets-an-m2-refresh-including-fused-together-m2-ultra: "M2 Max … with 400 GB/s memory bandwidth"; TFLOPS derived (38 × 128 × 2 × 1.398 GHz)',
  },
  "apple-m2-ultra": {
    note: "TFLOPS not checked: Apple prints none for M2 Ultra's GPU; derived (76 × 128 × 2 × 1.398 GHz)",
  },
  "apple-m3": { note: "bandwidth as in gpus.json, not re-read; TFLOPS derived (10 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-pro": { note: "TFLOPS not checked: Apple prints none; derived (18 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-max-30c": { note: "TFLOPS not checked: Apple prints none; derived (30 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-max-40c": { note: "TFLOPS not checked: Apple prints none; derived (40 × 128 × 2 × 1.38 GHz)" },
  "apple-m3-ultra": {
    note: 'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "96GB of unified memory (819GBps memory bandwidth)"; TFLOPS derived (80 × 128 × 2 × 1.38 GHz)',
  },
  "apple-m4": { note: "TFLOPS not checked: Apple prints none; derived (10 × 128 × 2 × 1.578 GHz)" },
  "apple-m4-pro": {
    note: "TFLOPS not checked: Apple prints none; derived (20 × 128 × 2 × 1.578 GHz); the Mac mini's spec gives 273 GB/s for both M4 Pro bins",
  },
  "apple-m4-max-32c": {
    note: 'not on Apple\'s page here; corroborated by https://english.worldmagazine.it/431260 (Macworld): "M4 Max chip … 36GB of unified memory (410GBps memory bandwidth)"; TFLOPS derived (32 × 128 × 2 × 1.578 GHz)',
  },
  "apple-m4-max-40c": {
    note: 'not on Apple\'s page here; corroborated by https://macmegasite.com/2024/10/30/m4-max-chip-has-16-core-cpu-40-core-gpu-and-35-increase-in-memory-bandwidth: "the M4 Max chip features a 16-core CPU, 40-core GPU, and 546 GB/s of memory bandwidth"; TFLOPS derived (40 × 128 × 2 × 1.578 GHz)',
  },
};

/** What was read for one card's figures. */
export function cardSpecCheck(label: string): CardSpecCheck {
  const spec = CARD_SPECS.find((c) => c.label === label);
  const reads = (VENDOR_READS[label] ?? []).filter((r) => isVendorHosted(r.url));
  const checkedFields = spec === undefined ? [] : confirmedFields(spec, reads);
  const needed = spec === undefined ? [] : SPEED_FIELDS.filter((f) => fieldValue(spec, f) !== null);
  const checked = needed.length > 0 && needed.every((f) => checkedFields.includes(f));
  const note = NOTES[label]?.note;
  const readText = reads.map((r) => `${r.url} (${r.host}, read ${r.readOn ?? READ_ON}): ${r.quote}`);
  const checkQuote =
    readText.length === 0 ? (note ?? UNCHECKED) : [...readText, ...(note === undefined ? [] : [note])].join("; ");
  const lastRead = reads.map((r) => r.readOn ?? READ_ON).reduce((a, b) => (b > a ? b : a), READ_ON);
  return { checked, checkedOn: checked ? lastRead : null, checkedFields, reads, checkQuote };
}

/** The fields some vendor read prints, where the printed number agrees with the table. */
function confirmedFields(spec: CardSpec, reads: readonly VendorRead[]): CheckedField[] {
  const all: CheckedField[] = [...SPEED_FIELDS, "link"];
  return all.filter((f) =>
    reads.some((r) => {
      const figure = r.fields[f];
      return figure !== undefined && r.quote.includes(figure.printed) && printedAgrees(fieldValue(spec, f), figure);
    }),
  );
}

/** Every card's figures with what was read for them. */
export function cardSpecsWithChecks(): (CardSpec & CardSpecCheck)[] {
  return CARD_SPECS.map((c) => ({ ...c, ...cardSpecCheck(c.label) }));
}
