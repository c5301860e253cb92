/**
 * The link codec and validation hold one cluster schema (issue 18): a count
 * one past the bound is refused by both, and the bound itself passes both.
 * Before, the link took 10,000 cards a group and validation 1,024.
 */
import { describe, expect, test } from "vitest";
import { MAX_DEVICES_PER_GROUP, MAX_GROUPS_PER_NODE } from "../../src/cluster/schema.ts";
import { validateCluster } from "../../src/cluster/validate.ts";
import type { Cluster } from "../../src/plan/index.ts";
import type { Choices } from "../../src/state/choices.ts";
import { decodeLink, encodeLink } from "../../src/state/link.ts";
import { LINK_DEFAULTS } from "../state/linkDefaults.ts";

const DEFAULTS: Choices = LINK_DEFAULTS;
const EXAMPLE: Cluster = DEFAULTS.cluster;

const withCount = (count: number): Cluster => ({
  nodes: [
    { id: "big", fabric: "", hostMemGib: 64, hostFreeGib: 64, devices: [{ class: "h100-80g", count, free: count }] },
  ],
});
const withGroups = (groups: number): Cluster => ({
  nodes: [
    {
      id: "big",
      fabric: "",
      hostMemGib: 64,
      hostFreeGib: 64,
      devices: Array.from({ length: groups }, (_, i) => ({ class: `card-${i}`, count: 1, free: 1, memGib: 8 })),
    },
  ],
});

/** The cluster a link opens on, with no checkCluster: only the link's own schema decides. */
const throughLink = (cluster: Cluster): Cluster =>
  decodeLink(encodeLink({ ...DEFAULTS, cluster }), DEFAULTS).choices.cluster;

describe("one bound for the link and validation", () => {
  test.each([
    ["cards a group", withCount, MAX_DEVICES_PER_GROUP],
    ["card classes a node", withGroups, MAX_GROUPS_PER_NODE],
  ])("%s: the bound passes both, one more is refused by both", (_, make, bound) => {
    expect(validateCluster(make(bound)).errors).toEqual([]);
    expect(throughLink(make(bound))).toEqual(make(bound));
    expect(validateCluster(make(bound + 1)).cluster).toBeNull();
    expect(throughLink(make(bound + 1))).toEqual(EXAMPLE);
  });

  test("5,000 cards a group, which the link used to carry, is refused by it in words", () => {
    const decoded = decodeLink(encodeLink({ ...DEFAULTS, cluster: withCount(5000) }), DEFAULTS);
    expect(decoded.ignored.join(" ")).toMatch(/the cluster: count is absurd \(over 1024 on one node\)/);
  });
});
