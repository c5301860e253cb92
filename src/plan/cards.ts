/**
 * The catalog of cards: the memory each really reports, and where that
 * figure came from.
 *
 * A card's capacity is what its driver reports (nvidia-smi's "MiB" total,
 * rocm-smi's bytes), never its marketing size: an "80GB" H100 shows 81,559
 * MiB, which is 79.6 GiB, and planning against 80 GiB would promise 0.4 GiB
 * that does not exist. Where a figure comes from a sample kept in the
 * project, the source names the file under test/fixtures/inventory/; the rest
 * name the public page that printed it.
 *
 * MIG profiles carry the memory `nvidia-smi mig -lgip` prints (GiB with two
 * decimals, which are exact quarter-GiB steps rounded to 2 places). Profile
 * names are not identity: the same memory is called "1g.12gb" on an H100 NVL
 * and was "1g.11gb" in older configs, so importers match a slice on (parent
 * card, slices, memory) and only then take the catalog's name for it.
 */
import type { Cluster } from "./types.ts";
import { appleGpuWorkingSetBytes } from "./unifiedMemory.ts";
import { GIB, MIB } from "./units.ts";

export interface MigProfile {
  /** "3g.40gb": the name the current driver gives it on this card. */
  profile: string;
  /** Compute slices (the "3" of 3g). */
  slices: number;
  memoryBytes: number;
  source: string;
}

export interface Card {
  /** The class label's card part: "h100-80g". */
  class: string;
  /** The name nvidia-smi / rocm-smi prints. */
  name: string;
  /** What the card really reports (nvidia-smi "MiB" total × 2^20), not its marketing figure. */
  memoryBytes: number;
  source: string;
  vendor: "nvidia" | "amd" | "apple";
  /** CUDA compute capability (8.0 for A100); 0 for AMD. */
  computeCapability: number;
  migProfiles: MigProfile[];
}

/**
 * Compute capabilities are NVIDIA's own table (developer.nvidia.com/cuda-gpus):
 * 6.0 Pascal P100, 7.0 Volta, 7.5 Turing, 8.0 A100/A30, 8.6 GA10x, 8.9 Ada,
 * 9.0 Hopper, 10.0 Blackwell datacenter, 12.0 Blackwell RTX. The GeForce cards llama.cpp users run (RTX 4060 to
 * 5070) take their architecture's: no stored copy of that table names them, and third-party spec pages agree (CUDA
 * 8.9 for the RTX 4060 and 12.0 for the 5070 on fpsbench.com, 8.6 for the 3090 Ti on cpu-gpu.alldbin.com).
 */
const CC_SOURCE_NOTE = "compute capability per developer.nvidia.com/cuda-gpus";

/** A MIG profile from one `nvidia-smi mig -lgip` listing: memory in the GiB it prints. */
export function mig(profile: string, memoryGib: number, source: string): MigProfile {
  const slices = Number(/^(\d+)g\./.exec(profile)?.[1] ?? "0");
  return { profile, slices, memoryBytes: Math.round(memoryGib * GIB), source };
}

function migSet(source: string, rows: [string, number][]): MigProfile[] {
  return rows.map(([profile, gib]) => mig(profile, gib, source));
}

const H100_80G_MIG = migSet(
  "nvidia-smi mig -lgip on an H100 80GB HBM3 (test/fixtures/inventory/nvidia-smi-mig-lgip-h100-sxm-80g-1.txt)",
  [
    ["1g.10gb", 9.75],
    ["1g.20gb", 19.62],
    ["2g.20gb", 19.62],
    ["3g.40gb", 39.5],
    ["4g.40gb", 39.5],
    ["7g.80gb", 79.25],
  ],
);

const H100_NVL_MIG = migSet(
  "nvidia-smi mig -lgip on an H100 NVL (test/fixtures/inventory/nvidia-smi-mig-lgip-h100-nvl-94g-1.txt)",
  [
    ["1g.12gb", 10.75],
    ["1g.24gb", 21.62],
    ["2g.24gb", 21.62],
    ["3g.47gb", 46.38],
    ["4g.47gb", 46.38],
    ["7g.94gb", 93.12],
  ],
);

const H200_MIG = migSet(
  "nvidia-smi mig -lgip on an H200 (test/fixtures/inventory/nvidia-smi-mig-lgip-h200-partial-1.txt; 7g.141gb from the same listing's full text, github.com/NVIDIA/mig-parted/issues/120)",
  [
    ["1g.18gb", 16.0],
    ["1g.35gb", 32.25],
    ["2g.35gb", 32.25],
    ["3g.71gb", 69.5],
    ["4g.71gb", 69.5],
    ["7g.141gb", 139.75],
  ],
);

const A100_80G_MIG = migSet(
  "nvidia-smi mig -lgip on an A100 80GB, as printed in public MIG guides (e.g. an EKS GPU-sharing write-up quoting `nvidia-smi mig -i 0 -lgip`: 1g.10gb 9.50 … 7g.80gb 79.00 GiB)",
  [
    ["1g.10gb", 9.5],
    ["1g.20gb", 19.5],
    ["2g.20gb", 19.5],
    ["3g.40gb", 39.25],
    ["4g.40gb", 39.25],
    ["7g.80gb", 79.0],
  ],
);

/**
 * A100 40GB: drivers disagree by an eighth of a GiB (2g.10gb is 9.62 on
 * driver 450-era listings, 9.75 on later ones; 3g.20gb 19.50 vs 19.62). The
 * smaller figure is kept: a plan that fits it fits both.
 */
const A100_40G_MIG = migSet(
  "nvidia-smi mig -lgip on A100 40GB, the smaller of the figures seen across drivers in public listings (MIG how-to guides, an OpenShift GPU-operator write-up): 1g.5gb 4.75, 1g.10gb and 2g.10gb 9.62–9.75, 3g.20gb 19.50–19.62, 4g.20gb 19.50, 7g.40gb 39.25 GiB; 1g.5gb = 4864 MiB in GFD labels (test/fixtures/inventory/k8s-node-yaml-labels-a100-40g-mig-mixed-partial-1.txt)",
  [
    ["1g.5gb", 4.75],
    ["1g.10gb", 9.62],
    ["2g.10gb", 9.62],
    ["3g.20gb", 19.5],
    ["4g.20gb", 19.5],
    ["7g.40gb", 39.25],
  ],
);

const A30_MIG = migSet(
  "nvidia-smi mig -lgip on an A30 (test/fixtures/inventory/nvidia-smi-mig-lgip-a30-all-used-1.txt)",
  [
    ["1g.6gb", 5.81],
    ["2g.12gb", 11.69],
    ["4g.24gb", 23.5],
  ],
);

/** Only the rows the public listing showed in full: 1g.24gb. */
const RTX_PRO_6000_MIG = migSet(
  "nvidia-smi mig -lgip on an RTX PRO 6000 Blackwell Server Edition (test/fixtures/inventory/nvidia-smi-mig-lgip-rtxpro6000-partial-1.txt)",
  [["1g.24gb", 23.12]],
);

const GB200_MIG = migSet("nvidia-smi mig -lgip on an HGX GB200 (github.com/NVIDIA/gpu-operator/pull/1303)", [
  ["1g.24gb", 20.0],
  ["1g.47gb", 45.5],
  ["2g.47gb", 45.5],
]);

const B200_MIG = migSet(
  "nvidia-smi mig -lgip on a B200, smaller of two drivers' figures (github.com/NVIDIA/mig-parted/pull/166 prints 1g.23gb 22.00, github.com/NVIDIA/gpu-operator/pull/1351 prints 20.50; both 1g.45gb/2g.45gb 44.25)",
  [
    ["1g.23gb", 20.5],
    ["1g.45gb", 44.25],
    ["2g.45gb", 44.25],
  ],
);

function nvidia(
  cls: string,
  name: string,
  memoryMib: number,
  source: string,
  computeCapability: number,
  migProfiles: MigProfile[] = [],
): Card {
  return {
    class: cls,
    name,
    memoryBytes: memoryMib * MIB,
    source: `${source}; ${CC_SOURCE_NOTE}`,
    vendor: "nvidia",
    computeCapability,
    migProfiles,
  };
}

function amd(cls: string, name: string, memoryBytes: number, source: string): Card {
  return { class: cls, name, memoryBytes, source, vendor: "amd", computeCapability: 0, migProfiles: [] };
}

export const CARDS: readonly Card[] = [
  // Hopper
  nvidia(
    "h100-80g",
    "NVIDIA H100 80GB HBM3",
    81559,
    "nvidia-smi on 8× H100 SXM (test/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt): 81559MiB",
    9.0,
    H100_80G_MIG,
  ),
  nvidia(
    "h100-pcie-80g",
    "NVIDIA H100 PCIe",
    81559,
    "GFD nvidia.com/gpu.memory=81559 on an H100 PCIe (test/fixtures/inventory/k8s-describe-node-labels-h100-pcie-1.txt); MIG profiles assumed to be the H100 SXM's (the same GH100 with 80 GB; no PCIe lgip listing was found)",
    9.0,
    H100_80G_MIG,
  ),
  nvidia(
    "h100-nvl-94g",
    "NVIDIA H100 NVL",
    95830,
    "nvidia-smi on 2× H100 NVL (test/fixtures/inventory/nvidia-smi-h100-nvl-94g-1.txt): 95830MiB",
    9.0,
    H100_NVL_MIG,
  ),
  nvidia(
    "h200-141g",
    "NVIDIA H200",
    143771,
    "nvidia-smi on H200 / H200 NVL: 143771MiB (test/fixtures/inventory/README.md, memory numbers seen)",
    9.0,
    H200_MIG,
  ),
  nvidia(
    "gh200-96g",
    "NVIDIA GH200 480GB",
    97871,
    "nvidia-smi on a GH200 96GB (test/fixtures/inventory/nvidia-smi-gh200-96g-1.txt): 97871MiB; its name's 480GB is the Grace LPDDR5X",
    9.0,
  ),
  // Blackwell
  nvidia(
    "b200-180g",
    "NVIDIA B200",
    183359,
    "nvidia-smi on B200: 183359MiB (test/fixtures/inventory/README.md, memory numbers seen)",
    10.0,
    B200_MIG,
  ),
  nvidia(
    "gb200-186g",
    "NVIDIA GB200",
    189471,
    'nvidia-smi on GB200 trays: 189471MiB in five public nvidia-smi tables found by text search, and in NVIDIA\'s own ai-dynamo/aiconfigurator@095f58a5 gb200.yaml ("189471MiB reported by nvidia-smi")',
    10.0,
    GB200_MIG,
  ),
  nvidia(
    "rtxpro6000-96g",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition",
    97887,
    "nvidia-smi on 4× RTX PRO 6000 Blackwell (test/fixtures/inventory/nvidia-smi-rtxpro6000-mixed-mig-1.txt): 97887MiB, as NVIDIA's ai-dynamo/aiconfigurator@095f58a5 rtx_pro_6000_server.yaml has it",
    12.0,
    RTX_PRO_6000_MIG,
  ),
  nvidia(
    "rtx5090-32g",
    "NVIDIA GeForce RTX 5090",
    32607,
    "nvidia-smi on RTX 5090: 32607MiB (github.com/noonghunna/club-3090/issues/617, driver 595.71.05)",
    12.0,
  ),
  nvidia(
    "rtx5070-12g",
    "NVIDIA GeForce RTX 5070",
    12227,
    "nvidia-smi on RTX 5070: 12227MiB (github.com/shkhln/libc6-shim/issues/14, driver 575.64.03; the same in two more public nvidia-smi tables, weaker provenance: found by text search, repositories not recorded)",
    12.0,
  ),
  nvidia(
    "rtx5060ti-16g",
    "NVIDIA GeForce RTX 5060 Ti",
    16311,
    'nvidia-smi on RTX 5060 Ti 16GB: 16311MiB in several public nvidia-smi tables (180 W cap, drivers 590–595) and a two-card rig note ("NVIDIA GeForce RTX 5060 Ti 16,311 MiB sm_120"), weaker provenance: found by text search, repositories not recorded; two tables printing 16384MiB in an older layout were not counted',
    12.0,
  ),
  nvidia(
    "rtx5080-16g",
    "NVIDIA GeForce RTX 5080",
    16303,
    "nvidia-smi on RTX 5080: 16303MiB in several public nvidia-smi tables (360 W cap), weaker provenance: found by text search, repositories not recorded",
    12.0,
  ),
  nvidia(
    "rtx5070ti-16g",
    "NVIDIA GeForce RTX 5070 Ti",
    16303,
    "nvidia-smi on RTX 5070 Ti: 16303MiB in several public nvidia-smi tables (300 W cap, drivers 570–595), weaker provenance: found by text search, repositories not recorded",
    12.0,
  ),
  // Ampere
  nvidia(
    "a100-80g",
    "NVIDIA A100-SXM4-80GB",
    81920,
    "nvidia-smi on A100 80GB (SXM4 and PCIe): 81920MiB (github.com/modal-labs/modal-client/pull/2797; test/fixtures/inventory/README.md)",
    8.0,
    A100_80G_MIG,
  ),
  nvidia(
    "a100-40g",
    "NVIDIA A100-SXM4-40GB",
    40536,
    "A100 40GB reports 40536–40960MiB by driver (GFD gpu.memory=40536 in test/fixtures/inventory/k8s-node-yaml-labels-a100-40g-mig-mixed-partial-1.txt, 40537 on driver 450, 40960 on recent drivers per github.com/modal-labs/modal-client/pull/2797); the smallest is kept so no plan counts on memory an older driver withholds",
    8.0,
    A100_40G_MIG,
  ),
  nvidia(
    "a30-24g",
    "NVIDIA A30",
    24576,
    "GFD gpu.memory=24576 on A30 (test/fixtures/inventory/README.md, memory numbers seen)",
    8.0,
    A30_MIG,
  ),
  nvidia(
    "a10g-24g",
    "NVIDIA A10G",
    23028,
    "nvidia-smi on an AWS g5 A10G (test/fixtures/inventory/nvidia-smi-a10g-1.txt): 23028MiB",
    8.6,
  ),
  nvidia(
    "a10-24g",
    "NVIDIA A10",
    23028,
    "nvidia-smi on A10: 23028MiB (github.com/modal-labs/modal-client/pull/2797)",
    8.6,
  ),
  nvidia(
    "a40-48g",
    "NVIDIA A40",
    46068,
    "nvidia-smi on 10× A40 with ECC on: 46068MiB (thamada/nvidia-smi:nvsim/A40x10_smi.py)",
    8.6,
  ),
  nvidia(
    "rtxa6000-48g",
    "NVIDIA RTX A6000",
    46068,
    "nvidia-smi on RTX A6000 with ECC on: 46068MiB (thamada/gls:gls/RTX_A6000_x9_smi.py); 49140MiB with ECC off",
    8.6,
  ),
  nvidia(
    "rtx3090-24g",
    "NVIDIA GeForce RTX 3090",
    24576,
    "nvidia-smi on 4× RTX 3090: 24576MiB (github.com/noonghunna/club-3090/issues/1127, driver 595.84)",
    8.6,
  ),
  nvidia(
    "rtx3090ti-24g",
    "NVIDIA GeForce RTX 3090 Ti",
    24564,
    "nvidia-smi on RTX 3090 Ti: 24564 MiB (github.com/noonghunna/club-3090/issues/353, driver 580.159.03)",
    8.6,
  ),
  nvidia(
    "rtx3080ti-12g",
    "NVIDIA GeForce RTX 3080 Ti",
    12288,
    "nvidia-smi on RTX 3080 Ti: 12288MiB in several public nvidia-smi tables (350–400 W caps), weaker provenance: found by text search, repositories not recorded",
    8.6,
  ),
  nvidia(
    "rtx3080-10g",
    "NVIDIA GeForce RTX 3080",
    10240,
    "nvidia-smi on RTX 3080 10GB: 10240MiB in several public nvidia-smi tables (320–370 W caps), weaker provenance: found by text search, repositories not recorded; the 12 GB RTX 3080 has the same name and reports its own",
    8.6,
  ),
  nvidia(
    "rtx3070-8g",
    "NVIDIA GeForce RTX 3070",
    8192,
    "nvidia-smi on RTX 3070: 8192MiB in several public nvidia-smi tables (220–280 W caps), weaker provenance: found by text search, repositories not recorded",
    8.6,
  ),
  nvidia(
    "rtx3060-12g",
    "NVIDIA GeForce RTX 3060",
    12288,
    "nvidia-smi on RTX 3060 12GB: 12288MiB (github.com/geerlingguy/raspberry-pi-pcie-devices/issues/790, driver 580.95.05)",
    8.6,
  ),
  nvidia(
    "rtx3060ti-8g",
    "NVIDIA GeForce RTX 3060 Ti",
    8192,
    "nvidia-smi on RTX 3060 Ti: 8192MiB in several public nvidia-smi tables (200–240 W caps), weaker provenance: found by text search, repositories not recorded",
    8.6,
  ),
  // Ada
  nvidia(
    "l40s-48g",
    "NVIDIA L40S",
    46068,
    "nvidia-smi on L40S (test/fixtures/inventory/nvidia-smi-l40s-1.txt): 46068MiB, as NVIDIA's ai-dynamo/aiconfigurator@095f58a5 l40s.yaml has it",
    8.9,
  ),
  nvidia(
    "l40-48g",
    "NVIDIA L40",
    46068,
    "nvidia-smi on L40 with ECC on, the datacenter default: 46068MiB in five public nvidia-smi tables, 49140MiB in one with ECC off (weaker provenance: found by text search, repositories not recorded)",
    8.9,
  ),
  nvidia(
    "l4-24g",
    "NVIDIA L4",
    23034,
    "nvidia-smi on L4: 23034MiB (github.com/modal-labs/modal-client/pull/2797)",
    8.9,
  ),
  nvidia(
    "rtx4090-24g",
    "NVIDIA GeForce RTX 4090",
    24564,
    "nvidia-smi on 8× RTX 4090 (test/fixtures/inventory/nvidia-smi-rtx4090-1.txt): 24564MiB",
    8.9,
  ),
  nvidia(
    "rtx6000ada-48g",
    "NVIDIA RTX 6000 Ada Generation",
    49140,
    'nvidia-smi on RTX 6000 Ada with ECC off, the workstation default: 49140MiB (one public nvidia-smi table, name truncated "NVIDIA RTX 6000 Ada Gene..."; weaker provenance: found by text search, repository not recorded)',
    8.9,
  ),
  nvidia(
    "rtx4080super-16g",
    "NVIDIA GeForce RTX 4080 SUPER",
    16376,
    "nvidia-smi on RTX 4080 SUPER: 16376 MiB (a tool's reading \"NVIDIA GeForce RTX 4080 SUPER 16376 MiB\", weaker provenance: found by text search, repositories not recorded), the RTX 4080's figure (the same 16 GB of GDDR6X)",
    8.9,
  ),
  nvidia(
    "rtx4080-16g",
    "NVIDIA GeForce RTX 4080",
    16376,
    "nvidia-smi on RTX 4080: 16376MiB in several public nvidia-smi tables (320 W cap; two in another layout print 16384), weaker provenance: found by text search, repositories not recorded; the smaller is kept",
    8.9,
  ),
  nvidia(
    "rtx4070ti-12g",
    "NVIDIA GeForce RTX 4070 Ti",
    12282,
    "nvidia-smi on RTX 4070 Ti: 12282MiB in several public nvidia-smi tables (285 W cap), weaker provenance: found by text search, repositories not recorded",
    8.9,
  ),
  nvidia(
    "rtx4070tisuper-16g",
    "NVIDIA GeForce RTX 4070 Ti SUPER",
    16376,
    "nvidia-smi on RTX 4070 Ti SUPER: 16376MiB in two public nvidia-smi tables, each with the name cut to \"NVIDIA GeForce RTX 4070 ...\" and a 285 W cap (the 4070 Ti's and Ti SUPER's; only the Ti SUPER has 16 GB), weaker provenance: found by text search, repositories not recorded",
    8.9,
  ),
  nvidia(
    "rtx4070super-12g",
    "NVIDIA GeForce RTX 4070 SUPER",
    12282,
    'nvidia-smi on RTX 4070 SUPER: 12282MiB (a public nvidia-smi reading "NVIDIA GeForce RTX 4070 SUPER WDDM 5831MiB / 12282MiB", and a two-card rig note "NVIDIA GeForce RTX 4070 SUPER 12,282 MiB sm_89"), weaker provenance: found by text search, repositories not recorded; the RTX 4070\'s figure too (same 12 GB of GDDR6X)',
    8.9,
  ),
  nvidia(
    "rtx4070-12g",
    "NVIDIA GeForce RTX 4070",
    12282,
    "nvidia-smi on RTX 4070: 12282MiB in several public nvidia-smi tables (200 W cap), weaker provenance: found by text search, repositories not recorded",
    8.9,
  ),
  nvidia(
    "rtx4060ti-16g",
    "NVIDIA GeForce RTX 4060 Ti",
    16380,
    "nvidia-smi on RTX 4060 Ti 16GB: 16380MiB in several public nvidia-smi tables (165 W cap, the 16 GB card's), weaker provenance: found by text search, repositories not recorded; the 8 GB card has the same name, so the reported memory picks the variant",
    8.9,
  ),
  nvidia(
    "rtx4060ti-8g",
    "NVIDIA GeForce RTX 4060 Ti",
    8188,
    "nvidia-smi on RTX 4060 Ti 8GB: 8188MiB (one public nvidia-smi table, 160 W cap, the 8 GB card's), weaker provenance: found by text search, repositories not recorded; 8188 is also what the RTX 4060 and the 8 GB laptop 4070s print",
    8.9,
  ),
  nvidia(
    "rtx4060-8g",
    "NVIDIA GeForce RTX 4060",
    8188,
    "nvidia-smi on RTX 4060: 8188MiB in several public nvidia-smi tables (115 W cap; one more prints 8192), weaker provenance: found by text search, repositories not recorded; the smaller is kept",
    8.9,
  ),
  // Turing, Volta, Pascal
  nvidia(
    "rtx2080ti-11g",
    "NVIDIA GeForce RTX 2080 Ti",
    11264,
    "nvidia-smi on RTX 2080 Ti: 11264MiB in several public nvidia-smi tables (250–260 W caps), weaker provenance: found by text search, repositories not recorded; two more print 22528MiB, boards modded to 22 GB, whose reported memory the importer keeps",
    7.5,
  ),
  nvidia(
    "t4-16g",
    "Tesla T4",
    15360,
    "nvidia-smi on T4: 15360MiB (github.com/modal-labs/modal-client/pull/2797; test/fixtures/inventory/README.md)",
    7.5,
  ),
  nvidia(
    "v100-32g",
    "Tesla V100-SXM2-32GB",
    32764,
    "--query-gpu on 8× V100-SXM2-32GB (test/fixtures/inventory/nvidia-smi-query-csv-v100-1.txt): 32768MiB, and 32764 on a card with retired pages; the smaller is kept",
    7.0,
  ),
  nvidia(
    "v100-16g",
    "Tesla V100-PCIE-16GB",
    16160,
    "nvidia-smi on V100 16GB PCIe: 16160MiB (test/fixtures/inventory/README.md, memory numbers seen)",
    7.0,
  ),
  nvidia(
    "p100-16g",
    "Tesla P100-SXM2-16GB",
    16280,
    "nvidia-smi on 8× Tesla P100-SXM2: 16280MiB (neuropoly/intranet.neuro.polymtl.ca:computing-resources/neuropoly/gpus.md)",
    6.0,
  ),
  // AMD
  {
    class: "mi300x-192g",
    name: "AMD Instinct MI300X",
    memoryBytes: 206141652992,
    source:
      "rocm-smi --showmeminfo vram on MI300X: VRAM Total Memory (B): 206141652992 (github.com/ROCm/legacy-rocm-build/issues/4750), 16 MiB under 192 GiB",
    vendor: "amd",
    computeCapability: 0,
    migProfiles: [],
  },
  {
    class: "mi325x-256g",
    name: "AMD Instinct MI325X",
    memoryBytes: 256 * GIB - 16 * MIB,
    source:
      "ESTIMATE: no rocm-smi total for MI325X was found; AMD's ROCm table gives it 256 GiB (ROCm/ROCm@e396b489 docs/reference/gpu-arch-specs.rst; 192 for the MI300X) and the MI300X reports 16 MiB under its 192 GiB, so 256 GiB − 16 MiB",
    vendor: "amd",
    computeCapability: 0,
    migProfiles: [],
  },
  // AMD cards llama.cpp users run with ROCm/HIP and Vulkan. rocm-smi's "VRAM Total Memory (B)" (rocminfo's GPU pool × 1024)
  // is 16 MiB under the card's GiB, as the MI300X's: 17,163,091,968 for 16 GB, 34,342,961,152 for 32, 68,702,699,520 for 64.
  amd(
    "mi250x-64g",
    "AMD Instinct MI250X",
    68702699520,
    'one GCD, which rocm-smi lists as its own device (each MI250X is two): VRAM Total Memory (B): 68702699520 on HPE Cray EX MI250X nodes (Card Model 0x7408, "AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2"; weaker provenance: found by text search, repositories not recorded); rocminfo\'s GPU pool on an MI250 GCD is the same 67092480 KB (github.com/ROCm/rocm_smi_lib/issues/160)',
  ),
  amd(
    "mi210-64g",
    "AMD Instinct MI210",
    68702699520,
    "rocm-smi on MI210: VRAM Total Memory (B): 68702699520 (Card Model 0x740f, gfx90a; weaker provenance: found by text search, repositories not recorded); 0x740f is the MI210's chip id in its rocminfo (github.com/ROCm/legacy-rocm-build/issues/2595)",
  ),
  amd(
    "mi100-32g",
    "AMD Instinct MI100",
    34342961152,
    "rocminfo on MI100 (gfx908): GPU pool 33538048 KB = 34342961152 B (github.com/ROCm/legacy-rocm-build/issues/2722), what rocm-smi prints as VRAM Total for 32 GB cards",
  ),
  amd(
    "mi50-32g",
    "AMD Instinct MI50",
    34342961152,
    'rocm-smi on MI50 32GB: "Card series: AMD Instinct MI50", VRAM Total Memory (B): 34342961152, hipMemGetInfo total the same (weaker provenance: found by text search, repositories not recorded); the 16 GB MI50 reports its own, which the importer keeps',
  ),
  amd(
    "rx7800xt-16g",
    "AMD Radeon RX 7800 XT",
    17163091968,
    "llama.cpp's Vulkan device on RX 7800 XT: \"Vulkan0, AMD Radeon RX 7800 XT, 16368 MB\" in a run log (weaker provenance: found by text search, repositories not recorded): 16368 MiB = 17163091968 B, rocm-smi's figure for 16 GB Radeons",
  ),
  amd(
    "rx6900xt-16g",
    "AMD Radeon RX 6900 XT",
    17163091968,
    'rocm-smi on Navi 21: VRAM Total Memory (B): 17163091968, "Card series: Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]" (weaker provenance: found by text search, repositories not recorded); that name covers three cards, so the importer takes the card from a name that says which',
  ),
  amd(
    "rx6800xt-16g",
    "AMD Radeon RX 6800 XT",
    17163091968,
    "rocm-smi on Navi 21: VRAM Total Memory (B): 17163091968 (the RX 6900 XT's source; weaker provenance: found by text search, repositories not recorded)",
  ),
  // Unified memory: the GPU's share of the machine's one pool (unifiedMemory.ts says which engines run there).
  ...(
    [
      ["apple-m3-ultra-512g", "Apple M3 Ultra", 512],
      ["apple-m3-ultra-256g", "Apple M3 Ultra", 256],
      ["apple-m2-ultra-192g", "Apple M2 Ultra", 192],
      ["apple-m4-max-40c-128g", "Apple M4 Max", 128],
    ] as const
  ).map(([cls, name, ramGib]): Card => ({
    class: cls,
    name,
    memoryBytes: appleGpuWorkingSetBytes(ramGib * GIB),
    source: `Metal's recommendedMaxWorkingSetSize under macOS's default iogpu.wired_limit_mb: 3/4 of ${ramGib} GiB (unifiedMemory.ts appleGpuWorkingSetBytes, with the figures llama.cpp printed)`,
    vendor: "apple",
    computeCapability: 0,
    migProfiles: [],
  })),
  nvidia(
    "gb10-128g",
    "NVIDIA GB10",
    121.69 * 1024,
    'NVIDIA DGX Spark (GB10, 128 GB LPDDR5X shared with the Grace CPU): CUDA reports 121.69 GiB total, as vLLM\'s start-up line prints it ("Free memory on device (114.54/121.69 GiB)", in several public DGX Spark notes; weaker provenance: found by text search, repositories not recorded)',
    12.1,
  ),
  {
    class: "strixhalo-128g",
    name: "AMD Radeon 8060S (Ryzen AI Max+ 395)",
    memoryBytes: 63968 * MIB,
    source:
      'Strix Halo with 128 GB: a stock Linux kernel gives the GPU half the RAM as GTT, "63968M of GTT memory ready" (github.com/antirez/ds4/issues/475); the BIOS UMA carve-out (up to 96 GB) or ttm.pages_limit raises it (ttm.pages_limit=25165824: mem_info_gtt_total 96.00 GiB, llama.cpp HIP "Total VRAM: 98304 MiB", github.com/noamsto/nix-amd-ai/issues/42; 124 GiB with ttm.pages_limit=32505856, github.com/kyuz0/amd-strix-halo-toolboxes/issues/98): give the card mem_gib when raised',
    vendor: "amd",
    computeCapability: 0,
    migProfiles: [],
  },
];

/** The catalog by class: the slider asks a card of every option at every move. */
const CARD_BY_CLASS: ReadonlyMap<string, Card> = new Map(CARDS.map((c) => [c.class, c]));

/** The card a class label names, MIG suffix ignored: "a100-80g-mig-3g.40gb" → the a100-80g card. */
export function cardOf(gpuClass: string): Card | undefined {
  return CARD_BY_CLASS.get(gpuClass) ?? CARD_BY_CLASS.get(gpuClass.split("-mig-")[0] ?? gpuClass);
}

/** Whether a class names MIG instances: a replica runs on exactly one. */
export function isMigClass(gpuClass: string): boolean {
  return gpuClass.includes("-mig-");
}

/** Memory of one device of a class, in bytes: the override when given, else the catalog's; null when unknown. */
export function cardMemoryBytes(gpuClass: string, memGibOverride?: number): number | null {
  if (memGibOverride !== undefined && memGibOverride > 0) return memGibOverride * 2 ** 30;
  const card = cardOf(gpuClass);
  if (!card) return null;
  if (!isMigClass(gpuClass)) return card.memoryBytes;
  const profile = gpuClass.split("-mig-")[1];
  return card.migProfiles.find((p) => p.profile === profile)?.memoryBytes ?? null;
}

/** The card the engine defaults are shown for when the cluster has none: an H100's 81,559 MiB. */
const FALLBACK_CARD = "h100-80g";

/**
 * The largest card the cluster has, as it reports its memory. Engines pick
 * some defaults by card size (vLLM's scheduler limits, SGLang's reserve), and
 * the page's "Engine settings" shows the defaults for that card.
 */
export function largestCardBytes(cluster: Cluster): number {
  let largest = 0;
  for (const node of cluster.nodes) {
    for (const d of node.devices) largest = Math.max(largest, cardMemoryBytes(d.class, d.memGib) ?? 0);
  }
  return largest > 0 ? largest : (cardMemoryBytes(FALLBACK_CARD) ?? 0);
}

/**
 * Memory the driver keeps from CUDA: nvidia-smi reports an H100 80GB as
 * 81,559 MiB while torch.cuda.mem_get_info (what vLLM and SGLang take a
 * fraction of) reports 79.19 GiB = 81,091 MiB (calibration, vLLM 0.19
 * "total_memory=79.19GiB"). vLLM's `gpu_memory_utilization × total` is of the
 * smaller figure; planning against the larger would hand a 72B at TP2 0.44 GiB
 * of KV it never gets (14% of its pool).
 */
export const DRIVER_RESERVED_BYTES = 468 * MIB;

/**
 * What CUDA reports as the total of the cards whose figure was seen, where the
 * driver keeps other than an H100's 468 MiB back from nvidia-smi's figure:
 * - A100 80GB: 79.25 GiB. torch's out-of-memory message on one reads "79.25
 *   GiB total capacity" (levihsu/OOTDiffusion#235), and vLLM 0.10.1.1's own
 *   pools agree: Qwen2-7B's KV grew 19.82 GiB at TP1 and 19.81 at TP2 from util
 *   0.25 to 0.5 (dennislee22/vLLM-benchmarking logs), a quarter of 79.24–79.28
 *   GiB. nvidia-smi's 81,920 MiB less 468 would be 79.54: 0.29 GiB the engine never sees.
 * - A100 40GB: 42,405,855,232 bytes (39.49 GiB), deviceQuery's "40441 MBytes"
 *   on one (Paderborn PC2's A100 40GB page); torch prints "39.50 GiB total
 *   capacity" on another (TianheWu/CoSeR#10): we keep the smaller. The
 *   catalog's 40,536 MiB is an older driver's nvidia-smi figure.
 * A card the inventory lists smaller than this (another driver, a MIG slice)
 * keeps its own figure.
 */
const CUDA_TOTAL_BYTES_BY_CLASS: Readonly<Record<string, number>> = {
  "a100-80g": 79.25 * 2 ** 30,
  "a100-40g": 42_405_855_232,
  // GB10's 121.69 GiB is CUDA's own total already (vLLM's start-up line).
  "gb10-128g": 121.69 * 2 ** 30,
};

/** What CUDA reports as a card's total: what the engines' fractions are of. */
export function cudaTotalBytes(physicalBytes: number, gpuClass = ""): number {
  const seen = Object.hasOwn(CUDA_TOTAL_BYTES_BY_CLASS, gpuClass) ? CUDA_TOTAL_BYTES_BY_CLASS[gpuClass] : undefined;
  if (seen !== undefined) return Math.min(seen, physicalBytes);
  return Math.max(0, physicalBytes - DRIVER_RESERVED_BYTES);
}

// ---------------------------------------------------------------------------
// vLLM V1 (0.19): KV = util × total − weights − activation peak − non-torch

/** The CUDA context a llama.cpp process holds on each card: 0.51 GiB on H100 (as vLLM's "cuda_memory" before loading). */
export const CUDA_CONTEXT_BYTES = 0.51 * GIB;
