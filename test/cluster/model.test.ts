import { describe, expect, test } from "vitest";
import {
  addDevice,
  addNode,
  classGroups,
  duplicateNode,
  freshId,
  isCatalogClass,
  MAX_DUPLICATES,
  removeDevice,
  removeNode,
  setDevice,
  updateNode,
} from "../../src/cluster/model.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { validateCluster } from "../../src/cluster/validate.ts";
import { CARDS } from "../../src/plan/index.ts";
import type { Cluster } from "../../src/plan/index.ts";

const dgx = PRESETS[0]!.cluster;

describe("panel edits", () => {
  test("duplicating a node × 3 adds three copies right after it, each with its own id, and the cluster stays valid", () => {
    const next = duplicateNode(dgx, 0, 3);
    expect(next.nodes.map((n) => n.id)).toEqual(["dgx-1", "dgx-3", "dgx-4", "dgx-5", "dgx-2"]);
    expect(next.nodes[1]?.devices).toEqual(dgx.nodes[0]?.devices);
    expect(next.nodes[1]?.devices).not.toBe(dgx.nodes[0]?.devices);
    expect(validateCluster(next).errors).toEqual([]);
    expect(dgx.nodes).toHaveLength(2);
  });

  test("duplicates are capped, and a bad index changes nothing", () => {
    expect(duplicateNode(dgx, 0, 10_000).nodes).toHaveLength(2 + MAX_DUPLICATES);
    expect(duplicateNode(dgx, 9, 2)).toBe(dgx);
  });

  test("add, edit and remove a node", () => {
    const added = addNode(dgx);
    expect(added.nodes[2]).toEqual({ id: "node-1", fabric: "", hostMemGib: 0, hostFreeGib: 0, devices: [] });
    const edited = updateNode(added, 2, { id: "cpu", hostMemGib: 512, hostFreeGib: 500 });
    expect(edited.nodes[2]).toMatchObject({ id: "cpu", hostMemGib: 512, hostFreeGib: 500 });
    expect(removeNode(edited, 0).nodes.map((n) => n.id)).toEqual(["dgx-2", "cpu"]);
  });

  test("cards: add, replace (dropping a custom memory), remove", () => {
    let c: Cluster = addDevice(dgx, 0, { class: "my-card", count: 2, free: 2, memGib: 20 });
    expect(c.nodes[0]?.devices[1]).toEqual({ class: "my-card", count: 2, free: 2, memGib: 20 });
    c = setDevice(c, 0, 1, { class: "l4-24g", count: 2, free: 1 });
    expect(c.nodes[0]?.devices[1]).toEqual({ class: "l4-24g", count: 2, free: 1 });
    expect(removeDevice(c, 0, 0).nodes[0]?.devices).toEqual([{ class: "l4-24g", count: 2, free: 1 }]);
  });

  test("freshId skips the ids in use", () => {
    expect(freshId({ nodes: [{ id: "node-1", fabric: "", hostMemGib: 0, hostFreeGib: 0, devices: [] }] })).toBe(
      "node-2",
    );
  });
});

describe("the class picker", () => {
  test("offers every card and every MIG profile of the catalog, each one the validator accepts without memory", () => {
    const values = classGroups().flatMap((g) => g.options.map((o) => o.value));
    expect(values).toHaveLength(CARDS.length + CARDS.reduce((n, c) => n + c.migProfiles.length, 0));
    expect(values).toContain("a100-80g-mig-3g.40gb");
    for (const v of values) expect(isCatalogClass(v), v).toBe(true);
    expect(isCatalogClass("custom-gpu")).toBe(false);
  });

  test("one group per card name: the Mac Studio's two M3 Ultra sizes are one group, and no label repeats", () => {
    const labels = classGroups().map((g) => g.label);
    expect(new Set(labels).size).toBe(labels.length);
    const ultra = classGroups().find((g) => g.label === "Apple M3 Ultra");
    expect(ultra?.options.map((o) => o.value)).toEqual(["apple-m3-ultra-512g", "apple-m3-ultra-256g"]);
  });

  test("labels show the memory the card reports", () => {
    const h100 = classGroups().find((g) => g.label === "NVIDIA H100 80GB HBM3");
    expect(h100?.options[0]?.label).toBe("h100-80g · 79.65 GiB");
    expect(h100?.options.find((o) => o.value === "h100-80g-mig-3g.40gb")?.label).toBe(
      "h100-80g-mig-3g.40gb · 39.5 GiB",
    );
  });
});
