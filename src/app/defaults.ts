/**
 * What the page opens on with no link: the bundled example model on a
 * sample cluster, planned with no network.
 */
import { PRESETS } from "../cluster/presets.ts";
import { catalogSha, EXAMPLE_REPO } from "../hub/catalogIndex.ts";
import { DEFAULT_WORKLOAD } from "../plan/index.ts";
import type { Cluster } from "../plan/index.ts";
import { DEFAULT_FILTERS, type Choices } from "../state/choices.ts";

/** The sample cluster: the first preset, two DGX H100 nodes on InfiniBand. */
function sampleCluster(): Cluster {
  const preset = PRESETS[0];
  return preset ? preset.cluster : { nodes: [] };
}

export function defaultChoices(): Choices {
  return {
    repo: EXAMPLE_REPO,
    // Pinned to the catalog's commit, so the example's link names the exact files it was planned from.
    revision: catalogSha(EXAMPLE_REPO) ?? "",
    cluster: sampleCluster(),
    workload: DEFAULT_WORKLOAD,
    filters: DEFAULT_FILTERS,
    selectedOptionId: "",
    commandIndex: 0,
  };
}
