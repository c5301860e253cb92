/** The terminal tests' cluster file: Modelplan's own cluster JSON for one node of 8 H100 80GB on InfiniBand, all free. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const DGX_CLUSTER = {
  nodes: [
    {
      id: "dgx1",
      fabric: "ib0",
      host_mem_gib: 2048,
      host_free_gib: 1900,
      devices: [{ class: "h100-80g", count: 8, free: 8 }],
    },
  ],
};

/** Writes it as `cluster.json` in `dir`; returns its path. */
export function writeDgxCluster(dir: string): string {
  const path = join(dir, "cluster.json");
  writeFileSync(path, JSON.stringify(DGX_CLUSTER));
  return path;
}
