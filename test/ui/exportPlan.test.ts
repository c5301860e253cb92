/**
 * The page's plan export on a real plan (the bundled catalog's Qwen2.5-Coder-32B on the two DGX H100
 * nodes): the JSON is the terminal's option shape, and the CSV parses back to the same cells.
 */
import { describe, expect, test } from "vitest";
import { defaultChoices } from "../../src/app/defaults.ts";
import { PRESETS } from "../../src/cluster/presets.ts";
import { catalogSnapshot } from "../../scripts/lib/catalog.ts";
import { plan, readModel } from "../../src/plan/index.ts";
import { optionJson } from "../../src/report/json.ts";
import { planCsvText, planJsonText } from "../../src/ui/exportPlan.ts";

/** RFC 4180 read back: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quoted) {
      if (ch === '"' && text.charAt(i + 1) === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\r" && text.charAt(i + 1) === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += ch;
  }
  return rows;
}

describe("plan export", () => {
  const snap = catalogSnapshot("Qwen/Qwen2.5-Coder-32B-Instruct");
  const preset = PRESETS.find((p) => p.id === "dgx-h100-x2");
  if (!snap || !preset) throw new Error("catalog or preset missing");
  const p = plan({ repo: snap.repo, revision: snap.sha, ...readModel(snap) }, preset.cluster, {
    ...defaultChoices().workload,
    sequences: 32,
  });

  test("JSON: the terminal's option objects, in the plan's order", () => {
    expect(JSON.parse(planJsonText(p.options))).toEqual(JSON.parse(JSON.stringify(p.options.map(optionJson))));
  });

  test("CSV: a header of the JSON's keys and one row per option, commands and what-to-buy intact", () => {
    const rows = parseCsv(planCsvText(p.options));
    const header = rows[0] ?? [];
    expect(header).toContain("fits_workload");
    expect(header).toContain("what_to_buy");
    expect(rows).toHaveLength(p.options.length + 1);
    const first = optionJson(p.options[0] ?? (undefined as never));
    const cells = rows[1] ?? [];
    expect(cells[header.indexOf("id")]).toBe(first["id"]);
    expect(cells[header.indexOf("commands")]).toBe(JSON.stringify(first["commands"]));
  });
});
