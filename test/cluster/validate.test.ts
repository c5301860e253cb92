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
      nodes: [
        {
          id: "gpu-1",
          fabric: "ib0",
          hostMemGib: 512,
          hostFreeGib: 400,
          devices: [{ class: "h100-80g", count: 8, free: 6 }],
        },
      ],
    });
  });

  test("camelCase passes as is, custom memory kept", () => {
    const page = {
      nodes: [
        {
          id: "a",
          fabric: "",
          hostMemGib: 64,
          hostFreeGib: 64,
          devices: [{ class: "my-card", count: 1, free: 1, memGib: 20 }],
        },
      ],
    };
    expect(validateCluster(page)).toMatchObject({ cluster: page, errors: [] });
  });

  test("missing free counts and free RAM are filled in, and said", () => {
    const { cluster, warnings } = validateCluster({
      nodes: [{ id: "a", host_mem_gib: 64, devices: [{ class: "l4-24g", count: 2 }] }],
    });
    expect(cluster?.nodes[0]).toMatchObject({ fabric: "", hostFreeGib: 64, devices: [{ free: 2 }] });
    expect(warnings.map((w) => w.field)).toEqual(["host_free_gib", "devices[0].free"]);
  });
});

test("free memory per device (nvidia-smi's total − used) is kept, in both spellings", () => {
  expect(validateCluster({ nodes: [node({}, { free_mem_gib: 79.5 })] }).cluster?.nodes[0]?.devices[0]).toEqual({
    class: "h100-80g",
    count: 8,
    free: 6,
    freeMemGib: 79.5,
  });
});

describe("each bad value is named by node and field", () => {
  test.each([
    [
      "a negative count",
      node({}, { count: -1 }),
      "devices[0].count",
      /^Node 1 \(gpu-1\), h100-80g: the card count is negative: give 0 or more$/,
    ],
    [
      "a fractional count",
      node({}, { count: 2.5, free: 2 }),
      "devices[0].count",
      /^Node 1 \(gpu-1\), h100-80g: the card count must be a whole number/,
    ],
    [
      "an absurd count",
      node({}, { count: 100000, free: 1 }),
      "devices[0].count",
      /h100-80g: the card count is absurd \(over 1024 on one node\)/,
    ],
    [
      "a count left out: the message names the key a file gives it by",
      node({}, { count: undefined }),
      "devices[0].count",
      /^Node 1 \(gpu-1\), h100-80g: the card count is missing: give count, a whole number of cards$/,
    ],
    [
      "a count that is text",
      node({}, { count: "8" }),
      "devices[0].count",
      /the card count must be a whole number of cards, not "8"/,
    ],
    [
      "free above total",
      node({}, { count: 2, free: 3 }),
      "devices[0].free",
      /^Node 1 \(gpu-1\), h100-80g: 3 free of 2 cards: give at most 2$/,
    ],
    [
      "an unknown class without memory",
      node({}, { class: "tpu-v5" }),
      "devices[0].class",
      /^Node 1 \(gpu-1\), tpu-v5: not a card the catalog knows, and no memory given/,
    ],
    [
      "free RAM above RAM",
      node({ host_free_gib: 600 }),
      "host_free_gib",
      /^Node 1 \(gpu-1\): 600 GiB free RAM of 512 GiB: give at most 512 GiB$/,
    ],
    [
      "RAM in MB",
      node({ host_mem_gib: 1031736, host_free_gib: 1 }),
      "host_mem_gib",
      /^Node 1 \(gpu-1\): the RAM is absurd.*MB/,
    ],
    ["a missing id", node({ id: undefined }), "id", /^Node 1: the id is missing$/],
    [
      "more free memory than the card has",
      node({}, { free_mem_gib: 90 }),
      "devices[0].free_mem_gib",
      /h100-80g: 90 GiB free a card, more than the 79.65 GiB a card holds/,
    ],
    [
      "a missing RAM",
      node({ host_mem_gib: undefined, host_free_gib: undefined }),
      "host_mem_gib",
      /^Node 1 \(gpu-1\): the RAM is missing: give host_mem_gib, a number of GiB$/,
    ],
  ])("%s", (_, bad, field, message) => {
    const { cluster, errors } = validateCluster({ nodes: [bad] });
    expect(cluster).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe(field);
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]?.node).toBe(typeof bad.id === "string" ? "gpu-1" : "#1");
    expect(errors[0]?.nodeIndex).toBe(0);
  });

  test("duplicate ids", () => {
    const { cluster, errors } = validateCluster({ nodes: [node(), node()] });
    expect(cluster).toBeNull();
    expect(errors[0]).toMatchObject({ node: "gpu-1", nodeIndex: 1, field: "nodes[1].id" });
    expect(errors[0]?.message).toBe(
      'Node 2 (gpu-1): node 1 has this id too; ids must be unique: rename one (e.g. "gpu-1-2")',
    );
  });

  test("the camelCase object gets camelCase field names", () => {
    const { errors } = validateCluster({
      nodes: [{ id: "a", fabric: "", hostMemGib: -3, hostFreeGib: 0, devices: [] }],
    });
    expect(errors[0]).toMatchObject({ node: "a", field: "hostMemGib" });
    expect(errors[0]?.message).toBe("Node 1 (a): the RAM is negative: give 0 or more GiB");
  });

  test.each([null, 42, "nodes", [], {}, { nodes: [] }, { nodes: "x" }, { nodes: [null] }])(
    "%j is refused with words",
    (value) => {
      const { cluster, errors } = validateCluster(value);
      expect(cluster).toBeNull();
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(e.message.length).toBeGreaterThan(10);
    },
  );

  test("a known MIG class needs no memory; an unknown profile does", () => {
    expect(validateCluster({ nodes: [node({}, { class: "a100-80g-mig-3g.40gb", count: 1, free: 1 })] }).errors).toEqual(
      [],
    );
    expect(
      validateCluster({ nodes: [node({}, { class: "a100-80g-mig-5g.50gb", count: 1, free: 1 })] }).errors[0]?.field,
    ).toBe("devices[0].class");
  });
});

test("issue 17's example: the panel's words at the field, not the schema's path", () => {
  const { errors } = validateCluster({ nodes: [node({}, { count: 4, free: 9 })] });
  expect(errors).toEqual([
    {
      message: "Node 1 (gpu-1), h100-80g: 9 free of 4 cards: give at most 4",
      node: "gpu-1",
      nodeIndex: 0,
      field: "devices[0].free",
    },
  ]);
  expect(errors[0]?.message).not.toMatch(/devices\[|free_|_gib/);
});

test("a negative count is refused, not taken as its absolute value or 0", () => {
  for (const device of [
    { count: -4, free: 0 },
    { count: 4, free: -1 },
  ]) {
    const { cluster, errors } = validateCluster({ nodes: [node({}, device)] });
    expect(cluster).toBeNull();
    expect(errors[0]?.message).toMatch(/is negative: give 0 or more$/);
  }
});
