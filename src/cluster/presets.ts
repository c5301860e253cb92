/**
 * The clusters a user can start from in one click (five presets).
 * Each node's RAM is the machine's as sold; the user edits what differs.
 */
import type { Cluster } from "../plan/index.ts";

export interface Preset {
  id: string;
  label: string;
  cluster: Cluster;
}

/** NVIDIA DGX H100 datasheet: 8× H100 SXM 80GB, 2 TB system memory, ConnectX-7 InfiniBand. */
const DGX_H100_RAM_GIB = 2048;
/** A workstation board with four 32 GiB DIMMs: the common ceiling of desktop platforms. */
const WORKSTATION_RAM_GIB = 128;
/** A dual-socket server's 16 × 32 GiB DIMMs, as the preset's name says. */
const CPU_SERVER_RAM_GIB = 512;
/** An A100 80GB HGX-class host with 8 × 64 GiB DIMMs. */
const A100_HOST_RAM_GIB = 512;
/**
 * Mac Studio M3 Ultra with 512 GB unified memory (Apple's top configuration): one pool, of which
 * Metal lets the GPU wire 3/4 by default (the catalog's apple-m3-ultra-512g, 384 GiB); the node's
 * RAM is the same pool, so what the GPU takes is not free for the CPU as well.
 */
const MAC_STUDIO_RAM_GIB = 512;

export const PRESETS: Preset[] = [
  {
    id: "dgx-h100-x2",
    label: "Two DGX H100 nodes on InfiniBand",
    cluster: {
      nodes: ["dgx-1", "dgx-2"].map((id) => ({
        id,
        fabric: "ib0",
        hostMemGib: DGX_H100_RAM_GIB,
        hostFreeGib: DGX_H100_RAM_GIB,
        devices: [{ class: "h100-80g", count: 8, free: 8 }],
      })),
    },
  },
  {
    id: "workstation-2x4090",
    label: "Workstation with 2 × RTX 4090",
    cluster: {
      nodes: [
        {
          id: "workstation",
          fabric: "",
          hostMemGib: WORKSTATION_RAM_GIB,
          hostFreeGib: WORKSTATION_RAM_GIB,
          devices: [{ class: "rtx4090-24g", count: 2, free: 2 }],
        },
      ],
    },
  },
  {
    id: "a100-mig-mixed",
    label: "A100 80GB split 3g.40gb + 2 × 2g.20gb, beside a whole A100",
    cluster: {
      nodes: [
        {
          id: "a100-host",
          fabric: "",
          hostMemGib: A100_HOST_RAM_GIB,
          hostFreeGib: A100_HOST_RAM_GIB,
          devices: [
            { class: "a100-80g-mig-3g.40gb", count: 1, free: 1 },
            { class: "a100-80g-mig-2g.20gb", count: 2, free: 2 },
            { class: "a100-80g", count: 1, free: 1 },
          ],
        },
      ],
    },
  },
  {
    id: "mac-studio-m3-ultra-512g",
    label: "Mac Studio M3 Ultra 512 GB (llama.cpp on Metal)",
    cluster: {
      nodes: [
        {
          id: "mac-studio",
          fabric: "",
          hostMemGib: MAC_STUDIO_RAM_GIB,
          hostFreeGib: MAC_STUDIO_RAM_GIB,
          devices: [{ class: "apple-m3-ultra-512g", count: 1, free: 1 }],
        },
      ],
    },
  },
  {
    id: "cpu-512g",
    label: "CPU server with 512 GB RAM",
    cluster: {
      nodes: [
        { id: "cpu-server", fabric: "", hostMemGib: CPU_SERVER_RAM_GIB, hostFreeGib: CPU_SERVER_RAM_GIB, devices: [] },
      ],
    },
  },
];
