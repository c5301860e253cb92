import { describe, expect, test } from "vitest";
import { validateCluster } from "../../src/cluster/validate.ts";

const node = (over: Record<string, unknown> = {}, device: Record<string, unknown> = {}) => ({
  id: "gpu-1",
  fabric: "ib0",
  host_mem_gib: 512,
  host_free_gib: 400,
  devices: [{ class: "h100-80g", count: 8, free: 6, ...device }],
  ...over,
});

describe("validateCluster accepts Modelplan JSON and the page's object", () => {
  test("snake_case becomes the camelCase cluster", () => {
    const { cluster, errors } = validateCluster({ nodes: [node()] });
    expect(errors).toEqual([]);
    expect(cluster).toEqual({
      nodes: [{ id: "gpu-1", fabric: "ib0", hostMemGib: 512, hostFreeGib: 400, devices: [{ class: "h100-80g", count: 8, free: 6 }] }],
    });
  });

  test("camelCase passes as is, custom memory kept", () => {
    const page = { nodes: [{ id: "a", fabric: "", hostMemGib: 64, hostFreeGib: 64, devices: [{ class: "my-card", count: 1, free: 1, memGib: 20 }] }] };
    expect(validateCluster(page)).toMatchObject({ cluster: page, errors: [] });
  });

  test("missing free counts and free RAM are filled in, and said", () => {
    const { cluster, warnings } = validateCluster({ nodes: [{ id: "a", host_mem_gib: 64, devices: [{ class: "l4-24g", count: 2 }] }] });
    expect(cluster?.nodes[0]).toMatchObject({ fabric: "", hostFreeGib: 64, devices: [{ free: 2 }] });
    expect(warnings.map((w) => w.field)).toEqual(["host_free_gib", "devices[0].free"]);
  });
});

test("free memory per device (nvidia-smi's total − used) is kept, in both spellings", () => {
  expect(validateCluster({ nodes: [node({}, { free_mem_gib: 79.5 })] }).cluster?.nodes[0]?.devices[0]).toEqual({ class: "h100-80g", count: 8, free: 6, freeMemGib: 79.5 });
});

describe("each bad value is named by node and field", () => {
  test.each([
    ["a negative count", node({}, { count: -1 }), "devices[0].count", /negative/],
    ["a fractional count", node({}, { count: 2.5, free: 2 }), "devices[0].count", /whole number/],
    ["an absurd count", node({}, { count: 100000, free: 1 }), "devices[0].count", /absurd/],
    ["a count that is text", node({}, { count: "8" }), "devices[0].count", /must be a whole number of cards, not "8"/],
    ["free above total", node({}, { count: 2, free: 3 }), "devices[0].free", /3 free is more than the 2 h100-80g/],
    ["an unknown class without memory", node({}, { class: "tpu-v5" }), "devices[0].class", /not in the card catalog and has no mem_gib/],
    ["free RAM above RAM", node({ host_free_gib: 600 }), "host_free_gib", /600 GiB free is more than its 512/],
    ["RAM in MB", node({ host_mem_gib: 1031736, host_free_gib: 1 }), "host_mem_gib", /absurd.*MB/],
    ["a missing id", node({ id: undefined }), "id", /id is missing/],
    ["more free memory than the card has", node({}, { free_mem_gib: 90 }), "devices[0].free_mem_gib", /90 GiB free is more than a h100-80g holds \(79.65 GiB\)/],
    ["a missing RAM", node({ host_mem_gib: undefined, host_free_gib: undefined }), "host_mem_gib", /host_mem_gib is missing/],
  ])("%s", (_, bad, field, message) => {
    const { cluster, errors } = validateCluster({ nodes: [bad] });
    expect(cluster).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe(field);
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]?.node).toBe(typeof bad.id === "string" ? "gpu-1" : "#1");
  });

  test("duplicate ids", () => {
    const { cluster, errors } = validateCluster({ nodes: [node(), node()] });
    expect(cluster).toBeNull();
    expect(errors[0]).toMatchObject({ node: "gpu-1", field: "nodes[1].id" });
    expect(errors[0]?.message).toMatch(/appears twice/);
  });

  test("the camelCase object gets camelCase field names", () => {
    const { errors } = validateCluster({ nodes: [{ id: "a", fabric: "", hostMemGib: -3, hostFreeGib: 0, devices: [] }] });
    expect(errors[0]).toMatchObject({ node: "a", field: "hostMemGib" });
    expect(errors[0]?.message).toMatch(/hostMemGib is negative/);
  });

  test.each([null, 42, "nodes", [], {}, { nodes: [] }, { nodes: "x" }, { nodes: [null] }])("%j is refused with words", (value) => {
    const { cluster, errors } = validateCluster(value);
    expect(cluster).toBeNull();
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e.message.length).toBeGreaterThan(10);
  });

  test("a known MIG class needs no memory; an unknown profile does", () => {
    expect(validateCluster({ nodes: [node({}, { class: "a100-80g-mig-3g.40gb", count: 1, free: 1 })] }).errors).toEqual([]);
    expect(validateCluster({ nodes: [node({}, { class: "a100-80g-mig-5g.50gb", count: 1, free: 1 })] }).errors[0]?.field).toBe("devices[0].class");
  });
});
