/**
 * The "Engine settings" disclosure's vLLM release select: each release range
 * once, and a release typed elsewhere (a link, --vllm-version) shown under its range.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { EngineSettings } from "../../src/ui/EngineSettings.tsx";
import { settingDefaultsOf, type Cluster, type EngineSettings as Settings } from "../../src/plan/index.ts";

/** One node of 8 H100 SXM (81,559 MiB each: nvidia-smi, test/fixtures/inventory/nvidia-smi-h100-sxm-80g-1.txt). */
const H100_NODE: Cluster = {
  nodes: [
    { id: "n", fabric: "", hostMemGib: 2048, hostFreeGib: 2000, devices: [{ class: "h100-80g", count: 8, free: 8 }] },
  ],
};

/** The disclosure as the page draws it: with the defaults a plan for these settings on the node carries (Plan.settingDefaults). */
function markup(settings: Settings): string {
  return renderToStaticMarkup(
    <EngineSettings
      settings={settings}
      defaults={settingDefaultsOf(H100_NODE, settings)}
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
    const html = markup(settings);
    const at = html.indexOf("GPU memory utilization");
    const input = html.indexOf("<input", at);
    return html.slice(input, html.indexOf(">", input));
  };
  expect(field({ vllmVersion: "0.22.1" })).toContain('placeholder="0.92"');
  expect(field({ vllmVersion: "0.19" })).toContain('placeholder="0.9"');
});

test("llama.cpp's flash attention: a select of on, off, auto whose default is llama.cpp's auto, with its source", () => {
  const html = markup({ flashAttn: "off" });
  const label = html.indexOf(">Flash attention</label>");
  expect(label).toBeGreaterThan(0);
  const select = html.slice(html.indexOf("<select", label), html.indexOf("</select>", label));
  expect(select).toContain('<option value="">default (auto)</option>');
  expect(select).toMatch(/<option value="off" selected="">off<\/option>/);
  expect(html).toContain(">-fa · default auto</span>");
  expect(html).toContain("llama.cpp common_params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO (common/common.h)");
});

test("llama.cpp's unified KV cache: a checkbox, off by default when --parallel is given, with its source", () => {
  const html = markup({ kvUnified: true });
  const label = html.indexOf(">Unified KV cache (one pool the slots share)</label>");
  expect(label).toBeGreaterThan(0);
  expect(html.slice(html.lastIndexOf("<input", label), label)).toContain('checked=""');
  expect(html).toContain(">--kv-unified · default false</span>");
  expect(html).toContain("common/common.h:573");
});

test("each setting says its flag and default in a few words; where the default comes from sits behind a Source toggle", async () => {
  const d = settingDefaultsOf(H100_NODE, {}).engines.vllm.defaults["gpuMemoryUtilization"];
  if (!d) throw new Error("no vLLM utilization default");
  const html = markup({});
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
  const html = markup({});
  const at = html.indexOf("GPU memory utilization");
  const field = html.slice(at, html.indexOf("</details>", at));
  expect(field).toContain('placeholder="0.92"');
  expect(field).toContain("--gpu-memory-utilization · default 0.92");
  expect(field).not.toMatch(/0\.92 or 0\.9/);
});

test("before a plan is made the fields grey in no default and say so; the release select offers only the release given", () => {
  const html = renderToStaticMarkup(
    <EngineSettings
      settings={{ vllmVersion: "0.15.0" }}
      defaults={null}
      onSet={() => undefined}
      onReset={() => undefined}
    />,
  );
  expect(html).toContain("The defaults show once the plan is made.");
  expect(html).not.toContain("placeholder=");
  expect(html).not.toContain("Planned for:");
  const label = html.indexOf(">vLLM release</label>");
  const select = html.slice(html.indexOf("<select", label), html.indexOf("</select>", label));
  expect(select.match(/<option/g)).toHaveLength(2);
  expect(select).toMatch(/<option value="0.15.0" selected="">0.15.0<\/option>/);
});

test("the defaults are the plan's own: a plan on a 24 GB card greys in vLLM's small-card scheduler, on an H100 the large one", () => {
  // vLLM's OpenAI-server defaults (vllm/engine/arg_utils.py get_batch_defaults): ≥ 70 GiB cards not A100 get
  // max_num_seqs 1024, others 256 (src/plan/engines/vllm/releases.ts VLLM_LARGE_CARD_GIB).
  const rtx4090: Cluster = {
    nodes: [
      { id: "ws", fabric: "", hostMemGib: 64, hostFreeGib: 60, devices: [{ class: "rtx4090-24g", count: 1, free: 1 }] },
    ],
  };
  const seqsPlaceholder = (cluster: Cluster) => {
    const html = renderToStaticMarkup(
      <EngineSettings
        settings={{}}
        defaults={settingDefaultsOf(cluster, {})}
        onSet={() => undefined}
        onReset={() => undefined}
      />,
    );
    const at = html.indexOf("Max sequences");
    const input = html.indexOf("<input", at);
    return html.slice(input, html.indexOf(">", input));
  };
  expect(seqsPlaceholder(H100_NODE)).toContain('placeholder="1024"');
  expect(seqsPlaceholder(rtx4090)).toContain('placeholder="256"');
});
