/**
 * The "Engine settings" disclosure's vLLM release select: each release range
 * once, and a release typed elsewhere (a link, --vllm-version) shown under its range.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { EngineSettings } from "../../src/ui/EngineSettings.tsx";
import type { EngineSettings as Settings } from "../../src/plan/index.ts";

const H100_BYTES = 81_559 * 2 ** 20;

function markup(settings: Settings): string {
  return renderToStaticMarkup(
    <EngineSettings
      settings={settings}
      cardMemoryBytes={H100_BYTES}
      onSet={() => undefined}
      onReset={() => undefined}
    />,
  );
}

function releaseSelect(settings: Settings): string {
  const html = markup(settings);
  const label = html.indexOf(">vLLM release</label>");
  expect(label).toBeGreaterThan(0);
  const start = html.indexOf("<select", label);
  return html.slice(start, html.indexOf("</select>", start));
}

test("a labelled select offers no release named (the newest) and the eight release ranges, 0.29 and later first", () => {
  const select = releaseSelect({});
  expect(select.match(/<option/g)).toHaveLength(9);
  // Short enough for a phone's full-width select (e2e/newUser.spec.ts: no select cuts its label at 375 px).
  expect(select).toContain(">newest (0.29 and later)</option>");
  expect(select).toContain('value="0.29">0.29 and later (the newest: planned when none is named)</option>');
  expect(select).toContain('value="0.28">0.28 (CUDA-graph estimate inside the budget, util 0.92)</option>');
  expect(select).toContain('value="0.21">0.21 to 0.25 (CUDA-graph estimate inside the budget, util 0.92)</option>');
  expect(select).toContain('value="0.19">0.17 to 0.20 (calibrated on 0.17–0.19)</option>');
  expect(select).toContain('value="0.16">0.11.1 to 0.16</option>');
  expect(select).toContain('value="0.10">0.10 to 0.11.0</option>');
  expect(select).toMatch(/<option value="" selected="">/);
});

test("a link's 0.15.0 shows as the 0.11.1–0.16 range, and 0.22.1 as 0.21 to 0.25", () => {
  expect(releaseSelect({ vllmVersion: "0.15.0" })).toMatch(/<option value="0.16" selected="">/);
  expect(releaseSelect({ vllmVersion: "0.22.1" })).toMatch(/<option value="0.21" selected="">/);
});

test("the utilization field's greyed default is the named release's own: 0.92 from 0.21, 0.9 for 0.19", () => {
  const field = (settings: Settings): string => {
    const html = renderToStaticMarkup(
      <EngineSettings
        settings={settings}
        cardMemoryBytes={H100_BYTES}
        onSet={() => undefined}
        onReset={() => undefined}
      />,
    );
    const at = html.indexOf("GPU memory utilization");
    const input = html.indexOf("<input", at);
    return html.slice(input, html.indexOf(">", input));
  };
  expect(field({ vllmVersion: "0.22.1" })).toContain('placeholder="0.92"');
  expect(field({ vllmVersion: "0.19" })).toContain('placeholder="0.9"');
});

test("llama.cpp's flash attention: a select of on, off, auto whose default is llama.cpp's auto, with its source", () => {
  const html = renderToStaticMarkup(
    <EngineSettings
      settings={{ flashAttn: "off" }}
      cardMemoryBytes={H100_BYTES}
      onSet={() => undefined}
      onReset={() => undefined}
    />,
  );
  const label = html.indexOf(">Flash attention</label>");
  expect(label).toBeGreaterThan(0);
  const select = html.slice(html.indexOf("<select", label), html.indexOf("</select>", label));
  expect(select).toContain('<option value="">default (auto)</option>');
  expect(select).toMatch(/<option value="off" selected="">off<\/option>/);
  expect(html).toContain(">-fa · default auto</span>");
  expect(html).toContain("llama.cpp common_params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO (common/common.h)");
});

test("llama.cpp's unified KV cache: a checkbox, off by default when --parallel is given, with its source", () => {
  const html = renderToStaticMarkup(
    <EngineSettings
      settings={{ kvUnified: true }}
      cardMemoryBytes={H100_BYTES}
      onSet={() => undefined}
      onReset={() => undefined}
    />,
  );
  const label = html.indexOf(">Unified KV cache (one pool the slots share)</label>");
  expect(label).toBeGreaterThan(0);
  expect(html.slice(html.lastIndexOf("<input", label), label)).toContain('checked=""');
  expect(html).toContain(">--kv-unified · default false</span>");
  expect(html).toContain("common/common.h:573");
});

test("each setting says its flag and default in a few words; where the default comes from sits behind a Source toggle", async () => {
  const { engineDefaults } = await import("../../src/plan/index.ts");
  const d = engineDefaults("vllm", H100_BYTES, "", undefined)["gpuMemoryUtilization"];
  if (!d) throw new Error("no vLLM utilization default");
  const html = renderToStaticMarkup(
    <EngineSettings settings={{}} cardMemoryBytes={H100_BYTES} onSet={() => undefined} onReset={() => undefined} />,
  );
  expect(html).toContain(`<span class="hint" id="`);
  expect(html).toContain(`>${d.flag} · default ${String(d.value)}</span>`);
  // The source is not in the hint line: only inside a closed details under it.
  const escaped = d.source.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  expect(html).toContain(
    `<details class="setting-source"><summary>Source</summary><span class="hint">${escaped}</span></details>`,
  );
  expect(html).not.toContain(`default ${String(d.value)} (`);
});

test("a line under the select says which release the plan assumed, as the terminal's note and JSON do", () => {
  const text = (settings: Settings) => markup(settings).replace(/<[^>]+>/g, "");
  expect(text({})).toContain("Planned for: vLLM 0.29 and later assumed (no release named)");
  expect(text({})).not.toContain("--vllm-version to plan");
  expect(text({ vllmVersion: "0.22.1" })).toContain("Planned for: vLLM 0.22, planned as 0.21 to 0.25");
  expect(text({ vllmVersion: "0.31" })).toContain(
    "Planned for: vLLM 0.31 is newer than the releases Modelplan has logs of: planned as 0.29 and later",
  );
});

test('with no release named the utilization default is the newest release\'s one figure, not "0.92 or 0.9" (issue 17)', () => {
  const html = renderToStaticMarkup(
    <EngineSettings settings={{}} cardMemoryBytes={H100_BYTES} onSet={() => undefined} onReset={() => undefined} />,
  );
  const at = html.indexOf("GPU memory utilization");
  const field = html.slice(at, html.indexOf("</details>", at));
  expect(field).toContain('placeholder="0.92"');
  expect(field).toContain("--gpu-memory-utilization · default 0.92");
  expect(field).not.toMatch(/0\.92 or 0\.9/);
});
