// @vitest-environment happy-dom
/**
 * Issue 12: the cluster panel says a fabric's speed and a host's memory
 * bandwidth beside the fabric and the RAM, refuses a bad value at the field
 * in words (the last good cluster stays), and an emptied field drops the
 * figure so the speed model's stated default applies again.
 */
import { act } from "react";
import { expect, test, vi } from "vitest";
import type { Cluster } from "../../src/plan/index.ts";
import { ClusterPanel } from "../../src/ui/ClusterPanel.tsx";
// The panel loads its validation lazily (issue 19); loaded here first, its import resolves before the test ends.
import "../../src/cluster/validate.ts";
import { liveRoot } from "./liveRoot.ts";
import { control, typeInto as type } from "./panelFields.ts";

const cluster: Cluster = {
  nodes: [
    {
      id: "dgx-1",
      fabric: "ib-400g",
      hostMemGib: 2048,
      hostFreeGib: 1900,
      devices: [{ class: "h100-80g", count: 8, free: 8 }],
    },
  ],
};

const dom = liveRoot();

function render(c: Cluster, onChange: (next: Cluster) => void) {
  act(() => dom.root.render(<ClusterPanel cluster={c} onChange={onChange} />));
}

test("the fabric's Gbit/s: the name's figure as the placeholder, a typed one reaches the cluster", () => {
  const onChange = vi.fn();
  render(cluster, onChange);
  const input = control(dom.host, "Node 1 fabric speed (Gbit/s per card)");
  expect(input.placeholder).toBe("400 (name)");
  type(input, "200");
  expect(onChange).toHaveBeenLastCalledWith({ nodes: [{ ...cluster.nodes[0], fabricGbps: 200 }] });
});

test("a fabric with no figure in its name says what it assumes", () => {
  render({ nodes: [{ ...cluster.nodes[0]!, fabric: "ib0" }] }, () => undefined);
  expect(control(dom.host, "Node 1 fabric speed (Gbit/s per card)").placeholder).toBe("200 assumed");
});

test.each([["-400"], ["0"], ["99999"]])(
  "a fabric speed of %s is refused at the field in words; the cluster stays",
  (text) => {
    const onChange = vi.fn();
    render(cluster, onChange);
    const input = control(dom.host, "Node 1 fabric speed (Gbit/s per card)");
    type(input, text);
    expect(onChange).not.toHaveBeenCalled();
    expect(input.getAttribute("aria-invalid")).toBe("true");
    // The wording is the number field's own (NumberField.tsx); the range is this field's.
    expect(dom.host.querySelector('[role="alert"]')?.textContent).toMatch(/1 to 10,000/);
  },
);

test("the dom.host's memory bandwidth: typed GB/s reach the cluster, and emptying the field drops it (the default again)", () => {
  const onChange = vi.fn();
  const said = { nodes: [{ ...cluster.nodes[0]!, hostMemGBps: 460.8 }] };
  render(said, onChange);
  const input = control(dom.host, "Node 1 memory bandwidth (GB/s)");
  expect(input.value).toBe("460.8");
  type(input, "614.4");
  expect(onChange).toHaveBeenLastCalledWith({ nodes: [{ ...cluster.nodes[0], hostMemGBps: 614.4 }] });
  type(input, "");
  const last = onChange.mock.lastCall?.[0] as Cluster;
  expect(last.nodes[0]).not.toHaveProperty("hostMemGBps");
  expect(input.placeholder).toBe("51.2 assumed");
});

test("the dom.host's CPU cores: a typed count reaches the cluster, and emptying the field drops it (8 assumed again)", () => {
  const onChange = vi.fn();
  render(cluster, onChange);
  const input = control(dom.host, "Node 1 CPU cores");
  expect(input.placeholder).toBe("8 assumed");
  type(input, "32");
  expect(onChange).toHaveBeenLastCalledWith({ nodes: [{ ...cluster.nodes[0], cpuCores: 32 }] });
  type(input, "");
  const last = onChange.mock.lastCall?.[0] as Cluster;
  expect(last.nodes[0]).not.toHaveProperty("cpuCores");
});
