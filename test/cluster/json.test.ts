import { describe, expect, test } from "vitest";
import { importCluster } from "../../src/cluster/import.ts";
import { clusterToJson } from "../../src/cluster/json.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { summarize } from "../../src/cluster/summary.ts";
import { validateCluster } from "../../src/cluster/validate.ts";

const FILE = `{
  "nodes": [
    { "id": "dgx-1", "fabric": "ib0", "host_mem_gib": 2048, "host_free_gib": 1900,
      "devices": [ { "class": "h100-80g", "count": 8, "free": 8 } ] },
    { "id": "box", "fabric": "", "host_mem_gib": 128, "host_free_gib": 100,
      "devices": [ { "class": "my-card", "count": 2, "free": 1, "mem_gib": 44.5 } ] }
  ]
}
`;

describe("Modelplan JSON", () => {
  test("imports, and exports back to the same text", () => {
    const result = importCluster(FILE, "cluster.json");
    expect(result.errors).toEqual([]);
    expect(result.format).toBe("modelplan-json");
    expect(result.summary).toBe(
      "2 nodes, 10 GPUs of 2 classes; fabric unknown: set it; speed of my-card unknown: give its GB/s",
    );
    expect(JSON.parse(clusterToJson(result.cluster!))).toEqual(JSON.parse(FILE));
  });

  test("the same cluster as YAML", () => {
    const yaml = `nodes:\n  - id: cpu\n    fabric: ""\n    host_mem_gib: 512\n    host_free_gib: 500\n    devices: []\n`;
    const result = importCluster(yaml);
    expect(result.format).toBe("modelplan-yaml");
    expect(result.cluster?.nodes[0]).toEqual({ id: "cpu", fabric: "", hostMemGib: 512, hostFreeGib: 500, devices: [] });
    expect(result.summary).toBe("1 node, CPU only");
  });

  test("a bad count is reported at its line, and nothing is imported", () => {
    const bad = FILE.replace(`"count": 2, "free": 1`, `"count": 2, "free": 3`);
    const result = importCluster(bad);
    expect(result.cluster).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ node: "box", field: "devices[0].free", line: 6 });
    expect(result.summary).toBe("nothing imported: line 6: Node 2 (box), my-card: 3 free of 2 cards: give at most 2");
  });

  test("a misspelt field is named at its line with the field it meant, not dropped in silence", () => {
    // "fre" would otherwise leave every card free, "host_free_gb" all RAM free: the user sees why.
    const yaml = `nodes:\n  - id: box\n    fabric: ib0\n    host_mem_gib: 512\n    host_free_gb: 100\n    devices:\n      - class: h100-80g\n        count: 8\n        fre: 2\n        rack: r7\n`;
    const result = importCluster(yaml);
    expect(result.cluster).not.toBeNull();
    expect(result.warnings.map((w) => [w.line, w.message])).toEqual(
      expect.arrayContaining([
        [
          5,
          'Node 1 (box): "host_free_gb" is not a field Modelplan reads, so it was ignored (did you mean host_free_gib?)',
        ],
        [9, 'Node 1 (box), h100-80g: "fre" is not a field Modelplan reads, so it was ignored (did you mean free?)'],
        [10, 'Node 1 (box), h100-80g: "rack" is not a field Modelplan reads, so it was ignored'],
      ]),
    );
    // What the page exports has no field it would not read back.
    expect(importCluster(clusterToJson(result.cluster!)).warnings.filter((w) => /not a field/.test(w.message))).toEqual(
      [],
    );
  });

  test("broken JSON says where", () => {
    const result = importCluster(`{ "nodes": [ { "id": "a", } `);
    expect(result.cluster).toBeNull();
    expect(result.errors[0]?.message).toMatch(/not valid JSON\/YAML/);
    expect(result.errors[0]?.line).toBe(1);
  });

  test("empty and unknown text", () => {
    expect(importCluster("").errors[0]?.message).toMatch(/empty/);
    expect(importCluster("hello world\nthis is not an inventory").errors[0]?.message).toMatch(
      /could not tell what this is/,
    );
  });
});

describe("presets", () => {
  test("the presets (issue 4's four, issue 14's Mac Studio) pass validation and round-trip through JSON", () => {
    expect(PRESETS.map((p) => p.id)).toEqual([
      "dgx-h100-x2",
      "workstation-2x4090",
      "a100-mig-mixed",
      "mac-studio-m3-ultra-512g",
      "cpu-512g",
    ]);
    for (const p of PRESETS) {
      const checked = validateCluster(p.cluster);
      expect(checked.errors, p.id).toEqual([]);
      expect(importCluster(clusterToJson(p.cluster)).cluster).toEqual(p.cluster);
    }
  });

  test("what each preset holds", () => {
    expect(PRESETS.map((p) => summarize(p.cluster))).toEqual([
      "2 nodes, 16 GPUs of 1 class",
      "1 node, 2 GPUs of 1 class",
      "1 node, 1 GPU and 3 MIG instances of 3 classes",
      "1 node, 1 GPU of 1 class",
      "1 node, CPU only",
    ]);
  });
});
