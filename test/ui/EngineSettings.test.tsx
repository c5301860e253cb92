/**
 * The "Engine settings" disclosure's vLLM release select: each release range
 * once, and a release typed elsewhere (a link, --vllm-version) shown under its range.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { EngineSettings } from "../../src/ui/EngineSettings.tsx";
import type { EngineSettings as Settings } from "../../src/plan/types.ts";

const H100_BYTES = 81_559 * 2 ** 20;

function releaseSelect(settings: Settings): string {
  const html = renderToStaticMarkup(<EngineSettings settings={settings} cardMemoryBytes={H100_BYTES} onSet={() => undefined} onReset={() => undefined} />);
  const label = html.indexOf(">vLLM release</label>");
  expect(label).toBeGreaterThan(0);
  const start = html.indexOf("<select", label);
  return html.slice(start, html.indexOf("</select>", start));
}

test("a labelled select offers the default and the three release ranges", () => {
  const select = releaseSelect({});
  expect(select.match(/<option/g)).toHaveLength(4);
  expect(select).toContain(">default (0.17 and later)</option>");
  expect(select).toContain('value="0.16">0.11.1 to 0.16</option>');
  expect(select).toContain('value="0.10">0.10 to 0.11.0</option>');
  expect(select).toMatch(/<option value="" selected="">/);
});

test("a link's 0.15.0 shows as the 0.11.1–0.16 range", () => {
  expect(releaseSelect({ vllmVersion: "0.15.0" })).toMatch(/<option value="0.16" selected="">/);
});
