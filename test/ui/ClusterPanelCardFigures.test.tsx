// @vitest-environment happy-dom
/**
 * A custom card's speed figures at the panel: its GB/s, dense BF16 TFLOPS and memory kind sit beside its class and
 * memory, reach the cluster when typed, are refused at the field in words when 0 or negative (the last good cluster
 * stays), and an emptied field drops the figure (the card's speed is then unknown again, not guessed).
 */
import { act } from "react";
import { expect, test, vi } from "vitest";
import type { Cluster } from "../../src/plan/index.ts";
import { ClusterPanel } from "../../src/ui/ClusterPanel.tsx";
// The panel loads its validation lazily (issue 19); loaded here first, its import resolves before the test ends.
import "../../src/cluster/validate.ts";
import { liveRoot } from "./liveRoot.ts";
import { control, typeInto as type } from "./panelFields.ts";

const lab: Cluster = {
  nodes: [
    {
      id: "lab",
      fabric: "",
      hostMemGib: 64,
      hostFreeGib: 60,
      devices: [{ class: "lab-card", count: 2, free: 2, memGib: 32 }],
    },
  ],
};

const dom = liveRoot();

function render(c: Cluster, onChange: (next: Cluster) => void) {
  act(() => dom.root.render(<ClusterPanel cluster={c} onChange={onChange} />));
}

const device = (c: Cluster | undefined) => c?.nodes[0]?.devices[0];

test("a custom card's GB/s and TFLOPS: unknown until typed, then in the cluster; emptied, dropped", () => {
  const onChange = vi.fn();
  render(lab, onChange);
  const gbps = control<HTMLInputElement>(dom.host, "Node 1 card 1 memory bandwidth (GB/s)");
  expect(gbps.placeholder).toBe("unknown");
  type(gbps, "960");
  expect(device(onChange.mock.lastCall?.[0] as Cluster)).toEqual({ ...lab.nodes[0]!.devices[0], memGBps: 960 });

  const said: Cluster = { nodes: [{ ...lab.nodes[0]!, devices: [{ ...lab.nodes[0]!.devices[0]!, memGBps: 960 }] }] };
  render(said, onChange);
  type(control<HTMLInputElement>(dom.host, "Node 1 card 1 dense BF16 TFLOPS"), "120.5");
  expect(device(onChange.mock.lastCall?.[0] as Cluster)).toMatchObject({ memGBps: 960, bf16Tflops: 120.5 });
  type(control<HTMLInputElement>(dom.host, "Node 1 card 1 memory bandwidth (GB/s)"), "");
  expect(device(onChange.mock.lastCall?.[0] as Cluster)).not.toHaveProperty("memGBps");
});

test.each([["0"], ["-960"], ["250000"]])(
  "a card bandwidth of %s is refused at the field in words; the cluster stays",
  (text) => {
    const onChange = vi.fn();
    render(lab, onChange);
    const gbps = control<HTMLInputElement>(dom.host, "Node 1 card 1 memory bandwidth (GB/s)");
    type(gbps, text);
    expect(onChange).not.toHaveBeenCalled();
    expect(gbps.getAttribute("aria-invalid")).toBe("true");
    expect(dom.host.querySelector('[role="alert"]')?.textContent).toMatch(/1 to 100,000/);
  },
);

test("the memory kind: GDDR assumed until picked, HBM picked reaches the cluster", () => {
  const onChange = vi.fn();
  render(lab, onChange);
  const kind = control<HTMLSelectElement>(dom.host, "Node 1 card 1 memory kind");
  expect(kind.options[kind.selectedIndex]?.textContent).toBe("GDDR (assumed)");
  act(() => {
    kind.value = "hbm";
    kind.dispatchEvent(new Event("change", { bubbles: true }));
  });
  expect(device(onChange.mock.lastCall?.[0] as Cluster)).toMatchObject({ memKind: "hbm" });
});

test("a table card given a figure of its own shows it as custom, the table's figure as the placeholder", () => {
  const capped: Cluster = {
    nodes: [{ ...lab.nodes[0]!, devices: [{ class: "rtx4090-24g", count: 1, free: 1, memGBps: 800 }] }],
  };
  render(capped, () => undefined);
  const gbps = control<HTMLInputElement>(dom.host, "Node 1 card 1 memory bandwidth (GB/s)");
  expect(gbps.value).toBe("800");
  expect(gbps.placeholder).toBe("1008 (table)");
});
